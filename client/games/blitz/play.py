"""What Dutch Blitz's keys do at the table: one keystroke's play, and the two-key Post
stacking moves ("b" or "v", then the stack), on the client's state. A started stacking
move is the state's half-typed command (``typed``): its first key."""

from __future__ import annotations

from dutchblitz.protocol.games.blitz.intents import Action, Intent
from dutchblitz.protocol.views import Phase

from ...state import ClientState
from .keymap import BLITZ_ONTO_POST, WOOD_ONTO_POST

STACKING = {BLITZ_ONTO_POST: Action.BLITZ_TO_POST, WOOD_ONTO_POST: Action.WOOD_TO_POST}


def stack_action(state: ClientState) -> Action | None:
    """The stacking move started, waiting for its Post stack; None when none is."""
    return STACKING.get(state.typed)


def play(state: ClientState, action: Action, slot: int = 0) -> None:
    """One keystroke's play. While the scores cover the table, a key only uncovers it."""
    state.typed = ""
    if state.phase == Phase.PLAYING and state.scores_visible:
        state.hide_scores()
        return
    why = state.session.play(Intent(action, slot))
    state.refuse(why)
    if why is None and action not in (Action.FLIP, Action.STUCK):
        state.played_a_card = True
    state.refresh()


def post_key(state: ClientState, slot: int) -> None:
    """A Post key: that stack to the centre, or the end of a "b"/"v" stacking move."""
    play(state, stack_action(state) or Action.POST_TO_CENTRE, slot)


def begin_stack(state: ClientState, action: Action) -> None:
    if state.phase == Phase.PLAYING and state.scores_visible:
        state.hide_scores()
        return
    state.typed = next(key for key, started in STACKING.items() if started is action)


def cancel_stack(state: ClientState) -> None:
    state.typed = ""
