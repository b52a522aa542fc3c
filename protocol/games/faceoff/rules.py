"""The rules of a game of Blitz! (spec/faceoff.md): check a move, apply it.

``apply(state, seat, move)`` is pure: it returns an ``Outcome`` with the next state, or the
same state and a named refusal; every check happens before the first change. Randomness
comes in as values: the card a ``Turn`` carries was opened by the table's hidden-card
service, and a ``Roll`` carries the die's face. Time comes in as ``WindowClosed``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .moves import (
    TABLE,
    Answer,
    Claim,
    Concede,
    Contest,
    Leave,
    Move,
    Outcome,
    Reason,
    Refusal,
    Roll,
    Tie,
    Turn,
    Vote,
    WindowClosed,
)
from .normalise import Verdict, check, normalise
from .pack import DIE, is_duel, symbol_of
from .state import Ending, Faceoff, Game, Mode, Phase, duel_pair

PILES = (0, 1)


def _refuse(state: Game, reason: Reason) -> Outcome:
    return Outcome(state, Refusal(reason))


# Face-offs: which pairs are in one, and which is played first (F-16, F-17, F-21).


def _match(state: Game, first: int, second: int) -> bool:
    top_first, top_second = state.top(first), state.top(second)
    if top_first is None or top_second is None:
        return False
    one, two = symbol_of(top_first), symbol_of(top_second)
    pair = duel_pair(state)
    return one == two or (pair is not None and {one, two} == set(pair))


def next_faceoff(state: Game) -> Faceoff | None:
    """F-21: of every pair of players at the table whose top cards match, the pair whose
    seats come first clockwise from the mover (the player whose top card changed last)."""

    def after_mover(seat: int) -> int:
        return (seat - state.mover) % state.seats

    seats = sorted(state.active, key=after_mover)
    for i, first in enumerate(seats):
        for second in seats[i + 1 :]:
            if _match(state, first, second):
                return Faceoff(first, second)
    return None


def _next_seat(state: Game, after: int, including: bool = False) -> int | None:
    """The first seat at the table clockwise after ``after`` (from it when ``including``)."""
    for step in range(0 if including else 1, state.seats + 1):
        seat = (after + step) % state.seats
        if seat in state.active:
            return seat
    return None


def tie_drawer(state: Game) -> int | None:
    """F-35: who turns the tie-break card: the first seat at the table clockwise after the
    face-off's first player that is in no face-off; the first player when there is none."""
    duel = state.faceoff
    if duel is None:
        return None
    for step in range(1, state.seats):
        seat = (duel.a + step) % state.seats
        if seat in state.active and seat not in (duel.a, duel.b):
            return seat
    return duel.a


def _finish(state: Game, ending: Ending) -> Game:
    return replace(state, phase=Phase.OVER, faceoff=None, ending=ending)


def _settle(state: Game) -> Game:
    """F-20, F-22, F-41: the next face-off if one is due; else the next turn, or the end."""
    if len(state.active) < 2:  # a face-off needs two players
        return _finish(state, Ending.DESERTED)
    duel = next_faceoff(state)
    if duel is not None:
        return replace(
            state,
            phase=Phase.FACEOFF,
            faceoff=duel,
            faceoffs=state.faceoffs + 1,
            since_turn=state.since_turn + 1,
        )
    if state.draw_left() == 0:
        return _finish(state, Ending.PILES_OUT)
    # F-22: the next player clockwise from the last one who turned; F-15: a Duel's drawer
    # turns again.
    nxt = _next_seat(state, state.turn, including=state.again)
    assert nxt is not None
    return replace(state, phase=Phase.TURN, faceoff=None, turn=nxt, again=False)


# The draw piles (F-8, F-9, F-36).


def _top_check(state: Game, pile: int, card: int) -> Reason | None:
    if pile not in PILES:
        return Reason.BAD_PILE
    if state.pile_size(pile) == 0:
        return Reason.PILE_EMPTY
    if state.hidden[pile]:
        return None if card in state.unseen else Reason.NOT_ON_TOP
    return None if card == state.under[pile][0] else Reason.NOT_ON_TOP


