"""Build moves for a player whose own cards this node knows.

A move names the cards it moves and turns face up; only the owner's node knows
the hidden ones, so moves are made here, on the owner's full table, and checked
everywhere else by ``rules.apply``.
"""

from __future__ import annotations

from .moves import CentrePlay, Move, PostPlay, Source, StuckCall, WoodFlip, WoodTurn
from .rules import FLIP_COUNT, centre_pile_for, playable_tops, revealed_by
from .state import Area, Table


def _shows(area: Area, source: Source, slot: int) -> tuple[bool, object]:
    place = revealed_by(area, source, slot)
    if place is None:
        return True, None
    pile, index = place
    return pile[index] is not None, pile[index]


def centre_play(table: Table, seat: int, source: Source, slot: int = 0) -> CentrePlay | None:
    """The centre play of this top card onto the pile that takes it now, or None."""
    area = table.areas[seat]
    for top_source, top_slot, top in playable_tops(area):
        if top_source == source and top_slot == slot:
            pile = centre_pile_for(table, top)
            if pile is False:
                return None
            known, shows = _shows(area, source, slot)
            if not known:
                return None
            return CentrePlay(seat, source, slot, top, pile, shows)  # type: ignore[arg-type]
    return None


def post_play(table: Table, seat: int, source: Source, slot: int) -> PostPlay | None:
    """Put the Blitz or Wood top on Post stack ``slot`` if the rules allow it, else None."""
    area = table.areas[seat]
    if not table.post_stacking or not 0 <= slot < len(area.post):
        return None
    pile = area.blitz if source == Source.BLITZ else area.wood
    if source == Source.POST or not pile or pile[-1] is None:
        return None
    played = pile[-1]
    stack_top = area.post[slot][-1]
    if played.value != stack_top.value - 1 or played.is_boy == stack_top.is_boy:
        return None
    known, shows = _shows(area, source, 0)
    if not known:
        return None
    return PostPlay(seat, source, played, slot, shows)  # type: ignore[arg-type]


def wood_flip(table: Table, seat: int) -> WoodFlip | None:
    area = table.areas[seat]
    if not area.hand:
        return None
    shows = area.hand[-min(FLIP_COUNT, len(area.hand))]
    return None if shows is None else WoodFlip(seat, shows)


def wood_turn(table: Table, seat: int) -> WoodTurn | None:
    area = table.areas[seat]
    return WoodTurn(seat) if not area.hand and area.wood else None


def flip_or_turn(table: Table, seat: int) -> WoodFlip | WoodTurn | None:
    """What the one "flip" key does: flip three, or turn the Wood over when the hand is empty."""
    return wood_flip(table, seat) or wood_turn(table, seat)


def centre_moves(table: Table, seat: int) -> list[CentrePlay]:
    area = table.areas[seat]
    found = (centre_play(table, seat, source, slot) for source, slot, _ in playable_tops(area))
    return [move for move in found if move is not None]


def post_moves(table: Table, seat: int) -> list[PostPlay]:
    area = table.areas[seat]
    found = (
        post_play(table, seat, source, slot)
        for source in (Source.BLITZ, Source.WOOD)
        for slot in range(len(area.post))
    )
    return [move for move in found if move is not None]


def legal_moves(table: Table, seat: int) -> list[Move]:
    """Every move the rules allow ``seat`` now, for a node that knows its cards.

    A node decides on the table it has applied with its own moves still in flight
    applied on top, so from its stuck call on it offers nothing but waiting.
    """
    area = table.areas[seat]
    if table.over or not area.active:
        return []
    if area.stuck:
        return [StuckCall(seat)]  # allowed, and changes nothing: a stuck player waits
    moves: list[Move] = [*centre_moves(table, seat), *post_moves(table, seat)]
    cycle = flip_or_turn(table, seat)
    if cycle is not None:
        moves.append(cycle)
    if not any(isinstance(m, CentrePlay) for m in moves):
        moves.append(StuckCall(seat))
    return moves
