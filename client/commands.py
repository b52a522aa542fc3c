"""What the lobby's, the scores' and the help and quit keys do: commands on the state.

``ClientState`` (state.py) owns the state and what the table's keys do; these commands
are the rest, kept apart so that no one class does everything. Each takes the state,
calls the session where it must, and refreshes.
"""

from __future__ import annotations

from dutchblitz.node.api import Notice, NoticeKind

from .games import registry
from .state import ClientState

# -- between rounds -------------------------------------------------------------------


def seen_scores(state: ClientState) -> None:
    """Any key on the scores before a round: seen (a second key changes nothing)."""
    if state.late_key():
        return
    state.session.seen_scores()
    state.refresh()


# -- in the lobby ---------------------------------------------------------------------


def toggle_ready(state: ClientState) -> None:
    me = state.me
    state.refuse(state.session.set_ready(not (me is not None and me.ready)))
    state.refresh()


def next_back(state: ClientState) -> None:
    """Move to the next deck back no other player holds."""
    me = state.me
    players = [p for p in state.snap.players if p.present]
    allowed = registry.face_for(state.game).backs(len(players))
    if not allowed:
        state.flash(Notice(NoticeKind.REFUSED, "this game has no deck backs to choose"))
        return
    taken = {p.back for p in players if not p.is_me}
    current = me.back if me is not None else ""
    start = allowed.index(current) + 1 if current in allowed else 0
    for step in range(len(allowed)):
        back = allowed[(start + step) % len(allowed)]
        if back not in taken:
            if back != current:
                state.refuse(state.session.set_back(back))
                state.refresh()
            return
    state.flash(Notice(NoticeKind.REFUSED, "every deck back is taken"))


def toggle_rematch(state: ClientState) -> None:
    """After a game: ask for a rematch, or take the wish back (spec/rules.md R-49)."""
    if state.late_key():
        return
    me = state.me
    state.refuse(state.session.set_ready(not (me is not None and me.ready)))
    state.refresh()


def start(state: ClientState) -> None:
    state.refuse(state.session.start())
    state.refresh()


def add_bot(state: ClientState) -> None:
    state.refuse(state.session.add_bot(state.bot_level))
    state.refresh()


def watch(state: ClientState) -> None:
    state.refuse(state.session.watch())
    state.refresh()


def remove_bot(state: ClientState) -> None:
    state.refuse(state.session.remove_bot())
    state.refresh()


def toggle_option(state: ClientState) -> None:
    face = registry.face_for(state.game)
    if not face.has_option:  # the lobby offers the option only for a game that has it
        state.flash(Notice(NoticeKind.REFUSED, f"{face.title} has no Post stacking"))
        return
    state.refuse(state.session.set_option(not state.snap.option))
    state.refresh()


def next_game(state: ClientState) -> None:
    """The next game with a face here: what a START from this node starts (P-241)."""
    games = list(state.games)
    index = games.index(state.game) if state.game in games else -1
    state.refuse(state.session.set_game(games[(index + 1) % len(games)]))
    state.refresh()


def next_length(state: ClientState) -> None:
    """The next length the game's face offers: a target score, or a number of rounds."""
    lengths = registry.face_for(state.game).lengths
    now = state.snap.length
    same = [n for n, (target, rounds) in enumerate(lengths)
            if rounds == now[1] and (rounds is not None or target == now[0])]  # fmt: skip
    target, rounds = lengths[(same[0] + 1) % len(lengths) if same else 0]
    state.refuse(state.session.set_length(target, rounds))
    state.refresh()


def next_bot_level(state: ClientState) -> None:
    levels = state.snap.bot_levels
    if not levels:
        return
    index = levels.index(state.bot_level) if state.bot_level in levels else -1
    state.bot_level = levels[(index + 1) % len(levels)]
    level = state.bot_level
    said = registry.face_for(state.game).words.bot_levels.get(level, f"{level} bot")
    state.flash(Notice(NoticeKind.INFO, said))


def begin_name(state: ClientState) -> None:
    me = state.me
    state.name_buffer.text = me.name if me is not None else ""
    state.name_buffer.cursor_position = len(state.name_buffer.text)
    state.editing_name = True


def commit_name(state: ClientState) -> None:
    name = state.name_buffer.text.strip()
    state.editing_name = False
    me = state.me
    if name and (me is None or name != me.name):
        state.refuse(state.session.set_name(name))
        state.refresh()


def cancel_name(state: ClientState) -> None:
    state.editing_name = False


# -- help and leaving -----------------------------------------------------------------


def toggle_help(state: ClientState) -> None:
    state.help_shown = not state.help_shown


def ask_quit(state: ClientState) -> bool:
    """``q``: True when the client should leave now; during a game, ask first (a
    spectator leaves at once: nobody waits for it)."""
    if state.game_running and not state.snap.watching and not state.asking_quit:
        state.asking_quit = True
        return False
    return confirm_quit(state)


def interrupt(state: ClientState) -> bool:
    """Ctrl-C: like ``q``, and a second Ctrl-C while asking leaves."""
    return ask_quit(state)


def confirm_quit(state: ClientState) -> bool:
    state.asking_quit = False
    state.leave_requested = True
    return True


def cancel_quit(state: ClientState) -> None:
    state.asking_quit = False
