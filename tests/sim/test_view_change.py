"""The consensus round on membership changes (protocol/replica/viewchange.py), behind its switch.

With ``ViewChange.switch(True)`` a round of single-decree Paxos per view decides each cut
(spec/protocol.md section 12, *Agreeing by a round*, P-274 to P-287); off (the default) the
cut is agreed as P-89 says and ROUND stays refused on the wire (P-18). The links plan's seeds
that broke agreement under the rules without a round hold with it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from dutchblitz.protocol.replica.effects import Send
from dutchblitz.protocol.replica.viewchange import ViewChange
from dutchblitz.protocol.wire.codec import ProtocolError, decode, encode
from dutchblitz.protocol.wire.messages import (
    Ack,
    Cut,
    Envelope,
    Event,
    Heartbeat,
    Ready,
    Round,
    RoundOp,
    Suspect,
)

from tests.protocol.replicas import NODE_IDS, TABLE, Flight, Net
from tests.rigs.sim import run_seed
from tests.rigs.watch import InvariantViolated

NODE = bytes(range(16))
A, B, C, X = range(4)

# The links plan's seeds (first 10,000) that broke agreement without a round: a different
# event at an index, final at one node and cut elsewhere, an honest player flagged; and two
# that stalled. Each holds every invariant with a round per view. (3337 and 8901 broke only
# the watch, which took a cut of one stay for a cut of the next stay begun at the same
# first-seq: tests/rigs/test_watch.py; without rounds they hold too, as 2849 and 8837 now do.)
HELD_WITH_ROUNDS = [
    *(191, 818, 2538, 3238, 4500, 4811, 5676, 5733, 7874, 8736),
    *(2849, 3337, 3895, 8235, 8837, 8901),
    3087,
    *(5, 383),
]
# A few of them run here (each takes seconds); tests/sim/test_links_regressions.py runs the
# rest, and ``python -m tests.rigs.sim --faults links --rounds`` any range.
QUICK = [191, 7874, 8235, 5]


@pytest.fixture
def rounds() -> Iterator[None]:
    ViewChange.switch(True)
    try:
        yield
    finally:
        ViewChange.switch(False)


def _round() -> bytes:
    cuts = (Ack(NODE, 7),)
    return encode(Envelope("kitchen", NODE, 3, 0, Round(RoundOp.ACCEPT, 2, 5, NODE, cuts)))


@pytest.mark.timeout(30)
def test_round_is_refused_while_the_switch_is_off_P18() -> None:
    """P-18: off, a ROUND (kind 6) is refused as an unknown kind, as before."""
    with pytest.raises(ProtocolError) as caught:
        decode(_round())
    assert caught.value.reason.value == "unknown_kind"


@pytest.mark.timeout(30)
def test_round_goes_through_the_codec_with_the_switch_on_P274(rounds: None) -> None:
    """P-274: a node that runs rounds takes ROUND, field for field."""
    envelope = decode(_round())
    assert isinstance(envelope.payload, Round)
    assert envelope.payload.op is RoundOp.ACCEPT
    assert envelope.payload.cuts == (Ack(NODE, 7),)


def _silent_x() -> Net:
    """A table of four whose X has sent a few events everyone holds, then falls silent."""
    net = Net(4)
    net.open_table()
    for ready in (True, False, True):
        net.submit(X, Ready(ready))
    net.settle()
    net.down.add(X)
    return net


def _op(data: bytes) -> RoundOp | None:
    payload = decode(data).payload
    return payload.op if isinstance(payload, Round) else None


def _decided(net: Net, view: int) -> bool:
    return all(net.replica(i).viewchange.view >= view for i in (A, B, C))


@pytest.mark.timeout(60)
def test_a_silent_member_is_removed_by_one_decided_view_P275_P279(rounds: None) -> None:
    """P-275, P-276, P-277, P-278, P-279, P-281: the members suspect X, a coordinator's
    ballot gets promises from a quorum, the value (X cut at the lowest held promised) is
    accepted by a quorum, every survivor adopts that one cut, and X leaves at a SUSPECT's
    place in the order."""
    net = _silent_x()
    last = net.last_own(X)[0]
    net.settle(until=lambda: _decided(net, 1))
    decisions = {tuple(net.replica(i).viewchange.decisions[0]) for i in (A, B, C)}
    assert decisions == {(Ack(NODE_IDS[X], last),)}
    net.settle(
        until=lambda: all(not net.replica(i).stable.members[NODE_IDS[X]].present for i in (A, B, C))
    )
    for i in (A, B, C):
        assert net.replica(i).liveness.settled[NODE_IDS[X]] == last
        assert any(
            isinstance(e.body, Suspect) and e.body.node == NODE_IDS[X] for e in net.replica(i).log
        )
    assert net.logs()[A] == net.logs()[B] == net.logs()[C]


@pytest.mark.timeout(60)
def test_a_promise_freezes_acknowledgements_until_the_view_is_decided_P276(rounds: None) -> None:
    """P-276: once a member has promised, it acknowledges X no further than it stated."""
    net = _silent_x()
    net.losing.append(lambda flight: _op(flight.data) == RoundOp.ACCEPT)  # phase 2 never comes
    net.settle(until=lambda: bool(net.replica(B).viewchange.frozen))
    replica = net.replica(B)
    frozen = replica.viewchange.frozen[NODE_IDS[X]]
    assert replica.senders.stream(NODE_IDS[X]).ack_level() <= frozen


@pytest.mark.timeout(60)
def test_a_restart_takes_back_the_views_decided_P283(rounds: None) -> None:
    """P-283: the decisions a member learnt, recorded before it said so, come back with its
    log after a restart: it is in the same view, with the same cut."""
    net = _silent_x()
    net.settle(until=lambda: _decided(net, 1))
    before = net.replica(A).viewchange
    again = net._replica(A)
    again.restore(net[A].persisted, 0, net.now)
    assert again.viewchange.view == before.view
    assert again.viewchange.decisions == before.decisions
    cut = net.replica(A).liveness.settled[NODE_IDS[X]]
    # adopted once the log is final again and reaches X's ADMIT, as a CUT learnt early (P-90)
    waiting = [body for _sender, body in again.liveness.cut_notes]
    assert Cut(NODE_IDS[X], cut) in waiting or again.liveness.settled.get(NODE_IDS[X]) == cut


@pytest.mark.timeout(60)
def test_a_late_node_learns_the_decision_P280(rounds: None) -> None:
    """P-280: a node that missed the decision (every ACCEPTED and DECIDED to it lost) is
    told DECIDED by a node that has it, when it sends its ACCEPTED again."""
    net = _silent_x()

    def lost(flight: Flight) -> bool:
        return flight.target == C and _op(flight.data) in (RoundOp.ACCEPTED, RoundOp.DECIDED)

    net.losing.append(lost)
    net.settle(until=lambda: net.replica(A).viewchange.view >= 1)
    assert net.replica(C).viewchange.view == 0
    net.losing.remove(lost)
    net.settle(until=lambda: _decided(net, 1))
    assert net.replica(C).viewchange.decisions == net.replica(A).viewchange.decisions


@pytest.mark.timeout(60)
def test_nothing_is_final_while_a_removal_waits_for_its_round_P282(rounds: None) -> None:
    """P-282: with a member removed in the stable game and its cut not learnt, no event
    becomes final."""
    net = _silent_x()
    replica = net.replica(A)
    replica.order.stable.members[NODE_IDS[X]].present = False
    net.submit(B, Ready(False))
    net.run()
    assert replica.pending and not replica.order.is_stable(replica.pending[0])


@pytest.mark.timeout(120)
@pytest.mark.parametrize("seed", QUICK, ids=str)
def test_links_seed_holds_with_a_round_per_view(rounds: None, seed: int) -> None:
    """Overlapping removals decided one view after another keep every invariant."""
    summary = run_seed(seed, "links")
    assert summary["rounds"] >= 1


@pytest.mark.timeout(120)
@pytest.mark.parametrize("seed", QUICK, ids=str)
def test_the_same_seed_breaks_without_the_rounds(seed: int) -> None:
    """Off, the seed still breaks as section 12's Known limits say: the round is what holds it."""
    with pytest.raises(InvariantViolated):
        run_seed(seed, "links")


