"""A spectator's side of section 26: the stable log as members feed it, and its game.

A ``Follower`` asks members for the stable log (SUBSCRIBE, renewed every ``RENEW_S``),
takes the FEEDs they send, checks every event's signature, and applies the events in
the order fed to a ``Game`` of its own: the public game, since every event is public
and no deck order is ever sent until a round's REVEAL. Several members may feed the
same spectator; an event is taken once, at its index, from whoever sends it first.
It is sans-IO like the replica: bytes and time in, effects out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..limits import DIGEST_SIZE
from ..replica.digest import canonical_bytes
from ..replica.effects import Alarm, Delivered, Effect, LogEntry, Send
from ..replica.spectators import LEASE_S, PRESENCE
from ..table.state import Game, Phase
from ..wire.codec import ProtocolError, decode, encode
from ..wire.messages import Envelope, Event, Watch, WatchOp
from ..wire.signing import authentic

RENEW_S = 2.0  # a spectator renews its subscription this often (a third of the lease)
SILENT_S = 2 * RENEW_S + 1.0  # the member feeding us says nothing this long: ask the next


@dataclass(slots=True)
class Source:
    """A member that feeds us: its name, whom it feeds, when it last did."""

    name: str
    watchers: tuple[str, ...]
    heard: float


@dataclass(slots=True)
class Follower:
    """One spectator's copy of the table's stable log and game."""

    table: str
    node: bytes
    name: str
    endpoint: str
    epoch: bytes = b""  # the table log followed (empty: none yet)
    left: set[bytes] = field(default_factory=set)  # logs given up: never followed again
    game: Game = field(default_factory=Game)
    log: list[LogEntry] = field(default_factory=list)
    chain: bytes = b""  # the log's chain, as a member's (section 13)
    sources: dict[bytes, Source] = field(default_factory=dict)
    renewed: dict[bytes, float] = field(default_factory=dict)
    feeder: bytes | None = None  # the member that feeds us events; the others only count us
    chosen_at: float = -1e18
    stopped: bool = False  # END sent: we ask nobody again, or a member would count us anew
    dropped: dict[str, int] = field(default_factory=dict)
    # The log length, the digest and the game when the game ended and was audited.
    ended: tuple[int, bytes, Game] | None = None

    # -- what we send --------------------------------------------------------------------

    def subscribe(self, to: Iterable[bytes], now: float) -> list[Effect]:
        """SUBSCRIBE (or renew) at each of ``to`` not asked within ``RENEW_S``.

        Until the log names the members, each is asked for events; then one of them, the
        feeder, is, and the others are told only that we watch (``PRESENCE``). Once we
        have sent END, nothing: a renewal after it would put us back on a member's list.
        """
        if self.stopped:
            return []
        candidates = sorted(set(to))
        feeder = self._choose(candidates, now) if self.game.members else None
        effects: list[Effect] = []
        for node in candidates:
            if now - self.renewed.get(node, -1e18) < RENEW_S:
                continue
            self.renewed[node] = now
            wanted = feeder is None or node == feeder
            effects.append(Send(node, self._watch(WatchOp.SUBSCRIBE, wanted)))
        return effects

    def _choose(self, candidates: list[bytes], now: float) -> bytes | None:
        """The feeder: kept while it answers, else the next in turn. Spectators start at
        a member their own id picks, so that they spread over the table."""
        if not candidates:
            return None
        current = self.feeder
        if current is not None and current in candidates:
            source = self.sources.get(current)
            heard = max(self.chosen_at, source.heard if source is not None else -1e18)
            if now - heard <= SILENT_S:
                return current
            start = candidates.index(current) + 1
        else:
            start = int.from_bytes(self.node[:4], "big")
        chosen = candidates[start % len(candidates)]
        if current is not None:
            self.renewed.pop(chosen, None)  # asked for events at once (at first, all were)
        self.feeder, self.chosen_at = chosen, now
        return chosen

    def end(self) -> list[Effect]:
        """END at every member we asked: we stop watching, and renew nothing after."""
        self.stopped = True
        return [Send(node, self._watch(WatchOp.END)) for node in self.renewed]

    def _watch(self, op: WatchOp, events: bool = True) -> bytes:
        index = (len(self.log) if events else PRESENCE) if op == WatchOp.SUBSCRIBE else 0
        watch = Watch(op, self.epoch, index, self.name, self.endpoint)
        return encode(Envelope(self.table, self.node, 0, 0, watch))

    # -- what we are told ------------------------------------------------------------------

    def members(self) -> list[bytes]:
        """The present members of the game as fed so far."""
        return [m.node for m in self.game.members.values() if m.present and m.node != self.node]

    def watchers(self, now: float) -> tuple[str, ...]:
        """Who watches, as the members feeding us say (ourselves included), sorted."""
        names = {self.name}
        for source in self.sources.values():
            if now - source.heard <= LEASE_S:
                names.update(source.watchers)
        return tuple(sorted(names))

    def live_epoch(self, now: float) -> bytes | None:
        """The log we follow while a member of it has fed us within ``LEASE_S``, else None.

        Members send a spectator nothing but FEEDs (no HEARTBEAT), and those that only
        count us answer once a renewal: a FEED within a lease is the table answering."""
        fed = any(now - source.heard <= LEASE_S for source in self.sources.values())
        return self.epoch if self.epoch and fed else None

    def receive(self, sender: bytes, data: bytes, now: float) -> list[Effect]:
        """One message from ``sender`` (authenticated by the channel): a FEED, or dropped."""
        try:
            envelope = decode(data)
        except ProtocolError as error:
            return self._drop(str(error.reason), f"undecodable message: {error}")
        if envelope.table != self.table or envelope.sender != sender:
            return self._drop("other_table", "a message for another table or sender")
        watch = envelope.payload
        if not isinstance(watch, Watch):
            # A member's greeting, or what it broadcast before it knew us: not ours.
            self.dropped["not_a_feed"] = self.dropped.get("not_a_feed", 0) + 1
            return []
        if watch.op != WatchOp.FEED:
            return self._drop("not_a_feed", "a message a spectator has no use for")
        if watch.epoch != self.epoch and not self._move_to(watch.epoch):
            return self._drop("other_epoch", "a feed of another table log")
        self.sources[sender] = Source(watch.name, watch.watchers, now)
        effects: list[Effect] = []
        for offset, raw in enumerate(watch.events):
            index = watch.index + offset
            if index > len(self.log):
                break  # a gap: our next renewal asks from where we are
            if index < len(self.log):
                if not self._same_as_fed(index, raw):
                    return [*effects, *self._drop("fed_differently", "members fed another log")]
                continue  # fed already, by this member or another
            taken = self._take(raw)
            if isinstance(taken, Alarm):
                return [*effects, taken]
            effects.append(taken)
        return effects

    def _move_to(self, epoch: bytes) -> bool:
        """Follow the log ``epoch`` from now on, if our table has no game on: the first
        one fed, a table ours merged into (a smaller epoch, section 12), or a new table
        after the end. A log given up is never followed again."""
        phase = self.game.phase
        if not epoch or epoch in self.left or phase not in (Phase.LOBBY, Phase.OVER):
            return False
        if self.epoch and phase == Phase.LOBBY and epoch > self.epoch:
            return False
        if self.epoch:
            self.left.add(self.epoch)
            self.sources.clear()
            self.renewed.clear()  # ask every member again, for the new log from its start
        self.epoch, self.game, self.log, self.chain = epoch, Game(), [], b""
        return True

    def _same_as_fed(self, index: int, raw: bytes) -> bool:
        """Whether ``raw`` is the event we took at ``index`` (every member holds one log)."""
        entry = self.log[index]
        try:
            event = decode(raw)
        except ProtocolError:
            return False
        return (event.sender, event.seq) == (entry.sender, entry.seq)

    def _take(self, raw: bytes) -> Delivered | Alarm:
        event = decode(raw)  # the codec has checked it inside the FEED
        if not isinstance(event.payload, Event) or not authentic(event.sender, raw, event.auth):
            self.dropped["bad_signature"] = self.dropped.get("bad_signature", 0) + 1
            return Alarm("dropped", f"a fed event of {event.sender.hex()[:8]} is not signed")
        body = event.payload.body
        outcome = self.game.apply(event.sender, body, event.lamport)
        entry = LogEntry(len(self.log), event.sender, event.seq, event.lamport, body, outcome)
        self.log.append(entry)
        link = self.chain + event.sender + event.seq.to_bytes(8, "big") + raw
        self.chain = hashlib.blake2b(link, digest_size=DIGEST_SIZE).digest()
        game = self.game
        new_end = self.ended is None or self.ended[2].game_number != game.game_number
        if game.phase == Phase.OVER and game.audit_complete() and new_end:
            self.ended = (len(self.log), self.digest(), game.copy())
        return Delivered(entry)

    def digest(self) -> bytes:
        """The public digest after the events taken so far, as a member computes it."""
        body = canonical_bytes([self.chain, self.game.public_form()])
        return hashlib.blake2b(body, digest_size=DIGEST_SIZE).digest()

    def _drop(self, reason: str, detail: str) -> list[Effect]:
        self.dropped[reason] = self.dropped.get(reason, 0) + 1
        return [Alarm("dropped", detail)] if self.dropped[reason] == 1 else []
