"""Streams and gap repair: spec/protocol.md section 11 (P-72 to P-79, P-195 to P-197)."""

from __future__ import annotations

from dutchblitz.protocol.replica.effects import Send
from dutchblitz.protocol.replica.guard import MAX_GUEST_AHEAD
from dutchblitz.protocol.replica.streams import MAX_AHEAD, Held, Stream
from dutchblitz.protocol.wire.auth import Signer
from dutchblitz.protocol.wire.codec import decode, encode
from dutchblitz.protocol.wire.messages import (
    Admit,
    Envelope,
    Event,
    Heartbeat,
    Ready,
    Repair,
    RepairRequest,
    Suspect,
)
from dutchblitz.protocol.wire.signing import sign_encoded

from tests.protocol.replicas import NODE_IDS, TABLE, Flight, Net

STRANGER_KEY = Signer(bytes(range(100, 132)))
STRANGER = STRANGER_KEY.node_id


def _event(seq: int, lamport: int | None = None, sender: bytes = STRANGER) -> bytes:
    stamp = seq if lamport is None else lamport
    raw = encode(Envelope(TABLE, sender, stamp, seq, Event(Ready(seq % 2 == 0))))
    return sign_encoded(STRANGER_KEY, raw) if sender == STRANGER else raw


def _held(seq: int) -> Held:
    return Held(decode(_event(seq)), _event(seq))


def _kind(flight: Flight) -> type:
    return type(flight.envelope().payload)


def _requests(effects: object) -> list[tuple[bytes | None, RepairRequest]]:
    assert isinstance(effects, list)
    found = []
    for effect in effects:
        if isinstance(effect, Send):
            payload = decode(effect.data).payload
            if isinstance(payload, RepairRequest):
                found.append((effect.to, payload))
    return found


def test_a_sender_numbers_its_events_without_gaps_P72() -> None:
    """P-72: 1, 2, 3 ... for the founder; a joiner's stream starts at the first-seq of its ADMIT."""
    net = Net(3)
    net.open_table()
    net.lobby()
    for node in net.nodes:
        seqs = sorted(node.own)
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    admits = {e.body.node: e.body.first_seq for e in net.replica(0).log if e.outcome.accepted
              and type(e.body).__name__ == "Admit"}  # fmt: skip
    for node in net.nodes:
        assert min(node.own) == admits[node.node_id]
    assert admits[NODE_IDS[0]] == 1 and admits[NODE_IDS[1]] == 2


def test_a_stream_delivers_in_seq_order_P73() -> None:
    """P-73: a stream delivers in seq order."""
    stream = Stream(STRANGER)
    assert stream.store(3, _held(3)) == []
    assert stream.store(2, _held(2)) == []
    assert [h.envelope.seq for h in stream.store(1, _held(1))] == [1, 2, 3]
    assert stream.held == 3


def test_a_replica_applies_each_stream_in_seq_order_P73() -> None:
    """P-73: a replica applies each stream in seq order."""
    net = Net(2)
    net.open_table()
    for ready in (True, False, True, False):
        net.submit(0, Ready(ready))
    backwards = [f for f in net.flights if f.target == 1][::-1]
    net.flights = [f for f in net.flights if f.target != 1]
    for flight in backwards:
        net.deliver(flight)
    net.settle()
    seqs = [e.seq for e in net.replica(1).log if e.sender == NODE_IDS[0]]
    assert seqs == sorted(seqs) == list(range(1, len(seqs) + 1))


def test_a_held_seq_is_ignored_P74() -> None:
    """P-74: a held seq is ignored."""
    net = Net(2)
    net.open_table()
    net.submit(0, Ready(True))
    (flight,) = [f for f in net.flights if f.target == 1]
    replica = net.replica(1)
    net.deliver(flight)
    net.settle()
    length, duplicates = len(replica.log), replica.counters.duplicates
    for _ in range(3):
        assert replica.receive(flight.data, net.now) == [], "not even persisted again"
    seq = net.last_own(0)[0]
    forged = encode(Envelope(TABLE, NODE_IDS[0], 99, seq, Event(Ready(False))))
    assert replica.receive(forged, net.now) == [], "other bytes under a held number"
    assert replica.counters.duplicates == duplicates + 4
    net.settle()
    assert len(replica.log) == length
    assert replica.log[-1].body == Ready(True)
    assert Stream(STRANGER, held=5).accepts(5) is False
    assert Stream(STRANGER, held=5).accepts(6) is True


def test_at_most_4096_events_are_buffered_past_the_held_P75() -> None:
    """P-75: at most 4096 events are buffered past the held."""
    assert MAX_AHEAD == 4096
    stream = Stream(STRANGER, held=10)
    assert stream.accepts(10 + 4096)
    assert not stream.accepts(10 + 4097)
    net = Net(1)
    net.found()
    net.submit(0, Admit(STRANGER, 1))  # a member: its stream may run the whole way ahead
    net.settle()
    replica = net.replica(0)
    assert replica.stable.members[STRANGER].present
    replica.receive(_event(4096), net.now)
    replica.receive(_event(4097), net.now)
    held = replica.streams[STRANGER]
    assert list(held.events) == [4096], "4097 is 4097 past nothing held: dropped"
    assert replica.counters.duplicates == 1


