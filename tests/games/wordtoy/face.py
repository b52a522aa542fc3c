"""Word toy's face in the terminal client (client/face.py ``GameFace``), registered from
this folder by ``node.py``: the card's category, each player's cards won, the answer that
waits, the cards decided, and the line the player types on. Every printable key goes to
the answer line; Enter sends it, Esc clears it, Tab objects to the answer that waits."""

from __future__ import annotations

import functools
from typing import Final

from dutchblitz.client.face import GameFace
from dutchblitz.client.gamescreen import bind_every_key
from dutchblitz.client.state import ClientState
from dutchblitz.client.text import Text, bar
from dutchblitz.client.words import GameWords
from dutchblitz.node.api import HiddenCards, Notice, NoticeKind
from dutchblitz.protocol.views import Phase
from prompt_toolkit.filters import Filter
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings

from tests.games.wordtoy.game import TAG, Objection, Typed
from tests.games.wordtoy.rules import MAX_ANSWER
from tests.games.wordtoy.views import TITLE, WordView

ENTER, ESCAPE, TAB, BACKSPACE, SPACE = "enter", "escape", "tab", "backspace", "space"
SPECIAL_KEYS: Final = {" ": SPACE, "\r": ENTER, "\n": ENTER, "\x1b": ESCAPE, "\t": TAB,
                       "\x7f": BACKSPACE, "\x08": BACKSPACE}  # fmt: skip
REFUSALS: Final = {
    "bad_answer": "An answer is 1 to 30 letters or digits.",
    "said_before": "That answer was given already this round.",
    "yours_waits": "Your answer is still waiting: wait for it to be decided.",
    "own_answer": "You cannot object to your own answer.",
    "stale": "Too late: that card was decided.",
    "over": "The round is over.",
    "not_dealt": "You are not dealt into this round.",
    "not_playing": "You are not playing this round.",
    "bad_move": "Nothing waits to object to.",
}
BOT_LEVELS: Final = {"easy": "easy bot: knows half the cards, thinks slowly",
                     "sharp": "sharp bot: knows most cards, answers quickly"}  # fmt: skip


def seat_view(state: ClientState) -> WordView | None:
    shown = state.snap.seat_view
    return shown if isinstance(shown, WordView) else None


def _name(state: ClientState, shown: WordView, index: int) -> str:
    own = state.name_of(shown.seats[index])
    return f"you ({own})" if index == shown.me else own


def _lines(state: ClientState, shown: WordView, typing: bool) -> StyleAndTextTuples:
    text = Text().line()
    if shown.over:
        text.line(f" Round over: all {shown.cards} cards decided.", "class:strong")
    else:
        text.add(f" Card {shown.card + 1} of {shown.cards}   Category: ")
        text.line(shown.category.upper(), "class:strong")
    text.line().line(f" {'Player':<24}won")
    for index in range(len(shown.seats)):
        text.line(f" {_name(state, shown, index)[:23]:<24}{shown.won[index]:>3}")
    text.line()
    if shown.waiting is not None:
        who = _name(state, shown, shown.waiting.seat)
        hint = "  (Tab objects)" if shown.may_object else ""
        text.line(f' Waiting: {who} says "{shown.waiting.text}"{hint}', "class:strong")
        for said in shown.queued:
            text.line(f'   then {_name(state, shown, said.seat)}: "{said.text}"')
    if shown.dropped is not None:
        whose, what, by = shown.dropped
        text.line(
            f' Objected: "{what}" of {_name(state, shown, whose)}, by {_name(state, shown, by)}'
        )
    for number, decided in enumerate(shown.decided, 1):
        how = (
            "nobody"
            if decided.seat is None
            else f'{_name(state, shown, decided.seat)}, "{decided.text}"'
        )
        text.line(f" Card {number} ({decided.category}): {how}")
    if typing:
        text.line().add(" Your answer: ", "class:strong").line(state.typed + "_")
    return text.fragments


def table_screen(state: ClientState) -> StyleAndTextTuples:
    shown = seat_view(state)
    if shown is None:
        return Text().line().line(" Waiting for the first card...", "class:strong").fragments
    return _lines(state, shown, typing=not shown.over and shown.me is not None)


