"""Each part of the replica on its own: senders, order, membership, repair and liveness.

The tables and tests of test_order_*.py drive whole replicas; these call one part's
methods directly on a replica set up for it, and look only at that part's state.
"""

from __future__ import annotations

from dutchblitz.protocol.replica.core import DIGEST_MEMORY, REPAIR_BATCH, Identity, Replica
from dutchblitz.protocol.replica.effects import Alarm, PeerSeen, Send
from dutchblitz.protocol.replica.guard import MAX_CLOCK_JUMP, MAX_STREAMS
from dutchblitz.protocol.wire.codec import decode
from dutchblitz.protocol.wire.messages import (
    Admit,
    Bye,
    Cut,
    Envelope,
    Event,
    Heartbeat,
    Hello,
    PeerAddress,
    Ready,
    Repair,
    RepairRequest,
    Suspect,
)

from tests.protocol.replicas import EPOCH, NODE_IDS, SIGNERS, TABLE, Net

A, B, C = range(3)
ENDPOINT = "tcp://10.0.0.1:5000"


def _table(count: int = 3) -> Net:
    net = Net(count)
    net.open_table()
    return net


def _alone(endpoint: str = ENDPOINT) -> Replica:
    """A replica that has founded a table of its own, on a LAN address."""
    replica = Replica(Identity(NODE_IDS[A], TABLE, EPOCH, endpoint=endpoint), 0.0, None, SIGNERS[A])
    replica.found(0.0)
    return replica


def _hello(
    sender: int, endpoint: str, peers: tuple[PeerAddress, ...] = (), resume: int = 0
) -> Hello:
    return Hello(f"p{sender}", "pump", endpoint, peers, EPOCH, resume)


def _envelope(sender: int, payload: object, lamport: int = 1) -> Envelope:
    return Envelope(TABLE, NODE_IDS[sender], lamport, 0, payload)  # type: ignore[arg-type]


# -- senders -----------------------------------------------------------------------------


def test_senders_open_a_stream_heard_now_and_count_from_one() -> None:
    replica = _alone()
    replica.now = 7.0
    assert replica.senders.first_seq(NODE_IDS[B]) == 1
    stream = replica.senders.stream(NODE_IDS[B])
    assert stream.last_heard == 7.0 and replica.streams[NODE_IDS[B]] is stream


def test_senders_refuse_a_clock_far_ahead_and_move_one_step_towards_it() -> None:
    replica = _alone()
    before = replica.clock.time
    assert replica.senders.clock_near(before + MAX_CLOCK_JUMP)
    assert not replica.senders.clock_near(before + MAX_CLOCK_JUMP + 1)
    assert replica.clock.time >= before + MAX_CLOCK_JUMP


def test_senders_know_a_held_event_as_a_duplicate() -> None:
    net = _table(2)
    net.submit(B, Ready(True))
    net.settle()
    replica = net.replica(A)
    seq, _raw = net.last_own(B)
    held = Envelope(TABLE, NODE_IDS[B], 1, seq, Event(Ready(True)))
    fresh = Envelope(TABLE, NODE_IDS[B], 1, seq + 1, Event(Ready(True)))
    assert replica.senders.is_duplicate(held)
    assert not replica.senders.is_duplicate(fresh)


def test_senders_make_room_by_dropping_the_stranger_heard_least_recently() -> None:
    net = _table(2)
    replica = net.replica(A)
    strangers = [bytes([index]) * 16 for index in range(MAX_STREAMS - len(replica.streams))]
    for when, node in enumerate(strangers):
        replica.now = float(when)
        replica.senders.stream(node)
    assert len(replica.streams) == MAX_STREAMS
    assert replica.senders.room_for(NODE_IDS[C])
    assert strangers[0] not in replica.streams, "the one heard least recently"
    assert NODE_IDS[B] in replica.streams, "a member's stream is never dropped"


# -- order -------------------------------------------------------------------------------


def test_order_holds_an_event_until_every_member_has_promised_past_it() -> None:
    net = _table(2)
    net.submit(A, Ready(True))
    replica = net.replica(A)
    assert replica.pending and not replica.order.is_stable(replica.pending[0])
    net.settle()
    assert not replica.pending and isinstance(replica.log[-1].body, Ready)


