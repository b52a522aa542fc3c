"""The replica's repair: filling gaps in a stream from any peer that holds the events.

A gap is asked for from its origin first, then from each peer whose acknowledgements
show it holds the events, in turn, a batch at a time. A REPAIR-REQUEST is served from
the events held, stable or not; a REPAIR's events are checked like any other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..wire.codec import ProtocolError, encode
from ..wire.messages import Envelope, Event, Repair, RepairRequest
from .effects import Effect, Send

if TYPE_CHECKING:
    from .core import Replica

REPAIR_BATCH = 64


class Repairs:
    """The repairs we have asked for (when, and which attempt), and serving others'."""

    def __init__(self, replica: Replica) -> None:
        self.replica = replica
        self.asked: dict[bytes, tuple[float, int]] = {}

    def ask(self, now: float) -> list[Effect]:
        """Ask for the first gap of every stream, unless asked too recently."""
        replica = self.replica
        effects: list[Effect] = []
        for node, stream in replica.streams.items():
            if node == replica.me.node:
                continue
            gap = stream.missing()
            if gap is None:
                continue
            asked = self.asked.get(node)
            if asked is not None and now - asked[0] < replica.settings.repair_retry:
                continue
            attempt = 0 if asked is None else asked[1] + 1
            source = self.source(node, gap[0], attempt)
            if source is None:
                continue
            self.asked[node] = (now, attempt)
            replica.counters.repairs_asked += 1
            last = min(gap[1], gap[0] + REPAIR_BATCH - 1)
            request = RepairRequest(node, gap[0], last)
            envelope = Envelope(replica.me.table, replica.me.node, replica.clock.time, 0, request)
            effects.append(Send(source, encode(envelope)))
        return effects

    def source(self, origin: bytes, first: int, attempt: int) -> bytes | None:
        """Ask the origin first, then each peer whose acks show it holds the events."""
        me = self.replica.me.node
        holders = [
            node
            for node, stream in sorted(self.replica.streams.items())
            if node not in (me, origin) and stream.acks.get(origin, 0) >= first
        ]
        settled = self.replica.liveness.settled
        candidates = ([origin] if origin not in settled else []) + holders
        if not candidates:
            return None
        return candidates[attempt % len(candidates)]

    def serve(self, requester: bytes, request: RepairRequest) -> list[Effect]:
        replica = self.replica
        raws = self.held_raws(request.origin, request.first, request.last)
        if not raws:
            return []
        replica.counters.repairs_served += 1
        repair = Repair(request.origin, tuple(raws))
        envelope = Envelope(replica.me.table, replica.me.node, replica.clock.time, 0, repair)
        return [Send(requester, encode(envelope))]

    def held_raws(self, origin: bytes, first: int, last: int) -> list[bytes]:
        stream = self.replica.streams.get(origin)
        if stream is None:
            return []
        logged = self.replica.order.stable_raws
        found: list[bytes] = []
        for seq in range(first, min(last, first + REPAIR_BATCH - 1) + 1):
            held = stream.events.get(seq)
            raw = held.raw if held is not None else logged.get((origin, seq))
            if raw is None:
                break
            found.append(raw)
        return found

    def take(self, repair: Repair, now: float) -> list[Effect]:
        replica = self.replica
        senders = replica.senders
        effects: list[Effect] = []
        for raw in repair.events:
            try:
                envelope = replica.decode(raw)
            except ProtocolError as error:
                effects += replica.dropped(str(error.reason), f"bad event in a repair: {error}")
                continue
            if envelope.sender != repair.origin or not isinstance(envelope.payload, Event):
                effects += replica.dropped("bad_repair", "a repair held another node's event")
                continue
            if envelope.sender == replica.me.node:
                continue
            if senders.is_duplicate(envelope):
                replica.counters.duplicates += 1
                continue
            if not replica.authentic(envelope.sender, raw, envelope.auth):
                effects += replica.forged(envelope, "in a repair")
                continue
            if not senders.clock_near(envelope.lamport):
                effects += replica.dropped("clock_jump", "a repaired event far ahead of our clock")
                continue
            if not senders.room_for(envelope.sender):
                effects += replica.dropped("too_many_peers", "no room for another sender")
                continue
            replica.clock.observe(envelope.lamport)
            effects += replica.order.take_event(envelope, raw, now, persist=True)
        self.asked.pop(repair.origin, None)
        return effects
