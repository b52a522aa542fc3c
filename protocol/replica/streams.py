"""One sender's stream of events as this node holds it.

Events are numbered 1, 2, 3, ... by their sender. A stream delivers them in
number order, ignores duplicates, and knows how far it is complete (``held``),
how far the sender says it has gone (``announced``), and which clock the sender
has promised to stay above (``horizon``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..wire.messages import Envelope

# How far past ``held`` a stream buffers out-of-order events; beyond that they
# are dropped and repaired later, so a hostile sender cannot make us hoard.
MAX_AHEAD = 4096
# The most numbers one gap report spans (a REPAIR-REQUEST asks for at most 256).
REPAIR_SPAN = 256


@dataclass(frozen=True, slots=True)
class Held:
    """One event as received: the decoded envelope and its original bytes."""

    envelope: Envelope
    raw: bytes


@dataclass(slots=True)
class Stream:
    node: bytes
    held: int = 0  # every event up to here is held, contiguously
    announced: int = 0  # the highest number the sender (or a peer's ack) has shown exists
    horizon: int = 0  # the sender's future events all have a Lamport time above this
    claim_seq: int = 0  # a heartbeat's promise waits until ``held`` reaches this ...
    claim_clock: int = 0  # ... and then raises ``horizon`` to this
    ack_cap: int | None = None  # a sender we suspect: we acknowledge nothing past this
    cut: int | None = None  # a sender that has left here: nothing past this counts
    first_seq: int = 1  # after a rejoin, numbers below this are stale
    last_heard: float = 0.0
    acks: dict[bytes, int] = field(default_factory=dict)  # what this sender holds
    events: dict[int, Held] = field(default_factory=dict)  # held and buffered, by number
    # Events past a cut: void, unless the sender is admitted again and they turn out to
    # belong to its new stream. Kept aside until then (a restart may see them first).
    parked: dict[int, Held] = field(default_factory=dict)

    def accepts(self, seq: int) -> bool:
        """Whether an event with this number is new and welcome here."""
        if seq <= self.held or seq in self.events or seq < self.first_seq:
            return False
        if self.cut is not None and seq > self.cut:
            return False
        return seq <= self.held + MAX_AHEAD

    def park(self, seq: int, item: Held) -> None:
        """Keep an event from past the cut aside, in case it opens a new stream."""
        if seq not in self.parked and len(self.parked) < MAX_AHEAD:
            self.parked[seq] = item

    def ack_level(self) -> int:
        """How far we acknowledge holding: capped where we stated our cut."""
        return self.held if self.ack_cap is None else min(self.held, self.ack_cap)

    def store(self, seq: int, item: Held) -> list[Held]:
        """Keep an event; return the ones that have just become contiguous."""
        self.events[seq] = item
        self.announced = max(self.announced, seq)
        ready: list[Held] = []
        while self.held + 1 in self.events:
            self.held += 1
            event = self.events[self.held]
            self.horizon = max(self.horizon, event.envelope.lamport)
            ready.append(event)
        self._settle_claim()
        return ready

    def promise(self, last_seq: int, clock: int) -> None:
        """A heartbeat: the sender has sent up to ``last_seq`` and its clock is ``clock``."""
        self.announced = max(self.announced, last_seq)
        if clock > self.claim_clock or last_seq > self.claim_seq:
            self.claim_seq = max(self.claim_seq, last_seq)
            self.claim_clock = max(self.claim_clock, clock)
        self._settle_claim()

    def _settle_claim(self) -> None:
        if self.claim_clock and self.held >= self.claim_seq:
            self.horizon = max(self.horizon, self.claim_clock)

    def missing(self) -> tuple[int, int] | None:
        """The first run of numbers we lack, up to what is known to exist."""
        top = self.announced if self.cut is None else min(self.announced, self.cut)
        if top <= self.held:
            return None
        first = self.held + 1
        top = min(top, first + REPAIR_SPAN - 1)  # an announcement can claim any number
        last = first
        while last < top and last + 1 not in self.events:
            last += 1
        return first, last

    def skip_to(self, first_seq: int) -> tuple[list[Held], list[Held]]:
        """A rejoined sender resumes at ``first_seq``: forget the numbers it skipped.

        Returns the events this makes contiguous, and the parked ones found void.
        """
        self.first_seq = first_seq
        self.cut = None
        self.ack_cap = None
        for seq in [s for s in self.events if self.held < s < first_seq]:
            del self.events[seq]
        void = [item for seq, item in sorted(self.parked.items()) if seq < first_seq]
        for seq, item in self.parked.items():
            if seq >= first_seq:
                self.events.setdefault(seq, item)
        self.parked = {}
        if self.held < first_seq - 1:
            self.held = first_seq - 1
        self.announced = max(self.announced, self.held)
        ready: list[Held] = []
        while self.held + 1 in self.events:
            self.held += 1
            event = self.events[self.held]
            self.horizon = max(self.horizon, event.envelope.lamport)
            ready.append(event)
        self._settle_claim()
        return ready, void

    def cut_at(self, cut: int) -> list[int]:
        """Nothing past ``cut`` counts any more; returns the numbers set aside."""
        self.cut = cut
        self.ack_cap = None  # the cut is agreed: everything up to it may be acknowledged
        dropped = sorted(s for s in self.events if s > cut)
        for seq in dropped:
            self.park(seq, self.events.pop(seq))
        self.held = min(self.held, cut)
        return dropped
