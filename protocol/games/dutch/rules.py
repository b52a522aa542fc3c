"""The rules of a round of Dutch (spec/dutch.md): check a move, apply it, say what it opens.

``apply(state, seat, move)`` is pure: it returns an ``Outcome`` with the next state, or
the same state and a named refusal; every check happens before the first change. A move
that turns a card face up needs that card's face first (``needs_open``: the shell opens it
to all on the table's masked deck, then applies); the private openings a move grants come
back in the outcome for the shell to carry out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .cards import ACE, JACK, QUEEN, DutchCard
from .moves import (
    CallDutch,
    Discard,
    Draw,
    Give,
    InitialPeek,
    Leave,
    Look,
    Move,
    Opening,
    Outcome,
    Reason,
    Refusal,
    Replace,
    Skip,
    Spot,
    Swap,
    Throw,
)
from .state import Ending, Phase, Round

ACTION_RANKS = frozenset({JACK, QUEEN, ACE})  # D-12


def _refuse(state: Round, reason: Reason) -> Outcome:
    return Outcome(state, Refusal(reason))


def _seen(state: Round, token: int, seat: int) -> Round:
    seen = list(state.seen_by)
    seen[token] = seen[token] | {seat}
    return replace(state, seen_by=tuple(seen))


def _set_hand(state: Round, seat: int, hand: tuple[int | None, ...]) -> Round:
    hands = list(state.hands)
    hands[seat] = hand
    return replace(state, hands=tuple(hands))


def _put(state: Round, spot: Spot, token: int | None) -> Round:
    hand = list(state.hands[spot.seat])
    hand[spot.slot] = token
    return _set_hand(state, spot.seat, tuple(hand))


def _place_face_down(state: Round, seat: int, token: int) -> Round:
    """D-26: a card given face down fills the hand's first gap, or goes at its end."""
    hand = list(state.hands[seat])
    if None in hand:
        hand[hand.index(None)] = token
    else:
        hand.append(token)
    return _set_hand(state, seat, tuple(hand))


def _penalty(state: Round, seat: int) -> Round:
    """D-26: the top of the draw pile, unseen, into ``seat``'s hand; nothing if it is empty."""
    if not state.draw:
        return state
    return _place_face_down(replace(state, draw=state.draw[1:]), seat, state.draw[0])


def _face_up(state: Round, token: int) -> Round:
    return replace(state, public=state.public | {token})


def _spot_token(state: Round, spot: Spot) -> int | Reason:
    """The token at ``spot``, or why the spot names no card."""
    if not 0 <= spot.seat < state.seats or not 0 <= spot.slot < len(state.hands[spot.seat]):
        return Reason.BAD_SLOT
    token = state.hands[spot.seat][spot.slot]
    return Reason.EMPTY_SLOT if token is None else token


def _finish(state: Round, ending: Ending) -> Round:
    return replace(
        state, phase=Phase.OVER, window=False, ended_turn=None, action=None, ending=ending
    )


def _next_player(state: Round, after: int) -> int | Ending:
    """D-19, D-29, D-35, D-36: the next seat at the table after ``after``, or why the round
    ends instead (the caller's turn comes round, the pile is out, nobody is left)."""
    for step in range(1, state.seats + 1):
        seat = (after + step) % state.seats
        if seat == state.caller:
            return Ending.DUTCH
        if seat in state.active:
            return seat if state.draw else Ending.PILE_OUT
    return Ending.DESERTED


def _begin(state: Round, seat: int | Ending, ended: int | None) -> Round:
    if isinstance(seat, Ending):
        return _finish(state, seat)
    window = ended is not None and bool(state.discard)
    return replace(
        state,
        phase=Phase.DRAW,
        turn=seat,
        drawn=None,
        action=None,
        window=window,
        ended_turn=ended if window else None,
    )


def _end_turn(state: Round) -> Round:
    """D-19: the turn ends; the race window opens (D-20) and the next player is to draw."""
    state = replace(state, turns=state.turns + 1)
    return _begin(state, _next_player(state, state.turn), state.turn)


def _start_turns(state: Round) -> Round:
    """D-7: once every seat at the table has peeked, the starter (or the next seat at the
    table after it) draws first."""
    if not state.active <= state.peeked:
        return state
    first = state.starter if state.starter in state.active else None
    seat = first if first is not None else _next_player(state, state.starter)
    if isinstance(seat, int) and not state.draw:
        seat = Ending.PILE_OUT
    return _begin(state, seat, None)


