"""The consensus round on a membership change: which members leave, and where each stream ends.

The ordinary order stays leaderless; only a removal runs a round. Each round decides one
*view*: views are numbered from 0, each decided in turn, and the decision of a view is the
set of members it removes with the cut of each. A round is single-decree Paxos (Lamport,
"Paxos made simple", 2001) among the members of the view, in the manner of the view change
of virtual synchrony (Birman and Joseph, 1987): a coordinator sends PREPARE with a ballot and
the members it would remove; an acceptor that promises the ballot freezes what it
acknowledges of each until the view is decided, and reports how far that is and any value it
accepted; with promises from a strict majority of the view, none of them removed, the
coordinator asks to ACCEPT the highest-ballot value accepted among them, or else each
removed member cut at the lowest held reported; the view is decided once a strict majority
of the view has accepted one ballot's value.

Why the cut drops no final event: until a view is decided, every member of it must
acknowledge an event before it is final (section 10), and each acceptor of the quorum froze
its acknowledgements where it reported, so a final event of a removed member is at or below
every reported held. Views are decided one after another, so a member removed in a later
view still had to acknowledge everything final before this one was decided.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..wire.codec import encode
from ..wire.messages import Ack, Cut, Envelope, Round, RoundOp, Suspect
from ..wire.wholes import RoundKind
from .effects import Effect, Persist, Send

if TYPE_CHECKING:
    from .core import Replica

NOBODY = bytes(16)
Value = tuple[Ack, ...]
Ballot = tuple[int, bytes]


class ViewChange:
    """This node's part in the rounds: as coordinator, acceptor and learner of each view."""

    # Off: cuts are agreed as P-89 says, without a round (the rules before P-274).
    enabled: ClassVar[bool] = False

    @classmethod
    def switch(cls, on: bool) -> None:
        """Turn the rounds, and the ROUND kind on the wire, on or off (for every replica)."""
        cls.enabled = on
        RoundKind.enabled = on

    def __init__(self, replica: Replica) -> None:
        self.replica = replica
        self.view = 0
        self.decisions: list[Value] = []  # the value decided for each view, in turn
        self.highest = 0  # the highest ballot number seen in this view
        # node -> the cuts decided of its stays, earliest first: the first ends the stay
        # the stable game is in, the others later ones (learnt before their ADMIT is final)
        self.learnt: dict[bytes, list[int]] = {}
        self.fresh_view()

    def fresh_view(self) -> None:
        """Forget the round of the view just decided: the next view starts afresh."""
        self.promised: Ballot = (0, NOBODY)
        self.accepted: tuple[Ballot, Value] | None = None
        self.frozen: dict[bytes, int] = {}  # member -> the held our acks of it stay at
        self.ballot: Ballot | None = None  # our own ballot as coordinator
        self.removing: tuple[bytes, ...] = ()  # the members our ballot would remove
        self.promises: dict[bytes, Round] = {}
        self.proposed: Value | None = None
        self.votes: dict[Ballot, dict[bytes, Value]] = {}
        self.began = -1e18  # when our latest ballot began
        self.replies: list[tuple[bytes | None, Round]] = []  # our latest messages, resent

    # -- the view --------------------------------------------------------------------------

    def acceptors(self) -> set[bytes]:
        """The members of the current view: at the table, and not removed by a decision."""
        settled = self.replica.liveness.settled
        members = self.replica.order.stable.members.values()
        return {m.node for m in members if m.node not in settled}

    def removals(self) -> tuple[bytes, ...]:
        """The members of the view that this node would remove: those it suspects, and
        those a SUSPECT has removed in its stable order (P-92) whose cut is not decided."""
        replica = self.replica
        view = self.acceptors()
        suspected = replica.liveness.suspected
        members = replica.order.stable.members
        gone = {n for n in view if not members[n].present}
        return tuple(
            sorted(n for n in view if n != replica.me.node and (n in suspected or n in gone))
        )

    def quorum(self, voters: set[bytes]) -> bool:
        """Whether ``voters`` hold a strict majority of the view."""
        view = self.acceptors()
        return len(voters & view) * 2 > len(view)

    # -- the timer ---------------------------------------------------------------------------

    def tick(self, now: float) -> list[Effect]:
        if not self.enabled:
            return []
        replica = self.replica
        effects: list[Effect] = [_send(self.replica, to, msg) for to, msg in self.replies]
        me = replica.me.node
        if me not in self.acceptors() or not replica.is_member():
            return effects
        removing = self.removals()
        under_way = self.promised[0] > 0  # we promised a ballot of this view
        if (not removing and not under_way) or not replica.liveness.hears_majority():
            return effects
        waited = now - self.began > 2 * replica.settings.suspect_after
        if waited or (self.ballot is None and not under_way):
            # A ballot that stalled (its coordinator gone) is followed by ours, listing no
            # member if we would remove none: the view is decided all the same, and what
            # its acceptors froze is thawed (P-275).
            effects += self.prepare(removing, now)
        return effects

    def prepare(self, removing: tuple[bytes, ...], now: float) -> list[Effect]:
        """Open our next ballot of this view (P-275)."""
        me = self.replica.me.node
        self.highest = max(self.highest, self.promised[0]) + 1
        self.ballot = (self.highest, me)
        self.removing = removing
        self.promises = {}
        self.proposed = None
        self.began = now
        # Each with the start of the stay it ends: a cut is never below it (P-275).
        first = self.replica.senders.first_seq
        cuts = tuple(Ack(n, first(n) - 1) for n in removing)
        return self.reply(None, Round(RoundOp.PREPARE, self.view, self.ballot[0], me, cuts))

    # -- messages in -----------------------------------------------------------------------

    def take(self, sender: bytes, msg: Round) -> list[Effect]:
        """One ROUND from ``sender`` (or our own, taken as every acceptor takes it)."""
        if not self.enabled:
            return []
        if msg.op == RoundOp.LEARN or msg.view < self.view:
            return self.answer_late(sender, msg)
        if msg.view > self.view:
            # We missed a decision: ask for it, one view at a time (P-280).
            return _learn(self.replica, sender, self.view)
        ballot = (msg.ballot, msg.coordinator)
        self.highest = max(self.highest, msg.ballot)
        if msg.op == RoundOp.PREPARE:
            return self.on_prepare(ballot, msg)
        if msg.op == RoundOp.PROMISE:
            return self.on_promise(sender, ballot, msg)
        if msg.op == RoundOp.ACCEPT:
            return self.on_accept(ballot, msg)
        if msg.op == RoundOp.ACCEPTED:
            return self.on_accepted(sender, ballot, msg.cuts)
        return self.decide(msg.cuts)  # DECIDED

    def ahead(self, sender: bytes, view: int | None) -> list[Effect] | None:
        """None, or a LEARN for ``sender`` when its HEARTBEAT comes from a view we have not
        learnt: its acknowledgements are not counted here until we have (P-287)."""
        if self.enabled and view is not None and view > self.view:
            return _learn(self.replica, sender, self.view)
        return None

    def answer_late(self, sender: bytes, msg: Round) -> list[Effect]:
        """Tell a node behind us what its view decided (P-280); a DECIDED needs no answer."""
        if msg.view < len(self.decisions) and msg.op != RoundOp.DECIDED:
            value = self.decisions[msg.view]
            return [_send(self.replica, sender, Round(RoundOp.DECIDED, msg.view, 0, NOBODY, value))]
        return []

    def on_prepare(self, ballot: Ballot, msg: Round) -> list[Effect]:
        """An acceptor promises a ballot above every one it promised (P-276)."""
        if ballot < self.promised or not self.seated():
            return []
        if ballot > self.promised:
            self.began = self.replica.now  # a ballot began: give it its time before ours
        self.promised = ballot
        helds = tuple(Ack(a.node, self.freeze(a.node, a.held)) for a in msg.cuts)
        if self.accepted is None:
            reply = Round(RoundOp.PROMISE, self.view, msg.ballot, msg.coordinator, helds)
        else:
            (number, by), value = self.accepted
            reply = Round(
                RoundOp.PROMISE, self.view, msg.ballot, msg.coordinator, helds, number, by, value
            )
        return [_persist(self.replica, reply), *self.reply(msg.coordinator, reply)]

    def seated(self) -> bool:
        """Whether we may answer as an acceptor: our own ADMIT is in our stable log, so
        every event final before it was applied here, and no cut of ours is known. A
        SUSPECT that removed us in the order leaves us a member of the view until a round
        decides our cut, and our promise may be needed for it (P-276)."""
        replica = self.replica
        me = replica.me.node
        return me in replica.order.stable.members and me not in replica.liveness.settled

    def freeze(self, node: bytes, begun: int = 0) -> int:
        """Acknowledge nothing more of ``node`` until the view is decided; how far we do,
        and never below ``begun``, where the stay the round ends begins."""
        replica = self.replica
        if node == replica.me.node:
            return max(begun, replica.my_seq)
        held = self.frozen.get(node)
        if held is None:
            stream = replica.senders.stream(node)
            held = max(begun, stream.ack_level())
            self.frozen[node] = held
            stream.ack_cap = held
        return held

    def refreeze(self, node: bytes) -> None:
        """``node`` begins a stay while a round holds it: the round's cap still holds."""
        held = self.frozen.get(node)
        stream = self.replica.senders.stream(node)
        if held is not None and stream.cut is None:
            stream.ack_cap = held if stream.ack_cap is None else min(stream.ack_cap, held)

    def on_promise(self, sender: bytes, ballot: Ballot, msg: Round) -> list[Effect]:
        """As coordinator: with a quorum of promises, ask to accept a value (P-277)."""
        if ballot != self.ballot or self.proposed is not None:
            return []
        self.promises[sender] = msg
        if not self.quorum(set(self.promises)):
            return []
        value = self.choose()
        if value is None:
            return []
        self.proposed = value
        me = self.replica.me.node
        return self.reply(None, Round(RoundOp.ACCEPT, self.view, ballot[0], me, value))

    def choose(self) -> Value | None:
        """The value of our ballot, from a quorum of promises (P-277): the one accepted at the
        highest ballot among them, or each member removed cut at the lowest held reported.

        A member's word on its own stream bounds nothing (only the others' acknowledgements
        make its events final): each cut needs the word of another member of the quorum.
        """
        view = self.acceptors()
        quorum = {s: p for s, p in self.promises.items() if s in view}
        prior = [p for p in quorum.values() if p.accepted_ballot > 0]
        if prior:
            return max(prior, key=lambda p: (p.accepted_ballot, p.accepted_by)).accepted_cuts
        lows: dict[bytes, list[int]] = {n: [] for n in self.removing}
        for sender, promise in quorum.items():
            for held in promise.cuts:
                if held.node in lows and held.node != sender:
                    lows[held.node].append(held.held)
        if not all(lows.values()):
            return None
        return tuple(Ack(n, min(lows[n])) for n in self.removing)

    def on_accept(self, ballot: Ballot, msg: Round) -> list[Effect]:
        """An acceptor accepts a value of a ballot at or above the one it promised (P-278)."""
        if ballot < self.promised or not self.seated():
            return []
        self.promised = ballot
        self.accepted = (ballot, msg.cuts)
        for ack in msg.cuts:
            self.freeze(ack.node)
        accepted = Round(RoundOp.ACCEPTED, self.view, msg.ballot, msg.coordinator, msg.cuts)
        return [_persist(self.replica, accepted), *self.reply(None, accepted)]

    def on_accepted(self, sender: bytes, ballot: Ballot, value: Value) -> list[Effect]:
        votes = self.votes.setdefault(ballot, {})
        votes[sender] = value
        if not self.quorum({s for s, v in votes.items() if v == value}):
            return []
        return self.decide(value)

    # -- the decision -----------------------------------------------------------------------

    def decide(self, value: Value) -> list[Effect]:
        """The view is decided (P-279): adopt each cut, thaw the rest, go on to the next view."""
        replica = self.replica
        liveness = replica.liveness
        frozen = self.frozen
        decided = Round(RoundOp.DECIDED, self.view, 0, NOBODY, value)
        self.decisions.append(value)
        self.view += 1
        self.highest = 0
        self.fresh_view()
        effects: list[Effect] = [
            _persist(self.replica, decided),
            _send(self.replica, None, decided),
        ]
        effects += self.learn(value)
        for node in frozen:
            if node not in liveness.settled:
                stream = replica.senders.stream(node)
                stream.ack_cap = liveness.suspected.get(node)
        effects += self.announce(value)
        replica.order.ack_due = True
        return effects

    def learn(self, value: Value) -> list[Effect]:
        """Queue each decided cut for its member; the first of a queue is agreed now (P-279).

        Two stays of one member that sent nothing end at the same cut, so a cut alone does
        not say which stay it ends: decided one after another, the cuts of a member end its
        stays in turn, the first the stay its stable game is in.
        """
        effects: list[Effect] = []
        for ack in value:
            queue = self.learnt.setdefault(ack.node, [])
            queue.append(ack.held)
            if len(queue) > 1:
                continue
            if ack.node == self.replica.me.node:
                effects += self.replica.liveness.adopt_cut(Cut(ack.node, ack.held))
            else:
                self.replica.liveness.lower_cut(ack.node, ack.held)
        return effects

    def next_stay(self, node: bytes, ended: int | None) -> int | None:
        """``node`` is back after a removal whose stay ended at ``ended``: that cut is used
        up, and the next one decided, if any, ends the stay beginning now (P-282)."""
        settled = self.replica.liveness.settled
        settled.pop(node, None)
        queue = self.learnt.get(node, [])
        if queue and queue[0] == ended:
            queue.pop(0)
        if not queue:
            self.learnt.pop(node, None)
            return None
        settled[node] = queue[0]
        return queue[0]

    def announce(self, value: Value) -> list[Effect]:
        """Put the decision in the order (P-281): a CUT of each member removed from every
        member that learns it, so that one that missed the round learns its cut from the
        order as P-90 says, and a SUSPECT of each from every member that has none of its own
        in the order, so that the removal takes its place there (P-92) even if none did."""
        replica = self.replica
        if not replica.can_play():
            return []
        me = replica.me.node
        liveness = replica.liveness
        effects: list[Effect] = []
        for ack in value:
            said = me in liveness.claims.get(ack.node, {}) or me in liveness.withdrawals.get(
                ack.node, {}
            )
            if not said and replica._present(ack.node) and ack.node != me:
                effects += replica.send_event(Suspect(ack.node, ack.held), replica.now)
            effects += replica.send_event(Cut(ack.node, ack.held), replica.now)
        return effects

    # -- messages out ------------------------------------------------------------------------

    def reply(self, to: bytes | None, msg: Round) -> list[Effect]:
        """Send ``msg`` and keep it, to resend on every tick until the view is decided."""
        self.replies = [(t, m) for t, m in self.replies if m.op != msg.op] + [(to, msg)]
        me = self.replica.me.node
        if to == me:
            return self.take(me, msg)
        return [_send(self.replica, to, msg), *(self.take(me, msg) if to is None else [])]

    def restore(self, msg: Round) -> None:
        """Take back, from the durable log after a restart, a decision we learnt or the word
        we gave as an acceptor in the view not yet decided: our promises and acceptances
        stand, and what we froze stays frozen (P-283)."""
        if msg.view != self.view or not self.enabled:
            return
        if msg.op == RoundOp.DECIDED:
            self.decisions.append(msg.cuts)
            self.view += 1
            self.fresh_view()
            self.learn(msg.cuts)
            return
        self.promised = max(self.promised, (msg.ballot, msg.coordinator))
        if msg.op == RoundOp.ACCEPTED:
            self.accepted = ((msg.ballot, msg.coordinator), msg.cuts)
            return
        for held in msg.cuts:
            if held.node != self.replica.me.node:
                self.frozen[held.node] = min(self.frozen.get(held.node, held.held), held.held)
                self.replica.senders.stream(held.node).ack_cap = self.frozen[held.node]


def _persist(replica: Replica, msg: Round) -> Persist:
    """Our word as an acceptor, and each decision we learn, go to the durable log before
    anything is sent, so that a restart keeps them (P-283)."""
    envelope = Envelope(replica.me.table, replica.me.node, replica.clock.time, 0, msg)
    return Persist(encode(envelope))


def _learn(replica: Replica, sender: bytes, view: int) -> list[Effect]:
    """Ask ``sender`` what ``view``, ours, decided (P-280)."""
    return [_send(replica, sender, Round(RoundOp.LEARN, view, 0, NOBODY, ()))]


def _send(replica: Replica, to: bytes | None, msg: Round) -> Send:
    envelope = Envelope(replica.me.table, replica.me.node, replica.clock.time, 0, msg)
    return Send(to, encode(envelope))