def _take(state: Game, pile: int, card: int) -> Game:
    """The top card ``card`` leaves draw pile ``pile``."""
    if state.hidden[pile]:
        hidden = list(state.hidden)
        hidden[pile] -= 1
        return replace(state, hidden=(hidden[0], hidden[1]), unseen=state.unseen - {card})
    under = list(state.under)
    under[pile] = under[pile][1:]
    return replace(state, under=(under[0], under[1]))


def _put_under(state: Game, pile: int, card: int) -> Game:
    under = list(state.under)
    under[pile] = (*under[pile], card)
    return replace(state, under=(under[0], under[1]))


def _pile_may_give_category(state: Game, pile: int) -> bool:
    if state.hidden[pile] and any(not is_duel(c) for c in state.unseen):
        return True
    return any(not is_duel(c) for c in state.under[pile])


def _turn(state: Game, seat: int, move: Turn) -> Outcome:
    if state.phase is Phase.TIE_DRAW:
        return _tie_turn(state, seat, move)
    if state.phase is not Phase.TURN:
        return _refuse(state, Reason.WRONG_PHASE)
    if seat != state.turn:
        return _refuse(state, Reason.NOT_YOUR_TURN)
    reason = _top_check(state, move.pile, move.card)
    if reason is not None:
        return _refuse(state, reason)
    state = replace(
        _take(state, move.pile, move.card), turned=state.turned + 1, mover=seat, since_turn=0
    )
    if is_duel(move.card):  # F-14: the Duel goes on the Duel pile; the table rolls
        return Outcome(replace(state, duels=(*state.duels, move.card), phase=Phase.ROLL))
    play = list(state.play)
    play[seat] = (*play[seat], move.card)
    return Outcome(_settle(replace(state, play=tuple(play))))


def _tie_turn(state: Game, seat: int, move: Turn) -> Outcome:
    """F-35, F-36: the tie-break card; a Duel goes back under its pile and another comes."""
    if seat != tie_drawer(state):
        return _refuse(state, Reason.NOT_YOUR_TURN)
    reason = _top_check(state, move.pile, move.card)
    if reason is None and not _pile_may_give_category(state, move.pile):
        reason = Reason.NO_CATEGORY_CARD
    if reason is not None:
        return _refuse(state, reason)
    state = _take(state, move.pile, move.card)
    if is_duel(move.card):
        return Outcome(_put_under(state, move.pile, move.card))
    assert state.faceoff is not None
    duel = replace(state.faceoff, tie_card=move.card, tie_pile=move.pile)
    return Outcome(replace(state, phase=Phase.FACEOFF, faceoff=duel))


def _roll(state: Game, seat: int, move: Roll) -> Outcome:
    if state.phase is not Phase.ROLL:
        return _refuse(state, Reason.WRONG_PHASE)
    if not 0 <= move.face < len(DIE):
        return _refuse(state, Reason.BAD_FACE)
    if move.face == state.removed_face:  # F-6: that face is out of the game: roll again
        return Outcome(state)
    return Outcome(_settle(replace(state, die=move.face, again=True, mover=state.turn)))


# A face-off (F-18 to F-20, F-24 to F-29, F-35 to F-37).


def _win(state: Game, winner: int) -> Game:
    """F-19, F-20: the winner takes the loser's top card; the loser's next card shows."""
    duel = state.faceoff
    assert duel is not None
    loser = duel.other(winner)
    play, won = list(state.play), list(state.won)
    won[winner] = (*won[winner], play[loser][-1])
    play[loser] = play[loser][:-1]
    state = replace(state, play=tuple(play), won=tuple(won), faceoff=None, mover=loser)
    if duel.tie_card is not None:  # F-36: the tie-break card goes back under its pile
        state = _put_under(state, duel.tie_pile, duel.tie_card)
    return _settle(state)


