"""Blitz!'s moves, the table's events, and the refusals (spec/faceoff.md F-7, F-44).

A move is a frozen dataclass named as the action. A player's move comes with that
player's seat; an event the table decides (a die face, a tie, a window that closed) comes
with the seat ``TABLE``. ``rules.apply`` returns an ``Outcome``: the next state, or the
same state and a ``Refusal`` whose reason is a stable code.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .state import Game

TABLE: Final = -1  # F-7: the seat that table events come from


@dataclass(frozen=True, slots=True)
class Turn:
    """F-9: turn the top card of draw pile ``pile`` (0 or 1); ``card`` is the card the
    table's hidden-card service opened there."""

    pile: int
    card: int


@dataclass(frozen=True, slots=True)
class Answer:
    """F-24: a typed answer in a face-off."""

    text: str


@dataclass(frozen=True, slots=True)
class Claim:
    """F-25: "I answered first", said aloud, in a spoken face-off."""


@dataclass(frozen=True, slots=True)
class Concede:
    """F-26: a face-off player gives the face-off to the other."""


@dataclass(frozen=True, slots=True)
class Contest:
    """F-27: dispute the claim or the answer that is waiting; the table votes."""


@dataclass(frozen=True, slots=True)
class Vote:
    """F-28: one player's vote on a contested claim or answer."""

    accept: bool


@dataclass(frozen=True, slots=True)
class Leave:
    """F-39: the table says this seat's player has left (or was removed)."""


@dataclass(frozen=True, slots=True)
class Roll:
    """F-14: the table's die shows ``face`` (0 to 5), a value no node could choose."""

    face: int


@dataclass(frozen=True, slots=True)
class Tie:
    """F-35: the table found the two face-off players' claims (or answers) concurrent."""


@dataclass(frozen=True, slots=True)
class WindowClosed:
    """F-29: the window the table agreed on has closed (a claim's, an answer's, a vote's)."""


@dataclass(frozen=True, slots=True)
class TurnFrom:
    """A player's wish to turn the top card of draw pile ``pile``: not a move. The table's
    hidden-card service opens that card and puts ``Turn(pile, card)`` in the order (F-34)."""

    pile: int


PlayerMove = Turn | Answer | Claim | Concede | Contest | Vote | Leave
TableEvent = Roll | Tie | WindowClosed
Move = PlayerMove | TableEvent


class Reason(StrEnum):
    """Why a move was refused (F-44). The string is the stable code."""

    GAME_OVER = "game_over"
    UNKNOWN_SEAT = "unknown_seat"
    NOT_ACTIVE = "not_active"
    TABLE_ONLY = "table_only"
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_PHASE = "wrong_phase"
    BAD_PILE = "bad_pile"
    PILE_EMPTY = "pile_empty"
    NOT_ON_TOP = "not_on_top"
    NO_CATEGORY_CARD = "no_category_card"
    BAD_FACE = "bad_face"
    NOT_IN_FACEOFF = "not_in_faceoff"
    WRONG_MODE = "wrong_mode"
    EMPTY_ANSWER = "empty_answer"
    REPEAT = "repeat"
    PENDING = "pending"
    NOTHING_PENDING = "nothing_pending"
    OWN_CLAIM = "own_claim"
    VOTING = "voting"
    NO_VOTE = "no_vote"
    ALREADY_VOTED = "already_voted"


@dataclass(frozen=True, slots=True)
class Refusal:
    reason: Reason


@dataclass(frozen=True, slots=True)
class Outcome:
    """The state after the move (the same state when refused) and the refusal if any."""

    state: Game
    refusal: Refusal | None = None

    @property
    def accepted(self) -> bool:
        return self.refusal is None
