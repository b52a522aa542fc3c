"""A replayed old message changes nothing (P-119).

A table plays a lobby and part of a round while every message is recorded. Then every
old EVENT, HEARTBEAT, REPAIR-REQUEST and REPAIR is delivered again to one replica, in
order, shuffled, and after it restarts from its durable log: its log, state, clock and
streams are as before, it persists nothing, and the only thing it sends is the answer to
a repair request. HELLOs are left out on purpose (spec/protocol.md section 15).
"""

from __future__ import annotations

import random

from dutchblitz.protocol.games.blitz.plays import legal_moves
from dutchblitz.protocol.replica.core import Identity, Replica
from dutchblitz.protocol.replica.effects import Delivered, Persist, PersistClock, Send
from dutchblitz.protocol.wire.codec import decode
from dutchblitz.protocol.wire.messages import Hello, Ready, Repair, RepairRequest

from tests.protocol.replicas import NODE_IDS, TABLE, Flight, Net


def _played() -> Net:
    net = Net(3)
    net.open_table()
    for ready in (True, False, True):
        net.submit(1, Ready(ready))
    net.lobby()
    net.deal()
    for index in net.player_indexes():
        table = net.view(index)
        moves = legal_moves(table, net.seat(index))
        if moves:
            net.play(index, moves[0])
    net.settle()
    # A repair, so that there are REPAIRs to replay: one event lost to replica 2, then asked for.
    net.losing.append(lambda f: f.target == 2 and f.source == 1 and _is_event(f))
    net.submit(1, Ready(True))
    net.losing.clear()
    for _ in range(10):
        net.tick_all()
        net.run()
    net.settle()
    return net


def _is_event(flight: Flight) -> bool:
    return type(decode(flight.data).payload).__name__ == "Event"


def _view(replica: Replica) -> object:
    streams = {
        node: (s.held, s.announced, s.horizon, s.cut, s.first_seq, dict(s.acks), sorted(s.events))
        for node, s in replica.streams.items()
    }
    log = [(e.sender, e.seq, e.lamport, e.body, e.outcome) for e in replica.log]
    return (
        log,
        replica.stable.public_form(),
        replica.pending,
        replica.clock.time,
        replica.my_seq,
        streams,
        replica.liveness.settled,
        replica.liveness.claims,
        replica.digest(),
    )


def _old(net: Net, target: int) -> list[bytes]:
    """Every message ever sent to ``target`` or by anyone else, but HELLOs, once each."""
    seen: dict[bytes, None] = {}
    for flight in net.log_of_sends:
        if flight.source == target or isinstance(decode(flight.data).payload, Hello):
            continue
        seen.setdefault(flight.data, None)
    return list(seen)


def _replay(net: Net, target: int, old: list[bytes]) -> None:
    replica = net.replica(target)
    for data in old:
        effects = replica.receive(data, net.now) + replica.flush(net.now)
        assert not [e for e in effects if isinstance(e, Persist | PersistClock | Delivered)]
        sends = [e for e in effects if isinstance(e, Send)]
        if sends:
            assert isinstance(decode(data).payload, RepairRequest), decode(data)
            assert all(isinstance(decode(s.data).payload, Repair) for s in sends)


def test_old_messages_replayed_change_nothing_P109() -> None:
    net = _played()
    old = _old(net, 0)
    kinds = {type(decode(d).payload).__name__ for d in old}
    assert {"Event", "Heartbeat", "RepairRequest", "Repair"} <= kinds, kinds
    before = _view(net.replica(0))
    _replay(net, 0, old)
    assert _view(net.replica(0)) == before
    shuffled = list(old)
    random.Random(7).shuffle(shuffled)
    _replay(net, 0, shuffled)
    assert _view(net.replica(0)) == before
    net.flights.clear()
    net.settle()
    assert net.logs()[0] == net.logs()[1] == net.logs()[2]


def test_old_messages_replayed_after_a_restart_change_nothing_P109() -> None:
    net = _played()
    old = _old(net, 0)
    node = net[0]
    mark = max(node.clock_marks, default=0)
    restarted = Replica(
        Identity(NODE_IDS[0], TABLE, net.epoch, name="p0", endpoint="tcp://p0:1"),
        net.now,
        net.settings,
    )
    restarted.restore(node.persisted, mark, net.now)
    node.replica = restarted
    net.settle()  # the others' heartbeats make the reloaded events final again
    before = _view(restarted)
    assert before[0] == _view(net.replica(1))[0]
    _replay(net, 0, old)
    assert _view(restarted) == before
    net.flights.clear()
    net.settle()
    assert net.logs()[0] == net.logs()[1] == net.logs()[2]
