"""The reveal and the score of a round of Dutch, the next round's start, and the end of a
game (D-29 to D-33, D-37 to D-39)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .state import Ending, Phase, Round

FAILED_DUTCH_DRAWS = 2  # D-32


class DutchResult(StrEnum):
    NONE = "none"  # nobody called
    SUCCESS = "success"
    FAILURE = "failure"


@dataclass(frozen=True, slots=True)
class RoundScore:
    """What a round adds to each seat's score, and how the next round starts."""

    hand_totals: tuple[int, ...]  # each hand's points as revealed (D-29)
    scores: tuple[int, ...]  # what each seat adds to its game score
    result: DutchResult
    extra: tuple[int, ...]  # the tokens a failed caller drew (D-32)
    next_starter: int
    penalised: frozenset[int]  # seats dealt a fifth card next round (D-33)


def reveal_tokens(state: Round) -> tuple[int, ...]:
    """D-30: the tokens opened to all at the end of a round: every card in a hand, and, when
    Dutch was called, the top two of the draw pile (a failed caller's extra cards)."""
    if state.phase is not Phase.OVER:
        raise ValueError("the round is not over")
    if state.ending is Ending.STRANDED:
        return ()  # M-28: a leaver took its keys; nothing can be opened
    hands = tuple(t for hand in state.hands for t in hand if t is not None)
    return hands + (state.draw[:FAILED_DUTCH_DRAWS] if state.caller is not None else ())


def _points(state: Round, tokens: Sequence[int]) -> int:
    total = 0
    for token in tokens:
        card = state.faces[token]
        if card is None:
            raise ValueError(f"token {token} is not opened: reveal it first")
        total += card.points
    return total


def _after(state: Round, seat: int) -> int:
    for step in range(1, state.seats + 1):
        if (seat + step) % state.seats in state.active:
            return (seat + step) % state.seats
    return (seat + 1) % state.seats


def score_round(state: Round) -> RoundScore:
    """D-31, D-32: the caller scores 0 (or a negative total) when strictly lowest; otherwise
    the caller adds two cards from the draw pile and starts the next round with five."""
    reveal_tokens(state)  # the round must be over
    if state.ending is Ending.STRANDED:  # M-28: not scored; nobody's hand is known
        nothing = (0,) * state.seats
        next_starter = _after(state, state.starter)
        return RoundScore(nothing, nothing, DutchResult.NONE, (), next_starter, frozenset())
    totals = tuple(_points(state, [t for t in hand if t is not None]) for hand in state.hands)
    caller = state.caller
    if caller is None:
        return RoundScore(
            totals, totals, DutchResult.NONE, (), _after(state, state.starter), frozenset()
        )
    others = [total for seat, total in enumerate(totals) if seat != caller]
    scores = list(totals)
    if all(totals[caller] < other for other in others):
        scores[caller] = min(0, totals[caller])
        return RoundScore(totals, tuple(scores), DutchResult.SUCCESS, (), caller, frozenset())
    extra = state.draw[:FAILED_DUTCH_DRAWS]
    scores[caller] += _points(state, extra)
    starter, penalised = _after(state, caller), frozenset({caller})
    return RoundScore(totals, tuple(scores), DutchResult.FAILURE, extra, starter, penalised)


@dataclass(frozen=True, slots=True)
class GameLength:
    """D-37: chosen in the lobby: play to a target score, or a number of rounds."""

    target: int | None = None
    rounds: int | None = None

    def __post_init__(self) -> None:
        if (self.target is None) == (self.rounds is None):
            raise ValueError("a Dutch game is played to a target score or a number of rounds")
        if (self.target or self.rounds or 0) <= 0:
            raise ValueError("a target or a number of rounds is a positive number")


def game_over(length: GameLength, totals: Sequence[int], rounds_played: int) -> bool:
    """D-38: the game ends after the round in which a player's total reaches the target, or
    after the chosen number of rounds."""
    if length.rounds is not None:
        return rounds_played >= length.rounds
    assert length.target is not None
    return any(total >= length.target for total in totals)


def winners(totals: Sequence[int]) -> tuple[int, ...]:
    """D-39: the lowest total wins; a tie shares the win."""
    best = min(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)
