"""Dutch Blitz's keys at the table: the bindings of a round and its key bar. The map
itself (which key does what) is data in keymap.py; the frame's keys are in ``client/keys.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from dutchblitz.protocol.games.blitz.intents import Action
from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

from ...state import ClientState
from ...text import bar
from . import keymap
from .play import begin_stack, cancel_stack, play, post_key, stack_action

Handler = Callable[[KeyPressEvent], None]


def bind_table_keys(bindings: KeyBindings, state: ClientState, playing: Filter) -> None:
    def one(action: Action) -> Handler:
        return lambda event: play(state, action)

    def post(slot: int) -> Handler:
        return lambda event: post_key(state, slot)

    def stack(action: Action) -> Handler:
        return lambda event: begin_stack(state, action)

    stacking = Condition(lambda: stack_action(state) is not None)
    # Any other key ends a half-typed stacking move (a named binding wins over Keys.Any).
    bindings.add(Keys.Any, filter=playing & stacking)(lambda event: cancel_stack(state))
    bindings.add("escape", filter=playing & stacking)(lambda event: cancel_stack(state))
    bindings.add(keymap.BLITZ_TO_CENTRE, filter=playing)(one(Action.BLITZ_TO_CENTRE))
    bindings.add(keymap.WOOD_TO_CENTRE, filter=playing)(one(Action.WOOD_TO_CENTRE))
    for key in keymap.FLIP_KEYS:
        bindings.add(key, filter=playing)(one(Action.FLIP))
    bindings.add(keymap.STUCK, filter=playing)(one(Action.STUCK))
    for slot, key in enumerate(keymap.POST_KEYS):
        bindings.add(key, filter=playing)(post(slot))
    bindings.add(keymap.BLITZ_ONTO_POST, filter=playing)(stack(Action.BLITZ_TO_POST))
    bindings.add(keymap.WOOD_ONTO_POST, filter=playing)(stack(Action.WOOD_TO_POST))
    bindings.add(keymap.SCORES, filter=playing)(lambda event: state.toggle_scores())


def table_keybar(state: ClientState) -> StyleAndTextTuples:
    """The key bar at the table, during a round."""
    started = stack_action(state)
    if started is not None:
        source = "Blitz" if started.value.startswith("blitz") else "Wood"
        return bar(
            (" ".join(keymap.POST_KEYS), f"{source} top onto which Post stack?"), ("Esc", "cancel")
        )
    # With Post stacking off b and v do nothing: the bar does not offer them.
    stacking = [("b/v", "stack")] if state.snap.option else []
    return bar(
        (keymap.BLITZ_TO_CENTRE, "Blitz"),
        ("asdfg", "Post"),
        (keymap.WOOD_TO_CENTRE, "Wood"),
        ("Spc", "flip"),
        (keymap.STUCK, "stuck"),
        *stacking,
        ("Tab", "score"),
        ("?", "help"),
        ("q", "quit"),
    )