def _in_faceoff(state: Game, seat: int, mode: Mode | None) -> Reason | None:
    """Why ``seat`` may not answer, claim or concede now, if it may not."""
    duel = state.faceoff
    if state.phase is not Phase.FACEOFF or duel is None:
        return Reason.WRONG_PHASE
    if mode is not None and state.mode is not mode:
        return Reason.WRONG_MODE
    if seat not in (duel.a, duel.b):
        return Reason.NOT_IN_FACEOFF
    if duel.voting:
        return Reason.VOTING
    return None


def category_for(state: Game, seat: int) -> int:
    """F-18, F-36: the card whose category ``seat`` must answer: the tie-break card, else
    the other player's top card."""
    duel = state.faceoff
    assert duel is not None
    if duel.tie_card is not None:
        return duel.tie_card
    top = state.top(duel.other(seat))
    assert top is not None
    return top


def _answer(state: Game, seat: int, move: Answer) -> Outcome:
    reason = _in_faceoff(state, seat, Mode.TYPED)
    if reason is None and state.faceoff is not None and state.faceoff.claimant is not None:
        reason = Reason.PENDING
    if reason is not None:
        return _refuse(state, reason)
    key = normalise(move.text, state.pack.language)
    if not key:
        return _refuse(state, Reason.EMPTY_ANSWER)
    category = state.pack.category_of(category_for(state, seat))
    verdict = check(move.text, category, state.said)
    if verdict is Verdict.REPEAT:  # F-32
        return _refuse(state, Reason.REPEAT)
    state = replace(state, said=state.said | {key})
    if verdict is Verdict.LISTED:  # F-31: the shipped list accepts it at once
        return Outcome(_win(state, seat))
    assert state.faceoff is not None
    duel = replace(state.faceoff, claimant=seat, answer=key, text=move.text)
    return Outcome(replace(state, faceoff=duel))  # F-31: the table decides


def _claim(state: Game, seat: int, move: Claim) -> Outcome:
    reason = _in_faceoff(state, seat, Mode.SPOKEN)
    if reason is None and state.faceoff is not None and state.faceoff.claimant is not None:
        reason = Reason.PENDING
    if reason is not None:
        return _refuse(state, reason)
    assert state.faceoff is not None
    return Outcome(replace(state, faceoff=replace(state.faceoff, claimant=seat)))


def _concede(state: Game, seat: int, move: Concede) -> Outcome:
    reason = _in_faceoff(state, seat, None)
    if reason is not None:
        return _refuse(state, reason)
    assert state.faceoff is not None
    return Outcome(_win(state, state.faceoff.other(seat)))


def _contest(state: Game, seat: int, move: Contest) -> Outcome:
    duel = state.faceoff
    if state.phase is not Phase.FACEOFF or duel is None:
        return _refuse(state, Reason.WRONG_PHASE)
    if duel.voting:
        return _refuse(state, Reason.VOTING)
    if duel.claimant is None:
        return _refuse(state, Reason.NOTHING_PENDING)
    if seat == duel.claimant:
        return _refuse(state, Reason.OWN_CLAIM)
    return Outcome(replace(state, faceoff=replace(duel, voting=True)))


def _count(state: Game) -> Game:
    """F-28: the vote closes once every player at the table has voted (or at F-29's
    window); a tie accepts. Refused, the claim or answer is dropped and the face-off goes
    on; the answer stays said (F-32)."""
    duel = state.faceoff
    assert duel is not None and duel.claimant is not None
    if len(duel.yes) >= len(duel.no):
        return _win(state, duel.claimant)
    return replace(state, faceoff=Faceoff(duel.a, duel.b, duel.tie_card, duel.tie_pile))


def _all_voted(state: Game) -> bool:
    duel = state.faceoff
    return duel is not None and state.active <= duel.yes | duel.no


