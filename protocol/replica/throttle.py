"""Per-peer flood control for what a seat receives: token buckets, drops and cool-offs.

Pure: the seat gives the time with every message (``check(peer, size, now)``).

Every peer (by the routing id the transport reports, which the CURVE layer
authenticates) has two token buckets, one for messages and one for bytes. A message
that finds either empty is dropped and counted, before anything decodes it. A peer
that is still being dropped after ``sustain`` seconds of continuous excess is cut off:
the seat stops sending to it and drops everything from it for ``cool_off`` seconds,
after which it starts again with full buckets. The protocol repairs whatever a drop
loses.

The seat cuts off only peers that are not present members of its table. A member is
pardoned and stays throttled: a node that stopped hearing a member would lose the
acknowledgements it needs to make events final, and one that stopped sending to it would
soon be suspected by it; removing a member is the protocol's decision (section 12), not
one node's. Its excess is still dropped, and the flood is logged and counted.

The limits are well above the peaks of honest play (spec/protocol.md section 15,
"Flooding"): in games of four bots at the fastest level on loopback, one peer sent
another at most 282 messages and 36 KB in one second (tests/lan/test_flood.py prints
the peaks each node saw).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .bucket import TokenBucket

MAX_TRACKED = 256  # peers with a bucket; an idle one makes room for a new one


@dataclass(frozen=True, slots=True)
class Limits:
    messages_per_s: float = 1000.0
    message_burst: float = 2000.0
    bytes_per_s: float = 2_000_000.0
    byte_burst: float = 4_000_000.0
    sustain: float = 3.0  # seconds of continuous drops before a peer is cut off
    quiet: float = 1.0  # a gap this long between drops ends a run of excess
    cool_off: float = 30.0


class Verdict(Enum):
    TAKE = "take"
    DROP = "drop"
    CUT_OFF = "cut_off"  # dropped, and the peer has just been cut off


@dataclass(slots=True)
class Peer:
    messages: TokenBucket
    data: TokenBucket
    last_seen: float
    excess_since: float | None = None
    last_drop: float = -1e18
    banned_until: float = -1e18
    window: float = -1e18  # the start of the current second, for the peak rates
    window_messages: int = 0
    window_bytes: int = 0


@dataclass(slots=True)
class ThrottleStats:
    taken: int = 0
    dropped: int = 0
    dropped_bytes: int = 0
    cut_offs: int = 0
    peak_messages_per_s: int = 0  # the most messages one peer sent in one second
    peak_bytes_per_s: int = 0
    dropped_by_peer: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        return {
            "peak_messages_per_s": self.peak_messages_per_s,
            "peak_bytes_per_s": self.peak_bytes_per_s,
            "dropped": self.dropped,
            "dropped_bytes": self.dropped_bytes,
            "cut_offs": self.cut_offs,
            "by_peer": dict(self.dropped_by_peer),
        }


class Throttle:
    """Decide, per message, whether a peer is within its limits."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.stats = ThrottleStats()
        self._peers: dict[bytes, Peer] = {}

    def check(self, peer: bytes, size: int, now: float) -> Verdict:
        state = self._peer(peer, now)
        state.last_seen = now
        self._measure(state, size, now)
        if now < state.banned_until:
            return self._drop(peer, size)
        if state.banned_until > -1e18:  # the cool-off is over: a fresh start
            self._peers[peer] = state = self._fresh(now)
        if state.messages.take(1.0, now) and state.data.take(float(size), now):
            if state.excess_since is not None and now - state.last_drop > self.limits.quiet:
                state.excess_since = None
            self.stats.taken += 1
            return Verdict.TAKE
        if state.excess_since is None or now - state.last_drop > self.limits.quiet:
            state.excess_since = now
        state.last_drop = now
        self._drop(peer, size)
        if now - state.excess_since >= self.limits.sustain:
            state.banned_until = now + self.limits.cool_off
            state.excess_since = None
            self.stats.cut_offs += 1
            return Verdict.CUT_OFF
        return Verdict.DROP

    def _measure(self, state: Peer, size: int, now: float) -> None:
        if now - state.window >= 1.0:
            state.window, state.window_messages, state.window_bytes = now, 0, 0
        state.window_messages += 1
        state.window_bytes += size
        stats = self.stats
        stats.peak_messages_per_s = max(stats.peak_messages_per_s, state.window_messages)
        stats.peak_bytes_per_s = max(stats.peak_bytes_per_s, state.window_bytes)

    def pardon(self, peer: bytes) -> None:
        """Lift a cut-off at once (its excess is still dropped): for a member at the table."""
        state = self._peers.get(peer)
        if state is not None:
            state.banned_until = -1e18
            state.excess_since = None

    def cut_off(self, peer: bytes, now: float) -> bool:
        """Whether ``peer`` is serving a cool-off now."""
        state = self._peers.get(peer)
        return state is not None and now < state.banned_until

    def _drop(self, peer: bytes, size: int) -> Verdict:
        self.stats.dropped += 1
        self.stats.dropped_bytes += size
        key = peer.hex()[:8]
        if key in self.stats.dropped_by_peer or len(self.stats.dropped_by_peer) < MAX_TRACKED:
            self.stats.dropped_by_peer[key] = self.stats.dropped_by_peer.get(key, 0) + 1
        return Verdict.DROP

    def _fresh(self, now: float) -> Peer:
        limits = self.limits
        return Peer(
            TokenBucket.full(limits.messages_per_s, limits.message_burst, now),
            TokenBucket.full(limits.bytes_per_s, limits.byte_burst, now),
            now,
        )

    def _peer(self, peer: bytes, now: float) -> Peer:
        state = self._peers.get(peer)
        if state is None:
            if len(self._peers) >= MAX_TRACKED:
                self._forget_one(now)
            state = self._peers[peer] = self._fresh(now)
        return state

    def _forget_one(self, now: float) -> None:
        """Make room: forget the longest idle peer that is not serving a cool-off."""
        idle = [(s.last_seen, p) for p, s in self._peers.items() if now >= s.banned_until]
        if idle:
            del self._peers[min(idle)[1]]
        else:  # every tracked peer is cut off: the oldest ban ends early
            del self._peers[min(self._peers, key=lambda p: self._peers[p].banned_until)]
