"""What the core asks its IO shell to do. The shell carries these out in order."""

from __future__ import annotations

from dataclasses import dataclass

from ..table.records import Outcome
from ..wire.messages import Body


@dataclass(frozen=True, slots=True)
class Send:
    """Send ``data`` to one peer, or to every peer when ``to`` is None."""

    to: bytes | None
    data: bytes


@dataclass(frozen=True, slots=True)
class Persist:
    """Append an event to the durable log. Must be done before any later ``Send``."""

    data: bytes


@dataclass(frozen=True, slots=True)
class PersistClock:
    """Record that this node's clock may have reached ``mark`` (survives a restart)."""

    mark: int


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One event of the stable log, with what it did."""

    index: int
    sender: bytes
    seq: int
    lamport: int
    body: Body
    outcome: Outcome


@dataclass(frozen=True, slots=True)
class Delivered:
    """An event has become stable: it is final, on every node, at this index."""

    entry: LogEntry


@dataclass(frozen=True, slots=True)
class Withdrawn:
    """An event of ours that will never count: the table removed us before it."""

    seq: int
    body: Body
    reason: str


@dataclass(frozen=True, slots=True)
class PeerSeen:
    """A peer's address, learnt from a Hello: connect to it if not yet connected."""

    node: bytes
    endpoint: str


@dataclass(frozen=True, slots=True)
class SpectatorSeen:
    """A spectator subscribed: connect to it, and send it nothing but its feed."""

    node: bytes
    endpoint: str


@dataclass(frozen=True, slots=True)
class Alarm:
    """Something a player or maintainer should hear about: a dropped message, a desync."""

    kind: str
    detail: str


@dataclass(frozen=True, slots=True)
class Timer:
    """Call ``tick`` again no later than ``at``."""

    at: float


Effect = (
    Send | Persist | PersistClock | Delivered | Withdrawn | PeerSeen | SpectatorSeen | Alarm | Timer
)
