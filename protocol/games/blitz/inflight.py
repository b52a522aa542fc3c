"""Which of a player's moves may go while earlier moves of theirs are still in flight.

A move names the card it moves and the card it turns face up (``shows``). Only the
owner knows its hidden cards, so the owner's table checks ``shows`` against the truth
while every other table can only check that the card is a plausible one. A move
built on a pile that an earlier move in flight has changed would name the wrong
``shows`` if that earlier move were refused (a lost race), and the tables would
disagree. So each move has its *places*: the piles of its own area that it reads
or changes, including the one it turns a card up from. A move may go while earlier
ones are in flight only when it shares no place with them: then, whatever becomes
of them, it meets on every table the very cards it was built on (spec/protocol.md
section 23). A move that shares a place waits, and is built again when its turn
comes, on the table as it is then.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import plays, rules
from .moves import CentrePlay, Move, PostPlay, Source, StuckCall, WoodFlip, WoodTurn
from .rules import Reason
from .state import Table

BLITZ = "blitz"
WOOD = "wood"
HAND = "hand"
EVERY_PLACE = "*"  # a stuck call reads every face-up card, and nothing may follow it

_SOURCE_PLACE = {Source.BLITZ: BLITZ, Source.WOOD: WOOD}


def post_place(slot: int) -> str:
    return f"post{slot}"


def places(move: Move) -> frozenset[str]:
    """The piles of its own area that ``move`` reads or changes."""
    if isinstance(move, CentrePlay):
        if move.source == Source.POST:
            # An emptied Post stack is refilled from the Blitz pile at once, which
            # turns up the next Blitz card: a play from a stack may touch both.
            return frozenset({post_place(move.slot), BLITZ})
        return frozenset({_SOURCE_PLACE[move.source]})
    if isinstance(move, PostPlay):
        return frozenset({_SOURCE_PLACE[move.source], post_place(move.slot)})
    if isinstance(move, WoodFlip | WoodTurn):
        return frozenset({HAND, WOOD})
    return frozenset({EVERY_PLACE})


def shares_a_place(move: Move, earlier: Iterable[Move]) -> bool:
    """Whether ``move`` reads or changes a pile that one of ``earlier`` does."""
    mine = places(move)
    for other in earlier:
        theirs = places(other)
        if EVERY_PLACE in mine or EVERY_PLACE in theirs or mine & theirs:
            return True
    return False


def again(table: Table, move: Move) -> tuple[Move | None, Reason | None]:
    """The same move built again on ``table`` as it is now, or the reason it cannot go.

    The same move is the same card from the same place (or the same flip, turn or stuck
    call); what it turns face up, and the centre pile it lands on, are as they are now.
    """
    fresh = _rebuilt(table, move)
    if fresh is not None:
        refusal = rules.apply(table.copy(), fresh)
        if refusal is None:
            return fresh, None
        return None, refusal.reason
    refusal = rules.apply(table.copy(), move)
    return None, Reason.NOT_ON_TOP if refusal is None else refusal.reason


def _rebuilt(table: Table, move: Move) -> Move | None:
    if move.seat not in table.areas:
        return None
    if isinstance(move, CentrePlay):
        centre = plays.centre_play(table, move.seat, move.source, move.slot)
        return centre if centre is not None and centre.card == move.card else None
    if isinstance(move, PostPlay):
        post = plays.post_play(table, move.seat, move.source, move.slot)
        return post if post is not None and post.card == move.card else None
    if isinstance(move, WoodFlip):
        return plays.wood_flip(table, move.seat)
    if isinstance(move, WoodTurn):
        return plays.wood_turn(table, move.seat)
    assert isinstance(move, StuckCall)
    return move
