"""The replica's spectators: nodes that watch the table without a seat (section 26).

A spectator is not a member. It sends a member nothing but WATCH: a SUBSCRIBE naming
the first stable event it lacks, renewed every couple of seconds, and an END. The member
feeds it the stable log from there, each event the original signed EVENT message, and
then every event as it becomes final. A spectator never enters the order: it holds no
stream, its clock moves nobody's, nobody waits for its acknowledgement, and anything
else it sends is refused and counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..limits import MAX_SPECTATORS
from ..wire.codec import MAX_WATCHERS, encode
from ..wire.messages import Envelope, Watch, WatchOp
from ..wire.wholes import MAX_REPAIR_EVENTS
from .effects import Effect, Send, SpectatorSeen
from .guard import endpoint_ok

if TYPE_CHECKING:
    from .core import Replica

LEASE_S = 6.0  # a subscription not renewed for this long has ended
FEED_BYTES = 48_000  # the events of one FEED, well inside a message's 65536 bytes
FEEDS_AT_ONCE = 8  # FEEDs to one spectator per call: a long log goes over a few ticks
PRESENCE = 2**63 - 1  # a SUBSCRIBE's index that asks for no events: "I watch, through another"


@dataclass(slots=True)
class Subscriber:
    name: str
    endpoint: str
    until: float  # the lease runs out then, unless renewed
    next: int  # the index of the next stable event to send it
    events: bool = True  # False: fed through another member; we only count it as watching


class Spectators:
    """Who watches through this member, and how far each has been fed."""

    def __init__(self, replica: Replica) -> None:
        self.replica = replica
        self.watching: dict[bytes, Subscriber] = {}

    def is_watching(self, node: bytes) -> bool:
        return node in self.watching

    def names(self) -> tuple[str, ...]:
        """The names of those who watch through us, sorted."""
        return tuple(sorted(sub.name for sub in self.watching.values()))[:MAX_WATCHERS]

    def take(self, sender: bytes, watch: Watch, now: float) -> list[Effect]:
        """A WATCH from ``sender``: a subscription, its renewal or its end."""
        replica = self.replica
        if watch.op == WatchOp.FEED:
            return replica.dropped("feed_to_member", "a FEED sent to a member")
        if replica._present(sender):
            return replica.dropped("member_watching", "a member asked to watch")
        if watch.op == WatchOp.END:
            self.watching.pop(sender, None)
            return []
        if not replica.is_member():
            return []  # only a member feeds; a newcomer or a spectator has nothing final
        sub = self.watching.get(sender)
        effects: list[Effect] = []
        if sub is None:
            if len(self.watching) >= MAX_SPECTATORS:
                return replica.dropped("too_many_spectators", "no room for another spectator")
            if not endpoint_ok(watch.endpoint, replica.me.endpoint):
                return replica.dropped("bad_endpoint", f"a spectator at {watch.endpoint!r}")
            sub = self.watching[sender] = Subscriber(watch.name, watch.endpoint, now, 0)
            effects.append(SpectatorSeen(sender, watch.endpoint))
        sub.name = watch.name
        sub.until = now + LEASE_S
        # A spectator of another log (a table merged into ours) is fed ours from the start.
        same = watch.epoch == replica.me.epoch
        sub.next = min(watch.index, len(replica.log)) if same else 0
        sub.events = watch.index != PRESENCE
        if not sub.events:
            sub.next = len(replica.log)  # its answer carries no event
        return effects + self._feed_one(sender, sub, answer=True, made={})

    def feed(self, now: float) -> list[Effect]:
        """Send each spectator the stable events it has not been sent yet.

        Spectators fed up to the same point get the same bytes: each FEED is encoded once.
        """
        effects: list[Effect] = []
        made: dict[int, tuple[bytes, int]] = {}
        for node, sub in list(self.watching.items()):
            if sub.until < now:
                del self.watching[node]
                continue
            if sub.events:
                effects += self._feed_one(node, sub, answer=False, made=made)
        return effects

    def _feed_one(
        self, node: bytes, sub: Subscriber, answer: bool, made: dict[int, tuple[bytes, int]]
    ) -> list[Effect]:
        """FEEDs from ``sub.next``; with ``answer`` at least one, empty if nothing is new.

        ``made``: the FEEDs made so far in this round, by first index: (bytes, events)."""
        effects: list[Effect] = []
        while len(effects) < FEEDS_AT_ONCE and (sub.next < len(self.replica.log) or answer):
            answer = False
            if sub.next not in made:
                made[sub.next] = self._make_feed(sub.next)
            data, count = made[sub.next]
            sub.next += count
            effects.append(Send(node, data))
        return effects

    def _make_feed(self, first: int) -> tuple[bytes, int]:
        """One FEED of the stable log from ``first``, as many events as fit; (bytes, events)."""
        replica = self.replica
        log, raws = replica.log, replica.order.stable_raws
        size, batch, at = 0, list[bytes](), first
        while at < len(log) and len(batch) < MAX_REPAIR_EVENTS:
            entry = log[at]
            raw = raws[(entry.sender, entry.seq)]
            if batch and size + len(raw) > FEED_BYTES:
                break
            batch.append(raw)
            size += len(raw)
            at += 1
        me = replica.me
        names, events = self.names(), tuple(batch)
        feed = Watch(WatchOp.FEED, me.epoch, first, me.name, me.endpoint, names, events)
        envelope = Envelope(me.table, me.node, replica.clock.time, 0, feed)
        return encode(envelope), len(batch)