def _beat(view: int | None) -> Envelope:
    return Envelope("kitchen", NODE, 3, 0, Heartbeat(4, (Ack(NODE_IDS[X], 2),), 0, b"", view))


@pytest.mark.timeout(30)
def test_a_heartbeat_says_its_view_only_where_rounds_run_P287(rounds: None) -> None:
    """P-287: with rounds, a HEARTBEAT carries its sender's view, and a member sends its own."""
    assert decode(encode(_beat(3))) == _beat(3)
    assert decode(encode(_beat(None))) == _beat(None)
    net = _silent_x()
    net.advance(1.0)
    sent = [decode(e.data).payload for e in net.tick(A) if isinstance(e, Send)]
    assert [b.view for b in sent if isinstance(b, Heartbeat)] == [0]


@pytest.mark.timeout(30)
def test_a_heartbeat_with_a_view_is_refused_where_rounds_do_not_run_P26() -> None:
    """P-26: off, a HEARTBEAT of five items is refused as before, and none is sent."""
    data = encode(_beat(None))
    with pytest.raises(ProtocolError) as caught:
        ViewChange.switch(True)
        try:
            data = encode(_beat(1))
        finally:
            ViewChange.switch(False)
        decode(data)
    assert caught.value.reason.value == "bad_length"


@pytest.mark.timeout(60)
def test_acks_of_a_later_view_wait_until_its_decision_is_learnt_P287(rounds: None) -> None:
    """P-287: a member that missed the decision counts no acknowledgement of a HEARTBEAT of
    a later view, and asks its sender for the decision with LEARN of its own view."""
    net = _silent_x()
    replica = net.replica(C)
    before = dict(replica.streams[NODE_IDS[A]].acks)
    beat = encode(
        Envelope(TABLE, NODE_IDS[A], 10_000, 0, Heartbeat(0, (Ack(NODE_IDS[X], 99),), 0, b"", 1))
    )
    effects = replica.receive(beat, net.now)
    assert replica.streams[NODE_IDS[A]].acks == before
    sent = [decode(e.data).payload for e in effects if isinstance(e, Send)]
    assert Round(RoundOp.LEARN, 0, 0, bytes(16), ()) in sent


