"""Who is at the table, and who it is waiting for, in one line: "waiting for Ada: 3 s".

The node says whom it has not heard from, and for how long as of its snapshot
(``Snapshot.missing``); the face adds the seconds since, so the count goes on
between snapshots.
"""

from __future__ import annotations

from collections.abc import Sequence

from dutchblitz.node.api import Missing, Snapshot

from . import keymap
from .text import Text
from .words import game_on_text


def missing_line(missing: Sequence[Missing], since_snapshot: float = 0.0) -> str:
    """ "waiting for Ada: 3 s, Bob: 1 s", and for a player removed whom the deal waits for,
    how long it still waits; "" when nobody is missing."""
    if not missing:
        return ""
    parts = []
    for player in missing:
        seconds = int(player.silent + max(0.0, since_snapshot))
        part = f"{player.name}: {seconds} s"
        if player.away:
            left = int(player.grace - seconds) if player.grace > seconds else 0
            part += f" (removed; dealt in if back within {left} s)" if left else " (removed)"
        parts.append(part)
    return "waiting for " + ", ".join(parts)


def game_on_lines(snap: Snapshot) -> list[tuple[str, str]]:
    """(style, line) for a lobby that is empty because we arrived during a game; [] if not."""
    if snap.game_on is None:
        return []
    said = game_on_text(snap.table, snap.game_on)
    return [
        ("class:strong", f" {said[0].upper()}{said[1:]}."),
        ("", " You sit down for the next game. Wait here: this screen changes by itself"),
        ("", " when the table has a seat for you (q leaves)."),
        ("class:strong", f" Press {keymap.WATCH} to watch the game meanwhile."),
    ]


def watchers_line(text: Text, snap: Snapshot) -> None:
    """How many watch, and who (spectators: spec/protocol.md section 26)."""
    if snap.watchers:
        names = ", ".join(snap.watchers)
        text.line(f" Watching: {len(snap.watchers)} ({names})", "class:count")


def shown_name(player_name: str, local_bot: bool) -> str:
    """A bot's name says it is a bot and its level ("fast bot 3f9"), on every node."""
    return player_name + (" (bot)" if local_bot and " bot " not in player_name else "")
