"""Who the table is waiting for, in one line: "waiting for Ada: 3 s".

The node says whom it has not heard from, and for how long as of its snapshot
(``Snapshot.missing``); the face adds the seconds since, so the count goes on
between snapshots.
"""

from __future__ import annotations

from collections.abc import Sequence

from dutchblitz.node.api import Missing, Snapshot

from . import keymap
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
