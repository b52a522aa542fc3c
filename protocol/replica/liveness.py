"""The replica's liveness: suspicion of silent members, agreement on their cut, goodbyes.

A member that hears a majority of the table suspects a member silent for too long
(a SUSPECT event states how much of its stream it holds) and joins a suspicion another
member has stated; once every unsuspected survivor has stated its own, the cut is the
least of them, announced with a CUT event that every node adopts. A member that takes a
suspicion back says so with an UNSUSPECT event: its word no longer bounds the cut. A BYE
cuts its sender's stream where it stands. A member admitted again starts afresh: what was
said about an earlier stay is void. With rounds on (``viewchange.py``), a consensus round
decides each cut instead, and SUSPECTs only place removals in the order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..wire.codec import MAX_PEERS
from ..wire.messages import Admit, Body, Bye, Cut, Event, Suspect, Unsuspect
from .effects import Effect, Withdrawn
from .flush import Flushes
from .guard import MAX_CLAIM_TARGETS, MAX_SETTLED
from .streams import Held

if TYPE_CHECKING:
    from .core import Replica


class Liveness:
    """Who is suspected, by whom and how far held, and the cuts agreed on."""

    # Test only: False restores the rules before P-268 and P-269, under which a promise bounds
    # nothing once its sender has left and the first cut adopted stands (the simulator's links
    # sweep and the model checker show what that breaks).
    learns_cuts: ClassVar[bool] = True

    def __init__(self, replica: Replica) -> None:
        self.replica = replica
        self.suspected: dict[bytes, int] = {}  # node -> what I held when I suspected it
        self.suspect_seqs: dict[bytes, int] = {}  # node -> the number of my Suspect event
        self.claims: dict[bytes, dict[bytes, int]] = {}  # target -> {suspecter: held}
        self.claim_seqs: dict[tuple[bytes, bytes], int] = {}  # (target, suspecter) -> its seq
        self.settled: dict[bytes, int] = {}  # target -> agreed cut
        self.cut_notes: list[tuple[bytes, Cut]] = []  # CUTs whose sender we cannot place yet
        self.withdrawn: set[bytes] = set()  # suspicions we took back (P-88): no CUT from us
        # target -> {suspecter: held} of SUSPECTs taken back with an UNSUSPECT: they still
        # doubt the target (its SUSPECT stays in the order), but bound no cut.
        self.withdrawals: dict[bytes, dict[bytes, int]] = {}
        self.cuts_applied: dict[bytes, int] = {}  # node -> highest cut of it in the stable log
        self.majority_since: float | None = None  # when we last came to hear a majority
        self.flushes = Flushes(replica)  # our withdrawals still capped (P-262)

    # -- suspicion ---------------------------------------------------------------------------

    def hears_majority(self) -> bool:
        """Whether this node hears from most of the table, itself included.

        Only such a node suspects anyone: in an even split nobody does, and both halves
        simply wait for the network to heal instead of removing each other.
        """
        replica = self.replica
        present = [m.node for m in replica.order.stable.members.values() if m.present]
        if replica.viewchange.enabled:
            # With rounds, a member whose removal a decision told us of is no longer one of
            # the view, heard or not: it must not make up a majority to remove another (P-295).
            present = [n for n in present if n not in self.settled]
        # Half the suspicion timeout: silences that start together (a partition) must not
        # count each other as heard while their timers run out one by one.
        limit = replica.settings.suspect_after / 2
        heard = [
            n
            for n in present
            if n == replica.me.node or replica.now - replica.senders.stream(n).last_heard <= limit
        ]
        return len(heard) * 2 > len(present)

    def suspect_silent(self, now: float) -> list[Effect]:
        replica = self.replica
        effects: list[Effect] = []
        if not replica.is_member() or not self.hears_majority():
            self.majority_since = None
            return effects
        if self.majority_since is None:
            self.majority_since = now
        if now - self.majority_since < replica.settings.suspect_after / 2:
            # A majority just came back (a healed split): give the rest of the table a
            # moment to be heard too before calling anyone silent.
            return effects
        if replica.me.node in self.settled:
            return effects  # we are being removed: a suspicion would only hold back our acks
        for member in list(replica.order.stable.members.values()):
            node = member.node
            if not member.present or node == replica.me.node or node in self.suspected:
                continue
            if node in self.settled:
                continue
            stream = replica.senders.stream(node)
            if now - stream.last_heard > replica.settings.suspect_after:
                effects += self.suspect(node, now)
        return effects

    def suspect(self, node: bytes, now: float) -> list[Effect]:
        self.withdrawn.discard(node)
        self.flushes.drop(node)
        stream = self.replica.senders.stream(node)
        held = stream.ack_level()  # a withdrawal still flushing caps it (P-263)
        self.suspected[node] = held
        stream.ack_cap = held
        self.suspect_seqs[node] = self.replica.my_seq + 1
        return self.replica.send_event(Suspect(node, held), now)

    def note_suspect(self, sender: bytes, seq: int, body: Suspect, now: float) -> list[Effect]:
        replica = self.replica
        me = replica.me.node
        if body.held < replica.senders.first_seq(body.node) - 1:
            return []  # about a stream the node has since left behind
        targets = self.claims.keys() | self.withdrawals.keys()  # a withdrawn one still doubts
        if body.node not in targets and len(targets) >= MAX_CLAIM_TARGETS:
            replica.counters.drop("too_many_claims")
            return []
        self.claims.setdefault(body.node, {})[sender] = body.held
        target = body.node
        self.withdrawals.get(target, {}).pop(sender, None)
        self.claim_seqs[(target, sender)] = seq
        if sender == me and target not in self.suspected:
            # Reloaded from our own log after a restart: suspect it again, as before.
            self.suspected[target] = body.held
            self.suspect_seqs[target] = replica.my_seq
            if target not in self.settled:
                replica.senders.stream(target).ack_cap = body.held
        if target == me or target in self.suspected or sender in self.suspected:
            return []
        if target in self.withdrawn and self.flushes.enabled:
            # P-86: we have suspected it already (withdrawn, its SUSPECT still counts); joining
            # again would drop our flush (P-262) and withdraw again, round and round
            return []
        if target in self.settled or me in self.settled:
            return []  # its cut is agreed already, or we are being removed: as suspect_silent
        if not replica.is_member() or sender == me or not self.hears_majority():
            return []
        if not replica._present(sender):
            return []  # P-86 joins a member's suspicion, never a stranger's
        member = replica.order.stable.members.get(target)
        if member is None or not member.present:
            return []
        return self.suspect(target, now)  # join in, so that every survivor states its cut

    def maybe_retract(self, node: bytes, now: float) -> list[Effect]:
        """Take back a suspicion of a member we hear again, if nobody can agree on its cut.

        Without a majority of members that nobody suspects, nobody can agree on its cut
        (``settle_leaves`` counts the word of neither), so holding back our
        acknowledgements would only stall the table: a healed even split, a table of two,
        or two members suspected at once (each cut then waits on the other's word). Nor
        can anyone once such a member has taken its own suspicion back: the cut needs its
        word, which it gives only when it suspects the node again. Our Suspect stays in the
        log and is applied in order like any event; we say that we take it back with an
        UNSUSPECT and send no CUT of the node until we suspect it again, since our
        acknowledgements now run past the held we stated.
        """
        if node not in self.suspected or node in self.settled:
            return []
        present = [m.node for m in self.replica.order.stable.members.values() if m.present]
        doubted = self.doubted(present)
        unsuspected = [n for n in present if n not in self.suspected and n not in doubted]
        gave_up = [n for n in self.withdrawals.get(node, {}) if n in unsuspected]
        if len(unsuspected) * 2 > len(present) and not gave_up:
            return []
        self.retract(node, self.replica.my_seq + 1)
        return self.replica.send_event(Unsuspect(node), now)

    def retract(self, node: bytes, unsuspect_seq: int) -> None:
        """We no longer suspect ``node``: send no CUT of it, and acknowledge it again once
        the UNSUSPECT numbered ``unsuspect_seq`` is flushed (P-262)."""
        self.suspected.pop(node, None)
        self.suspect_seqs.pop(node, None)
        self.withdrawn.add(node)
        if node not in self.settled and not self.flushes.begin(node, unsuspect_seq):
            self.replica.senders.stream(node).ack_cap = self.replica.viewchange.frozen.get(node)

    def note_unsuspect(self, sender: bytes, seq: int, body: Unsuspect) -> None:
        """``sender`` takes back its SUSPECT of ``body.node``: its held no longer bounds the cut.

        Our own, met again in our log after a restart, takes ours back as it did before.
        """
        target = body.node
        claim_seq = self.claim_seqs.get((target, sender))
        if claim_seq is None or claim_seq > seq or sender not in self.claims.get(target, {}):
            return  # nothing of this sender's to take back (a stay voided it already)
        held = self.claims[target].pop(sender)
        if not self.claims[target]:
            del self.claims[target]
        self.withdrawals.setdefault(target, {})[sender] = held
        if sender == self.replica.me.node and target in self.suspected:
            self.retract(target, seq)

    def doubted(self, present: list[bytes]) -> set[bytes]:
        """The members a present member has suspected: their word on a cut does not count.

        A suspicion taken back still counts: its SUSPECT removes the member once applied,
        and a cut agreed elsewhere from it may be on its way.
        """
        return {
            n
            for said in (self.claims, self.withdrawals)
            for n, by in said.items()
            if any(c in present for c in by)
        }

    # -- the cut ---------------------------------------------------------------------------------

    def note_bye(self, sender: bytes, seq: int) -> None:
        self.settled[sender] = seq
        self.replica.order.cut_stream(sender, seq)

    def note_applied_cut(self, sender: bytes, seq: int, body: Body) -> None:
        """Remember the highest cut of each node the stable log has reached."""
        if isinstance(body, Cut):
            self.cuts_applied[body.node] = max(self.cuts_applied.get(body.node, 0), body.seq)
        elif isinstance(body, Bye):
            self.cuts_applied[sender] = max(self.cuts_applied.get(sender, 0), seq)

    def settle_leaves(self) -> list[Effect]:
        """Agree on the cut of a silent member once every other survivor has stated its own.

        Only a node that sees a majority of unsuspected members may settle; it then says
        so with a CUT event, which every other node (the removed one included) adopts.
        """
        replica = self.replica
        present = [m.node for m in replica.order.stable.members.values() if m.present]
        effects: list[Effect] = self.adopt_cuts() if self.cut_notes else []
        if self.flushes.pending:
            self.flushes.finish()
        if replica.viewchange.enabled:
            return effects  # a round decides every cut (P-281)
        # A member whose BYE or agreed cut we hold, with its stream up to it, has left:
        # it sends no SUSPECT any more, so its word is not waited for, nor counted (P-289).
        staying = [n for n in present if not self.has_left(n)]
        for target, claims in list(self.claims.items()):
            if target in self.settled or target == replica.me.node or target not in present:
                continue
            if target in self.withdrawn:
                continue  # we acknowledge it past our held again: our word is no bound
            # A member anyone has suspected may be on its way out: its word on the cut,
            # ours included, must not count, or two sides could agree on different cuts.
            doubted = self.doubted(present)
            survivors = [n for n in staying if n not in self.suspected and n not in doubted]
            if len(survivors) * 2 <= len(staying) or replica.me.node not in survivors:
                continue  # no majority here: wait for the network to heal, or for a CUT
            if not all(n in claims for n in survivors):
                continue
            cut = min(claims[n] for n in survivors)
            self.settled[target] = cut
            replica.order.cut_stream(target, cut)
            effects += replica.send_event(Cut(target, cut), replica.now)
        return effects

    def has_left(self, node: bytes) -> bool:
        """Whether ``node``'s stream has ended here: its BYE or agreed cut, and all before it."""
        cut = self.settled.get(node)
        return cut is not None and self.replica.senders.stream(node).held >= cut

    def note_cut(self, sender: bytes, body: Cut) -> list[Effect]:
        if self.replica.viewchange.enabled and body.node != self.replica.me.node:
            return []  # a round decides it: the CUT only tells a node that missed its own
        self.cut_notes.append((sender, body))
        return self.adopt_cuts()

    def adopt_cuts(self) -> list[Effect]:
        """Adopt the CUTs sent by members at the table (a restart may learn them early)."""
        effects: list[Effect] = []
        waiting: list[tuple[bytes, Cut]] = []
        for sender, body in self.cut_notes:
            member = self.replica.order.stable.members.get(sender)
            placed = sender == b"" or (member is not None and member.present)  # b"": a round's
            if not placed or self.later_stay_waits(body):
                waiting.append((sender, body))
            elif body.seq > self.settled.get(body.node, body.seq):
                # Past the cut we hold: a later stay's, which a restart can learn before its
                # game reaches the ADMIT that begins it. It waits for that ADMIT.
                waiting.append((sender, body))
            else:
                effects += self.adopt_cut(body)
        self.cut_notes = waiting[-MAX_PEERS:]
        return effects

    def later_stay_waits(self, body: Cut) -> bool:
        """Whether ``body`` cuts a later stay of its node, whose ADMIT waits in the order.

        A restart takes every stream's events in before its game seats anyone, and can
        learn a later stay's CUT before the earlier stay's: adopted first, that cut would
        have it wait for numbers the earlier stay never sent. It waits for its ADMIT.
        """
        replica = self.replica
        begun = replica.senders.first_seq(body.node)
        for _key, sender, seq in replica.pending:
            held = replica.streams[sender].events.get(seq)
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

    def adopt_cut(self, body: Cut) -> list[Effect]:
        me = self.replica.me.node
        if body.seq < self.replica.senders.first_seq(body.node) - 1:
            return []  # about a stream the node has since left behind
        if body.node not in self.settled and len(self.settled) >= MAX_SETTLED:
            self.replica.counters.drop("too_many_cuts")
            return []
        if body.node == me:
            # Our own BYE past it reached nobody who agreed the cut: the lower stands (P-288).
            held = self.settled.get(me)
            if held is None or (self.learns_cuts and body.seq < held):
                self.settled[me] = body.seq
                return self.cut_myself(body.seq)
            return []
        lower = self.learns_cuts and body.seq < self.settled.get(body.node, body.seq)
        if body.node not in self.settled or lower:
            self.lower_cut(body.node, body.seq)  # of two cuts of one stay the lower (P-269)
        return []

    def lower_cut(self, target: bytes, cut: int) -> None:
        """Take ``cut`` as ``target``'s cut: the first agreed here, or one below it (P-269)."""
        self.settled[target] = cut
        self.replica.order.cut_stream(target, cut)

    def standing_bound(self, target: bytes) -> int | None:
        """The lowest held among the standing SUSPECTs of ``target`` by members of the table,
        present or gone (within the stream that counts of one that has left), or None once
        a cut of ``target`` is agreed here (P-268)."""
        claims = self.claims.get(target)
        if not claims or not self.learns_cuts or target in self.settled:
            return None
        if self.replica.viewchange.enabled:  # the round's promises bound it instead
            return None
        members = self.replica.order.stable.members
        bound: int | None = None
        for by, held in claims.items():
            if by not in members or by == target:
                continue
            cut = self.settled.get(by)
            seq = self.claim_seqs.get((target, by))
            if cut is not None and seq is not None and seq > cut:
                continue  # past its sender's cut: it never counts (P-91)
            bound = held if bound is None else min(bound, held)
        return bound

    def cut_myself(self, cut: int) -> list[Effect]:
        """The others have removed us at ``cut``: what we sent past it never happened.

        Our own suspicions die with our place at the table: nobody waits for our
        acknowledgements any more, so we hold none back.
        """
        replica = self.replica
        replica.order.cut_stream(replica.me.node, cut)  # counts again only in a new stream
        replica.order.optimistic_game = None
        for target, seq in list(self.suspect_seqs.items()):
            if seq > cut:  # never heard by anyone: take it back entirely
                self.claims.get(target, {}).pop(replica.me.node, None)
        for target in list(self.suspected):
            if target not in self.settled:
                replica.senders.stream(target).ack_cap = None
        self.suspected.clear()
        self.suspect_seqs.clear()
        self.flushes.clear()
        return []

    # -- a fresh stay --------------------------------------------------------------------------

    def on_admitted(self, body: Admit, now: float, back: bool = False) -> list[Effect]:
        """A fresh start for ``node``: what was said about an earlier stay of it, or by it, is void.

        A cut, a suspicion or a claim about this stay or a later one (at or above the
        admission's ``first_seq`` - 1, and not stated by an event ordered before this
        ADMIT) stands: a node that reloads its log, or catches up, may agree on a cut
        before it applies the ADMIT that cut ends, and wiping it then would leave it
        waiting for numbers the node never sent. One stated before it in the order is an
        earlier stay's, even at ``first_seq`` - 1: a stay with no event of its own ends
        there, and a late HELLO can bring the node back at the same ``first_seq``.
        """
        replica = self.replica
        node = body.node
        earlier = body.first_seq - 1  # a cut or held below this is about an earlier stay
        applied = self.cuts_applied.pop(node, -1)  # the cuts ordered before this ADMIT
        cut, mine = self.forget_earlier_stay(node, earlier, applied, back)
        effects: list[Effect] = []
        stream = replica.senders.stream(node)
        # It is heard from afresh: a member that admits it before hearing it (another
        # member heard its HELLO) must not find it silent since before it left.
        stream.last_heard = max(stream.last_heard, now)
        ready, void = stream.skip_to(body.first_seq)
        if cut is not None:
            replica.order.cut_stream(node, cut)
            ready = [held for held in ready if held.envelope.seq <= cut]
        elif mine is not None:
            stream.ack_cap = mine
        replica.viewchange.refreeze(node)
        for held in ready:
            effects += replica.order.on_contiguous(held, now)
        if node == replica.me.node:
            effects += [_withdrawn(held) for held in void]
        self.cut_notes = [
            (s, c)
            for s, c in self.cut_notes
            if c.node != node or (c.seq >= earlier and c.seq > applied)
        ]
        self.flushes.drop(node)
        if node == replica.me.node:
            self.flushes.clear()
            replica.rejoining = False
            replica.my_seq = max(replica.my_seq, body.first_seq - 1)
            for target in list(self.suspected):
                replica.senders.stream(target).ack_cap = None
            self.suspected.clear()
            self.suspect_seqs.clear()
        if self.cut_notes:
            effects += self.adopt_cuts()  # one about this stay, learnt before it began
        return effects

    def forget_earlier_stay(
        self, node: bytes, earlier: int, applied: int, back: bool = False
    ) -> tuple[int | None, int | None]:
        """Void the cut, our suspicion and the claims about an earlier stay of ``node``.

        Returns what stands about this stay: its agreed cut, and the held we stated when we
        suspected it.
        """
        cut = self.settled.get(node)
        # With rounds, no ADMIT of a member ``back`` after a removal is final before that
        # removal's cut is decided (P-282): the cut held is the earlier stay's.
        if back and self.replica.viewchange.enabled:
            cut = self.replica.viewchange.next_stay(node, cut)
        elif cut is not None and (cut < earlier or cut <= applied):
            del self.settled[node]
            cut = None
        mine = self.suspected.get(node)
        if mine is not None and not self.claim_stands(node, self.replica.me.node, mine, earlier):
            del self.suspected[node]
            self.suspect_seqs.pop(node, None)
            mine = None
        for said in (self.claims, self.withdrawals):
            self.void_claims(said, node, earlier)
        self.withdrawn.discard(node)
        return cut, mine

    def void_claims(self, said: dict[bytes, dict[bytes, int]], node: bytes, earlier: int) -> None:
        """Void, in ``said`` (claims, or claims taken back), those about an earlier stay of
        ``node``, and every one ``node`` itself stated."""
        about = said.pop(node, {})
        standing = {
            by: held for by, held in about.items() if self.claim_stands(node, by, held, earlier)
        }
        for by in about:
            if by not in standing:
                self.claim_seqs.pop((node, by), None)
        if standing:
            said[node] = standing
        for target, claims in said.items():
            if claims.pop(node, None) is not None:
                self.claim_seqs.pop((target, node), None)

    def claim_stands(self, node: bytes, by: bytes, held: int, earlier: int) -> bool:
        """Whether ``by``'s SUSPECT of ``node`` outlives the ADMIT of ``node`` being applied.

        A SUSPECT already applied is ordered before this ADMIT: it is about an earlier stay,
        whatever its held (a stay with no event of its own ends at first-seq - 1, the held a
        SUSPECT of the next stay at the same first-seq would have). One still pending, or
        not yet held, is ordered after it: it stands unless its held is below the stay.
        """
        if held < earlier:
            return False
        seq = self.claim_seqs.get((node, by))
        stream = self.replica.streams.get(by)
        if seq is None or stream is None:
            return True
        return seq in stream.events or seq > stream.held


def _withdrawn(held: Held) -> Withdrawn:
    payload = held.envelope.payload
    assert isinstance(payload, Event)
    return Withdrawn(held.envelope.seq, payload.body, "removed_from_table")
