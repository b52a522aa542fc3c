"""The rules of a round: check a move against a table, and apply it.

``apply`` either changes the table and returns None, or returns a ``Refusal``
and leaves the table exactly as it was (R-31). Every check happens before the
first change.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import Card
from .moves import CentrePlay, Move, PostPlay, Source, StuckCall, WoodFlip, WoodTurn
from .state import Area, Pile, Slot, Table

FLIP_COUNT = 3
# After this many stalemates in a row with no centre play, every rotation of every
# hand has been tried (a hand holds at most 27 cards): the round is dead.
DEADLOCK_STALEMATES = 30


class Reason(StrEnum):
    """Why a move was refused. The string is the stable wire and display code."""

    ROUND_OVER = "round_over"
    UNKNOWN_SEAT = "unknown_seat"
    NOT_ACTIVE = "not_active"
    NOT_YOUR_CARD = "not_your_card"
    EMPTY_SOURCE = "empty_source"
    NOT_ON_TOP = "not_on_top"
    BAD_SOURCE = "bad_source"
    BAD_SLOT = "bad_slot"
    NEEDS_A_ONE = "needs_a_one"
    WRONG_COLOUR = "wrong_colour"
    WRONG_VALUE = "wrong_value"
    NO_PILE = "no_pile"
    PILE_TAKEN = "pile_taken"
    STACKING_OFF = "stacking_off"
    SAME_GENDER = "same_gender"
    HAND_EMPTY = "hand_empty"
    HAND_NOT_EMPTY = "hand_not_empty"
    WOOD_EMPTY = "wood_empty"
    HAS_PLAY = "has_play"
    STUCK = "stuck"
    SHOWS_MISMATCH = "shows_mismatch"


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refused move: the reason, and for a lost race the seat that won it."""

    reason: Reason
    by: int | None = None


def apply(table: Table, move: Move) -> Refusal | None:
    """Apply ``move`` to ``table`` in place, or refuse it without any change."""
    rule = _RULES.get(type(move))
    if rule is None:
        # Not a peer's illegal move but our own bug: a decoder let a non-move through.
        raise TypeError(f"not a move: {move!r}")
    if table.over:
        return Refusal(Reason.ROUND_OVER)
    area = table.areas.get(move.seat)
    if area is None:
        return Refusal(Reason.UNKNOWN_SEAT)
    if not area.active:
        return Refusal(Reason.NOT_ACTIVE)
    if area.stuck and rule is not _stuck_call:
        # A stuck player waits until the call lapses. A stalemate turns every
        # hand, and only its owner knows a hand's cards: a flip sent before a stalemate
        # but ordered after it would name a card the rotation has moved, which the
        # owner's table would refuse and every other table accept. A player who waits
        # from the stuck call on can have no such move in flight.
        return Refusal(Reason.STUCK)
    return rule(table, area, move)


# -- centre plays ----------------------------------------------------------------


def _centre_play(table: Table, area: Area, move: CentrePlay) -> Refusal | None:
    played = move.card
    refusal = _check_top(area, move.source, move.slot, played)
    if refusal is not None:
        return refusal
    target = _centre_target(table, played, move.pile)
    if isinstance(target, Refusal):
        return target
    refusal = _check_shows(table, area, move.source, move.slot, move.shows)
    if refusal is not None:
        return refusal
    _take_top(table, area, move.source, move.slot, move.shows)
    if target is None:
        table.piles.append(Pile(len(table.piles), played.colour, [played]))
    else:
        target.cards.append(played)
    # A new centre card may unblock anyone, so every stuck call lapses.
    for other in table.areas.values():
        other.stuck = False
    table.idle_stalemates = 0
    return None


def _centre_target(table: Table, played: Card, named: int | None) -> Pile | Refusal | None:
    """The pile a centre play lands on (None: a new pile), or why there is none."""
    if played.value == 1:
        return None  # a 1 always starts its own pile
    piles = table.piles
    if named is not None and 0 <= named < len(piles) and piles[named].takes(played):
        return piles[named]
    for pile in piles:  # the oldest other pile that takes the card
        if pile.takes(played):
            return pile
    return _why_no_pile(piles, played, named)


