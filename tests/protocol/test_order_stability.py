"""Stability: when an event becomes final (spec/protocol.md section 10, P-64 to P-71)."""

from __future__ import annotations

import random

from dutchblitz.protocol.games.blitz.cards import Colour
from dutchblitz.protocol.games.blitz.plays import legal_moves
from dutchblitz.protocol.replica.clock import order_key
from dutchblitz.protocol.replica.effects import Send
from dutchblitz.protocol.table.state import Phase
from dutchblitz.protocol.wire.codec import decode, encode
from dutchblitz.protocol.wire.messages import Ack, Envelope, Event, Heartbeat, Ready

from tests.protocol.export_order_vectors import play_of, red_race_table
from tests.protocol.replicas import EPOCH, NODE_IDS, TABLE, Flight, Net, RandomSchedule


def _is_event(flight: Flight) -> bool:
    return isinstance(flight.envelope().payload, Event)


def _is_heartbeat(flight: Flight) -> bool:
    return isinstance(flight.envelope().payload, Heartbeat)


def test_nothing_is_stable_before_the_founding_admit_P64() -> None:
    """P-64: A node holds its own contiguous stream, but applies nothing (not even a drop)."""
    net = Net(2)
    net.found()
    net.drop_where(lambda f: f.target == 1)  # the founding ADMIT never reaches node 1
    net.submit(1, Ready(True))  # node 1's own event: its stream is whole from seq 1
    net.cut_links.add((0, 1))
    for _ in range(30):
        net.tick_all()
        net.run()
    replica = net.replica(1)
    assert not replica.order.genesis
    assert replica.log == [] and net[1].delivered == [] and net[1].withdrawn == []
    assert [seq for _key, _sender, seq in replica.pending] == [1]
    net.cut_links.clear()
    net.settle()
    assert replica.order.genesis and replica.log[0].sender == NODE_IDS[0]
    assert [w.reason for w in net[1].withdrawn] == ["not_at_the_table"]


def test_a_quiet_members_heartbeat_unblocks_P65() -> None:
    """P-65: a quiet members heartbeat unblocks."""
    net = Net(3)
    net.open_table()
    net.submit(0, Ready(True))
    lamport = decode(net.last_own(0)[1]).lamport
    net.deliver_where(_is_event)  # node 1 and node 2 hold it, and owe a heartbeat
    quiet = [f for f in net.flights if f.source == 2]
    net.flights = [f for f in net.flights if f.source != 2]
    net.run()
    assert net.replica(1).pending, "node 2 has not promised a clock past the event yet"
    assert net.replica(1).streams[NODE_IDS[2]].horizon < lamport
    for flight in quiet:
        net.deliver(flight)
    assert not net.replica(1).pending
    assert net.replica(1).log[-1].seq == net.last_own(0)[0]


def test_a_promise_counts_only_once_its_last_seq_is_held_P65() -> None:
    """P-65: A HEARTBEAT naming a last-seq we lack promises nothing: that event may sort first."""
    net = Net(3)
    net.open_table()
    net.submit(2, Ready(True))  # lost on its way to node 1
    net.drop_where(lambda f: f.target == 1)
    net.run()
    net.submit(0, Ready(True))
    net.deliver_where(lambda f: f.target == 1 and _is_event(f))
    net.advance(1.0)
    net.tick(2)  # node 2's heartbeat: a high clock, but a last-seq node 1 lacks
    net.deliver_where(lambda f: f.source == 2 and f.target == 1 and _is_heartbeat(f))
    replica = net.replica(1)
    assert replica.pending, "node 2's lost event may sort before node 0's"
    net.settle()
    log = [(e.sender, e.seq) for e in replica.log]
    late = log.index((NODE_IDS[0], net.last_own(0)[0]))
    assert log.index((NODE_IDS[2], net.last_own(2)[0])) < late


def test_every_present_member_must_acknowledge_a_members_event_P66() -> None:
    """P-66: A clock promise without the acknowledgement does not make the event final."""
    net = Net(3)
    net.open_table()
    net.submit(0, Ready(True))
    seq = net.last_own(0)[0]
    net.deliver_where(lambda f: f.target == 1 and _is_event(f))
    net.drop_where(lambda f: True)
    replica = net.replica(1)
    two = replica.streams[NODE_IDS[2]]
    promise = Heartbeat(two.held, (Ack(NODE_IDS[0], seq - 1),), 0, b"")
    replica.receive(encode(Envelope(TABLE, NODE_IDS[2], 10_000, 0, promise)), net.now)
    assert two.horizon == 10_000
    assert replica.pending, "node 2 has not acknowledged it"
    acked = Heartbeat(two.held, (Ack(NODE_IDS[0], seq),), 0, b"")
    replica.receive(encode(Envelope(TABLE, NODE_IDS[2], 10_000, 0, acked)), net.now)
    assert not replica.pending
    assert (replica.log[-1].sender, replica.log[-1].seq) == (NODE_IDS[0], seq)