def _after_discard(state: Round, seat: int, card: DutchCard) -> Round:
    """D-12, D-17: a Joker gives its discarder a penalty card; a Jack, Queen or Ace gives an
    action; any other card ends the turn."""
    if card.is_joker:
        return _end_turn(_penalty(state, seat))
    if card.rank in ACTION_RANKS:
        return replace(state, phase=Phase.ACTION, action=card.rank)
    return _end_turn(state)


def needs_open(state: Round, seat: int, move: Move) -> tuple[int, ...]:
    """The tokens a move turns face up, which must be opened to all before it is applied
    (D-10, D-11, D-21, D-36). Empty for a move that turns nothing up or names no card."""
    if isinstance(move, Discard | Leave) and state.turn == seat and state.drawn is not None:
        return (state.drawn,)
    if isinstance(move, Replace | Throw) and 0 <= seat < state.seats:
        hand = state.hands[seat]
        token = hand[move.slot] if 0 <= move.slot < len(hand) else None
        if token is not None:
            return (token,)
    return ()


def _unopened(state: Round, tokens: tuple[int, ...]) -> bool:
    return any(state.faces[t] is None for t in tokens)


def _initial_peek(state: Round, seat: int, move: InitialPeek) -> Outcome:
    if state.phase is not Phase.PEEK:
        return _refuse(state, Reason.NOT_PEEK_TIME)
    if seat in state.peeked:
        return _refuse(state, Reason.ALREADY_PEEKED)
    if move.first == move.second:
        return _refuse(state, Reason.SAME_SPOT)
    tokens = [_spot_token(state, Spot(seat, slot)) for slot in (move.first, move.second)]
    for token in tokens:
        if isinstance(token, Reason):
            return _refuse(state, token)
    opened = tuple(Opening(t, seat) for t in tokens if isinstance(t, int))
    for opening in opened:
        state = _seen(state, opening.token, seat)
    return Outcome(_start_turns(replace(state, peeked=state.peeked | {seat})), None, opened)


def _turn_check(state: Round, seat: int, phase: Phase) -> Reason | None:
    if state.phase is Phase.PEEK or state.turn != seat:
        return Reason.NOT_YOUR_TURN
    return None if state.phase is phase else Reason.WRONG_STAGE


def _draw(state: Round, seat: int, move: Draw) -> Outcome:
    if (reason := _turn_check(state, seat, Phase.DRAW)) is not None:
        return _refuse(state, reason)
    if not state.draw:  # D-35: a penalty in the race took the last card
        return Outcome(_finish(state, Ending.PILE_OUT))
    token = state.draw[0]
    state = replace(
        state, draw=state.draw[1:], drawn=token, phase=Phase.DECIDE, window=False,
        ended_turn=None,
    )  # fmt: skip
    return Outcome(_seen(state, token, seat), None, (Opening(token, seat),))


def _discard(state: Round, seat: int, move: Discard) -> Outcome:
    if (reason := _turn_check(state, seat, Phase.DECIDE)) is not None:
        return _refuse(state, reason)
    token = state.drawn
    assert token is not None  # Phase.DECIDE holds a drawn card
    card = state.faces[token]
    if card is None:
        return _refuse(state, Reason.FACE_NOT_OPEN)
    state = _face_up(replace(state, drawn=None, discard=(*state.discard, token)), token)
    return Outcome(_after_discard(state, seat, card))


def _replace(state: Round, seat: int, move: Replace) -> Outcome:
    if (reason := _turn_check(state, seat, Phase.DECIDE)) is not None:
        return _refuse(state, reason)
    old = _spot_token(state, Spot(seat, move.slot))
    if isinstance(old, Reason):
        return _refuse(state, old)
    assert state.drawn is not None
    card = state.faces[old]
    if card is None:
        return _refuse(state, Reason.FACE_NOT_OPEN)
    state = _put(state, Spot(seat, move.slot), state.drawn)
    state = _face_up(replace(state, drawn=None, discard=(*state.discard, old)), old)
    return Outcome(_after_discard(state, seat, card))


def _action_check(state: Round, seat: int, rank: int | None) -> Reason | None:
    if (reason := _turn_check(state, seat, Phase.ACTION)) is not None:
        return reason
    return None if rank is None or state.action == rank else Reason.WRONG_ACTION


def _swap(state: Round, seat: int, move: Swap) -> Outcome:
    if (reason := _action_check(state, seat, JACK)) is not None:
        return _refuse(state, reason)
    first, second = _spot_token(state, move.first), _spot_token(state, move.second)
    for token in (first, second):
        if isinstance(token, Reason):
            return _refuse(state, token)
    if move.first == move.second:
        return _refuse(state, Reason.SAME_SPOT)
    if state.caller in (move.first.seat, move.second.seat):
        return _refuse(state, Reason.LOCKED)
    assert not isinstance(first, Reason) and not isinstance(second, Reason)
    state = _put(_put(state, move.first, second), move.second, first)
    return Outcome(_end_turn(state))


