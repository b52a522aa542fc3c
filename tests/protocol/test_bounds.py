"""What one peer can make a replica hold, send or connect to is bounded.

P-113 (the clock), P-114 (guest streams: tests/protocol/test_order_streams.py), P-115
(streams), P-116 (endpoints), P-117 (no newcomers once dealt).
"""

from __future__ import annotations

import hashlib
import time

from dutchblitz.protocol.replica.effects import PeerSeen, Send
from dutchblitz.protocol.replica.guard import (
    MAX_CLAIM_TARGETS,
    MAX_CLOCK_JUMP,
    MAX_ENDPOINTS,
    MAX_NEW_PEERS_PER_HELLO,
    MAX_STREAMS,
    endpoint_ok,
)
from dutchblitz.protocol.wire.codec import MAX_UINT63, decode, encode
from dutchblitz.protocol.wire.messages import (
    Ack,
    Admit,
    Envelope,
    Event,
    Heartbeat,
    Hello,
    PeerAddress,
    Ready,
    RepairRequest,
    Suspect,
    Unsuspect,
)

from tests.protocol.replicas import EPOCH, NODE_IDS, TABLE, Net


def _id(n: int) -> bytes:
    return hashlib.blake2b(b"stranger %d" % n, digest_size=16).digest()


def _beat(sender: bytes, lamport: int, last_seq: int = 0, acks: tuple[Ack, ...] = ()) -> bytes:
    return encode(Envelope(TABLE, sender, lamport, 0, Heartbeat(last_seq, acks, 0, b"")))


def _hello(
    sender: bytes, endpoint: str, peers: tuple[PeerAddress, ...] = (), resume: int = 0
) -> bytes:
    hello = Hello("mallory", "pump", endpoint, peers, EPOCH, resume)
    return encode(Envelope(TABLE, sender, 1, 0, hello))


def test_a_far_clock_is_dropped_and_moves_ours_one_step_P103() -> None:
    net = Net(2)
    net.open_table()
    replica = net.replica(0)
    before = replica.clock.time
    replica.receive(_beat(NODE_IDS[1], MAX_UINT63), net.now)
    assert replica.clock.time == before + MAX_CLOCK_JUMP
    assert replica.counters.dropped["clock_jump"] == 1
    near = replica.clock.time + MAX_CLOCK_JUMP
    replica.receive(_beat(NODE_IDS[1], near), net.now)
    assert replica.clock.time == near, "within a step: taken as it is"
    for _ in range(100):  # a peer pushing as hard as it can moves the clock 2^24 at a time
        replica.receive(_beat(NODE_IDS[1], MAX_UINT63), net.now)
    assert replica.clock.time < 2**32
    net.settle()
    net.submit(0, Ready(True))
    net.settle()
    assert [len(r.log) for r in (net.replica(0), net.replica(1))] == [len(replica.log)] * 2


def test_a_lagging_node_catches_up_with_a_far_clock_P103() -> None:
    """An honest event stamped far ahead of a newcomer's clock is repaired in the end."""
    net = Net(2)
    net.open_table()
    far = net.replica(0).clock.time + 3 * MAX_CLOCK_JUMP
    net.replica(0).clock.observe(far)
    net.submit(0, Ready(True))
    net.settle()
    assert net.replica(1).counters.dropped.get("clock_jump", 0) >= 1
    assert [e.body for e in net.replica(1).log] == [e.body for e in net.replica(0).log]
    assert net.replica(1).clock.time >= far


def test_streams_are_bounded_and_a_newcomer_still_gets_in_P105() -> None:
    net = Net(3)
    net.open_table(2)
    replica = net.replica(0)
    for n in range(1000):
        acks = tuple(Ack(_id(n * 64 + k + 10_000), 5) for k in range(64))
        replica.receive(_beat(_id(n), 2, 3, acks), net.now)
    assert len(replica.streams) <= MAX_STREAMS
    assert all(len(s.acks) <= MAX_STREAMS for s in replica.streams.values())
    net.join(2)
    assert net.replica(2).is_member()
    assert net.logs()[0] == net.logs()[1] == net.logs()[2]


