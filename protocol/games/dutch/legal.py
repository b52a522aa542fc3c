"""Every move the rules accept from a seat now: for bots, tests and the screen's keys."""

from __future__ import annotations

from itertools import combinations

from .moves import (
    CallDutch,
    Discard,
    Draw,
    Give,
    InitialPeek,
    Look,
    Move,
    Reason,
    Replace,
    Skip,
    Spot,
    Swap,
    Throw,
)
from .rules import apply
from .state import Phase, Round


def _filled(state: Round, seat: int) -> list[int]:
    return [slot for slot, token in enumerate(state.hands[seat]) if token is not None]


def _spots(state: Round) -> list[Spot]:
    return [Spot(seat, slot) for seat in range(state.seats) for slot in _filled(state, seat)]


def _candidates(state: Round, seat: int) -> list[Move]:
    """A superset of the legal moves; ``legal_moves`` keeps those ``apply`` accepts."""
    if state.phase is Phase.PEEK:
        return [InitialPeek(a, b) for a, b in combinations(_filled(state, seat), 2)]
    moves: list[Move] = [Throw(slot) for slot in _filled(state, seat)] if state.window else []
    if state.window:
        moves.append(CallDutch())
    if state.turn != seat:
        return moves
    if state.phase is Phase.DRAW:
        moves.append(Draw())
    elif state.phase is Phase.DECIDE:
        moves += [Discard(), *(Replace(slot) for slot in _filled(state, seat))]
    elif state.phase is Phase.ACTION:
        spots = _spots(state)
        moves += [Skip(), *(Look(spot) for spot in spots)]
        moves += [Swap(a, b) for a, b in combinations(spots, 2)]
        moves += [Give(other) for other in range(state.seats)]
    return moves


def _legal(state: Round, seat: int, move: Move) -> bool:
    refusal = apply(state, seat, move).refusal
    return refusal is None or refusal.reason is Reason.FACE_NOT_OPEN


def legal_moves(state: Round, seat: int) -> list[Move]:
    """Moves the rules allow ``seat`` now. On a node's own state, where other players' cards
    are unknown, a move that only waits for a card to be opened to all counts as legal."""
    return [move for move in _candidates(state, seat) if _legal(state, seat, move)]
