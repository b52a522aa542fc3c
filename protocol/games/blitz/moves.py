"""Moves: the events a player makes. Frozen, slotted, and named as nouns.

A move carries the identity of every card it moves or turns face up (``card``
and ``shows``), so a replica that does not know a player's hidden cards can
still apply it, check it against what it knows, and learn what it reveals.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from .cards import Card


class Source(IntEnum):
    """Where a played card comes from."""

    BLITZ = 0
    WOOD = 1
    POST = 2


@dataclass(frozen=True, slots=True)
class CentrePlay:
    """Put the top card of a source on a centre pile (``pile`` is None for a 1)."""

    seat: int
    source: Source
    slot: int  # the Post stack when source is POST, else 0
    card: Card
    pile: int | None
    shows: Card | None  # the card turned face up by this play, if any


@dataclass(frozen=True, slots=True)
class PostPlay:
    """Put the Blitz or Wood top on one of the player's own Post stacks."""

    seat: int
    source: Source  # BLITZ or WOOD
    card: Card
    slot: int
    shows: Card | None


@dataclass(frozen=True, slots=True)
class WoodFlip:
    """Turn up to three cards from the hand onto the Wood pile; ``shows`` is the new top."""

    seat: int
    shows: Card


@dataclass(frozen=True, slots=True)
class WoodTurn:
    """Turn the whole Wood pile back into the empty hand, unshuffled."""

    seat: int


@dataclass(frozen=True, slots=True)
class StuckCall:
    """Say that this player can make no play."""

    seat: int


Move = CentrePlay | PostPlay | WoodFlip | WoodTurn | StuckCall
MOVE_TYPES: tuple[type, ...] = (CentrePlay, PostPlay, WoodFlip, WoodTurn, StuckCall)
