"""The places each move reads or changes, and which moves may follow one another in flight.

The table of spec/protocol.md section 23 (P-152), row by row.
"""

from __future__ import annotations

import pytest
from dutchblitz.protocol.games.blitz.cards import Colour, card
from dutchblitz.protocol.games.blitz.inflight import again, places, shares_a_place
from dutchblitz.protocol.games.blitz.moves import (
    CentrePlay,
    Move,
    PostPlay,
    Source,
    StuckCall,
    WoodFlip,
    WoodTurn,
)
from dutchblitz.protocol.games.blitz.rules import Reason
from dutchblitz.protocol.games.blitz.state import Area, Pile, Table

RED, BLUE, GREEN = Colour.RED, Colour.BLUE, Colour.GREEN
C = card(0, RED, 1)

PLACES: list[tuple[Move, set[str]]] = [
    (CentrePlay(0, Source.BLITZ, 0, C, None, None), {"blitz"}),
    (CentrePlay(0, Source.WOOD, 0, C, None, None), {"wood"}),
    (CentrePlay(0, Source.POST, 2, C, None, None), {"post2", "blitz"}),
    (PostPlay(0, Source.BLITZ, C, 1, None), {"blitz", "post1"}),
    (PostPlay(0, Source.WOOD, C, 4, None), {"wood", "post4"}),
    (WoodFlip(0, C), {"hand", "wood"}),
    (WoodTurn(0), {"hand", "wood"}),
    (StuckCall(0), {"*"}),
]


@pytest.mark.parametrize(("move", "expected"), PLACES)
def test_the_places_of_each_move(move: Move, expected: set[str]) -> None:
    assert places(move) == expected


def _centre(source: Source, slot: int = 0) -> CentrePlay:
    return CentrePlay(0, source, slot, C, None, None)


FOLLOWS: list[tuple[Move, Move, bool]] = [
    # (in flight, pressed next, shares a place)
    (_centre(Source.POST, 0), _centre(Source.WOOD), False),  # `a` then `w`
    (_centre(Source.BLITZ), _centre(Source.BLITZ), True),  # `e` then `e`
    (_centre(Source.BLITZ), _centre(Source.POST, 0), True),  # a stack refills from Blitz
    (_centre(Source.POST, 0), _centre(Source.POST, 1), True),  # both may refill from Blitz
    (_centre(Source.WOOD), WoodFlip(0, C), True),
    (_centre(Source.POST, 3), WoodFlip(0, C), False),
    (PostPlay(0, Source.WOOD, C, 1, None), _centre(Source.POST, 1), True),
    (PostPlay(0, Source.WOOD, C, 1, None), _centre(Source.BLITZ), False),
    (_centre(Source.WOOD), StuckCall(0), True),
    (StuckCall(0), WoodFlip(0, C), True),
]


@pytest.mark.parametrize(("earlier", "move", "shares"), FOLLOWS)
def test_which_moves_share_a_place(earlier: Move, move: Move, shares: bool) -> None:
    assert shares_a_place(move, [earlier]) is shares
    assert not shares_a_place(move, [])


def _table() -> Table:
    area = Area(
        0,
        post=[[card(0, BLUE, 1)], [card(0, GREEN, 9)]],
        blitz=[card(0, GREEN, 4), card(0, RED, 3), card(0, RED, 2)],
        wood=[],
        hand=[card(0, GREEN, 7)],
    )
    other = Area(1, post=[[card(1, RED, 9)]], blitz=[None, card(1, GREEN, 8)], wood=[], hand=[])
    return Table((0, 1), {0: area, 1: other}, piles=[Pile(0, RED, [card(1, RED, 1)])])


def test_again_builds_the_same_card_with_what_it_shows_now() -> None:
    """A Post 1 play built when the Blitz top was the red 3 goes with the red 2 on top."""
    stale = CentrePlay(0, Source.POST, 0, card(0, BLUE, 1), None, card(0, GREEN, 4))
    fresh, reason = again(_table(), stale)
    assert reason is None
    assert fresh == CentrePlay(0, Source.POST, 0, card(0, BLUE, 1), None, card(0, RED, 3))


def test_again_refuses_a_card_that_is_not_on_top_and_one_no_pile_takes() -> None:
    under = CentrePlay(0, Source.BLITZ, 0, card(0, RED, 3), 0, card(0, GREEN, 4))
    assert again(_table(), under) == (None, Reason.NOT_ON_TOP)
    table = _table()
    table.piles[0].cards.append(card(1, RED, 2))  # someone else's red 2 got there first
    top = CentrePlay(0, Source.BLITZ, 0, card(0, RED, 2), 0, card(0, RED, 3))
    assert again(table, top) == (None, Reason.PILE_TAKEN)
    assert again(_table(), StuckCall(0)) == (None, Reason.HAS_PLAY)