def test_a_non_member_buffers_at_most_64_past_the_held_P118() -> None:
    """P-114: a sender that is not a present member gets 64 numbers ahead, not 4096."""
    assert MAX_GUEST_AHEAD == 64
    net = Net(1)
    net.found()
    replica = net.replica(0)
    for seq in (3, 64, 65, 4096):
        replica.receive(_event(seq), net.now)
    assert sorted(replica.streams[STRANGER].events) == [3, 64]
    assert replica.counters.dropped["guest_ahead"] == 2


def test_acks_list_the_held_of_each_stream_P76() -> None:
    """P-76: acks list the held of each stream."""
    net = Net(3)
    net.open_table()
    net.submit(1, Ready(True))
    net.submit(2, Ready(True))
    net.settle()
    net.advance(1.0)
    (send,) = [e for e in net.tick(0) if isinstance(e, Send)]
    beat = decode(send.data).payload
    assert isinstance(beat, Heartbeat)
    replica = net.replica(0)
    held = {node: replica.streams[node].held for node in NODE_IDS[1:3]}
    assert {a.node: a.held for a in beat.acks} == held
    assert beat.last_seq == replica.my_seq


def test_acks_are_lowered_to_the_suspects_held_while_suspecting_P76_P87() -> None:
    """P-76, P-87: node 0 suspects node 2, then hears its later events: it acks none of them."""
    net = Net(3)
    net.open_table()
    net.cut_links |= {(2, 0), (2, 1)}
    while not any(isinstance(b, Suspect) for b in _bodies(net, 0)):
        net.tick_all()
        if not any(isinstance(b, Suspect) for b in _bodies(net, 0)):
            net.run()
    suspect = next(b for b in _bodies(net, 0) if isinstance(b, Suspect))
    net.flights.clear()  # nobody hears of it yet, so no cut can be agreed
    net.cut_links.clear()
    net.submit(2, Ready(True))
    net.submit(2, Ready(False))
    net.deliver_where(lambda f: f.source == 2 and f.target == 0)
    replica = net.replica(0)
    assert replica.streams[NODE_IDS[2]].held > suspect.held
    net.advance(1.0)
    beats = [decode(e.data).payload for e in net.tick(0) if isinstance(e, Send)]
    acks = {a.node: a.held for b in beats if isinstance(b, Heartbeat) for a in b.acks}
    assert acks[NODE_IDS[2]] == suspect.held


def _bodies(net: Net, index: int) -> list[object]:
    found = []
    for raw in net[index].own.values():
        payload = decode(raw).payload
        assert isinstance(payload, Event)
        found.append(payload.body)
    return found


def _lose_one(net: Net) -> tuple[int, bytes]:
    """Node 0 sends two events; node 1 misses the first (and every copy of it)."""
    net.submit(0, Ready(True))
    lost = net.last_own(0)
    net.drop_where(lambda f: f.target == 1)
    net.submit(0, Ready(False))
    return lost


def test_a_gap_asks_the_origin_first_then_the_holders_P77() -> None:
    """P-77, P-196: a gap asks the origin first, then, 0.3 s later, the holders."""
    net = Net(3)
    net.open_table()
    lost_seq, lost_raw = _lose_one(net)
    net.deliver_where(lambda f: f.target == 1 and _kind(f) is Event)
    net.deliver_where(lambda f: f.target == 2 and _kind(f) is Event)
    net.deliver_where(lambda f: f.source == 2 and _kind(f) is Heartbeat)  # 2 acks both
    net.flights.clear()
    net.advance(1.0)
    first = _requests(net.tick(1))
    assert [(to, r.origin, r.first, r.last) for to, r in first] == [
        (NODE_IDS[0], NODE_IDS[0], lost_seq, lost_seq)
    ]
    net.flights.clear()  # the origin does not answer
    net.advance(0.1)
    assert _requests(net.tick(1)) == [], "it waits for the retry time first"
    net.advance(0.3)
    second = _requests(net.tick(1))
    assert [to for to, _ in second] == [NODE_IDS[2]], "then a holder, by its acks"
    net.deliver_where(lambda f: f.target == 2)
    (repair,) = [f for f in net.flights if f.source == 2 and _kind(f) is Repair]
    payload = repair.envelope().payload
    assert isinstance(payload, Repair) and payload.events == (lost_raw,)
    net.settle()
    assert (NODE_IDS[0], lost_seq) in net.logs()[1]


