"""Bots for Dutch at two levels, deciding from what their seat may see and nothing else.

``bot_move(state, seat, level)`` reads the round only through ``view(state, seat)`` (plus
the legal moves, which never depend on a hidden face), so it gives the same move on the
full table as on its own node's state. It is deterministic; the node decides when to act.

- ``FORGETFUL`` keeps nothing in mind: it looks at the card it drew and at the discard
  pile, swaps blindly, never races and calls Dutch on a whim of the turn count.
- ``CAREFUL`` remembers every card it was shown (its peeks, its draws, its Queens, every
  card turned up), throws matching cards, uses its Jacks, Queens and Aces, and calls Dutch
  when its hand, with at most one card unknown, is estimated low enough.
"""

from __future__ import annotations

from enum import StrEnum

from .cards import ACE, JACK, QUEEN
from .legal import legal_moves
from .moves import (
    CallDutch,
    Discard,
    Draw,
    Give,
    InitialPeek,
    Look,
    Move,
    Replace,
    Skip,
    Spot,
    Swap,
    Throw,
)
from .state import Phase, Round, SeatView, view

UNKNOWN_POINTS = 6  # what a card nobody has shown us is worth, near the deck's mean
GOOD_CARD = 4  # a drawn card this low is worth keeping in place of an unknown one
CALL_AT = 10  # the careful bot calls Dutch when its hand is estimated at this or less,
CALL_UNKNOWN = 1  # with at most this many of its cards unknown to it
FORGETFUL_CALL_TURN = 12  # the forgetful bot calls after this many turns of the round


class BotLevel(StrEnum):
    FORGETFUL = "forgetful"
    CAREFUL = "careful"


def _points(seen: SeatView, seat: int) -> list[int | None]:
    """The points of each card of ``seat``'s hand as this view knows them (None: unknown,
    or a gap)."""
    return [
        None if card is None or card.face is None else card.face.points for card in seen.hands[seat]
    ]


def _estimate(seen: SeatView, seat: int) -> int:
    return sum(
        UNKNOWN_POINTS if card.face is None else card.face.points
        for card in seen.hands[seat]
        if card is not None
    )


def _filled(seen: SeatView, seat: int) -> list[int]:
    return [slot for slot, card in enumerate(seen.hands[seat]) if card is not None]


def _worst_slot(seen: SeatView) -> tuple[int, int]:
    """Our card worth the most points as far as we know (an unknown card counted at
    UNKNOWN_POINTS): its slot and its points."""
    points = _points(seen, seen.seat)
    scored = [
        (UNKNOWN_POINTS if points[s] is None else points[s], s) for s in _filled(seen, seen.seat)
    ]
    worst, slot = max((p or 0, s) for p, s in scored) if scored else (0, 0)
    return slot, worst


def _decide(seen: SeatView, level: BotLevel) -> Move:
    drawn = seen.drawn.face if seen.drawn is not None else None
    assert drawn is not None  # our own drawn card is always opened to us
    if level is BotLevel.FORGETFUL:
        slots = _filled(seen, seen.seat)
        keep = drawn.points <= GOOD_CARD and slots
        return Replace(slots[seen.turn % len(slots)]) if keep else Discard()
    slot, worst = _worst_slot(seen)
    if _filled(seen, seen.seat) and drawn.points < worst:
        return Replace(slot)
    return Discard()


def _action(state: Round, seen: SeatView, action: int | None) -> Move:
    me = seen.seat
    others = [s for s in sorted(state.active) if s != me and s != seen.caller]
    if action == QUEEN:
        return _queen(seen, others)
    if action == ACE and others and state.draw:
        return Give(min(others, key=lambda o: (_estimate(seen, o), o)))
    if action == JACK:
        return _jack(seen, others)
    return Skip()


def _queen(seen: SeatView, others: list[int]) -> Move:
    """Look at one of our own cards we do not know yet, else at another player's."""
    me = seen.seat
    mine = _points(seen, me)
    unknown = [s for s in _filled(seen, me) if mine[s] is None]
    if unknown:
        return Look(Spot(me, unknown[0]))
    theirs = [Spot(o, s) for o in others for s in _filled(seen, o)]
    return Look(theirs[0]) if theirs else Skip()


def _jack(seen: SeatView, others: list[int]) -> Move:
    """Swap our worst known card for the lowest card we know in another hand."""
    me = seen.seat
    points = _points(seen, me)
    known = [(p, s) for s, p in enumerate(points) if p is not None]
    if not known:
        return Skip()
    worst, slot = max(known)
    theirs = [
        (p, Spot(o, s)) for o in others for s, p in enumerate(_points(seen, o)) if p is not None
    ]
    if theirs and min(theirs)[0] < worst:
        return Swap(Spot(me, slot), min(theirs)[1])
    return Skip()


def _race(state: Round, seen: SeatView, legal: list[Move]) -> Move | None:
    """The careful bot throws a card it knows to match, and calls Dutch when low enough."""
    top = seen.discard[-1] if seen.discard else None
    if top is not None:
        for slot in _filled(seen, seen.seat):
            card = seen.hands[seen.seat][slot]
            matches = card is not None and card.face is not None and card.face.rank == top.rank
            if matches and Throw(slot) in legal:
                return Throw(slot)
    hand = [card for card in seen.hands[seen.seat] if card is not None]
    unknown = sum(card.face is None for card in hand)
    if CallDutch() in legal and unknown <= CALL_UNKNOWN and _estimate(seen, seen.seat) <= CALL_AT:
        return CallDutch()
    return None


def bot_move(state: Round, seat: int, level: BotLevel) -> Move | None:
    """The move this bot makes now, or None to wait."""
    legal = legal_moves(state, seat)
    if not legal:
        return None
    seen = view(state, seat)
    if state.phase is Phase.PEEK:
        return InitialPeek(0, 1) if InitialPeek(0, 1) in legal else legal[0]
    if level is BotLevel.CAREFUL and (racing := _race(state, seen, legal)) is not None:
        return racing
    if level is BotLevel.FORGETFUL and CallDutch() in legal and state.turns >= FORGETFUL_CALL_TURN:
        return CallDutch()
    if state.turn != seat:
        return None
    if state.phase is Phase.DRAW:
        return Draw()
    if state.phase is Phase.DECIDE:
        return _decide(seen, level)
    if level is BotLevel.FORGETFUL:
        return Skip()
    move = _action(state, seen, state.action)
    return move if move in legal else Skip()