def scores_screen(state: ClientState) -> StyleAndTextTuples:
    shown = seat_view(state)
    text = Text().line().line(" Cards won", "class:header")
    game = state.snap.game
    for result in game.results:
        row = "  ".join(
            f"{state.name_of(seat)} {score}" for seat, score in sorted(result.scores.items())
        )
        text.line(f" Round {result.round}: {row}")
    totals = "  ".join(
        f"{state.name_of(seat)} {total}" for seat, total in sorted(game.totals.items())
    )
    text.line(f" In all: {totals}", "class:strong")
    if game.winner is not None:
        text.line(f" {state.name_of(game.winner)} won the game.", "class:strong")
    elif game.phase == Phase.OVER:
        text.line(" A draw: nobody won the game.", "class:strong")
    if shown is not None:
        text.fragments += _lines(state, shown, typing=False)[1:]
    return text.fragments


def help_screen(state: ClientState) -> StyleAndTextTuples:
    text = Text().line(f" How to play {TITLE} (? or Esc closes this)", "class:header")
    text.line(" Each card is a category. Type an answer and press Enter.")
    text.line(" The first answer in the table's order that the others accept wins the card:")
    text.line(" an answer in the game's list wins at once; any other waits, and anyone may")
    text.line(" object to it with Tab. Silence accepts it. Most cards wins; a tie is a draw.")
    text.line(" Keys: letters type, Enter sends, Esc clears, Tab objects.")
    return text.fragments


def table_keybar(state: ClientState) -> StyleAndTextTuples:
    shown = seat_view(state)
    if shown is None or shown.over or shown.me is None:
        return bar(("?", "help"), ("q", "leave"))
    keys = [("Enter", "send"), ("Esc", "clear")]
    if shown.may_object:
        keys.append(("Tab", "object"))
    return bar(*keys)


def begun(state: ClientState, shown: WordView) -> int:
    """The card the answer on the line was begun on (``ClientState.typed_memo``)."""
    memo = state.typed_memo
    return memo if isinstance(memo, int) else shown.card


def key(state: ClientState, pressed: str) -> None:
    """One key at the table: a letter of the answer, or an action for the session."""
    shown = seat_view(state)
    if shown is None or shown.over or shown.me is None:
        return
    move: Typed | Objection | None = None
    if not state.typed:
        state.typed_memo = shown.card  # the card the answer is begun on (``begun``)
    if pressed == ENTER:
        if state.typed.strip():
            move, state.typed = Typed(state.typed, begun(state, shown)), ""
    elif pressed == ESCAPE:
        state.typed = ""
    elif pressed == BACKSPACE:
        state.typed = state.typed[:-1]
    elif pressed == TAB:
        move = Objection()
    else:
        letter = " " if pressed == SPACE else pressed
        if len(letter) == 1 and letter.isprintable() and len(state.typed) < MAX_ANSWER:
            state.typed += letter
    if move is not None:
        refused = state.session.play(move)
        if refused is not None:
            said = REFUSALS.get(refused.code, "Not now.")
            state.flash(Notice(NoticeKind.REFUSED, said))
    state.refresh()


def bind_table_keys(bindings: KeyBindings, state: ClientState, playing: Filter) -> None:
    named = ("escape", "enter", "space", "tab", "backspace")
    bind_every_key(bindings, playing, functools.partial(key, state), SPECIAL_KEYS, named)


def hidden_lines(hidden: HiddenCards) -> StyleAndTextTuples:
    return [("class:hint", " Nothing in word toy is hidden.")]


FACE = GameFace(
    tag=TAG,
    title=TITLE,
    table_screen=table_screen,
    scores_screen=scores_screen,
    help_screen=help_screen,
    table_keybar=table_keybar,
    bind_table_keys=bind_table_keys,
    hidden_lines=hidden_lines,
    has_option=False,
    words=GameWords(refusals=REFUSALS, bot_levels=BOT_LEVELS),
    lengths=((0, 2), (0, 3), (0, 1)),  # 0: the table's target, which rounds leave unread
)