def test_a_heartbeat_last_seq_shows_a_gap_P77() -> None:
    """P-77: a heartbeat last seq shows a gap."""
    net = Net(2)
    net.open_table()
    net.submit(0, Ready(True))
    net.flights.clear()  # lost: node 1 knows nothing of it
    net.advance(1.0)
    net.tick(0)
    net.deliver_where(lambda f: f.target == 1)
    seq = net.last_own(0)[0]
    asked = _requests(net.tick(1))
    assert [(to, r.first, r.last) for to, r in asked] == [(NODE_IDS[0], seq, seq)]


def test_a_repair_relays_the_original_bytes_applied_or_not_P78() -> None:
    """P-78, P-197: a repair relays the original bytes applied or not, from first on."""
    net = Net(3)
    net.open_table()
    net.submit(1, Ready(True))
    pending_seq, pending_raw = net.last_own(1)
    replica = net.replica(0)
    net.deliver_where(lambda f: f.target == 0 and _kind(f) is Event)
    assert replica.pending, "held, not yet applied"
    net.flights.clear()
    ask = RepairRequest(NODE_IDS[1], 2, 64)  # its stream starts at its first-seq, 2
    data = encode(Envelope(TABLE, NODE_IDS[2], 1, 0, ask))
    (send,) = [e for e in replica.receive(data, net.now) if isinstance(e, Send)]
    payload = decode(send.data).payload
    assert send.to == NODE_IDS[2] and isinstance(payload, Repair)
    assert payload.events[-1] == pending_raw
    net.settle()
    applied = [net[1].own[seq] for seq in sorted(net[1].own)]
    (send,) = [e for e in replica.receive(data, net.now) if isinstance(e, Send)]
    payload = decode(send.data).payload
    assert isinstance(payload, Repair) and list(payload.events) == applied
    assert pending_seq == max(net[1].own)


def test_a_repair_serves_events_that_were_dropped_as_not_counting_P78() -> None:
    """P-78: An event applied as void (its sender was not at the table) is still held.

    Found by this test: such events used to be forgotten once applied, so a node that
    missed one could never fill its gap (see the stall in test_order_membership).
    """
    net = Net(3)
    net.found()
    net.settle()
    net.submit(1, Ready(True))  # before node 1 is admitted: void everywhere
    stale_seq, stale_raw = net.last_own(1)
    net.join(1)
    assert (NODE_IDS[1], stale_seq) not in net.logs()[0]
    ask = encode(Envelope(TABLE, NODE_IDS[2], 1, 0, RepairRequest(NODE_IDS[1], 1, 1)))
    sends = [e for e in net.replica(0).receive(ask, net.now) if isinstance(e, Send)]
    assert [decode(s.data).payload for s in sends] == [Repair(NODE_IDS[1], (stale_raw,))]


def test_a_gap_never_removes_anyone_P79() -> None:
    """P-79: Node 2's events never reach node 0 for ten seconds, but its heartbeats do."""
    net = Net(3)
    net.open_table()
    net.losing.append(lambda f: f.source == 2 and f.target == 0 and _kind(f) is Event)
    net.losing.append(lambda f: f.target == 0 and _kind(f) is Repair)
    for ready in (True, False, True):
        net.submit(2, Ready(ready))
    for _ in range(100):
        net.tick_all()
        net.run()
    replica = net.replica(0)
    assert replica.counters.repairs_asked > 10
    assert replica.liveness.suspected == {}
    assert not any(isinstance(b, Suspect) for n in range(3) for b in _bodies(net, n))
    net.losing.clear()
    net.settle()
    assert all(m.present for m in replica.stable.members.values())


def test_more_than_64_streams_acknowledge_the_members_first_P185() -> None:
    """P-195: 70 strangers' streams and one member's: the member is acknowledged, 64 in all."""
    net = Net(2)
    net.open_table()
    net.submit(1, Ready(True))
    net.settle()
    replica = net.replica(0)
    for index in range(70):
        key = Signer(bytes([index + 1]) * 32)
        raw = encode(Envelope(TABLE, key.node_id, 1, 1, Event(Ready(True))))
        replica.receive(sign_encoded(key, raw), net.now)
    net.advance(1.0)
    (beat,) = [
        decode(e.data).payload
        for e in replica.tick(net.now)
        if isinstance(e, Send) and isinstance(decode(e.data).payload, Heartbeat)
    ]
    assert isinstance(beat, Heartbeat)
    nodes = [ack.node for ack in beat.acks]
    assert len(nodes) == 64 and nodes == sorted(nodes)
    assert NODE_IDS[1] in nodes
    strangers = sorted(n for n in replica.streams if n not in NODE_IDS[:2])
    assert [n for n in nodes if n != NODE_IDS[1]] == strangers[:63]


def test_a_repair_request_for_a_first_event_not_held_is_not_answered_P187() -> None:
    """P-197: the answer starts at first or is not sent at all."""
    net = Net(3)
    net.open_table()
    ask = encode(Envelope(TABLE, NODE_IDS[2], 1, 0, RepairRequest(NODE_IDS[1], 50, 60)))
    assert [e for e in net.replica(0).receive(ask, net.now) if isinstance(e, Send)] == []