def test_order_keeps_a_peers_digest_from_ahead_until_it_gets_there() -> None:
    replica = _alone()
    ahead = len(replica.log) + 1
    assert replica.order.compare_digest(NODE_IDS[B], ahead, b"x" * 16) == []
    assert replica.order.peer_digests == {ahead: (NODE_IDS[B], b"x" * 16)}
    for index in range(ahead + 1, ahead + 2 * DIGEST_MEMORY):
        replica.order.compare_digest(NODE_IDS[B], index, b"x" * 16)
    assert len(replica.order.peer_digests) == DIGEST_MEMORY
    assert ahead in replica.order.peer_digests, "the nearest ones are kept"


def test_order_resyncs_when_a_peers_digest_of_the_same_log_differs() -> None:
    replica = _alone()
    effects = replica.order.check_digest(NODE_IDS[B], len(replica.log), b"x" * 16)
    assert [type(e) for e in effects] == [Alarm] and replica.counters.desyncs == 1
    assert replica.order.check_digest(NODE_IDS[B], len(replica.log), replica.digest()) == []


def test_order_heartbeat_acknowledges_what_is_held() -> None:
    net = _table(2)
    replica = net.replica(A)
    sends = [e for e in replica.order.heartbeat(net.now) if isinstance(e, Send)]
    assert len(sends) == 1
    payload = decode(sends[0].data).payload
    assert isinstance(payload, Heartbeat) and payload.last_seq == replica.my_seq
    assert [(a.node, a.held) for a in payload.acks] == [
        (NODE_IDS[B], replica.streams[NODE_IDS[B]].held)
    ]
    assert not replica.order.ack_due


# -- membership ------------------------------------------------------------------------------


def test_membership_learns_a_peers_endpoint_once() -> None:
    replica = _alone()
    hello = _hello(B, "tcp://10.0.0.2:5000")
    effects = replica.membership.take_hello(_envelope(B, hello), hello, 0.0)
    assert effects == [PeerSeen(NODE_IDS[B], "tcp://10.0.0.2:5000")]
    assert replica.membership.take_hello(_envelope(B, hello), hello, 0.0) == []


def test_membership_takes_a_key_only_with_the_id_it_belongs_to() -> None:
    replica = _alone()
    replica.membership.know_key(NODE_IDS[B], SIGNERS[C].public_key)
    assert NODE_IDS[B] not in replica.membership.keys
    replica.membership.know_key(NODE_IDS[B], SIGNERS[B].public_key)
    assert replica.membership.keys[NODE_IDS[B]] == SIGNERS[B].public_key


def test_membership_refuses_its_own_id_and_an_endpoint_off_the_lan() -> None:
    replica = _alone()
    assert not replica.membership.may_learn(NODE_IDS[A], "tcp://10.0.0.2:5000")
    assert not replica.membership.may_learn(NODE_IDS[B], "tcp://127.0.0.1:5000")
    assert not replica.membership.may_learn(NODE_IDS[B], "ipc:///tmp/x")


def test_membership_offers_one_admit_per_stay_until_it_has_had_its_turn() -> None:
    replica = _alone()
    first = replica.membership.admit(NODE_IDS[B], 1, 0.0)
    sent = [decode(e.data).payload for e in first if isinstance(e, Send)]
    assert sent == [Event(Admit(NODE_IDS[B], 1))]
    assert replica.membership.admit(NODE_IDS[B], 1, 0.0) == []
    replica.membership.forget_offer(NODE_IDS[B])
    assert replica.membership.admit(NODE_IDS[B], 1, 0.0) != []


# -- repair --------------------------------------------------------------------------------------


def test_repair_asks_the_origin_first_then_each_holder_in_turn() -> None:
    net = _table(3)
    replica = net.replica(A)
    origin = NODE_IDS[C]
    replica.streams[NODE_IDS[B]].acks[origin] = 5
    assert replica.repairs.source(origin, 1, 0) == origin
    assert replica.repairs.source(origin, 1, 1) == NODE_IDS[B]
    assert replica.repairs.source(origin, 1, 2) == origin
    replica.liveness.settled[origin] = 0
    assert replica.repairs.source(origin, 1, 0) == NODE_IDS[B], "a node that left is not asked"


def test_repair_serves_a_batch_at_most_and_stops_at_a_gap() -> None:
    net = _table(2)
    for _ in range(REPAIR_BATCH + 3):
        net.submit(B, Ready(True))
    net.settle()
    replica = net.replica(A)
    stream = replica.streams[NODE_IDS[B]]
    first, top = stream.first_seq, stream.held
    assert len(replica.repairs.held_raws(NODE_IDS[B], first, top)) == REPAIR_BATCH
    assert replica.repairs.held_raws(NODE_IDS[B], top + 1, top + 5) == []
    request = RepairRequest(NODE_IDS[B], first, first + 1)
    served = replica.repairs.serve(NODE_IDS[C], request)
    assert [e.to for e in served if isinstance(e, Send)] == [NODE_IDS[C]]