def _why_no_pile(piles: list[Pile], played: Card, named: int | None) -> Refusal:
    if named is None or not 0 <= named < len(piles):
        if not any(pile.colour == played.colour for pile in piles):
            return Refusal(Reason.NEEDS_A_ONE)  # only a 1 starts a pile
        return Refusal(Reason.NO_PILE)
    pile = piles[named]
    if pile.colour != played.colour:
        return Refusal(Reason.WRONG_COLOUR)
    if pile.top >= played.value:
        # Someone else's card already holds this place: a lost race.
        return Refusal(Reason.PILE_TAKEN, by=pile.cards[played.value - 1].deck)
    return Refusal(Reason.WRONG_VALUE)


# -- post plays ------------------------------------------------------------------


def _post_play(table: Table, area: Area, move: PostPlay) -> Refusal | None:
    if not table.post_stacking:
        return Refusal(Reason.STACKING_OFF)
    if move.source not in (Source.BLITZ, Source.WOOD):
        return Refusal(Reason.BAD_SOURCE)
    if not 0 <= move.slot < len(area.post):
        return Refusal(Reason.BAD_SLOT)
    played = move.card
    refusal = _check_top(area, move.source, 0, played)
    if refusal is not None:
        return refusal
    stack_top = area.post[move.slot][-1]
    if played.value != stack_top.value - 1:
        return Refusal(Reason.WRONG_VALUE)
    if played.is_boy == stack_top.is_boy:
        return Refusal(Reason.SAME_GENDER)
    refusal = _check_shows(table, area, move.source, 0, move.shows)
    if refusal is not None:
        return refusal
    _take_top(table, area, move.source, 0, move.shows)
    area.post[move.slot].append(played)
    return None


# -- the shared steps of a play: check the top, check what it shows, take it ------------


def _check_top(area: Area, source: Source, slot: int, played: Card) -> Refusal | None:
    if played.deck != area.seat:
        return Refusal(Reason.NOT_YOUR_CARD)
    if source == Source.POST:
        if not 0 <= slot < len(area.post):
            return Refusal(Reason.BAD_SLOT)
        pile: list[Card] | list[Slot] = area.post[slot]
    elif source == Source.BLITZ:
        pile = area.blitz
    elif source == Source.WOOD:
        pile = area.wood
    else:
        return Refusal(Reason.BAD_SOURCE)
    if not pile:
        return Refusal(Reason.EMPTY_SOURCE)
    if pile[-1] != played:
        return Refusal(Reason.NOT_ON_TOP)
    return None


def revealed_by(area: Area, source: Source, slot: int) -> tuple[list[Slot], int] | None:
    """The pile and index of the card a play from this source turns face up."""
    if source == Source.WOOD:
        return (area.wood, len(area.wood) - 2) if len(area.wood) >= 2 else None
    if source == Source.POST and len(area.post[slot]) > 1:
        return None  # the card below is a face-up Post card: nothing new is shown
    # Playing the Blitz top, or emptying a Post stack (which the Blitz top refills),
    # turns up the next Blitz card.
    return (area.blitz, len(area.blitz) - 2) if len(area.blitz) >= 2 else None


def _check_shows(
    table: Table, area: Area, source: Source, slot: int, shows: Card | None
) -> Refusal | None:
    place = revealed_by(area, source, slot)
    if place is None:
        return None if shows is None else Refusal(Reason.SHOWS_MISMATCH)
    pile, index = place
    return _check_reveal(table, area, pile[index], shows)


def _check_reveal(table: Table, area: Area, known: Slot, shows: Card | None) -> Refusal | None:
    """A revealed card must match what we know, or be a card we cannot place yet (R-35)."""
    if shows is None:
        return Refusal(Reason.SHOWS_MISMATCH)
    if known is not None:
        return None if known == shows else Refusal(Reason.SHOWS_MISMATCH)
    if shows.deck != area.seat or shows in area.located():
        return Refusal(Reason.SHOWS_MISMATCH)
    if any(shows in pile.cards for pile in table.piles if pile.colour == shows.colour):
        return Refusal(Reason.SHOWS_MISMATCH)
    return None


def _take_top(table: Table, area: Area, source: Source, slot: int, shows: Card | None) -> None:
    if source == Source.WOOD:
        area.wood.pop()
        if area.wood:
            area.wood[-1] = shows
        return
    if source == Source.POST:
        stack = area.post[slot]
        stack.pop()
        if stack:
            return
        # An emptied Post slot is refilled at once from the Blitz top.
        refill = area.blitz.pop()
        assert refill is not None  # the Blitz top is always face up, so known
        stack.append(refill)
    else:
        area.blitz.pop()
    if area.blitz:
        area.blitz[-1] = shows
    else:
        # Blitz! The round ends the moment a Blitz pile is empty.
        table.over = True
        table.blitz_by = area.seat


