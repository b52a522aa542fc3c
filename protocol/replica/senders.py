"""The replica's table of senders: one stream per node it hears, bounded.

Every stream a replica keeps lives here, and so do the checks that decide whether a
message may open or touch one: an event already held, a clock too far ahead, a sender
there is no room for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..wire.messages import Envelope
from .guard import MAX_CLOCK_JUMP, MAX_STREAMS
from .streams import Stream

if TYPE_CHECKING:
    from .core import Replica


class Senders:
    """The streams of one replica, keyed by sender, and the guards on them."""

    def __init__(self, replica: Replica) -> None:
        self.replica = replica
        self.streams: dict[bytes, Stream] = {}

    def stream(self, node: bytes) -> Stream:
        """The stream of ``node``, opened (heard from now) if there is none yet."""
        stream = self.streams.get(node)
        if stream is None:
            stream = self.streams[node] = Stream(node, last_heard=self.replica.now)
        return stream

    def first_seq(self, node: bytes) -> int:
        stream = self.streams.get(node)
        return 1 if stream is None else stream.first_seq

    def is_duplicate(self, envelope: Envelope) -> bool:
        """An event we already hold (or have set aside): dropped without a signature check."""
        stream = self.streams.get(envelope.sender)
        if stream is None:
            return False
        if stream.cut is not None and envelope.seq > stream.cut:
            return envelope.seq in stream.parked
        return not stream.accepts(envelope.seq)

    def clock_near(self, lamport: int) -> bool:
        """Whether a clock is near enough to take; if not, ours moves towards it a step."""
        clock = self.replica.clock
        if lamport - clock.time <= MAX_CLOCK_JUMP:
            return True
        clock.observe(clock.time + MAX_CLOCK_JUMP)
        return False

    def room_for(self, node: bytes) -> bool:
        """Whether ``node`` has a stream here or can have one: the table of streams is bounded.

        When it is full, the least recently heard stream that nothing depends on (not a
        member's, never cut or suspected, holding no event still to apply) makes room.
        """
        if node in self.streams or len(self.streams) < MAX_STREAMS:
            return True
        replica = self.replica
        liveness = replica.liveness
        idle = [
            stream
            for key, stream in self.streams.items()
            if key != replica.me.node
            and key not in replica.order.stable.members
            and key not in liveness.settled
            and key not in liveness.claims
            and not stream.events
            and not stream.parked
        ]
        if not idle:
            return False
        gone = min(idle, key=lambda s: s.last_heard).node
        del self.streams[gone]
        replica.repairs.asked.pop(gone, None)
        replica.order.announced_clocks.pop(gone, None)
        for stream in self.streams.values():
            stream.acks.pop(gone, None)
        return True
