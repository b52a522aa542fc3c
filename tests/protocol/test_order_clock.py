"""The Lamport clock and the order key: spec/protocol.md sections 8 and 9 (P-57 to P-63)."""

from __future__ import annotations

import hashlib

import pytest
from dutchblitz.protocol.replica.clock import LamportClock, order_key, tiebreak
from dutchblitz.protocol.replica.core import CLOCK_MARK_STEP, Identity, Replica
from dutchblitz.protocol.replica.effects import Persist, PersistClock, Send
from dutchblitz.protocol.wire.auth import Signer
from dutchblitz.protocol.wire.codec import decode, encode
from dutchblitz.protocol.wire.messages import (
    Envelope,
    Event,
    Heartbeat,
    Hello,
    Ready,
    Repair,
    RepairRequest,
)
from dutchblitz.protocol.wire.signing import sign_encoded

from tests.protocol.replicas import EPOCH, NODE_IDS, SIGNERS, TABLE, Net

STRANGER_KEY = Signer(bytes(range(100, 132)))
STRANGER = STRANGER_KEY.node_id


def _heartbeat(sender: bytes, lamport: int, table: str = TABLE) -> bytes:
    return encode(Envelope(table, sender, lamport, 0, Heartbeat(0, (), 0, b"")))


def _sent(effects: object) -> list[Envelope]:
    assert isinstance(effects, list)
    return [decode(e.data) for e in effects if isinstance(e, Send)]


def test_the_clock_starts_at_zero_P57() -> None:
    """P-57: the clock starts at zero."""
    assert LamportClock().time == 0
    replica = Net(1).replica(0)
    assert replica.clock.time == 0
    (beat,) = [e for e in _sent(replica.tick(0.0)) if isinstance(e.payload, Heartbeat)]
    assert beat.lamport == 0


def test_each_event_adds_one_to_the_clock_P58() -> None:
    """P-58: each event adds one to the clock."""
    net = Net(2)
    net.open_table()
    replica = net.replica(1)
    before = replica.clock.time
    stamps = []
    for ready in (True, False, True):
        net.submit(1, Ready(ready))
        stamps.append(decode(net.last_own(1)[1]).lamport)
    assert stamps == [before + 1, before + 2, before + 3]
    assert replica.clock.time == before + 3
    replica.receive(_heartbeat(NODE_IDS[0], 500), net.now)
    net.submit(1, Ready(False))
    assert decode(net.last_own(1)[1]).lamport == 501


def test_unsequenced_messages_carry_the_clock_without_adding_one_P59() -> None:
    """P-59: unsequenced messages carry the clock without adding one."""
    net = Net(3)
    net.open_table()
    net.submit(0, Ready(True))
    net.settle()
    replica = net.replica(0)
    clock = replica.clock.time
    net.advance(1.0)
    beats = [e for e in _sent(replica.tick(net.now)) if isinstance(e.payload, Heartbeat)]
    hellos = _sent(replica.hello(None))
    asked = RepairRequest(NODE_IDS[0], 1, 1)
    request = encode(Envelope(TABLE, NODE_IDS[2], 1, 0, asked))
    repairs = _sent(replica.receive(request, net.now))
    kinds = [beats[0].payload, hellos[0].payload, repairs[0].payload]
    assert [type(p) for p in kinds] == [Heartbeat, Hello, Repair]
    assert [m.lamport for m in (beats[0], hellos[0], repairs[0])] == [clock] * 3
    assert replica.clock.time == clock
    # A REPAIR-REQUEST of our own carries the clock too: lose an event and ask for it.
    net.submit(1, Ready(False))
    net.drop_where(lambda f: f.target == 0)
    net.submit(1, Ready(True))
    net.deliver_where(lambda f: f.target == 0 and isinstance(f.envelope().payload, Event))
    clock = replica.clock.time
    net.advance(1.0)
    requests = [e for e in _sent(net.tick(0)) if isinstance(e.payload, RepairRequest)]
    assert requests and all(r.lamport == clock for r in requests)
    assert replica.clock.time == clock


@pytest.mark.parametrize(
    "message",
    ["heartbeat", "hello", "event", "repair-request", "repair"],
)
def test_any_decodable_message_of_the_table_raises_the_clock_P60(message: str) -> None:
    """P-60: any decodable message of the table raises the clock."""
    replica = Net(1).replica(0)
    event = sign_encoded(STRANGER_KEY, encode(Envelope(TABLE, STRANGER, 77, 1, Event(Ready(True)))))
    payloads = {
        "heartbeat": Heartbeat(0, (), 0, b""),
        "hello": Hello("x", "pump", "tcp://x:1", (), b"", 0),
        "repair-request": RepairRequest(NODE_IDS[0], 1, 1),
        "repair": Repair(STRANGER, (event,)),
    }
    if message == "event":
        data = event
    else:
        data = encode(Envelope(TABLE, STRANGER, 77, 0, payloads[message]))
    replica.receive(data, 0.0)
    assert replica.clock.time == 77
    replica.receive(_heartbeat(STRANGER, 3), 0.0)
    assert replica.clock.time == 77, "a lower clock never lowers ours (P-60)"


def test_messages_of_another_table_or_undecodable_leave_the_clock_alone_P60() -> None:
    """P-60: messages of another table or undecodable leave the clock alone."""
    replica = Net(1).replica(0)
    replica.receive(_heartbeat(STRANGER, 900, table="attic"), 0.0)
    replica.receive(_heartbeat(STRANGER, 900)[:-3], 0.0)
    assert replica.clock.time == 0