def test_repair_drops_an_event_of_another_origin() -> None:
    net = _table(2)
    net.submit(B, Ready(True))
    net.settle()
    replica = net.replica(A)
    _seq, raw = net.last_own(B)
    effects = replica.repairs.take(Repair(NODE_IDS[C], (raw,)), net.now)
    assert [type(e) for e in effects] == [Alarm]
    assert replica.counters.dropped["bad_repair"] == 1


# -- liveness ------------------------------------------------------------------------------------


def test_liveness_needs_to_hear_a_majority() -> None:
    net = _table(3)
    replica = net.replica(A)
    assert replica.liveness.hears_majority()
    replica.now = net.now + replica.settings.suspect_after
    replica.streams[NODE_IDS[C]].last_heard = net.now
    replica.streams[NODE_IDS[B]].last_heard = net.now
    assert not replica.liveness.hears_majority(), "only itself of three"
    replica.streams[NODE_IDS[B]].last_heard = replica.now
    assert replica.liveness.hears_majority()


def test_liveness_suspects_a_member_at_what_it_holds_and_caps_its_acks() -> None:
    net = _table(3)
    replica = net.replica(A)
    held = replica.streams[NODE_IDS[C]].held
    effects = replica.liveness.suspect(NODE_IDS[C], net.now)
    assert replica.liveness.suspected == {NODE_IDS[C]: held}
    assert replica.streams[NODE_IDS[C]].ack_cap == held
    assert any(isinstance(e, Send) for e in effects)
    assert replica.liveness.suspect_seqs[NODE_IDS[C]] == replica.my_seq


def test_liveness_doubts_a_member_that_a_present_member_suspects() -> None:
    replica = _alone()
    replica.liveness.claims = {NODE_IDS[C]: {NODE_IDS[B]: 3}}
    assert replica.liveness.doubted([NODE_IDS[A], NODE_IDS[B]]) == {NODE_IDS[C]}
    assert replica.liveness.doubted([NODE_IDS[A]]) == set()


def test_liveness_settles_a_goodbye_where_it_stands() -> None:
    net = _table(2)
    replica = net.replica(A)
    replica.liveness.note_bye(NODE_IDS[B], 4)
    assert replica.liveness.settled[NODE_IDS[B]] == 4
    assert replica.streams[NODE_IDS[B]].cut == 4
    replica.liveness.note_applied_cut(NODE_IDS[B], 4, Bye())
    replica.liveness.note_applied_cut(NODE_IDS[A], 9, Cut(NODE_IDS[C], 2))
    assert replica.liveness.cuts_applied == {NODE_IDS[B]: 4, NODE_IDS[C]: 2}


def test_liveness_forgets_what_was_said_about_an_earlier_stay() -> None:
    replica = _alone()
    node = NODE_IDS[B]
    replica.liveness.settled[node] = 3
    replica.liveness.claims[node] = {NODE_IDS[C]: 3}
    replica.liveness.claims[NODE_IDS[C]] = {node: 1}
    cut, mine = replica.liveness.forget_earlier_stay(node, earlier=9, applied=-1)
    assert (cut, mine) == (None, None)
    assert node not in replica.liveness.settled
    assert replica.liveness.claims == {NODE_IDS[C]: {}}, "its own word goes too"


def test_liveness_keeps_a_cut_of_the_stay_being_admitted() -> None:
    replica = _alone()
    node = NODE_IDS[B]
    replica.liveness.settled[node] = 12
    cut, _mine = replica.liveness.forget_earlier_stay(node, earlier=9, applied=-1)
    assert cut == 12 and replica.liveness.settled[node] == 12


def test_liveness_joins_a_members_suspicion() -> None:
    net = _table(3)
    replica = net.replica(A)
    body = Suspect(NODE_IDS[C], replica.streams[NODE_IDS[C]].held)
    effects = replica.liveness.note_suspect(NODE_IDS[B], 99, body, net.now)
    assert NODE_IDS[C] in replica.liveness.suspected, "joined, to state its own cut"
    assert replica.liveness.claims[NODE_IDS[C]] == {NODE_IDS[B]: body.held, NODE_IDS[A]: body.held}
    assert any(isinstance(e, Send) for e in effects)
