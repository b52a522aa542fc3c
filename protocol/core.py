"""The sans-IO replica: bytes and timer ticks in, effects out.

A ``Replica`` holds every sender's stream, orders events by Lamport time with a
fair tie-break, applies an event to the game once it is stable (nobody can
still send anything that sorts before it), repairs gaps from any peer, settles
who has left, and checks its state digest against its peers'. It never reads a
clock or touches a socket: ``now`` is passed in, and effects come back.
"""

from __future__ import annotations

import bisect
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from .auth import AUTH_SIZE, Signer, node_id_of
from .clock import LamportClock, OrderKey, order_key
from .codec import MAX_PEERS, ProtocolError, decode, encode
from .digest import DIGEST_SIZE, canonical_bytes
from .effects import (
    Alarm,
    Delivered,
    Effect,
    LogEntry,
    PeerSeen,
    Persist,
    PersistClock,
    Send,
    Timer,
    Withdrawn,
)
from .game import Game, Phase
from .guard import (
    MAX_ADMITTING,
    MAX_CLAIM_TARGETS,
    MAX_CLOCK_JUMP,
    MAX_ENDPOINTS,
    MAX_GUEST_AHEAD,
    MAX_GUEST_RAWS,
    MAX_NEW_PEERS_PER_HELLO,
    MAX_SETTLED,
    MAX_STREAMS,
    endpoint_ok,
)
from .messages import (
    Ack,
    Admit,
    Backdated,
    Body,
    Bye,
    Cut,
    Envelope,
    Event,
    Heartbeat,
    Hello,
    PeerAddress,
    Repair,
    RepairRequest,
    Suspect,
)
from .signing import authentic, sign_encoded
from .streams import Held, Stream

MAX_ACKS = MAX_PEERS  # a HEARTBEAT carries as many acks as a HELLO carries peers
REPAIR_BATCH = 64
CLOCK_MARK_STEP = 1024
DIGEST_MEMORY = 256


@dataclass(frozen=True, slots=True)
class Settings:
    """Timing of the protocol, in seconds of the ``now`` the shell passes in."""

    heartbeat_every: float = 0.25
    suspect_after: float = 2.0
    repair_retry: float = 0.3
    hello_every: float = 1.0
    # Check the signature of an event that comes straight from its origin. The node may
    # turn this off when its channel has already authenticated the sender (CURVE); an
    # event relayed by anyone else, or inside a REPAIR, is always checked.
    verify_direct: bool = True


@dataclass(slots=True)
class Counters:
    received: int = 0
    dropped: dict[str, int] = field(default_factory=dict)
    duplicates: int = 0
    repairs_asked: int = 0
    repairs_served: int = 0
    desyncs: int = 0
    sent: int = 0
    bad_signatures: int = 0
    backdated: int = 0

    def drop(self, reason: str) -> bool:
        """Count a dropped message; True the first time this reason is seen (log it once)."""
        self.dropped[reason] = self.dropped.get(reason, 0) + 1
        return self.dropped[reason] == 1


@dataclass(slots=True)
class Identity:
    node: bytes
    table: str
    epoch: bytes  # the table's log id; also the seed of the tie-break
    name: str = "player"
    back: str = "pump"
    endpoint: str = ""