def test_a_clock_mark_is_recorded_before_any_heartbeat_announces_it_P61() -> None:
    """P-61: Every HEARTBEAT is preceded by a PersistClock at least as high as its clock."""
    net = Net(3)
    net.open_table()
    net.lobby()
    node = net[1]
    node.replica.receive(_heartbeat(NODE_IDS[0], 5000), net.now)  # a big jump
    net.tick_all(1.0)
    net.settle()
    mark = 0
    beats = 0
    for effect in node.effects:
        if isinstance(effect, PersistClock):
            assert effect.mark > mark
            mark = effect.mark
        elif isinstance(effect, Send) and isinstance(decode(effect.data).payload, Heartbeat):
            beats += 1
            assert decode(effect.data).lamport <= mark
    assert beats > 2 and mark >= 5000


def test_an_event_is_persisted_before_it_is_sent_P61() -> None:
    """P-61: an event is persisted before it is sent."""
    net = Net(2)
    net.open_table()
    effects = net.submit(1, Ready(True))
    kinds = [type(e) for e in effects if isinstance(e, Persist | Send)]
    assert kinds[:2] == [Persist, Send]


@pytest.mark.parametrize("mark", [0, 3, 40, 5000])
def test_a_restart_never_stamps_below_its_clock_mark_P61(mark: int) -> None:
    """P-61: Restore from the durable log and the last mark: the next stamp is above both."""
    net = Net(2)
    net.open_table()
    for ready in (True, False, True):
        net.submit(1, Ready(ready))
    net.settle()
    node = net[1]
    highest = max(decode(raw).lamport for raw in node.persisted)
    reborn = Replica(Identity(NODE_IDS[1], TABLE, EPOCH), net.now, signer=SIGNERS[1])
    reborn.restore(node.persisted, mark, net.now)
    assert reborn.clock.time >= max(mark, highest)
    effects = reborn.submit(Ready(False), net.now)
    (event,) = [e for e in _sent(effects) if isinstance(e.payload, Event)]
    assert event.lamport > max(mark, highest)
    beats = [e for e in _sent(reborn.tick(net.now + 1)) if isinstance(e.payload, Heartbeat)]
    assert beats[0].lamport >= mark


def test_the_reference_mark_runs_ahead_of_the_clock_P61() -> None:
    """P-61: the reference mark runs ahead of the clock."""
    replica = Net(1).replica(0)
    replica.receive(_heartbeat(STRANGER, 10), 0.0)
    marks = [e.mark for e in replica.tick(1.0) if isinstance(e, PersistClock)]
    assert marks == [10 + CLOCK_MARK_STEP]


def _spec_tiebreak(epoch: bytes, lamport: int, sender: bytes) -> int:
    """P-63 word for word: the first 8 bytes of BLAKE2b-128 of epoch || lamport || sender."""
    data = epoch + lamport.to_bytes(8, "big") + sender
    return int.from_bytes(hashlib.blake2b(data, digest_size=16).digest()[:8], "big")


@pytest.mark.parametrize("lamport", [1, 2, 42, 2**32, 2**63 - 1])
@pytest.mark.parametrize("epoch", [EPOCH, b"", bytes(16)])
def test_the_tiebreak_is_the_spec_hash_P63(epoch: bytes, lamport: int) -> None:
    """P-63: the tiebreak is the spec hash."""
    for sender in NODE_IDS[:4]:
        assert tiebreak(epoch, lamport, sender) == _spec_tiebreak(epoch, lamport, sender)


def test_the_tiebreak_of_the_worked_example_P63() -> None:
    """P-63: A fixed value, so a change of hash, digest size or byte order cannot slip by."""
    got = tiebreak(bytes(16), 42, bytes(range(16)))
    assert got == _spec_tiebreak(bytes(16), 42, bytes(range(16)))
    assert got.to_bytes(8, "big").hex() == format(got, "016x")
    assert 0 <= got < 2**64


def test_the_order_key_is_lamport_tiebreak_sender_P62() -> None:
    """P-62: the order key is lamport tiebreak sender."""
    key = order_key(EPOCH, 9, NODE_IDS[0])
    assert key == (9, _spec_tiebreak(EPOCH, 9, NODE_IDS[0]), NODE_IDS[0])


def test_keys_compare_lamport_first_then_tiebreak_then_sender_P62() -> None:
    """P-62: keys compare lamport first then tiebreak then sender."""
    events = [(lamport, node) for lamport in (3, 1, 2, 3, 2) for node in NODE_IDS[:3]]
    keys = sorted({order_key(EPOCH, lamport, node) for lamport, node in events})
    assert [k[0] for k in keys] == sorted(k[0] for k in keys)
    for lamport in (1, 2, 3):
        same = [k for k in keys if k[0] == lamport]
        assert [k[1] for k in same] == sorted(k[1] for k in same)
    # The sender decides nothing while the tiebreaks differ: at some times the node with
    # the larger id goes first, at others the one with the smaller.
    low, high = sorted(NODE_IDS[:2])
    firsts = {
        min(order_key(EPOCH, lamport, low), order_key(EPOCH, lamport, high))[2]
        for lamport in range(1, 50)
    }
    assert firsts == {low, high}


def test_the_replica_applies_in_key_order_P62() -> None:
    """P-62: Ties at one Lamport time are applied in tiebreak order on every replica."""
    net = Net(4)
    net.open_table()
    for index in range(4):
        net.submit(index, Ready(True))
    stamps = {decode(net.last_own(i)[1]).lamport for i in range(4)}
    assert len(stamps) == 1
    net.settle()
    for node in net.nodes:
        keys = [order_key(EPOCH, e.lamport, e.sender) for e in node.replica.log]
        assert keys == sorted(keys) and len(set(keys)) == len(keys)
