"""Dutch's keys (client/games/dutch/keys.py): a table of (the round, the keys typed so far,
a key) and what it makes: a move, the half-typed command kept, or a hint."""

from __future__ import annotations

from dataclasses import replace

import pytest
from dutchblitz.client.games.dutch.keys import (
    HINT_CARD_NEXT,
    HINT_NO_CARD,
    HINT_NO_PLAYER,
    HINT_NOT_NOW,
    HINT_PEEK_ANOTHER,
    HINT_PLAYER_FIRST,
    HINT_THROW_CARD,
    HINT_THROW_FIRST,
    HINT_TURNING,
    HINTS,
    Pressed,
    bar,
    press,
)
from dutchblitz.client.games.dutch.words import DUTCH_HINTS
from dutchblitz.protocol.games.dutch.moves import (
    CallDutch,
    Discard,
    Draw,
    Give,
    InitialPeek,
    Look,
    Replace,
    Skip,
    Spot,
    Swap,
    Throw,
)
from dutchblitz.protocol.games.dutch.state import Round
from dutchblitz.protocol.games.dutch.views import RoundView, round_view

from tests.games.dutch.table import peeked, play, table

HANDS = ["5h 9c Kd Qs", "2c 3c 4c 7d", "Ah Jd 8s 6h"]


def peeking() -> Round:
    return table(HANDS)


def my_draw() -> Round:
    return peeked(HANDS, draw="9h Jc Qh Ac 7s")


def holding() -> Round:
    return play(my_draw(), (0, Draw()))


def turning() -> Round:
    """Seat 0 drew, and its card is not opened to it yet (D-41)."""
    state = holding()
    assert state.drawn is not None
    faces = list(state.faces)
    faces[state.drawn] = None
    return replace(state, faces=tuple(faces))


def racing() -> Round:
    """Seat 0 discarded the 9h: the window is open, seat 1 is to draw."""
    return play(holding(), (0, Discard()))


def special(card: str) -> Round:
    """Seat 0 discarded a Jack, a Queen or an Ace: its action is due."""
    draw = {"J": "Jc", "Q": "Qh", "A": "Ac"}[card]
    return play(peeked(HANDS, draw=draw), (0, Draw()), (0, Discard()))


CASES = [
    # (state, seat, typed, key, expected)
    (peeking, 0, "", "2", Pressed(typed="2")),
    (peeking, 0, "2", "4", Pressed(InitialPeek(1, 3))),
    (peeking, 0, "2", "2", Pressed(typed="2", hint=HINT_PEEK_ANOTHER)),
    (peeking, 0, "2", "x", Pressed(typed="2", hint=HINT_NOT_NOW)),
    (peeking, 0, "2", "5", Pressed(typed="2", hint=HINT_NO_CARD)),
    (peeking, 0, "2", "escape", Pressed()),
    (my_draw, 0, "", "d", Pressed(Draw())),
    (my_draw, 1, "", "d", Pressed(Draw())),  # the rules say "not your turn"
    (my_draw, 0, "", "3", Pressed(hint=HINT_NOT_NOW)),
    (holding, 0, "", "x", Pressed(Discard())),
    (holding, 0, "", "3", Pressed(Replace(2))),
    (holding, 1, "", "3", Pressed(hint=HINT_NOT_NOW)),
    (turning, 0, "", "x", Pressed(hint=HINT_TURNING)),  # D-41
    (turning, 0, "", "3", Pressed(hint=HINT_TURNING)),
    (racing, 2, "", "t", Pressed(typed="t")),
    (racing, 2, "t", "4", Pressed(Throw(3))),
    (racing, 2, "t", "x", Pressed(hint=HINT_THROW_CARD)),
    (racing, 2, "t", "escape", Pressed()),
    (racing, 2, "", "4", Pressed(hint=HINT_THROW_FIRST)),
    (racing, 0, "", "c", Pressed(CallDutch())),
    (racing, 1, "", "d", Pressed(Draw())),
    (lambda: special("Q"), 0, "", "b", Pressed(typed="b")),
    (lambda: special("Q"), 0, "b", "4", Pressed(Look(Spot(1, 3)))),
    (lambda: special("Q"), 0, "b", "c", Pressed(typed="c")),
    (lambda: special("Q"), 0, "", "4", Pressed(hint=HINT_PLAYER_FIRST)),
    (lambda: special("Q"), 0, "", "h", Pressed(hint=HINT_NO_PLAYER)),
    (lambda: special("Q"), 0, "", "s", Pressed(Skip())),
    (lambda: special("J"), 0, "a", "1", Pressed(typed="a1", hint=HINT_CARD_NEXT)),
    (lambda: special("J"), 0, "a1", "c", Pressed(typed="a1c")),
    (lambda: special("J"), 0, "a1c", "b", Pressed(typed="a1b")),
    (lambda: special("J"), 0, "a1c", "2", Pressed(Swap(Spot(0, 0), Spot(2, 1)))),
    (lambda: special("J"), 0, "a1", "2", Pressed(typed="a1", hint=HINT_PLAYER_FIRST)),
    (lambda: special("A"), 0, "", "c", Pressed(Give(2))),
    (lambda: special("A"), 0, "", "escape", Pressed()),
]


@pytest.mark.parametrize(("state", "seat", "typed", "key", "expected"), CASES)
def test_a_key_makes_its_move(state, seat: int, typed: str, key: str, expected: Pressed) -> None:
    assert press(round_view(state(), seat), typed, key) == expected


def test_every_hint_has_words() -> None:
    assert set(DUTCH_HINTS) == set(HINTS)


def _keys(view: RoundView) -> set[str]:
    return {key for key, _ in bar(view)}


def test_the_key_bar_shows_the_keys_that_do_something_now() -> None:
    assert "1-4 1-4" in _keys(round_view(peeking(), 0))
    assert "d" in _keys(round_view(my_draw(), 0)) and "d" not in _keys(round_view(my_draw(), 1))
    assert {"x", "1-4"} <= _keys(round_view(holding(), 0))
    assert not {"x", "1-4"} & _keys(round_view(turning(), 0))  # D-41: not seen yet
    assert {"t 1-4", "c"} <= _keys(round_view(racing(), 0))
    assert "c" not in _keys(round_view(racing(), 2)) and "t 1-4" in _keys(round_view(racing(), 2))
    assert {"a-h 1-9", "s"} <= _keys(round_view(special("Q"), 0))
    assert "a-h" in _keys(round_view(special("A"), 0))


def test_a_tenth_card_has_the_key_0() -> None:
    state = holding()
    hands = list(state.hands)
    hands[0] = (*hands[0], *state.draw[:6])
    big = Round(**{**{k: getattr(state, k) for k in state.__slots__}, "hands": tuple(hands)})
    assert press(round_view(big, 0), "", "0") == Pressed(Replace(9))
    assert ("1-9 0", "put it in place of that card") in bar(round_view(big, 0))