# -- the Wood pile, and being stuck ------------------------------------------------------


def _wood_flip(table: Table, area: Area, move: WoodFlip) -> Refusal | None:
    if not area.hand:
        return Refusal(Reason.HAND_EMPTY)
    count = min(FLIP_COUNT, len(area.hand))
    refusal = _check_reveal(table, area, area.hand[-count], move.shows)
    if refusal is not None:
        return refusal
    # The top three come off the hand as a packet and land turned over: the
    # deepest of them ends on top of the Wood pile.
    packet = area.hand[-count:]
    del area.hand[-count:]
    packet.reverse()
    packet[-1] = move.shows
    area.wood.extend(packet)
    return None


def _wood_turn(table: Table, area: Area, move: WoodTurn) -> Refusal | None:
    if area.hand:
        return Refusal(Reason.HAND_NOT_EMPTY)
    if not area.wood:
        return Refusal(Reason.WOOD_EMPTY)
    _turn_wood(area)
    return None


def _turn_wood(area: Area) -> None:
    # Turning the pile over face down makes its bottom card the hand's top.
    area.hand = area.wood[::-1]
    area.wood = []


def _stuck_call(table: Table, area: Area, move: StuckCall) -> Refusal | None:
    if visible_centre_plays(table, area.seat):
        return Refusal(Reason.HAS_PLAY)
    area.stuck = True
    _check_stalemate(table)
    return None


def set_active(table: Table, seat: int, active: bool) -> None:
    """A player leaves the round or comes back to it.

    Whoever leaves, the others may now all be stuck: the stalemate is checked again,
    not only on a stuck call, or the last unstuck player's leaving would hang the round
    for good (R-24).
    """
    area = table.areas.get(seat)
    if area is None:
        return
    area.active = active
    _check_stalemate(table)


def _check_stalemate(table: Table) -> None:
    active = [table.areas[seat] for seat in table.active_seats()]
    if active and not table.over and all(a.stuck for a in active):
        _rotate_hands(table, active)


def _rotate_hands(table: Table, active: list[Area]) -> None:
    """Stalemate: each player moves the top card of the hand to the bottom (R-24)."""
    for each in active:
        if not each.hand and each.wood:
            _turn_wood(each)
        if each.hand:
            each.hand.insert(0, each.hand.pop())
        each.stuck = False
    table.stalemates += 1
    table.idle_stalemates += 1
    if table.idle_stalemates >= DEADLOCK_STALEMATES:
        table.over = True  # a dead round ends with no Blitz and is scored as it lies


# Each move type and the rule that applies it: a missing type is a clear error in ``apply``.
_RULES: dict[type, Callable[[Table, Area, Any], Refusal | None]] = {
    CentrePlay: _centre_play,
    PostPlay: _post_play,
    WoodFlip: _wood_flip,
    WoodTurn: _wood_turn,
    StuckCall: _stuck_call,
}


# -- questions a client or bot asks ----------------------------------------------------


def playable_tops(area: Area) -> list[tuple[Source, int, Card]]:
    """Each face-up card this player may play: Blitz top, Post tops, Wood top."""
    tops: list[tuple[Source, int, Card]] = []
    blitz_top = area.blitz[-1] if area.blitz else None
    if blitz_top is not None:
        tops.append((Source.BLITZ, 0, blitz_top))
    for slot, stack in enumerate(area.post):
        if stack:
            tops.append((Source.POST, slot, stack[-1]))
    wood_top = area.wood[-1] if area.wood else None
    if wood_top is not None:
        tops.append((Source.WOOD, 0, wood_top))
    return tops


def centre_pile_for(table: Table, played: Card) -> int | bool | None:
    """The pile a card would go on now: its id, None for a new pile, False if none."""
    if played.value == 1:
        return None
    for pile in table.piles:
        if pile.takes(played):
            return pile.pile_id
    return False


def visible_centre_plays(table: Table, seat: int) -> list[tuple[Source, int, Card]]:
    """The face-up cards of ``seat`` that some centre pile would take now."""
    return [
        top
        for top in playable_tops(table.areas[seat])
        if centre_pile_for(table, top[2]) is not False
    ]