class Replica:
    """One node's copy of the table log and game, fed by ``receive`` and ``tick``."""

    def __init__(
        self,
        identity: Identity,
        now: float,
        settings: Settings | None = None,
        signer: Signer | None = None,
    ) -> None:
        if signer is not None and signer.node_id != identity.node:
            raise ValueError("the signer's key does not go with this node's id")
        self.me = identity
        self.signer = signer  # None: our events go out unsigned (peers will refuse them)
        self.settings = settings or Settings()
        self.clock = LamportClock()
        self.my_seq = 0
        self.streams: dict[bytes, Stream] = {}
        self.pending: list[tuple[OrderKey, bytes, int]] = []  # (key, sender, seq)
        self.stable = Game()
        self.log: list[LogEntry] = []
        self.stable_raws: dict[tuple[bytes, int], bytes] = {}  # to serve repairs
        self.chain = b""
        self.counters = Counters()
        self.endpoints: dict[bytes, str] = {}
        self.keys: dict[bytes, bytes] = {}  # node -> public key, for the HELLO peer lists
        self.suspected: dict[bytes, int] = {}  # node -> what I held when I suspected it
        self.suspect_seqs: dict[bytes, int] = {}  # node -> the number of my Suspect event
        self.claims: dict[bytes, dict[bytes, int]] = {}  # target -> {suspecter: held}
        self.claim_seqs: dict[tuple[bytes, bytes], int] = {}  # (target, suspecter) -> its seq
        self.settled: dict[bytes, int] = {}  # target -> agreed cut
        self.cut_notes: list[tuple[bytes, Cut]] = []  # CUTs whose sender we cannot place yet
        self.withdrawn: set[bytes] = set()  # suspicions we took back (P-88): no CUT from us
        self.cuts_applied: dict[bytes, int] = {}  # node -> highest cut of it in the stable log
        self.rejoining = False
        self._majority_since: float | None = None  # when we last came to hear a majority
        self.genesis = False  # nothing is final before the founder's own Admit is held
        self.admitted: set[tuple[bytes, int]] = set()
        # Each peer's highest announced clock, with its last seq then: any later event of
        # its must be stamped above it, or it is reported as backdated.
        self.announced_clocks: dict[bytes, tuple[int, int]] = {}
        self._reported: set[tuple[bytes, int]] = set()
        # The game as it stood when it ended and its last round was audited, the log length
        # then, and the digest there:
        # the same on every node, while events ordered after the end still come in.
        self.ended: tuple[int, bytes, Game] | None = None
        self._optimistic: Game | None = None
        self._ack_due = False
        self._clock_mark = 0
        self._last_heartbeat = -1e18
        self._last_hello = -1e18
        self._repair_asked: dict[bytes, tuple[float, int]] = {}
        self._guest_raws = 0  # void events of senders nobody seated, kept for repairs
        self._digests: dict[int, bytes] = {}
        self._last_digest: tuple[int, bytes] = (0, b"")  # the latest computed: index, digest
        self._peer_digests: dict[int, tuple[bytes, bytes]] = {}
        self.now = now

    # -- starting --------------------------------------------------------------------

    def found(self, now: float) -> list[Effect]:
        """Start a new table with this node as its first member."""
        return self.submit(Admit(self.me.node, 1), now)

    def ask_to_join(self, now: float) -> list[Effect]:
        """Say hello as a non-member asking to be admitted (a newcomer, or after removal)."""
        self.rejoining = True
        return [self._hello(None)]

    def restore(self, raws: Iterable[bytes], clock_mark: int, now: float) -> list[Effect]:
        """Reload the durable log after a restart: every event held, own ones included."""
        effects: list[Effect] = []
        self.clock.observe(clock_mark)
        self._clock_mark = clock_mark
        for raw in raws:
            try:
                envelope = decode(raw)
            except ProtocolError:
                continue  # a torn or damaged record: the log reader should have cut it
            if not isinstance(envelope.payload, Event):
                continue
            if not self._is_duplicate(envelope) and not authentic(
                envelope.sender, raw, envelope.auth
            ):
                effects += self._forged(envelope, "in the stored log")
                continue
            if envelope.sender == self.me.node:
                self.my_seq = max(self.my_seq, envelope.seq)
            effects += self._take_event(envelope, raw, now, persist=False)
        effects += self._advance(now)
        return effects

    # -- the shell's entry points ----------------------------------------------------------

    def receive(
        self, data: bytes, now: float, via: bytes | None = None, advance: bool = True
    ) -> list[Effect]:
        """Handle one message from the network. Never raises on bad input.

        With ``advance`` false nothing is applied yet: a shell that handles a batch this
        way sends its acknowledgement (``flush``) first, then calls ``advance`` once.
        """
        self.now = now
        self.counters.received += 1
        try:
            envelope = decode(data)
        except ProtocolError as error:
            return self._dropped(str(error.reason), f"undecodable message: {error}")
        if envelope.table != self.me.table:
            return self._dropped("other_table", f"message for table {envelope.table!r}")
        if envelope.sender == self.me.node:
            return self._dropped("from_myself", "a message claiming to be from this node")
        payload = envelope.payload
        if isinstance(payload, Event):
            if self._is_duplicate(envelope):
                # Held already (or too far ahead): unchecked, so it may not move the clock.
                self.counters.duplicates += 1
                return []
            direct = via is not None and via == envelope.sender
            if not (direct and not self.settings.verify_direct) and not authentic(
                envelope.sender, data, envelope.auth
            ):
                return self._forged(envelope, "" if direct else "relayed")
        if not self._clock_near(envelope.lamport):
            return self._dropped("clock_jump", f"a clock of {envelope.lamport}")
        if not self._room_for(envelope.sender):
            return self._dropped("too_many_peers", "no room for another sender")
        self.clock.observe(envelope.lamport)
        self._stream(envelope.sender).last_heard = now
        if isinstance(payload, Event):
            effects = self._take_event(envelope, data, now, persist=True)
        elif isinstance(payload, Heartbeat):
            effects = self._take_heartbeat(envelope, payload, now)
        elif isinstance(payload, Hello):
            effects = self._take_hello(envelope, payload, now)
        elif isinstance(payload, RepairRequest):
            effects = self._serve_repair(envelope.sender, payload)
        else:
            effects = self._take_repair(payload, now)
        return (effects + self._advance(now)) if advance else effects

    def advance(self, now: float) -> list[Effect]:
        """Apply whatever has become stable (after ``receive`` with ``advance`` false)."""
        self.now = now
        return self._advance(now)

    def submit(self, body: Body, now: float) -> list[Effect]:
        """Send one event of ours into the total order."""
        effects = self._send_event(body, now)
        return effects + self._advance(now)

    def _send_event(self, body: Body, now: float) -> list[Effect]:
        """Send one event without applying anything: safe in the middle of other work."""
        self.now = now
        lamport = self.clock.tick()
        envelope = Envelope(self.me.table, self.me.node, lamport, self.my_seq + 1, Event(body))
        # A body the wire cannot carry raises here, before its number is spent: a number
        # announced but never sent would be a gap nobody could fill, and stall the table.
        raw = encode(envelope)
        self.my_seq += 1
        if self.signer is not None:
            raw = sign_encoded(self.signer, raw)
            envelope = replace(envelope, auth=raw[-AUTH_SIZE:])
        effects: list[Effect] = [Persist(raw)]
        effects += self._take_event(envelope, raw, now, persist=False)
        effects.append(Send(None, raw))
        self.counters.sent += 1
        return effects

    def flush(self, now: float) -> list[Effect]:
        """Send the acknowledgement owed for what was received since the last flush."""
        if not self._ack_due:
            return []
        return self._heartbeat(now, fresh=False)

    def tick(self, now: float) -> list[Effect]:
        """Timers: heartbeats, suspicion, repair retries and hellos."""
        self.now = now
        effects: list[Effect] = []
        if now - self._last_heartbeat >= self.settings.heartbeat_every:
            effects += self._heartbeat(now)
        if self.rejoining and now - self._last_hello >= self.settings.hello_every:
            self._last_hello = now
            effects.append(self._hello(None))
        effects += self._suspect_silent(now)
        effects += self._ask_repairs(now)
        effects += self._advance(now)
        effects.append(Timer(now + min(self.settings.heartbeat_every, self.settings.repair_retry)))
        return effects

    # -- views -------------------------------------------------------------------------------

    def optimistic(self) -> Game:
        """The stable game with every pending event applied in its current order."""
        if self._optimistic is None:
            game = self.stable.copy()
            for _key, sender, seq in self.pending:
                held = self.streams[sender].events.get(seq)
                if held is not None and isinstance(held.envelope.payload, Event):
                    game.apply(sender, held.envelope.payload.body)
            self._optimistic = game
        return self._optimistic

    def pending_own(self) -> list[Body]:
        """Our own events that are not final yet."""
        own = self.streams.get(self.me.node)
        if own is None:
            return []
        found: list[Body] = []
        for _key, sender, seq in self.pending:
            if sender == self.me.node and seq in own.events:
                payload = own.events[seq].envelope.payload
                if isinstance(payload, Event):
                    found.append(payload.body)
        return found

    def is_member(self) -> bool:
        member = self.stable.members.get(self.me.node)
        return member is not None and member.present

    def digest(self) -> bytes:
        """The digest of the stable state after ``len(self.log)`` events."""
        index = len(self.log)
        known = self._digests.get(index)
        if known is None:
            body = canonical_bytes([self.chain, self.stable.public_form()])
            known = hashlib.blake2b(body, digest_size=DIGEST_SIZE).digest()
            self._digests[index] = known
            self._last_digest = (index, known)
            for old in [i for i in self._digests if i < index - DIGEST_MEMORY]:
                del self._digests[old]
        return known

    # -- events --------------------------------------------------------------------------

    def _stream(self, node: bytes) -> Stream:
        stream = self.streams.get(node)
        if stream is None:
            stream = self.streams[node] = Stream(node, last_heard=self.now)
        return stream

    def _take_event(
        self, envelope: Envelope, raw: bytes, now: float, persist: bool
    ) -> list[Effect]:
        stream = self._stream(envelope.sender)
        if stream.cut is not None and envelope.seq > stream.cut:
            if envelope.seq in stream.parked:
                return []
            stream.park(envelope.seq, Held(envelope, raw))
            return [Persist(raw)] if persist else []
        if not stream.accepts(envelope.seq):
            self.counters.duplicates += 1
            return []
        # From the network (a reloaded log is taken whole), a sender that is not at the
        # table here may run only a little ahead; the rest is repaired once it is.
        ahead = envelope.seq > stream.held + MAX_GUEST_AHEAD
        if persist and ahead and not self._present(envelope.sender):
            self.counters.drop("guest_ahead")
            return []
        effects: list[Effect] = [Persist(raw)] if persist else []
        for held in stream.store(envelope.seq, Held(envelope, raw)):
            effects += self._on_contiguous(held, now)
        if persist:
            self._ack_due = True
        return effects

    def _on_contiguous(self, held: Held, now: float) -> list[Effect]:
        envelope = held.envelope
        cut = self.streams[envelope.sender].cut
        if cut is not None and envelope.seq > cut:
            return []  # a BYE or CUT earlier in the same run of events has set it aside
        self.clock.observe(envelope.lamport)
        key = order_key(self.me.epoch, envelope.lamport, envelope.sender)
        item = (key, envelope.sender, envelope.seq)
        assert isinstance(envelope.payload, Event)
        body = envelope.payload.body
        if self.pending and item < self.pending[-1]:
            bisect.insort(self.pending, item)
            self._optimistic = None
        else:
            # Last in the order (our own new events always are): the optimistic game
            # needs only this one applied on top, not a fresh copy of everything.
            self.pending.append(item)
            if self._optimistic is not None:
                self._optimistic.apply(envelope.sender, body)
        effects = self._check_backdated(envelope.sender, envelope.seq, envelope.lamport, now)
        if envelope.seq == 1 and isinstance(body, Admit) and body.node == envelope.sender:
            self.genesis = True
        if isinstance(body, Suspect):
            return effects + self._note_suspect(envelope.sender, envelope.seq, body, now)
        if isinstance(body, Cut):
            return effects + self._note_cut(envelope.sender, body)
        if isinstance(body, Bye):
            self._note_bye(envelope.sender, envelope.seq)
        return effects

    def _check_backdated(self, sender: bytes, seq: int, lamport: int, now: float) -> list[Effect]:
        """Report an event stamped at or below a clock its sender announced before it."""
        mark = self.announced_clocks.get(sender)
        if mark is None or sender == self.me.node or seq <= mark[0] or lamport > mark[1]:
            return []
        if (sender, seq) in self._reported or not self.can_play():
            return []
        self._reported.add((sender, seq))
        self.counters.backdated += 1
        return self._send_event(Backdated(sender, seq, lamport, mark[1]), now)

    def _advance(self, now: float) -> list[Effect]:
        """Apply, in order, every pending event that has become stable."""
        effects: list[Effect] = []
        effects += self._settle_leaves()
        while self.genesis and self.pending and self._is_stable(self.pending[0]):
            key, sender, seq = self.pending.pop(0)
            effects += self._apply_stable(key, sender, seq, now)
        return effects

    def _is_stable(self, item: tuple[OrderKey, bytes, int]) -> bool:
        (lamport, _tie, _node), sender, seq = item
        origin = self.stable.members.get(sender)
        # Every present member must hold a present member's event before it is final, so
        # a later agreement on a silent member's cut can never drop a final event.
        need_acks = origin is not None and origin.present
        if need_acks and self.streams[sender].ack_level() < seq and sender != self.me.node:
            return False  # we stated a cut below it: it must wait for the agreement
        for member in self.stable.members.values():
            node = member.node
            if not member.present or node in (self.me.node, sender):
                continue
            stream = self.streams.get(node)
            if stream is None:
                return False
            cut = self.settled.get(node)
            if cut is not None and stream.held >= cut:
                continue  # it has left: it can send nothing more that counts
            if stream.horizon < lamport:
                return False
            if need_acks and stream.acks.get(sender, 0) < seq:
                return False
        return True

    def _apply_stable(self, key: OrderKey, sender: bytes, seq: int, now: float) -> list[Effect]:
        stream = self.streams[sender]
        held = stream.events.pop(seq)
        envelope = held.envelope
        assert isinstance(envelope.payload, Event)
        body = envelope.payload.body
        counts = self._counts(sender, seq, body)
        seated = counts or sender in self.stable.members or sender == self.me.node
        if seated or self._guest_raws < MAX_GUEST_RAWS:
            # A void event is still served in repairs; of senders nobody has seated, a few.
            self._guest_raws += not seated
            self.stable_raws[(sender, seq)] = held.raw
        if isinstance(body, Cut):
            self.cuts_applied[body.node] = max(self.cuts_applied.get(body.node, 0), body.seq)
        elif isinstance(body, Bye):
            self.cuts_applied[sender] = max(self.cuts_applied.get(sender, 0), seq)
        if not counts:
            # Only members present at this point of the order make the log: a node that
            # never received this event must end with the same log as one that did.
            self._optimistic = None
            if sender == self.me.node:
                return [Withdrawn(seq, body, "not_at_the_table")]
            return []
        outcome = self.stable.apply(sender, body)
        self.chain = hashlib.blake2b(
            self.chain + sender + seq.to_bytes(8, "big") + held.raw, digest_size=DIGEST_SIZE
        ).digest()
        entry = LogEntry(len(self.log), sender, seq, envelope.lamport, body, outcome)
        self.log.append(entry)
        # The optimistic game already had this event (the head of the order) applied to
        # the same stable game: it stays as it is.
        if (
            self.stable.phase == Phase.OVER
            and (self.ended is None or self.ended[2].game_number != self.stable.game_number)
            and self.stable.audit_complete()
        ):  # each game of a table ends once (a rematch is the next game: R-52)
            self.ended = (len(self.log), self.digest(), self.stable.copy())
        effects: list[Effect] = [Delivered(entry)]
        if isinstance(body, Admit):
            # Our own offer to admit it has had its turn: a later hello may need a new one.
            self.admitted = {pair for pair in self.admitted if pair[0] != body.node}
        if outcome.accepted and isinstance(body, Admit):
            effects += self._on_admitted(body, now)
        if isinstance(body, Suspect) and body.node == self.me.node and not self.is_member():
            effects += self.ask_to_join(now)
        effects += self._check_peer_digests()
        return effects

    def _counts(self, sender: bytes, seq: int, body: Body) -> bool:
        """Whether an event enters the log: its sender is present here (or founds the table)."""
        if seq < self.streams[sender].first_seq:
            return False
        member = self.stable.members.get(sender)
        if member is not None:
            return member.present
        founding = not self.stable.members and isinstance(body, Admit) and body.node == sender
        return founding

    def _on_admitted(self, body: Admit, now: float) -> list[Effect]:
        """A fresh start for ``node``: what was said about an earlier stay of it, or by it, is void.

        A cut, a suspicion or a claim about this stay or a later one (at or above the
        admission's ``first_seq`` - 1, and not stated by an event ordered before this
        ADMIT) stands: a node that reloads its log, or catches up, may agree on a cut
        before it applies the ADMIT that cut ends, and wiping it then would leave it
        waiting for numbers the node never sent. One stated before it in the order is an
        earlier stay's, even at ``first_seq`` - 1: a stay with no event of its own ends
        there, and a late HELLO can bring the node back at the same ``first_seq``.
        """
        node = body.node
        earlier = body.first_seq - 1  # a cut or held below this is about an earlier stay
        applied = self.cuts_applied.pop(node, -1)  # the cuts ordered before this ADMIT
        cut = self.settled.get(node)
        if cut is not None and (cut < earlier or cut <= applied):
            del self.settled[node]
            cut = None
        mine = self.suspected.get(node)
        if mine is not None and not self._claim_stands(node, self.me.node, mine, earlier):
            del self.suspected[node]
            self.suspect_seqs.pop(node, None)
            mine = None
        about = self.claims.pop(node, {})
        standing = {
            by: held for by, held in about.items() if self._claim_stands(node, by, held, earlier)
        }
        for by in about:
            if by not in standing:
                self.claim_seqs.pop((node, by), None)
        if standing:
            self.claims[node] = standing
        for target, claims in self.claims.items():
            if claims.pop(node, None) is not None:
                self.claim_seqs.pop((target, node), None)
        self.withdrawn.discard(node)
        effects: list[Effect] = []
        stream = self._stream(node)
        # It is heard from afresh: a member that admits it before hearing it (another
        # member heard its HELLO) must not find it silent since before it left.
        stream.last_heard = max(stream.last_heard, now)
        ready, void = stream.skip_to(body.first_seq)
        if cut is not None:
            self._cut_stream(node, cut)
            ready = [held for held in ready if held.envelope.seq <= cut]
        elif mine is not None:
            stream.ack_cap = mine
        for held in ready:
            effects += self._on_contiguous(held, now)
        if node == self.me.node:
            effects += [_withdrawn(held) for held in void]
        self.cut_notes = [
            (s, c)
            for s, c in self.cut_notes
            if c.node != node or (c.seq >= earlier and c.seq > applied)
        ]
        if node == self.me.node:
            self.rejoining = False
            self.my_seq = max(self.my_seq, body.first_seq - 1)
            for target in list(self.suspected):
                self._stream(target).ack_cap = None
            self.suspected.clear()
            self.suspect_seqs.clear()
        if self.cut_notes:
            effects += self._adopt_cuts()  # one about this stay, learnt before it began
        return effects

    def _claim_stands(self, node: bytes, by: bytes, held: int, earlier: int) -> bool:
        """Whether ``by``'s SUSPECT of ``node`` outlives the ADMIT of ``node`` being applied.

        A SUSPECT already applied is ordered before this ADMIT: it is about an earlier stay,
        whatever its held (a stay with no event of its own ends at first-seq - 1, the held a
        SUSPECT of the next stay at the same first-seq would have). One still pending, or
        not yet held, is ordered after it: it stands unless its held is below the stay.
        """
        if held < earlier:
            return False
        seq = self.claim_seqs.get((node, by))
        stream = self.streams.get(by)
        if seq is None or stream is None:
            return True
        return seq in stream.events or seq > stream.held

    # -- leaving: suspicion, agreement on the cut, and goodbyes

    def _hears_majority(self) -> bool:
        """Whether this node hears from most of the table, itself included.

        Only such a node suspects anyone: in an even split nobody does, and both halves
        simply wait for the network to heal instead of removing each other.
        """
        present = [m.node for m in self.stable.members.values() if m.present]
        # Half the suspicion timeout: silences that start together (a partition) must not
        # count each other as heard while their timers run out one by one.
        limit = self.settings.suspect_after / 2
        heard = [
            n
            for n in present
            if n == self.me.node or self.now - self._stream(n).last_heard <= limit
        ]
        return len(heard) * 2 > len(present)

    def _suspect_silent(self, now: float) -> list[Effect]:
        effects: list[Effect] = []
        if not self.is_member() or not self._hears_majority():
            self._majority_since = None
            return effects
        if self._majority_since is None:
            self._majority_since = now
        if now - self._majority_since < self.settings.suspect_after / 2:
            # A majority just came back (a healed split): give the rest of the table a
            # moment to be heard too before calling anyone silent.
            return effects
        if self.me.node in self.settled:
            return effects  # we are being removed: a suspicion would only hold back our acks
        for member in list(self.stable.members.values()):
            node = member.node
            if not member.present or node == self.me.node or node in self.suspected:
                continue
            if node in self.settled:
                continue
            stream = self._stream(node)
            if now - stream.last_heard > self.settings.suspect_after:
                effects += self._suspect(node, now)
        return effects

    def _suspect(self, node: bytes, now: float) -> list[Effect]:
        self.withdrawn.discard(node)
        stream = self._stream(node)
        self.suspected[node] = stream.held
        stream.ack_cap = stream.held
        self.suspect_seqs[node] = self.my_seq + 1
        return self._send_event(Suspect(node, stream.held), now)

    def _note_suspect(self, sender: bytes, seq: int, body: Suspect, now: float) -> list[Effect]:
        if body.held < self._first_seq(body.node) - 1:
            return []  # about a stream the node has since left behind
        if body.node not in self.claims and len(self.claims) >= MAX_CLAIM_TARGETS:
            self.counters.drop("too_many_claims")
            return []
        self.claims.setdefault(body.node, {})[sender] = body.held
        target = body.node
        self.claim_seqs[(target, sender)] = seq
        if sender == self.me.node and target not in self.suspected:
            # Reloaded from our own log after a restart: suspect it again, as before.
            self.suspected[target] = body.held
            self.suspect_seqs[target] = self.my_seq
            if target not in self.settled:
                self._stream(target).ack_cap = body.held
        if target == self.me.node or target in self.suspected or sender in self.suspected:
            return []
        if target in self.settled or self.me.node in self.settled:
            return []  # its cut is agreed already, or we are being removed: as _suspect_silent
        if not self.is_member() or sender == self.me.node or not self._hears_majority():
            return []
        if not self._present(sender):
            return []  # P-86 joins a member's suspicion, never a stranger's
        member = self.stable.members.get(target)
        if member is None or not member.present:
            return []
        return self._suspect(target, now)  # join in, so that every survivor states its cut

    def _maybe_retract(self, node: bytes) -> None:
        """Take back a suspicion of a member we hear again, if no majority can remove it.

        Without a majority of members that nobody suspects, nobody can agree on its cut
        (``_settle_leaves`` counts the word of neither), so holding back our
        acknowledgements would only stall the table: a healed even split, a table of two,
        or two members suspected at once (each cut then waits on the other's word). Our
        Suspect stays in the log and is applied in order like any event; we send no CUT
        of the node until we suspect it again, since our acknowledgements now run past
        the held we stated.
        """
        if node not in self.suspected or node in self.settled:
            return
        present = [m.node for m in self.stable.members.values() if m.present]
        doubted = self._doubted(present)
        unsuspected = [n for n in present if n not in self.suspected and n not in doubted]
        if len(unsuspected) * 2 > len(present):
            return
        del self.suspected[node]
        self.withdrawn.add(node)
        self._stream(node).ack_cap = None

    def _doubted(self, present: list[bytes]) -> set[bytes]:
        """The members a present member has suspected: their word on a cut does not count."""
        return {n for n, by in self.claims.items() if any(c in present for c in by)}

    def _note_bye(self, sender: bytes, seq: int) -> None:
        self.settled[sender] = seq
        self._cut_stream(sender, seq)

    def _cut_stream(self, node: bytes, cut: int) -> None:
        dropped = self._stream(node).cut_at(cut)
        if dropped:
            gone = set(dropped)
            self.pending = [p for p in self.pending if p[1] != node or p[2] not in gone]
            self._optimistic = None

    def _settle_leaves(self) -> list[Effect]:
        """Agree on the cut of a silent member once every other survivor has stated its own.

        Only a node that sees a majority of unsuspected members may settle; it then says
        so with a CUT event, which every other node (the removed one included) adopts.
        """
        present = [m.node for m in self.stable.members.values() if m.present]
        effects: list[Effect] = self._adopt_cuts() if self.cut_notes else []
        for target, claims in list(self.claims.items()):
            if target in self.settled or target == self.me.node or target not in present:
                continue
            if target in self.withdrawn:
                continue  # we acknowledge it past our held again: our word is no bound
            # A member anyone has suspected may be on its way out: its word on the cut,
            # ours included, must not count, or two sides could agree on different cuts.
            doubted = self._doubted(present)
            survivors = [n for n in present if n not in self.suspected and n not in doubted]
            if len(survivors) * 2 <= len(present) or self.me.node not in survivors:
                continue  # no majority here: wait for the network to heal, or for a CUT
            if not all(n in claims for n in survivors):
                continue
            cut = min(claims[n] for n in survivors)
            self.settled[target] = cut
            self._cut_stream(target, cut)
            effects += self._send_event(Cut(target, cut), self.now)
        return effects

    def _note_cut(self, sender: bytes, body: Cut) -> list[Effect]:
        self.cut_notes.append((sender, body))
        return self._adopt_cuts()

    def _adopt_cuts(self) -> list[Effect]:
        """Adopt the CUTs sent by members at the table (a restart may learn them early)."""
        effects: list[Effect] = []
        waiting: list[tuple[bytes, Cut]] = []
        for sender, body in self.cut_notes:
            member = self.stable.members.get(sender)
            if member is None or not member.present or self._later_stay_waits(body):
                waiting.append((sender, body))
            elif body.seq > self.settled.get(body.node, body.seq):
                # Past the cut we hold: a later stay's, which a restart can learn before its
                # game reaches the ADMIT that begins it. It waits for that ADMIT.
                waiting.append((sender, body))
            else:
                effects += self._adopt_cut(body)
        self.cut_notes = waiting[-MAX_PEERS:]
        return effects

    def _later_stay_waits(self, body: Cut) -> bool:
        """Whether ``body`` cuts a later stay of its node, whose ADMIT waits in the order.

        A restart takes every stream's events in before its game seats anyone, and can
        learn a later stay's CUT before the earlier stay's: adopted first, that cut would
        have it wait for numbers the earlier stay never sent. It waits for its ADMIT.
        """
        begun = self._first_seq(body.node)
        for _key, sender, seq in self.pending:
            held = self.streams[sender].events.get(seq)
            if held is None or not isinstance(held.envelope.payload, Event):
                continue
            admit = held.envelope.payload.body
            if (
                isinstance(admit, Admit)
                and admit.node == body.node
                and begun < admit.first_seq <= body.seq + 1
            ):
                return True
        return False

    def _adopt_cut(self, body: Cut) -> list[Effect]:
        if body.seq < self._first_seq(body.node) - 1:
            return []  # about a stream the node has since left behind
        if body.node not in self.settled and len(self.settled) >= MAX_SETTLED:
            self.counters.drop("too_many_cuts")
            return []
        if body.node == self.me.node:
            if self.settled.get(self.me.node) is None:
                self.settled[self.me.node] = body.seq
                return self._cut_myself(body.seq)
            return []
        if body.node not in self.settled:
            self.settled[body.node] = body.seq
            self._cut_stream(body.node, body.seq)
        return []

    def _cut_myself(self, cut: int) -> list[Effect]:
        """The others have removed us at ``cut``: what we sent past it never happened.

        Our own suspicions die with our place at the table: nobody waits for our
        acknowledgements any more, so we hold none back.
        """
        self._cut_stream(self.me.node, cut)  # they count again only if a new stream has them
        self._optimistic = None
        for target, seq in list(self.suspect_seqs.items()):
            if seq > cut:  # never heard by anyone: take it back entirely
                self.claims.get(target, {}).pop(self.me.node, None)
        for target in list(self.suspected):
            if target not in self.settled:
                self._stream(target).ack_cap = None
        self.suspected.clear()
        self.suspect_seqs.clear()
        return []

    # -- heartbeats, hellos and repair ----------------------------------------------------------

    def _heartbeat(self, now: float, fresh: bool = True) -> list[Effect]:
        """Our clock, stream and acks; an acknowledgement (not ``fresh``) reuses a digest.

        A digest costs a walk over the whole table, and an acknowledgement goes out for
        every batch received: it carries the last digest computed, with its own index,
        and the timer's heartbeat brings the current one.
        """
        self._ack_due = False
        self._last_heartbeat = now
        effects: list[Effect] = []
        clock = self.clock.time
        if clock >= self._clock_mark:
            self._clock_mark = clock + CLOCK_MARK_STEP
            effects.append(PersistClock(self._clock_mark))
        # Members' streams first: strangers may fill the table of streams (guard.MAX_STREAMS)
        # but must never push a member's acknowledgement out of the 64 a HEARTBEAT carries.
        members = self.stable.members
        held = [n for n, s in self.streams.items() if s.ack_level() > 0 and n != self.me.node]
        if len(held) > MAX_ACKS:
            held = sorted(held, key=lambda n: (n not in members, n))[:MAX_ACKS]
        acks = tuple(Ack(node, self.streams[node].ack_level()) for node in sorted(held))
        if not self.log:
            index, digest = 0, b""
        elif fresh or not self._last_digest[1]:
            index, digest = len(self.log), self.digest()
        else:
            index, digest = self._last_digest
        beat = Heartbeat(self.my_seq, acks, index, digest)
        envelope = Envelope(self.me.table, self.me.node, clock, 0, beat)
        effects.append(Send(None, encode(envelope)))
        return effects

    def _take_heartbeat(self, envelope: Envelope, beat: Heartbeat, now: float) -> list[Effect]:
        stream = self._stream(envelope.sender)
        stream.promise(beat.last_seq, envelope.lamport)
        effects: list[Effect] = []
        mark = self.announced_clocks.get(envelope.sender)
        if mark is None or envelope.lamport > mark[1]:
            self.announced_clocks[envelope.sender] = (beat.last_seq, envelope.lamport)
            for seq, held in list(stream.events.items()):
                if seq > beat.last_seq and held.envelope.lamport <= envelope.lamport:
                    effects += self._check_backdated(
                        envelope.sender, seq, held.envelope.lamport, now
                    )
        self._maybe_retract(envelope.sender)
        for ack in beat.acks:
            if not self._room_for(ack.node):
                continue  # about a node we have no room to follow
            stream.acks[ack.node] = max(stream.acks.get(ack.node, 0), ack.held)
            self._stream(ack.node).announced = max(self._stream(ack.node).announced, ack.held)
        if beat.digest:
            effects += self._compare_digest(envelope.sender, beat.digest_index, beat.digest)
        return effects

    def hello(self, to: bytes | None) -> list[Effect]:
        """Our HELLO for one peer, or every peer: where we listen, whom we know, which log."""
        return [self._hello(to)]

    def can_play(self) -> bool:
        """Whether this node may send game events now (a member, not being removed)."""
        return self.is_member() and not self.rejoining and self.me.node not in self.settled

    def know_key(self, node: bytes, key: bytes) -> None:
        """Learn a peer's public key (checked against its id), to list it in our HELLOs."""
        if node_id_of(key) == node:
            self.keys[node] = key

    def _hello(self, to: bytes | None) -> Send:
        known = ((n, e, self.keys.get(n)) for n, e in sorted(self.endpoints.items()))
        peers = tuple(PeerAddress(n, e, k) for n, e, k in known if k is not None)[:MAX_PEERS]
        # Skip one number past anything used, so a stale CUT of our old stream (which ends at
        # most at my_seq) can never be mistaken for one of the new stream.
        resume = self.my_seq + 2 if self.rejoining or not self.is_member() else 0
        hello = Hello(self.me.name, self.me.back, self.me.endpoint, peers, self.me.epoch, resume)
        return Send(to, encode(Envelope(self.me.table, self.me.node, self.clock.time, 0, hello)))

    def _take_hello(self, envelope: Envelope, hello: Hello, now: float) -> list[Effect]:
        sender = envelope.sender
        effects: list[Effect] = []
        if self.endpoints.get(sender) != hello.endpoint and self._may_learn(sender, hello.endpoint):
            self.endpoints[sender] = hello.endpoint
            effects.append(PeerSeen(sender, hello.endpoint))
        learnt = 0
        for peer in hello.peers:
            known = peer.node in self.endpoints
            if known or learnt < MAX_NEW_PEERS_PER_HELLO:
                fresh = peer.node not in self.keys and len(self.keys) < 4 * MAX_ENDPOINTS
                if fresh and node_id_of(peer.key) == peer.node:
                    self.keys[peer.node] = peer.key
            if known or learnt >= MAX_NEW_PEERS_PER_HELLO:
                continue
            if not self._may_learn(peer.node, peer.endpoint):
                continue
            learnt += 1
            self.endpoints[peer.node] = peer.endpoint
            effects.append(PeerSeen(peer.node, peer.endpoint))
        if hello.resume_seq > 0 and hello.epoch in (b"", self.me.epoch):
            effects += self._admit(sender, hello.resume_seq, now)
        return effects

    def _admit(self, node: bytes, first_seq: int, now: float) -> list[Effect]:
        if not self.is_member() or (node, first_seq) in self.admitted:
            return []
        if len(self.admitted) >= MAX_ADMITTING:
            self.counters.drop("too_many_admissions")
            return []
        member = self.stable.members.get(node)
        if member is not None and member.present:
            return []
        if member is None and not self.stable.admits_newcomers():
            return []  # while a game is on only players who were seated come back (P-117)
        self.admitted.add((node, first_seq))
        return self._send_event(Admit(node, first_seq), now)

    def _ask_repairs(self, now: float) -> list[Effect]:
        effects: list[Effect] = []
        for node, stream in self.streams.items():
            if node == self.me.node:
                continue
            gap = stream.missing()
            if gap is None:
                continue
            asked = self._repair_asked.get(node)
            if asked is not None and now - asked[0] < self.settings.repair_retry:
                continue
            attempt = 0 if asked is None else asked[1] + 1
            source = self._repair_source(node, gap[0], attempt)
            if source is None:
                continue
            self._repair_asked[node] = (now, attempt)
            self.counters.repairs_asked += 1
            last = min(gap[1], gap[0] + REPAIR_BATCH - 1)
            request = RepairRequest(node, gap[0], last)
            envelope = Envelope(self.me.table, self.me.node, self.clock.time, 0, request)
            effects.append(Send(source, encode(envelope)))
        return effects

    def _repair_source(self, origin: bytes, first: int, attempt: int) -> bytes | None:
        """Ask the origin first, then each peer whose acks show it holds the events."""
        holders = [
            node
            for node, stream in sorted(self.streams.items())
            if node not in (self.me.node, origin) and stream.acks.get(origin, 0) >= first
        ]
        candidates = ([origin] if origin not in self.settled else []) + holders
        if not candidates:
            return None
        return candidates[attempt % len(candidates)]

    def _serve_repair(self, requester: bytes, request: RepairRequest) -> list[Effect]:
        raws = self._held_raws(request.origin, request.first, request.last)
        if not raws:
            return []
        self.counters.repairs_served += 1
        repair = Repair(request.origin, tuple(raws))
        envelope = Envelope(self.me.table, self.me.node, self.clock.time, 0, repair)
        return [Send(requester, encode(envelope))]

    def _held_raws(self, origin: bytes, first: int, last: int) -> list[bytes]:
        stream = self.streams.get(origin)
        if stream is None:
            return []
        found: list[bytes] = []
        for seq in range(first, min(last, first + REPAIR_BATCH - 1) + 1):
            held = stream.events.get(seq)
            raw = held.raw if held is not None else self._logged_raw(origin, seq)
            if raw is None:
                break
            found.append(raw)
        return found

    def _logged_raw(self, origin: bytes, seq: int) -> bytes | None:
        return self.stable_raws.get((origin, seq))

    def _take_repair(self, repair: Repair, now: float) -> list[Effect]:
        effects: list[Effect] = []
        for raw in repair.events:
            try:
                envelope = decode(raw)
            except ProtocolError as error:
                effects += self._dropped(str(error.reason), f"bad event in a repair: {error}")
                continue
            if envelope.sender != repair.origin or not isinstance(envelope.payload, Event):
                effects += self._dropped("bad_repair", "a repair held another node's event")
                continue
            if envelope.sender == self.me.node:
                continue
            if self._is_duplicate(envelope):
                self.counters.duplicates += 1
                continue
            if not authentic(envelope.sender, raw, envelope.auth):
                effects += self._forged(envelope, "in a repair")
                continue
            if not self._clock_near(envelope.lamport):
                effects += self._dropped("clock_jump", "a repaired event far ahead of our clock")
                continue
            if not self._room_for(envelope.sender):
                effects += self._dropped("too_many_peers", "no room for another sender")
                continue
            self.clock.observe(envelope.lamport)
            effects += self._take_event(envelope, raw, now, persist=True)
        self._repair_asked.pop(repair.origin, None)
        return effects

    # -- desync detection -------------------------------------------------------------------------

    def _compare_digest(self, sender: bytes, index: int, digest: bytes) -> list[Effect]:
        if index > len(self.log):
            if len(self._peer_digests) >= DIGEST_MEMORY:
                furthest = max(self._peer_digests)
                if index >= furthest:
                    return []
                del self._peer_digests[furthest]  # the nearest ones are checked first
            self._peer_digests[index] = (sender, digest)
            return []
        return self._check_digest(sender, index, digest)

    def _check_peer_digests(self) -> list[Effect]:
        waiting = self._peer_digests.pop(len(self.log), None)
        if waiting is None:
            return []
        return self._check_digest(waiting[0], len(self.log), waiting[1])

    def _check_digest(self, sender: bytes, index: int, digest: bytes) -> list[Effect]:
        if index == len(self.log):
            mine: bytes | None = self.digest()
        else:
            mine = self._digests.get(index)
        if mine is None or mine == digest:
            return []
        self.counters.desyncs += 1
        detail = f"state after event {index} differs from {sender.hex()[:8]}'s: resyncing"
        return [Alarm("desync", detail), *self._resync()]

    def _resync(self) -> list[Effect]:
        """Rebuild the stable game by replaying the stable log from the start."""
        game = Game(own_orders=self.stable.own_orders, own_secrets=self.stable.own_secrets)
        for entry in self.log:
            game.apply(entry.sender, entry.body)
        self.stable = game
        self._optimistic = None
        self._digests.clear()
        self._last_digest = (0, b"")
        return []

    def _is_duplicate(self, envelope: Envelope) -> bool:
        """An event we already hold (or have set aside): dropped without a signature check."""
        stream = self.streams.get(envelope.sender)
        if stream is None:
            return False
        if stream.cut is not None and envelope.seq > stream.cut:
            return envelope.seq in stream.parked
        return not stream.accepts(envelope.seq)

    def _forged(self, envelope: Envelope, where: str) -> list[Effect]:
        """An event whose auth does not prove its origin: refused, counted, logged once."""
        self.counters.bad_signatures += 1
        place = f" ({where})" if where else ""
        detail = f"event {envelope.seq} of {envelope.sender.hex()[:8]} has a bad signature{place}"
        return self._dropped("bad_signature", detail)

    # -- bounds (see guard) --------------------------------------------------------------------

    def _present(self, node: bytes) -> bool:
        member = self.stable.members.get(node)
        return member is not None and member.present

    def _first_seq(self, node: bytes) -> int:
        stream = self.streams.get(node)
        return 1 if stream is None else stream.first_seq

    def _room_for(self, node: bytes) -> bool:
        """Whether ``node`` has a stream here or can have one: the table of streams is bounded.

        When it is full, the least recently heard stream that nothing depends on (not a
        member's, never cut or suspected, holding no event still to apply) makes room.
        """
        if node in self.streams or len(self.streams) < MAX_STREAMS:
            return True
        idle = [
            stream
            for key, stream in self.streams.items()
            if key != self.me.node
            and key not in self.stable.members
            and key not in self.settled
            and key not in self.claims
            and not stream.events
            and not stream.parked
        ]
        if not idle:
            return False
        gone = min(idle, key=lambda s: s.last_heard).node
        del self.streams[gone]
        self._repair_asked.pop(gone, None)
        self.announced_clocks.pop(gone, None)
        for stream in self.streams.values():
            stream.acks.pop(gone, None)
        return True

    def _clock_near(self, lamport: int) -> bool:
        """Whether a clock is near enough to take; if not, ours moves towards it a step."""
        if lamport - self.clock.time <= MAX_CLOCK_JUMP:
            return True
        self.clock.observe(self.clock.time + MAX_CLOCK_JUMP)
        return False

    def _may_learn(self, node: bytes, endpoint: str) -> bool:
        """Whether to take ``endpoint`` for ``node`` from a HELLO (and tell the shell)."""
        if node == self.me.node or not endpoint_ok(endpoint, self.me.endpoint):
            return False
        if node in self.endpoints or len(self.endpoints) < MAX_ENDPOINTS:
            return True
        strangers = [n for n in self.endpoints if n not in self.stable.members]
        if not strangers:
            return False
        del self.endpoints[strangers[0]]  # the oldest learnt of those never at the table
        return True

    def _dropped(self, reason: str, detail: str) -> list[Effect]:
        first = self.counters.drop(reason)
        return [Alarm("dropped", detail)] if first else []


def _withdrawn(held: Held) -> Withdrawn:
    payload = held.envelope.payload
    assert isinstance(payload, Event)
    return Withdrawn(held.envelope.seq, payload.body, "removed_from_table")