# (faults, seed): each broke with rounds on before the rule named: overlapping 19 made an
# event of a stay past its cut final at a member that missed the decision (P-287); links
# 122 applied its own next ADMIT before it learnt the cut of the stay it was removed from,
# and then took a later stay as cut (P-282); links 4 and 15 stalled when a member removed
# in the order, whose promise the quorum needed, would not promise (P-276); links 70
# removed both other players of three, one after the other, so that the game ended and a
# second began, when the member that heard neither counted the first, whose removal it had
# learnt, towards the majority that let it suspect the second (P-295); links 240 broke
# only the watch (two stays begun at one first-seq, tests/rigs/test_watch.py).
ROUND_REGRESSIONS = [
    ("overlapping", 19),
    ("links", 122),
    ("links", 4),
    ("links", 15),
    ("links", 70),
    ("links", 240),
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("faults", "seed"), ROUND_REGRESSIONS, ids=str)
def test_the_seeds_that_broke_with_rounds_hold_P276_P282_P287_P295(
    rounds: None, faults: str, seed: int
) -> None:
    """P-276, P-282, P-287, P-295: the seeds hold every invariant with rounds on."""
    assert run_seed(seed, faults)["rounds"] >= 1


def _deaf_to_b(learnt: bool) -> Net:
    """A table of three whose A stops hearing B; with ``learnt``, A has learnt from a
    decision that X (the third) is removed, and its cut."""
    net = Net(3)
    net.open_table()
    net.submit(C, Ready(True))
    net.settle()
    if learnt:
        net.replica(A).liveness.settled[NODE_IDS[C]] = net.last_own(C)[0]
    net.cut_links.add((B, A))
    return net


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("learnt", "suspects"), [(False, True), (True, False)], ids=str)
def test_a_member_whose_removal_is_decided_makes_up_no_majority_P295(
    rounds: None, learnt: bool, suspects: bool
) -> None:
    """P-295 (with P-85): A hears itself and the third member, but not B. While the third is
    a member of A's view, two of three is a majority and A suspects B; once a decision has
    removed the third, A hears one of the two members of its view, and suspects nobody."""
    net = _deaf_to_b(learnt)
    for _ in range(40):
        net.tick_all(0.1)
        net.run()
    sent = [decode(data).payload for data in net[A].own.values()]
    said = [p.body for p in sent if isinstance(p, Event) and isinstance(p.body, Suspect)]
    assert any(body.node == NODE_IDS[B] for body in said) is suspects