def test_our_own_acknowledgement_must_reach_the_event_too_P66() -> None:
    """P-66: While we hold a member's acks back (we suspect it), its events wait."""
    net = Net(3)
    net.open_table()
    replica = net.replica(1)
    replica.streams[NODE_IDS[0]].ack_cap = replica.streams[NODE_IDS[0]].held
    net.submit(0, Ready(True))
    for _ in range(20):
        net.tick_all()
        net.run()
    assert replica.pending and replica.pending[0][1] == NODE_IDS[0]
    assert all(n.replica.pending for n in net.nodes), "nobody may count it final"
    replica.streams[NODE_IDS[0]].ack_cap = None
    net.settle()
    assert not replica.pending


def test_stable_events_are_applied_in_key_order_P67() -> None:
    """P-67: Under any arrival order, each log is sorted by (lamport, tiebreak, sender)."""
    net = Net(3)
    net.open_table()
    net.lobby(schedule=RandomSchedule(random.Random(5), 0.2, 0.2))
    for node in net.nodes:
        keys = [order_key(EPOCH, e.lamport, e.sender) for e in node.replica.log]
        assert keys == sorted(keys)
        assert [e.index for e in node.delivered] == list(range(len(node.delivered)))
        assert [(e.sender, e.seq) for e in node.delivered] == net.logs()[node.index]


def test_nothing_is_applied_twice_nor_moved_P68() -> None:
    """P-68: Snapshots of each log taken during a lossy, repeating run only ever grow."""
    net = Net(3)
    net.open_table()
    net.lobby()
    net.deal()
    rng = random.Random(11)
    schedule = RandomSchedule(random.Random(12), drop=0.2, duplicate=0.3)
    snapshots = [list(log) for log in net.logs()]
    for _ in range(60):
        index = rng.randrange(3)
        moves = legal_moves(net.view(index), net.seat(index))
        if moves and not net.replica(index).pending_own():
            net.play(index, rng.choice(moves))
        net.run(schedule, budget=4)
        net.tick_all()
        for old, new in zip(snapshots, net.logs(), strict=True):
            assert new[: len(old)] == old
            assert len(set(new)) == len(new)
        snapshots = [list(log) for log in net.logs()]
    net.settle()
    assert all(len(n.delivered) == len(n.replica.log) for n in net.nodes)


def test_an_absent_senders_event_never_enters_the_log_and_is_withdrawn_P69() -> None:
    """P-69: Node 2 speaks before it is admitted: every node drops it; node 2 hears Withdrawn."""
    net = Net(3)
    net.open_table(2)
    net.submit(2, Ready(True))
    stale = net.last_own(2)
    net.join(2)
    net.settle()
    for log in net.logs():
        assert (NODE_IDS[2], stale[0]) not in log
    assert [(w.seq, w.reason) for w in net[2].withdrawn] == [(stale[0], "not_at_the_table")]
    assert net.logs()[0] == net.logs()[2]


def test_a_heartbeat_is_owed_after_new_events_P70() -> None:
    """P-70: a heartbeat is owed after new events."""
    net = Net(3)
    net.open_table()
    replica = net.replica(1)
    assert replica.flush(net.now) == [], "nothing received, nothing owed"
    net.submit(0, Ready(True))
    seq = net.last_own(0)[0]
    (flight,) = [f for f in net.flights if f.target == 1]
    replica.receive(flight.data, net.now)
    (send,) = [e for e in replica.flush(net.now) if isinstance(e, Send)]
    beat = decode(send.data).payload
    assert isinstance(beat, Heartbeat) and send.to is None
    assert Ack(NODE_IDS[0], seq) in beat.acks
    assert replica.flush(net.now) == [], "paid once"
    replica.receive(flight.data, net.now)
    assert replica.flush(net.now) == [], "a duplicate owes nothing"


def test_the_optimistic_view_shows_a_pending_move_and_rolls_back_P71() -> None:
    """P-71: both put a red 5 on one red 4; the loser saw its move at once, then loses it."""
    net = red_race_table(EPOCH, fallback=False)
    stable_before = [n.replica.stable.public_form() for n in net.nodes]
    for index in (0, 1):
        net.play(index, play_of(net, index, 5))
    for index in (0, 1):
        view = net.view(index)
        assert view.piles[0].cards[-1].deck == net.seat(index), "our move shows at once"
        assert net.replica(index).pending_own()
    assert [n.replica.stable.public_form() for n in net.nodes] == stable_before
    net.settle()
    stable = net.replica(0).stable.table
    assert stable is not None
    winner = stable.piles[0].cards[-1].deck
    loser = net.index_of(NODE_IDS[1 - winner])
    entry = net.replica(loser).log[-1]
    assert entry.sender == NODE_IDS[loser] and entry.outcome.refusal == "pile_taken"
    assert entry.outcome.by == winner
    replica = net.replica(loser)
    assert replica.pending_own() == []
    assert replica.optimistic().public_form() == replica.stable.public_form()
    area = net.view(loser).areas[net.seat(loser)]
    tops = [stack[-1] for stack in area.post] + [area.blitz[-1]]
    assert any(c.colour == Colour.RED and c.value == 5 for c in tops if c is not None)
    assert replica.stable.phase == Phase.PLAYING
    assert not net[loser].withdrawn, "refused in the order, not withdrawn"
