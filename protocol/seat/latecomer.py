"""A seat that arrives while a game is on: what it can tell its player about that game.

A table admits new players only in its lobby (spec/protocol.md P-117), so a node
that asks to join a table in the middle of a game waits, unadmitted, and sits
down once that table has a lobby again, or founds a new one when the table is
gone. Meanwhile the members that know of it still send it their HEARTBEATs and
events: ``Standing`` (standing.py) hands each here, decoded, before the replica takes
it, to say how many are at the table and which round they play.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..wire.messages import Envelope, Event, Heartbeat

ROUND_HINT_S = 4.0  # with no round seen, refused this long: a game must be on
NEWS_FRESH_S = 5.0  # what was heard longer ago than this may be a table that has gone


@dataclass(frozen=True, slots=True)
class GameUnderWay:
    """The game that keeps us waiting: the others at its table, and its latest round
    (0: not known yet)."""

    players: int
    round: int


@dataclass(slots=True)
class GameNews:
    """What a seat waiting to be admitted has overheard of its table's game."""

    nodes: set[bytes] = field(default_factory=set)
    round: int = 0
    heard_at: float = -1e18

    def overhear(self, envelope: Envelope, now: float) -> None:
        """One HEARTBEAT or event from a member of the table we asked to join."""
        payload = envelope.payload
        if isinstance(payload, Heartbeat):
            # A member acknowledges every stream it holds: the members' first.
            self.nodes = {envelope.sender, *(ack.node for ack in payload.acks)}
            self.heard_at = now
        elif isinstance(payload, Event):
            number = getattr(payload.body, "round", 0)
            if isinstance(number, int) and number > self.round:
                self.round = number
            self.heard_at = now

    def game_on(self, asked_for: float, now: float, me: bytes) -> GameUnderWay | None:
        """The game that keeps us waiting, or None if none is known to be on.

        ``asked_for``: how long we have asked to be admitted.
        """
        if now - self.heard_at > NEWS_FRESH_S:
            return None
        if self.round == 0 and asked_for < ROUND_HINT_S:
            return None  # a lobby admits in a moment; only a game keeps us out
        return GameUnderWay(len(self.nodes - {me}), self.round)