def test_a_huge_announced_seq_costs_nothing_and_asks_at_most_256() -> None:
    net = Net(2)
    net.open_table()
    replica = net.replica(0)
    replica.receive(_beat(NODE_IDS[1], 5, MAX_UINT63), net.now)
    started = time.perf_counter()
    sends = [e for e in replica.tick(net.now + 1) if isinstance(e, Send)]
    assert time.perf_counter() - started < 0.1
    asks = [decode(s.data).payload for s in sends]
    requests = [a for a in asks if isinstance(a, RepairRequest)]
    assert requests and all(r.last - r.first < 256 for r in requests)


def test_endpoints_from_a_hello_are_checked_and_bounded_P106() -> None:
    assert endpoint_ok("tcp://198.18.0.2:5555")
    assert endpoint_ok("tcp://127.0.0.1:5555", "tcp://127.0.0.1:7000")
    for bad in [
        "tcp://127.0.0.1:22",  # loopback, while we listen on the LAN
        "tcp://0.0.0.0:1",
        "tcp://224.0.0.251:5353",
        "tcp://255.255.255.255:9",
        "tcp://example.org:80",
        "tcp://10.0.0.1:0",
        "tcp://10.0.0.1:65536",
        "ipc:///tmp/x",
        "",
    ]:
        assert not endpoint_ok(bad, "tcp://198.18.0.1:5555"), bad
    net = Net(2)
    net.open_table()
    replica = net.replica(0)
    replica.me.endpoint = "tcp://198.18.0.1:5555"
    peers = tuple(PeerAddress(_id(k), f"tcp://198.18.1.{k}:5555", bytes(32)) for k in range(64))
    effects = replica.receive(_hello(_id(999), "tcp://127.0.0.1:22", peers), net.now)
    seen = [e for e in effects if isinstance(e, PeerSeen)]
    assert len(seen) == MAX_NEW_PEERS_PER_HELLO, "the loopback sender is not learnt"
    for n in range(100):
        peers = tuple(
            PeerAddress(_id(1000 + n * 8 + k), f"tcp://198.18.2.{k}:1", bytes(32)) for k in range(8)
        )
        replica.receive(_hello(_id(n), f"tcp://198.18.3.{n}:5555", peers), net.now)
    assert len(replica.membership.endpoints) <= MAX_ENDPOINTS


def test_past_the_lobby_only_seated_players_come_back_P107() -> None:
    net = Net(3)
    net.open_table(2)
    net.lobby()
    replica = net.replica(0)
    effects = replica.receive(_hello(NODE_IDS[2], "tcp://198.18.0.9:1", resume=5), net.now)
    sent = [decode(e.data).payload for e in effects if isinstance(e, Send)]
    assert not [p for p in sent if isinstance(p, Event)], "no ADMIT of a newcomer once dealt"
    net.submit(0, Admit(NODE_IDS[2], 1))
    net.settle()
    assert NODE_IDS[2] not in net.replica(0).stable.members
    assert net.replica(0).log[-1].outcome.refusal == "in_play"
    assert net.replica(0).log[-1].outcome == net.replica(1).log[-1].outcome


def test_withdrawn_suspicions_count_towards_the_targets_bound() -> None:
    """A member that suspects and withdraws, target after target, leaves at most
    MAX_CLAIM_TARGETS targets behind: a withdrawn SUSPECT still doubts its target (P-227)."""
    net = Net(2)
    net.open_table()
    replica = net.replica(0)
    for n in range(MAX_CLAIM_TARGETS + 20):
        net.submit(1, Suspect(_id(n), 0))
        net.submit(1, Unsuspect(_id(n)))
        net.deliver_where(lambda f: f.source == 1 and f.target == 0)
    liveness = replica.liveness
    assert len(liveness.claims.keys() | liveness.withdrawals.keys()) == MAX_CLAIM_TARGETS
    assert replica.counters.dropped["too_many_claims"] == 20