def _vote(state: Game, seat: int, move: Vote) -> Outcome:
    duel = state.faceoff
    if state.phase is not Phase.FACEOFF or duel is None or not duel.voting:
        return _refuse(state, Reason.NO_VOTE)
    if seat in duel.yes | duel.no:
        return _refuse(state, Reason.ALREADY_VOTED)
    if move.accept:
        duel = replace(duel, yes=duel.yes | {seat})
    else:
        duel = replace(duel, no=duel.no | {seat})
    state = replace(state, faceoff=duel)
    return Outcome(_count(state) if _all_voted(state) else state)


def _window_closed(state: Game, seat: int, move: WindowClosed) -> Outcome:
    """F-29: a vote's window closes it; a claim's or an answer's accepts it by silence."""
    duel = state.faceoff
    if state.phase is not Phase.FACEOFF or duel is None or duel.claimant is None:
        return _refuse(state, Reason.NOTHING_PENDING)
    return Outcome(_count(state) if duel.voting else _win(state, duel.claimant))


def _tie(state: Game, seat: int, move: Tie) -> Outcome:
    """F-35, F-37: a tie-break card, or, with no category card left, the face-off again."""
    duel = state.faceoff
    if state.phase is not Phase.FACEOFF or duel is None:
        return _refuse(state, Reason.WRONG_PHASE)
    if duel.voting:
        return _refuse(state, Reason.VOTING)
    if duel.tie_card is not None:
        state = _put_under(state, duel.tie_pile, duel.tie_card)
    fresh = Faceoff(duel.a, duel.b)
    phase = Phase.TIE_DRAW if state.category_card_left() else Phase.FACEOFF
    return Outcome(replace(state, phase=phase, faceoff=fresh))


def _leave(state: Game, seat: int, move: Leave) -> Outcome:
    """F-39, F-40: the seat's piles stay, its top card is out of every face-off; a face-off
    it was in ends with no winner; a vote goes on without its vote."""
    state = replace(state, active=state.active - {seat})
    duel = state.faceoff
    if duel is not None and seat in (duel.a, duel.b):
        if duel.tie_card is not None:
            state = _put_under(state, duel.tie_pile, duel.tie_card)
        return Outcome(_settle(replace(state, faceoff=None)))
    if duel is not None and duel.voting:
        duel = replace(duel, yes=duel.yes - {seat}, no=duel.no - {seat})
        state = replace(state, faceoff=duel)
        return Outcome(_count(state) if _all_voted(state) else state)
    if len(state.active) < 2:  # a face-off needs two players
        return Outcome(_finish(state, Ending.DESERTED))
    if state.phase is Phase.TURN and state.turn == seat:
        nxt = _next_seat(state, seat)
        assert nxt is not None
        return Outcome(replace(state, turn=nxt, again=False))
    return Outcome(state)


_PLAYER: dict[type, Callable[[Game, int, Any], Outcome]] = {
    Turn: _turn,
    Answer: _answer,
    Claim: _claim,
    Concede: _concede,
    Contest: _contest,
    Vote: _vote,
    Leave: _leave,
}
_TABLE: dict[type, Callable[[Game, int, Any], Outcome]] = {
    Roll: _roll,
    Tie: _tie,
    WindowClosed: _window_closed,
}


def apply(state: Game, seat: int, move: Move) -> Outcome:
    """Apply one move by ``seat`` (``TABLE`` for a table event), in the table's order (F-7)."""
    if state.phase is Phase.OVER:
        return _refuse(state, Reason.GAME_OVER)
    if type(move) in _TABLE:
        if seat != TABLE:
            return _refuse(state, Reason.TABLE_ONLY)
        return _TABLE[type(move)](state, seat, move)
    if not 0 <= seat < state.seats:
        return _refuse(state, Reason.UNKNOWN_SEAT)
    if seat not in state.active:
        return _refuse(state, Reason.NOT_ACTIVE)
    return _PLAYER[type(move)](state, seat, move)
