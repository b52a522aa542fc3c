"""The flush of a withdrawn suspicion: no cut agreed from it can still be on its way.

A member that takes back its SUSPECT of X (an UNSUSPECT, P-226) may already have been
counted, by a member that has not received the UNSUSPECT yet, towards X's cut at that
SUSPECT's held; had it acknowledged X's events past the held at once, an event of X could
become final on one node and cut on another. So the withdrawal is a flush, in the manner of
a view change in virtual synchrony (Birman and Joseph, 1987): its acknowledgements of X stay
capped until every other member has either acknowledged the UNSUSPECT, and this node holds
that member's stream up to the last number it stated with that acknowledgement, or suspected
this node (its word then counts for no cut there, P-89). A CUT of X sent before the member
took in the UNSUSPECT is then held here, and adopted (P-90), before the cap lifts (P-262).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from .core import Replica


@dataclass(slots=True)
class Flush:
    """One withdrawal waiting: our UNSUSPECT's number, and each member's mark once it acked."""

    unsuspect: int
    marks: dict[bytes, int] = field(default_factory=dict)  # member -> its last seq then


class Flushes:
    """Our withdrawals whose flush is not complete, by the node we withdrew our suspicion of."""

    # Test only: False restores the rule before P-262, under which a withdrawal acknowledges
    # the node's events again at once (the simulator's sweeps show what that breaks).
    enabled: ClassVar[bool] = True

    def __init__(self, replica: Replica) -> None:
        self.replica = replica
        self.pending: dict[bytes, Flush] = {}

    def begin(self, target: bytes, unsuspect_seq: int) -> bool:
        """Start the flush of our UNSUSPECT of ``target``; False: lift the cap now (old rule)."""
        if not self.enabled:
            return False
        self.pending[target] = Flush(unsuspect_seq)
        return True

    def drop(self, target: bytes) -> None:
        """``target`` is suspected afresh, cut or admitted again: its flush no longer matters."""
        self.pending.pop(target, None)

    def clear(self) -> None:
        """We leave the table or begin a new stay: nobody waits for our acknowledgements."""
        for target in self.pending:
            if target not in self.replica.liveness.settled:
                self.replica.senders.stream(target).ack_cap = None
        self.pending.clear()

    def note_beat(self, sender: bytes, last_seq: int) -> None:
        """A HEARTBEAT of ``sender``: mark where its stream stood when it first acked ours."""
        if not self.pending:
            return
        acked = self.replica.senders.stream(sender).acks.get(self.replica.me.node, 0)
        for flush in self.pending.values():
            if sender not in flush.marks and acked >= flush.unsuspect:
                flush.marks[sender] = last_seq

    def finish(self) -> None:
        """Lift the cap of every withdrawal whose flush is complete (P-262)."""
        liveness = self.replica.liveness
        for target, flush in list(self.pending.items()):
            if target in liveness.settled or target in liveness.suspected:
                del self.pending[target]  # a cut or a fresh suspicion caps it now
            elif self.complete(target, flush):
                del self.pending[target]
                frozen = self.replica.viewchange.frozen.get(target)  # a round holds it (P-276)
                self.replica.senders.stream(target).ack_cap = frozen

    def complete(self, target: bytes, flush: Flush) -> bool:
        """Whether every other member has taken in our UNSUSPECT, or counts our word nowhere.

        A member that has left (we hold its stream up to its agreed cut) is past waiting
        for, as in the order's own test of stability.
        """
        replica = self.replica
        me = replica.me.node
        liveness = replica.liveness
        doubters = liveness.claims.get(me, {}).keys() | liveness.withdrawals.get(me, {}).keys()
        for member in replica.order.stable.members.values():
            node = member.node
            if not member.present or node in (me, target) or node in doubters:
                continue
            stream = replica.streams.get(node)
            if stream is None:
                return False
            cut = liveness.settled.get(node)
            if cut is not None and stream.held >= cut:
                continue
            mark = flush.marks.get(node)
            if mark is None or stream.held < mark:
                return False
        return True