def _look(state: Round, seat: int, move: Look) -> Outcome:
    if (reason := _action_check(state, seat, QUEEN)) is not None:
        return _refuse(state, reason)
    token = _spot_token(state, move.spot)
    if isinstance(token, Reason):
        return _refuse(state, token)
    return Outcome(_end_turn(_seen(state, token, seat)), None, (Opening(token, seat),))


def _give(state: Round, seat: int, move: Give) -> Outcome:
    if (reason := _action_check(state, seat, ACE)) is not None:
        return _refuse(state, reason)
    if move.seat == seat or move.seat not in state.active:
        return _refuse(state, Reason.NOT_AN_OPPONENT)
    if move.seat == state.caller:
        return _refuse(state, Reason.LOCKED)
    if not state.draw:
        return _refuse(state, Reason.PILE_EMPTY)
    return Outcome(_end_turn(_penalty(state, move.seat)))


def _skip(state: Round, seat: int, move: Skip) -> Outcome:
    if (reason := _action_check(state, seat, None)) is not None:
        return _refuse(state, reason)
    return Outcome(_end_turn(state))


def _throw(state: Round, seat: int, move: Throw) -> Outcome:
    top = state.top()
    if state.phase is not Phase.DRAW or not state.window or top is None:
        return _refuse(state, Reason.WINDOW_CLOSED if top is not None else Reason.NOTHING_TO_MATCH)
    if seat == state.caller:
        return _refuse(state, Reason.LOCKED)
    token = _spot_token(state, Spot(seat, move.slot))
    if isinstance(token, Reason):
        return _refuse(state, token)
    card, on_top = state.faces[token], state.faces[top]
    if card is None or on_top is None:
        return _refuse(state, Reason.FACE_NOT_OPEN)
    state = _face_up(state, token)
    if card.rank == on_top.rank:  # D-21, D-18: ranks match; a King matches a King
        state = _put(state, Spot(seat, move.slot), None)
        return Outcome(replace(state, discard=(*state.discard, token)))
    return Outcome(_penalty(state, seat))  # D-23: it stays, face up, and a penalty card


def _call_dutch(state: Round, seat: int, move: CallDutch) -> Outcome:
    if state.caller is not None:
        return _refuse(state, Reason.DUTCH_TAKEN)
    if state.phase is not Phase.DRAW or not state.window:
        return _refuse(state, Reason.WINDOW_CLOSED)
    if state.ended_turn != seat:
        return _refuse(state, Reason.NOT_YOUR_TURN)
    state = replace(state, caller=seat)
    return Outcome(_finish(state, Ending.DUTCH) if state.turn == seat else state)


def _leave(state: Round, seat: int, move: Leave) -> Outcome:
    """D-36: the seat's cards stay and count; its pending turn is given up. Without its
    keys handed over (M-28) no card can be opened any more: the round ends unscored."""
    if not move.handed_over:
        return Outcome(_finish(replace(state, active=state.active - {seat}), Ending.STRANDED))
    holding = state.drawn if state.turn == seat and state.phase is Phase.DECIDE else None
    if holding is not None and state.faces[holding] is None:
        return _refuse(state, Reason.FACE_NOT_OPEN)
    state = replace(state, active=state.active - {seat})
    if state.phase is Phase.PEEK:
        return Outcome(_start_turns(state))
    if state.turn != seat:
        return Outcome(state)
    if state.phase is Phase.DRAW:
        ended = state.ended_turn if state.window else None
        return Outcome(_begin(state, _next_player(state, seat), ended))
    if holding is not None:
        state = replace(state, drawn=None, discard=(*state.discard, holding))
        state = _face_up(state, holding)
    return Outcome(_end_turn(state))


_HANDLERS: dict[type, Callable[[Round, int, Any], Outcome]] = {
    InitialPeek: _initial_peek,
    Draw: _draw,
    Discard: _discard,
    Replace: _replace,
    Swap: _swap,
    Look: _look,
    Give: _give,
    Skip: _skip,
    Throw: _throw,
    CallDutch: _call_dutch,
    Leave: _leave,
}


def apply(state: Round, seat: int, move: Move) -> Outcome:
    """Apply one move by ``seat``, in the table's total order (D-8)."""
    if state.phase is Phase.OVER:
        return _refuse(state, Reason.ROUND_OVER)
    if not 0 <= seat < state.seats:
        return _refuse(state, Reason.UNKNOWN_SEAT)
    if seat not in state.active:
        return _refuse(state, Reason.NOT_ACTIVE)
    return _HANDLERS[type(move)](state, seat, move)
