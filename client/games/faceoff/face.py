"""Blitz!'s face at a real table, as the client's registry would know it.

The node's snapshot carries the game's view (``views.TableView``, the same for every seat,
F-43) as ``seat_view``: the screens draw it in the frame. A key goes through ``keys.press``
with the answer typed so far; the action it makes goes to the session (``Session.play``),
which has the game build and check its body; a refusal comes back as a notice. A turn is
``TurnFrom(pile)``: the table's hidden-card service opens that card (F-34).
"""

from __future__ import annotations

import functools

from dutchblitz.node.api import HiddenCards, Notice, NoticeKind
from dutchblitz.protocol.games.faceoff import TAG, TITLE
from dutchblitz.protocol.games.faceoff.state import Phase
from dutchblitz.protocol.games.faceoff.views import TableView
from dutchblitz.protocol.views import Phase as TablePhase
from prompt_toolkit.filters import Filter
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings

from ...face import GameFace
from ...gamescreen import bind_every_key, frame_size
from ...state import ClientState
from ...text import Text, bar
from ...words import GameWords
from . import keys, words
from .screens import FaceoffTable, help_lines, render

SPECIAL_KEYS = {" ": keys.SPACE_KEY, "\r": keys.ENTER_KEY, "\n": keys.ENTER_KEY,
                "\x1b": keys.ESCAPE_KEY, "\t": keys.TAB_KEY, "\x7f": keys.BACKSPACE_KEY,
                "\x08": keys.BACKSPACE_KEY}  # fmt: skip


def seat_view(state: ClientState) -> TableView | None:
    view = state.snap.seat_view
    return view if isinstance(view, TableView) else None


def faceoff_table(state: ClientState, view: TableView) -> FaceoffTable:
    snap = state.snap
    bots = frozenset(p.seat for p in snap.players if p.is_local_bot)
    names = tuple(state.name_of(seat) for seat in range(len(view.tops)))
    return FaceoffTable(view=view, names=names, bots=bots, typed=state.typed)


def _waiting() -> StyleAndTextTuples:
    return Text().line().line(" Waiting for the first card...", "class:strong").fragments


def table_screen(state: ClientState) -> StyleAndTextTuples:
    view = seat_view(state)
    if view is None:
        return _waiting()
    width, height = frame_size(state)
    return render(faceoff_table(state, view), width, height, framed=True)


def _undealt() -> StyleAndTextTuples:
    """The game ended before its deal: too few players were left (F-57, P-239)."""
    text = Text().line().line(f" {words.TOO_FEW}", "class:strong")
    return text.line(f" {words.SEAT_UP}").fragments


def scores_screen(state: ClientState) -> StyleAndTextTuples:
    view = seat_view(state)
    if view is None and state.phase is TablePhase.OVER:
        return _undealt()
    if view is None or view.phase is not Phase.OVER:
        return _waiting()
    width, height = frame_size(state)
    return render(faceoff_table(state, view), width, height, framed=True)


def help_screen(state: ClientState) -> StyleAndTextTuples:
    text = Text().line(f" How to play {TITLE} (? or Esc closes this)", "class:header")
    for line in help_lines(state.terminal.columns):
        for style, part in line:
            text.add(part, style)
        text.line()
    return text.fragments


def table_keybar(state: ClientState) -> StyleAndTextTuples:
    view = seat_view(state)
    if view is None:
        return bar(("?", "help"), ("q", "leave"))
    return bar(*keys.live(view))


def key(state: ClientState, pressed_key: str) -> None:
    """One key at the table: an action for the session, a letter of the answer, or a hint."""
    view = seat_view(state)
    if view is None:
        return
    pressed = keys.press(view, state.typed, pressed_key)
    state.typed = pressed.typed
    if pressed.hint:
        state.flash(Notice(NoticeKind.INFO, words.HINTS[pressed.hint]))
    if pressed.action is not None:
        refused = state.session.play(pressed.action)
        if refused is not None:
            code = refused.code
            state.flash(Notice(NoticeKind.REFUSED, words.refusal(code)))
    state.refresh()


def bind_table_keys(bindings: KeyBindings, state: ClientState, playing: Filter) -> None:
    named = ("escape", "enter", "space", "tab", "backspace")
    bind_every_key(bindings, playing, functools.partial(key, state), SPECIAL_KEYS, named)


def hidden_lines(hidden: HiddenCards) -> StyleAndTextTuples:
    return [("class:hint", " Nothing in Blitz! is hidden: every turned card is shown to all.")]


FACE = GameFace(
    tag=TAG,
    title=TITLE,
    table_screen=table_screen,
    scores_screen=scores_screen,
    help_screen=help_screen,
    table_keybar=table_keybar,
    bind_table_keys=bind_table_keys,
    hidden_lines=hidden_lines,
    has_option=True,  # the table's option is the answer mode here (F-23, F-51)
    words=GameWords(call="Blitz!", bot_levels=words.BOT_LEVELS, data="Blitz! word data"),
    option_name="Answers",
    option_key_word="answers",
    option_values=("typed", "spoken"),
    length_word="one game",
    lengths=((0, 1),),  # one game: the piles run out (F-41); no target score
)
