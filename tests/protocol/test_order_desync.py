"""Desynchronisation: digests in heartbeats, and rebuilding on a mismatch.

spec/protocol.md section 13, P-95 to P-97.
"""

from __future__ import annotations

import hashlib

import msgpack
from dutchblitz.protocol.replica.effects import Send
from dutchblitz.protocol.wire.codec import decode
from dutchblitz.protocol.wire.messages import Heartbeat, Ready

from tests.protocol.replicas import Net


def _heartbeats(net: Net, index: int) -> list[Heartbeat]:
    found = [decode(s.data).payload for s in net[index].sent]
    return [beat for beat in found if isinstance(beat, Heartbeat)]


def test_a_heartbeat_carries_the_digest_after_digest_index_events_P95() -> None:
    """P-95: a heartbeat carries the digest after digest index events."""
    net = Net(3)
    net.open_table()
    net.lobby()
    replica = net.replica(1)
    net.advance(1.0)
    beats = [decode(e.data).payload for e in net.tick(1) if isinstance(e, Send)]
    (beat,) = [b for b in beats if isinstance(b, Heartbeat)]
    assert beat.digest_index == len(replica.log) > 0
    assert beat.digest == replica.digest()


def test_a_heartbeat_before_any_stable_event_carries_no_digest_P95() -> None:
    """P-95: a heartbeat before any stable event carries no digest."""
    net = Net(2)
    beats = [decode(e.data).payload for e in net.tick(1) if isinstance(e, Send)]
    assert [(b.digest_index, b.digest) for b in beats if isinstance(b, Heartbeat)] == [(0, b"")]


def test_every_heartbeat_digest_matches_the_senders_log_then_P95() -> None:
    """P-95: Replay each node's log: every digest it sent is the digest at its index."""
    net = Net(3)
    net.open_table()
    net.lobby(names=True)
    net.deal()
    for node in net.nodes:
        digests = _replayed_digests(net, node.index)
        for beat in _heartbeats(net, node.index):
            if beat.digest:
                assert digests[beat.digest_index] == beat.digest


def _replayed_digests(net: Net, index: int) -> dict[int, bytes]:
    """The digest after each prefix of a node's log, rebuilt from scratch per P-96."""
    from dutchblitz.protocol.table.state import Game

    replica = net.replica(index)
    game = Game(own_orders=replica.stable.own_orders, own_secrets=replica.stable.own_secrets)
    chain = b""
    found: dict[int, bytes] = {}
    for count, entry in enumerate(replica.log, 1):
        raw = replica.order.stable_raws[(entry.sender, entry.seq)]
        data = chain + entry.sender + entry.seq.to_bytes(8, "big") + raw
        chain = hashlib.blake2b(data, digest_size=16).digest()
        game.apply(entry.sender, entry.body)
        found[count] = _digest(chain, game.public_form())
    return found


def _digest(chain: bytes, public: object) -> bytes:
    body = msgpack.packb([chain, public], use_bin_type=True)
    return hashlib.blake2b(body, digest_size=16).digest()


def test_the_digest_is_blake2b_of_the_chain_and_the_public_state_P96() -> None:
    """P-96: the digest is blake2b of the chain and the public state."""
    net = Net(3)
    net.open_table()
    net.lobby(names=True)
    net.deal()
    net.submit(0, Ready(True))  # refused in play: refusals are in the chain too
    net.settle()
    for node in net.nodes:
        replica = node.replica
        assert replica.digest() == _replayed_digests(net, node.index)[len(replica.log)]
    assert len({n.replica.digest() for n in net.nodes}) == 1


def test_hidden_cards_stay_out_of_the_digest_P96() -> None:
    """P-96: Each node knows its own deck order and not the others': the digests still agree."""
    net = Net(2)
    net.open_table()
    net.lobby()
    net.deal()
    tables = [n.replica.stable.table for n in net.nodes]
    assert tables[0] is not None and tables[1] is not None
    assert tables[0].areas[0].blitz != tables[1].areas[0].blitz, "they know different cards"
    assert net.replica(0).digest() == net.replica(1).digest()


def test_a_desync_raises_an_alarm_and_the_replica_rebuilds_P97() -> None:
    """P-97: a desync raises an alarm and the replica rebuilds."""
    net = Net(3)
    net.open_table()
    net.lobby(names=True)
    broken = net.replica(2)
    member = broken.stable.members[broken.me.node]
    member.name = "mallory"  # a corrupted stable game: not what the log says
    net.submit(0, Ready(False))  # the next digest is computed from the corrupted state
    net.settle()
    for _ in range(5):
        net.tick_all()
        net.run()
    alarms = [a for a in net[2].alarms if a.kind == "desync"]
    assert alarms, "the corrupted replica reports the mismatch loudly"
    assert broken.stable.members[broken.me.node].name == "player 2", "rebuilt from the log"
    assert len({n.replica.digest() for n in net.nodes}) == 1
    before = len(net[2].alarms)
    net.submit(1, Ready(False))
    net.settle()
    for _ in range(5):
        net.tick_all()
        net.run()
    assert len(net[2].alarms) == before, "once rebuilt, it agrees again"
    assert broken.counters.desyncs >= 1


def test_the_peers_of_a_desynced_replica_report_it_too_P97() -> None:
    """P-97: the peers of a desynced replica report it too."""
    net = Net(2)
    net.open_table()
    net.lobby()
    net.replica(1).stable.target = 999
    net.submit(0, Ready(True))
    net.settle()
    for _ in range(5):
        net.tick_all()
        net.run()
    assert any(a.kind == "desync" for a in net[0].alarms)
    assert net.replica(0).digest() == net.replica(1).digest()
    assert net.replica(1).stable.target == 75
