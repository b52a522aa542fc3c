"""Dutch's moves, its refusals and what a move returns (D-8, D-40).

A move is a frozen dataclass named as the action; a refusal is a stable code. ``Outcome``
is what ``rules.apply`` returns: the next state, or the unchanged state and a refusal; and
the private openings the move grants.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import Round


@dataclass(frozen=True, slots=True, order=True)
class Spot:
    """One place in a hand: a seat and a slot, counted from 0."""

    seat: int
    slot: int


@dataclass(frozen=True, slots=True)
class InitialPeek:
    """D-6: look at two of your own cards before the first turn."""

    first: int
    second: int


@dataclass(frozen=True, slots=True)
class Draw:
    """D-9: take the top of the draw pile and look at it."""


@dataclass(frozen=True, slots=True)
class Discard:
    """D-10: put the drawn card face up on the discard pile."""


@dataclass(frozen=True, slots=True)
class Replace:
    """D-11: put the drawn card face down in ``slot``; that slot's card goes face up."""

    slot: int


@dataclass(frozen=True, slots=True)
class Swap:
    """D-14: a Jack's action: exchange two cards on the table."""

    first: Spot
    second: Spot


@dataclass(frozen=True, slots=True)
class Look:
    """D-15: a Queen's action: look at one face-down card."""

    spot: Spot


@dataclass(frozen=True, slots=True)
class Give:
    """D-16: an Ace's action: the top of the draw pile, unseen, into another player's hand."""

    seat: int


@dataclass(frozen=True, slots=True)
class Skip:
    """D-13: decline a special card's action."""


@dataclass(frozen=True, slots=True)
class Throw:
    """D-21: throw a card of your hand onto the discard pile in the race."""

    slot: int


@dataclass(frozen=True, slots=True)
class CallDutch:
    """D-28: call "Dutch" at the end of your turn."""


@dataclass(frozen=True, slots=True)
class Leave:
    """D-36: the table says this seat's player has left (or was removed); ``handed_over``
    says whether its shares of every card came first (spec/dutch-deal.md M-27, M-28)."""

    handed_over: bool = True


Move = (
    InitialPeek | Draw | Discard | Replace | Swap | Look | Give | Skip | Throw | CallDutch | Leave
)


class Reason(StrEnum):
    """Why a move was refused (D-40). The string is the stable code."""

    ROUND_OVER = "round_over"
    UNKNOWN_SEAT = "unknown_seat"
    NOT_ACTIVE = "not_active"
    NOT_PEEK_TIME = "not_peek_time"
    ALREADY_PEEKED = "already_peeked"
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_STAGE = "wrong_stage"
    BAD_SLOT = "bad_slot"
    EMPTY_SLOT = "empty_slot"
    SAME_SPOT = "same_spot"
    WRONG_ACTION = "wrong_action"
    LOCKED = "locked"
    NOT_AN_OPPONENT = "not_an_opponent"
    PILE_EMPTY = "pile_empty"
    WINDOW_CLOSED = "window_closed"
    NOTHING_TO_MATCH = "nothing_to_match"
    DUTCH_TAKEN = "dutch_taken"
    FACE_NOT_OPEN = "face_not_open"


@dataclass(frozen=True, slots=True)
class Refusal:
    reason: Reason


@dataclass(frozen=True, slots=True)
class Opening:
    """A card (its token) opened to one seat, or to every seat when ``seat`` is None."""

    token: int
    seat: int | None


@dataclass(frozen=True, slots=True)
class Outcome:
    """The state after the move (the same state when refused), the refusal if any, and the
    private openings the move grants, in order."""

    state: Round
    refusal: Refusal | None = None
    openings: tuple[Opening, ...] = ()

    @property
    def accepted(self) -> bool:
        return self.refusal is None
