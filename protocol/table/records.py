"""What the table keeps and answers: its phases, members, results, flags and outcomes."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Phase(StrEnum):
    LOBBY = "lobby"
    DEALING = "dealing"
    PLAYING = "playing"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an event did: ``refusal`` is None when it was accepted."""

    refusal: str | None = None
    by: int | None = None  # for a lost race: the seat that won it
    move: object = None  # the game's move, for a play (Dutch Blitz: games/blitz/moves.py)

    @property
    def accepted(self) -> bool:
        return self.refusal is None


ACCEPTED = Outcome()


@dataclass(slots=True)
class Member:
    node: bytes
    seat: int
    name: str
    back: str
    ready: bool = False
    present: bool = True
    since: int = 1  # first sequence number of its stream at its latest admission

    def copy(self) -> Member:
        return Member(
            self.node, self.seat, self.name, self.back, self.ready, self.present, self.since
        )


@dataclass(frozen=True, slots=True)
class RoundResult:
    round: int
    scores: dict[int, int]
    blitz_by: int | None  # the seat that ended the round, if one did
    void: bool = False  # ended unscored, and not one of the game's rounds (spec/rules.md R-61)


class FlagKind(StrEnum):
    MISMATCH = "mismatch"  # a reveal that does not fit its commitment, its deal or its moves
    WITHHELD = "withheld"  # a player moved on (or left) without revealing a finished round
    BACKDATED = "backdated"  # an event stamped below a clock its sender had announced
    UNAUDITED = "unaudited"  # removed before revealing: not held against the player


PENALISED = (FlagKind.MISMATCH, FlagKind.WITHHELD)


@dataclass(frozen=True, slots=True)
class Flag:
    """Something the audit found, the same on every node, at one place in the log."""

    round: int
    seat: int
    node: bytes
    kind: FlagKind
    detail: str
