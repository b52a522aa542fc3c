"""The replica's log and order: events in, a total order out, applied once stable.

Each event held contiguously joins the pending order, keyed by Lamport time with a fair
tie-break; the head of the order is applied to the stable game once it is stable
(nobody can still send anything that sorts before it). Heartbeats carry what makes
events stable (a sender's clock promise and its acknowledgements) and a digest of the
stable state, which is checked against the peers' to catch a desync.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

from ..games.registry import game_for
from ..table.state import Game, Phase
from ..wire.codec import MAX_PEERS, encode
from ..wire.messages import (
    Ack,
    Admit,
    Backdated,
    Body,
    Bye,
    Cut,
    Envelope,
    Event,
    Heartbeat,
    Suspect,
    Unsuspect,
)
from .clock import OrderKey, order_key
from .digest import chain_step, log_digest
from .effects import Alarm, Delivered, Effect, LogEntry, Persist, PersistClock, Send, Withdrawn
from .guard import MAX_GUEST_AHEAD, MAX_GUEST_RAWS
from .streams import Held, Stream

if TYPE_CHECKING:
    from .core import Replica

MAX_SEQ = 2**63 - 1  # no bound: the highest seq the wire allows
MAX_ACKS = MAX_PEERS  # a HEARTBEAT carries as many acks as a HELLO carries peers
CLOCK_MARK_STEP = 1024
DIGEST_MEMORY = 256


class Order:
    """The pending order, the stable game and its log, and the digests that check it."""

    def __init__(self, replica: Replica) -> None:
        self.replica = replica
        self.pending: list[tuple[OrderKey, bytes, int]] = []  # (key, sender, seq)
        self.stable = Game(rules=game_for(replica.settings.game))
        self.log: list[LogEntry] = []
        self.stable_raws: dict[tuple[bytes, int], bytes] = {}  # to serve repairs
        self.chain = b""
        self.genesis = False  # nothing is final before the founder's own Admit is held
        # Each peer's highest announced clock, with its last seq then: any later event of
        # its must be stamped above it, or it is reported as backdated.
        self.announced_clocks: dict[bytes, tuple[int, int]] = {}
        self.reported: set[tuple[bytes, int]] = set()
        # The game as it stood when it ended and its last round was audited, the log length
        # then, and the digest there:
        # the same on every node, while events ordered after the end still come in.
        self.ended: tuple[int, bytes, Game] | None = None
        self.optimistic_game: Game | None = None
        self.ack_due = False
        self.clock_mark = 0
        self.last_heartbeat = -1e18
        self.guest_raws = 0  # void events of senders nobody seated, kept for repairs
        self.digests: dict[int, bytes] = {}
        self.last_digest: tuple[int, bytes] = (0, b"")  # the latest computed: index, digest
        self.peer_digests: dict[int, tuple[bytes, bytes]] = {}
        self.last_key: OrderKey | None = None  # the key of the last event applied

    # -- views -------------------------------------------------------------------------------

    def optimistic(self) -> Game:
        """The stable game with every pending event applied in its current order."""
        if self.optimistic_game is None:
            game = self.stable.copy()
            streams = self.replica.streams
            for _key, sender, seq in self.pending:
                held = streams[sender].events.get(seq)
                if held is not None and isinstance(held.envelope.payload, Event):
                    game.apply(sender, held.envelope.payload.body, held.envelope.lamport)
            self.optimistic_game = game
        return self.optimistic_game

    def pending_own(self) -> list[Body]:
        """Our own events that are not final yet."""
        me = self.replica.me.node
        own = self.replica.streams.get(me)
        if own is None:
            return []
        found: list[Body] = []
        for _key, sender, seq in self.pending:
            if sender == me and seq in own.events:
                payload = own.events[seq].envelope.payload
                if isinstance(payload, Event):
                    found.append(payload.body)
        return found

    def digest(self) -> bytes:
        """The digest of the stable state after ``len(self.log)`` events."""
        index = len(self.log)
        known = self.digests.get(index)
        if known is None:
            known = log_digest(self.chain, self.stable.public_form())
            self.digests[index] = known
            self.last_digest = (index, known)
            for old in [i for i in self.digests if i < index - DIGEST_MEMORY]:
                del self.digests[old]
        return known

    # -- events in -----------------------------------------------------------------------

    def take_event(self, envelope: Envelope, raw: bytes, now: float, persist: bool) -> list[Effect]:
        replica = self.replica
        stream = replica.senders.stream(envelope.sender)
        if stream.cut is not None and envelope.seq > stream.cut:
            if envelope.seq in stream.parked:
                return []
            stream.park(envelope.seq, Held(envelope, raw))
            return [Persist(raw)] if persist else []
        if not stream.accepts(envelope.seq):
            replica.counters.duplicates += 1
            return []
        # From the network (a reloaded log is taken whole), a sender that is not at the
        # table here may run only a little ahead; the rest is repaired once it is.
        ahead = envelope.seq > stream.held + MAX_GUEST_AHEAD
        if persist and ahead and not replica._present(envelope.sender):
            replica.counters.drop("guest_ahead")
            return []
        effects: list[Effect] = [Persist(raw)] if persist else []
        for held in stream.store(envelope.seq, Held(envelope, raw)):
            effects += self.on_contiguous(held, now)
        if persist:
            self.ack_due = True
        return effects

    def on_contiguous(self, held: Held, now: float) -> list[Effect]:
        replica = self.replica
        envelope = held.envelope
        cut = replica.streams[envelope.sender].cut
        if cut is not None and envelope.seq > cut:
            return []  # a BYE or CUT earlier in the same run of events has set it aside
        replica.clock.observe(envelope.lamport)
        key = order_key(replica.me.epoch, envelope.lamport, envelope.sender)
        item = (key, envelope.sender, envelope.seq)
        assert isinstance(envelope.payload, Event)
        body = envelope.payload.body
        if self.pending and item < self.pending[-1]:
            bisect.insort(self.pending, item)
            self.optimistic_game = None
        else:
            # Last in the order (our own new events always are): the optimistic game
            # needs only this one applied on top, not a fresh copy of everything.
            self.pending.append(item)
            if self.optimistic_game is not None:
                self.optimistic_game.apply(envelope.sender, body, envelope.lamport)
        effects = self.check_backdated(envelope.sender, envelope.seq, envelope.lamport, now)
        if envelope.seq == 1 and isinstance(body, Admit) and body.node == envelope.sender:
            self.genesis = True
        if isinstance(body, Suspect):
            return effects + replica.liveness.note_suspect(envelope.sender, envelope.seq, body, now)
        if isinstance(body, Cut):
            return effects + replica.liveness.note_cut(envelope.sender, body)
        if isinstance(body, Unsuspect):
            replica.liveness.note_unsuspect(envelope.sender, envelope.seq, body)
        if isinstance(body, Bye):
            replica.liveness.note_bye(envelope.sender, envelope.seq)
        return effects

    def check_backdated(self, sender: bytes, seq: int, lamport: int, now: float) -> list[Effect]:
        """Report an event stamped at or below a clock its sender announced before it."""
        replica = self.replica
        mark = self.announced_clocks.get(sender)
        if mark is None or sender == replica.me.node or seq <= mark[0] or lamport > mark[1]:
            return []
        if (sender, seq) in self.reported or not replica.can_play():
            return []
        self.reported.add((sender, seq))
        replica.counters.backdated += 1
        return replica.send_event(Backdated(sender, seq, lamport, mark[1]), now)

    def cut_stream(self, node: bytes, cut: int) -> None:
        """Nothing of ``node`` past ``cut`` counts: drop it from the order."""
        dropped = self.replica.senders.stream(node).cut_at(cut)
        if dropped:
            gone = set(dropped)
            self.pending = [p for p in self.pending if p[1] != node or p[2] not in gone]
            self.optimistic_game = None

    # -- events out: the stable log ---------------------------------------------------------

    def advance(self, now: float) -> list[Effect]:
        """Apply, in order, every pending event that has become stable."""
        effects: list[Effect] = []
        effects += self.replica.liveness.settle_leaves()
        while self.genesis and self.pending and self.is_stable(self.pending[0]):
            key, sender, seq = self.pending.pop(0)
            effects += self.apply_stable(key, sender, seq, now)
        return effects

    def is_stable(self, item: tuple[OrderKey, bytes, int]) -> bool:
        (lamport, _tie, _node), sender, seq = item
        me = self.replica.me.node
        streams = self.replica.streams
        settled = self.replica.liveness.settled
        origin = self.stable.members.get(sender)
        # Every present member must hold a present member's event before it is final, so
        # a later agreement on a silent member's cut can never drop a final event.
        need_acks = origin is not None and origin.present
        if need_acks and self.held_back(sender, seq):
            return False
        for member in self.stable.members.values():
            node = member.node
            if not member.present:
                if self.waits_for_round(node):  # this node's own removal too (P-282)
                    return False
                continue
            if node in (me, sender):
                continue
            stream = streams.get(node)
            if stream is None:
                return False
            cut = settled.get(node)
            if cut is not None and stream.held >= cut:
                continue  # it has left: it can send nothing more that counts
            if stream.horizon < lamport:
                return False
            if need_acks and self.acked(node, stream, sender) < seq:
                return False
        return True

    def waits_for_round(self, node: bytes) -> bool:
        """Whether a SUSPECT has removed ``node`` from the stable game and no round has
        decided its cut yet: nothing more becomes final until one has (P-282)."""
        replica = self.replica
        return replica.viewchange.enabled and node not in replica.liveness.settled

    def held_back(self, sender: bytes, seq: int) -> bool:
        """Whether a present member's event waits for an agreement on its cut: we stated a
        cut below it (P-87), or a cut below it may be agreed from a SUSPECT we hold (P-268)."""
        if sender != self.replica.me.node and self.replica.streams[sender].ack_level() < seq:
            return True
        return seq > self.claimed_bound(sender)

    def claimed_bound(self, sender: bytes) -> int:
        """The lowest held among the standing SUSPECTs of ``sender`` by members of the table,
        present or gone, while no cut of ``sender`` is agreed here, or no bound (P-268).

        A member that has left is no longer waited for, but a cut agreed elsewhere from its
        SUSPECT may still be on its way here.
        """
        bound = self.replica.liveness.standing_bound(sender)
        return MAX_SEQ if bound is None else bound

    def acked(self, node: bytes, stream: Stream, sender: bytes) -> int:
        """How far ``node`` acknowledges ``sender``'s stream, as far as its word may count here.

        While ``node`` has a standing SUSPECT of ``sender`` and no cut of ``sender`` is agreed
        here, an acknowledgement past that SUSPECT's held counts only up to the held: ``node``
        may state more only once it has learnt a decision (an agreed cut, P-87) that this node
        has not learnt yet, and the events past the cut must not become final here meanwhile.
        """
        ack = stream.acks.get(sender, 0)
        liveness = self.replica.liveness
        if sender in liveness.settled or not liveness.learns_cuts:
            return ack
        if self.replica.viewchange.enabled:  # a member's promise freezes its acks instead
            return ack
        held = liveness.claims.get(sender, {}).get(node)
        return ack if held is None else min(ack, held)

    def apply_stable(self, key: OrderKey, sender: bytes, seq: int, now: float) -> list[Effect]:
        replica = self.replica
        held = replica.streams[sender].events.pop(seq)
        envelope = held.envelope
        assert isinstance(envelope.payload, Event)
        body = envelope.payload.body
        # An event taken in only after an event that sorts after it was applied (a stay's
        # own, stamped before the ADMIT that begins it) has no place left: void (P-290).
        late = self.last_key is not None and key < self.last_key
        if not late:
            self.last_key = key
        counts = not late and self.counts(sender, seq, body)
        self._keep_raw(sender, seq, held.raw, counts)
        replica.liveness.note_applied_cut(sender, seq, body)
        if not counts:
            # Only members present at this point of the order make the log: a node that
            # never received this event must end with the same log as one that did.
            self.optimistic_game = None
            if sender == replica.me.node:
                return [Withdrawn(seq, body, "not_at_the_table")]
            return []
        back = isinstance(body, Admit) and body.node in self.stable.members  # a stay ended
        outcome = self.stable.apply(sender, body, envelope.lamport)
        self.chain = chain_step(self.chain, sender, seq, held.raw)
        entry = LogEntry(len(self.log), sender, seq, envelope.lamport, body, outcome)
        self.log.append(entry)
        # The optimistic game already had this event (the head of the order) applied to
        # the same stable game: it stays as it is.
        self._note_game_ended()
        effects: list[Effect] = [Delivered(entry)]
        effects += self._membership_follows(body, outcome.accepted, now, back)
        effects += self.check_peer_digests()
        return effects

    def _keep_raw(self, sender: bytes, seq: int, raw: bytes, counts: bool) -> None:
        """Keep a stable event's bytes to serve in repairs: a void event too, and of
        senders nobody has seated, a few."""
        seated = counts or sender in self.stable.members or sender == self.replica.me.node
        if seated or self.guest_raws < MAX_GUEST_RAWS:
            self.guest_raws += not seated
            self.stable_raws[(sender, seq)] = raw

    def _note_game_ended(self) -> None:
        """Keep the game as it ended, with the log's length and digest then, once it is
        over and audited: each game of a table ends once (a rematch is the next game: R-52)."""
        stable = self.stable
        if stable.phase != Phase.OVER:
            return
        if self.ended is not None and self.ended[2].game_number == stable.game_number:
            return  # ended already
        if stable.audit_complete():
            self.ended = (len(self.log), self.digest(), stable.copy())

    def _membership_follows(
        self, body: Body, accepted: bool, now: float, back: bool = False
    ) -> list[Effect]:
        """What a final ADMIT or SUSPECT changes for the replica's membership and liveness."""
        replica = self.replica
        if isinstance(body, Admit):
            # Our own offer to admit it has had its turn: a later hello may need a new one.
            replica.membership.forget_offer(body.node)
            return replica.liveness.on_admitted(body, now, back) if accepted else []
        if isinstance(body, Suspect) and body.node == replica.me.node and not replica.is_member():
            return replica.ask_to_join(now)
        return []

    def counts(self, sender: bytes, seq: int, body: Body) -> bool:
        """Whether an event enters the log: its sender is present here (or founds the table)."""
        if seq < self.replica.streams[sender].first_seq:
            return False
        member = self.stable.members.get(sender)
        if member is not None:
            return member.present
        founding = not self.stable.members and isinstance(body, Admit) and body.node == sender
        return founding

    # -- heartbeats ----------------------------------------------------------------------------

    def heartbeat(self, now: float, fresh: bool = True) -> list[Effect]:
        """Our clock, stream and acks; an acknowledgement (not ``fresh``) reuses a digest.

        A digest costs a walk over the whole table, and an acknowledgement goes out for
        every batch received: it carries the last digest computed, with its own index,
        and the timer's heartbeat brings the current one.
        """
        replica = self.replica
        streams = replica.streams
        self.ack_due = False
        self.last_heartbeat = now
        effects: list[Effect] = []
        clock = replica.clock.time
        if clock >= self.clock_mark:
            self.clock_mark = clock + CLOCK_MARK_STEP
            effects.append(PersistClock(self.clock_mark))
        # Members' streams first: strangers may fill the table of streams (guard.MAX_STREAMS)
        # but must never push a member's acknowledgement out of the 64 a HEARTBEAT carries.
        members = self.stable.members
        held = [n for n, s in streams.items() if s.ack_level() > 0 and n != replica.me.node]
        if len(held) > MAX_ACKS:
            held = sorted(held, key=lambda n: (n not in members, n))[:MAX_ACKS]
        acks = tuple(Ack(node, streams[node].ack_level()) for node in sorted(held))
        if not self.log:
            index, digest = 0, b""
        elif fresh or not self.last_digest[1]:
            index, digest = len(self.log), self.digest()
        else:
            index, digest = self.last_digest
        view = replica.viewchange.view if replica.viewchange.enabled else None
        beat = Heartbeat(replica.my_seq, acks, index, digest, view)
        envelope = Envelope(replica.me.table, replica.me.node, clock, 0, beat)
        effects.append(Send(None, encode(envelope)))
        return effects

    def take_heartbeat(self, envelope: Envelope, beat: Heartbeat, now: float) -> list[Effect]:
        senders = self.replica.senders
        stream = senders.stream(envelope.sender)
        stream.promise(beat.last_seq, envelope.lamport)
        effects: list[Effect] = []
        mark = self.announced_clocks.get(envelope.sender)
        if mark is None or envelope.lamport > mark[1]:
            self.announced_clocks[envelope.sender] = (beat.last_seq, envelope.lamport)
            for seq, held in list(stream.events.items()):
                if seq > beat.last_seq and held.envelope.lamport <= envelope.lamport:
                    effects += self.check_backdated(
                        envelope.sender, seq, held.envelope.lamport, now
                    )
        effects += self.replica.liveness.maybe_retract(envelope.sender, now)
        behind = self.replica.viewchange.ahead(envelope.sender, beat.view)
        if behind is not None:
            # Its acks may be of a stay that a view we have not learnt began (P-287).
            return effects + behind
        for ack in beat.acks:
            if not senders.room_for(ack.node):
                continue  # about a node we have no room to follow
            stream.acks[ack.node] = max(stream.acks.get(ack.node, 0), ack.held)
            senders.stream(ack.node).announced = max(senders.stream(ack.node).announced, ack.held)
        self.replica.liveness.flushes.note_beat(envelope.sender, beat.last_seq)
        if beat.digest:
            effects += self.compare_digest(envelope.sender, beat.digest_index, beat.digest)
        return effects

    # -- desync detection -------------------------------------------------------------------------

    def compare_digest(self, sender: bytes, index: int, digest: bytes) -> list[Effect]:
        if index > len(self.log):
            if len(self.peer_digests) >= DIGEST_MEMORY:
                furthest = max(self.peer_digests)
                if index >= furthest:
                    return []
                del self.peer_digests[furthest]  # the nearest ones are checked first
            self.peer_digests[index] = (sender, digest)
            return []
        return self.check_digest(sender, index, digest)

    def check_peer_digests(self) -> list[Effect]:
        waiting = self.peer_digests.pop(len(self.log), None)
        if waiting is None:
            return []
        return self.check_digest(waiting[0], len(self.log), waiting[1])

    def check_digest(self, sender: bytes, index: int, digest: bytes) -> list[Effect]:
        if index == len(self.log):
            mine: bytes | None = self.digest()
        else:
            mine = self.digests.get(index)
        if mine is None or mine == digest:
            return []
        self.replica.counters.desyncs += 1
        detail = f"state after event {index} differs from {sender.hex()[:8]}'s: resyncing"
        return [Alarm("desync", detail), *self.resync()]

    def resync(self) -> list[Effect]:
        """Rebuild the stable game by replaying the stable log from the start."""
        stable = self.stable
        game = Game(
            own_orders=stable.own_orders, own_secrets=stable.own_secrets, rules=stable.rules
        )
        for entry in self.log:
            game.apply(entry.sender, entry.body, entry.lamport)
        self.stable = game
        self.optimistic_game = None
        self.digests.clear()
        self.last_digest = (0, b"")
        return []
