"""What a TV page draws of Dutch (protocol/games/dutch/tv.py): the round as nobody at the
table sees it (spec/dutch.md D-42), in the page's one vocabulary (``TableGame.tv_board``):
each table seat's row, the draw and discard piles, a headline; never a face that is not
open to all, and under Dutch's own title."""

from __future__ import annotations

from typing import Any

from dutchblitz.protocol.games.dutch.cards import FULL_DECK, DutchCard
from dutchblitz.protocol.games.dutch.game import GAME
from dutchblitz.protocol.games.dutch.scoring import reveal_tokens
from dutchblitz.protocol.games.dutch.state import Phase, Round
from dutchblitz.protocol.games.dutch.table import DutchTable
from dutchblitz.protocol.games.dutch.tv import board
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.dutch.table import peeked, random_round

HANDS = ["5h 9c Kd Qs", "2c 3c 4c 7d", "Ah Jd 8s 6h"]
SEATS = (2, 5, 7)  # table seats of Dutch seats 0, 1, 2
NAMES = {2: "Ada", 5: "Bob", 7: "Cy"}


def _table(state: Round, seats: tuple[int, ...]) -> DutchTable:
    table = DutchTable(seats, b"")
    table.round = state
    return table


def _faces(value: Any) -> list[str]:
    """Every card's label a piece of the page's data holds, wherever it is."""
    if isinstance(value, dict):
        return ([value["label"]] if "label" in value else []) + [
            label for item in value.values() for label in _faces(item)
        ]
    if isinstance(value, list | tuple):
        return [label for item in value for label in _faces(item)]
    return []


def _open_to_all(state: Round) -> list[str]:
    revealed = set(reveal_tokens(state)) if state.phase is Phase.OVER else set()
    tokens = {t for hand in state.hands for t in hand if t is not None}
    shown = [
        state.faces[t] for t in sorted(tokens & (set(state.public) | revealed))
    ]  # the rows' open cards
    top = state.top()
    return [str(face) for face in shown if face is not None] + (
        [] if top is None else [str(state.faces[top])]
    )


@settings(max_examples=30, deadline=None)
@given(order=st.permutations(FULL_DECK), seed=st.integers(0, 2**32))
def test_d42_the_tv_draws_only_the_faces_open_to_all(order: list[DutchCard], seed: int) -> None:
    steps, end = random_round(3, order, seed)
    for state in [before for before, *_ in steps[::7]] + [end]:
        data = board(_table(state, SEATS), NAMES)
        assert sorted(_faces(data)) == sorted(_open_to_all(state))


def test_the_tv_shows_each_row_the_piles_and_whose_turn_it_is() -> None:
    state = peeked(HANDS, "10d 3s")
    data = GAME.tv_board(_table(state, SEATS), NAMES)
    assert [group["key"] for group in data["centre"]] == ["draw", "discard"]
    assert data["centre"][0]["piles"] == [{"top": None, "count": len(state.draw)}]
    assert set(data["areas"]) == {"2", "5", "7"}  # by table seat
    row = data["areas"]["2"]["places"][0]
    assert row["key"] == "row" and row["row"] == [{"top": None, "count": 1}] * 4
    assert data["headline"] == "Ada draws"
    assert GAME.name == "Dutch"


def test_before_the_deck_is_dealt_the_tv_says_so() -> None:
    data = board(DutchTable(SEATS, b""), NAMES)
    assert data["areas"] == {} and data["headline"]
