"""How a seat comes to a log, and whose messages it reads (protocol/seat/arrival.py,
standing.py), one input at a time:

* P-200: once the window is over, a seat asks to join the smallest epoch heard, or founds
  a table (``MoveTable``); P-257: a log kept aside comes back if its table is heard
  (``BackToKept``); P-267: with a log kept aside, a member's answer ends the window only
  once that log's table is heard, and the window lasts as long as a join is waited for;
* P-204, P-257: a restart reloads a game under way, keeps a lobby's log aside, and gives
  up a headless bot's finished game;
* P-264: where links may lose messages, a message before its sender's HELLO is dropped and
  a HELLO asked for; over links that deliver in order (P-265) it is read as of our table;
* P-270: where links may lose messages, a silence of the listen time makes a peer's epoch
  unknown again: it may have moved to another table, its HELLO lost;
* P-272: our first event on a log we joined starts at the first-seq we are seated from,
  when a stale ADMIT seats us below numbers used at another table since;
* P-271: in the lobby, a seat greets again, once per ``hello_every``, each peer it is
  connected to and has not heard at its epoch lately;
* P-284: that HELLO leaves the peer out of its list, so that the peer answers with its own
  (P-201) and says which table it is at;
* P-285: a message dropped because its sender's last HELLO named another table asks that
  sender for a HELLO, at most once per ``hello_every``, whatever the table's phase;
* P-286: a reloaded log given up because its table did not answer is kept aside, and the
  seat goes back to it, not to a fresh log, when it later asks to join that table.
"""

from __future__ import annotations

import random

import pytest
from dutchblitz.protocol.replica.core import Identity, Replica
from dutchblitz.protocol.replica.effects import Send
from dutchblitz.protocol.seat.duties import Wishes
from dutchblitz.protocol.seat.effects import AskHello, BackToKept, MoveTable
from dutchblitz.protocol.seat.finding import TableFinder
from dutchblitz.protocol.seat.machine import SeatMachine
from dutchblitz.protocol.seat.pace import Pace
from dutchblitz.protocol.wire.codec import decode, encode
from dutchblitz.protocol.wire.messages import Envelope, Event, Heartbeat, Hello, Kind, Ready, Start
from dutchblitz.protocol.wire.peek import message_kind

from tests.protocol.replicas import NODE_IDS, SIGNERS, TABLE, Net

JOIN_WINDOW = 0.5
SUSPECT_AFTER = 2.0  # the listen time: 2 s; a join is waited for 4 s
SMALL, LARGE = b"\x01" * 16, b"\x02" * 16


def _machine(net: Net | None = None, ordered: bool = True) -> SeatMachine:
    machine = SeatMachine(
        NODE_IDS[0], TABLE, Wishes("p0"), None, lambda purpose: random.Random(purpose),
        Pace(eager=True), TableFinder(SUSPECT_AFTER, 0.5), JOIN_WINDOW, random.Random(0),
    )  # fmt: skip
    machine.standing.ordered = ordered
    if net is not None:
        machine.replica = net.replica(0)
    return machine


def _hello(sender: bytes, epoch: bytes) -> bytes:
    hello = Hello("peer", "pump", "tcp://127.0.0.1:1", (), epoch, 0)
    return encode(Envelope(TABLE, sender, 1, 0, hello))


def _heartbeat(sender: bytes) -> bytes:
    return encode(Envelope(TABLE, sender, 1, 0, Heartbeat(0, (), 0, b"")))


@pytest.mark.parametrize(
    ("case", "kept", "heard", "expected"),
    [
        ("P-200 nobody answered: found", None, [], MoveTable(None, "")),
        ("P-200 the smallest epoch heard", None, [LARGE, SMALL], MoveTable(SMALL, "")),
        ("P-257 the kept log's table answers", LARGE, [SMALL, LARGE], BackToKept(LARGE)),
        ("P-257 the kept log's table is silent", LARGE, [SMALL], MoveTable(SMALL, "")),
    ],
)
def test_settling_once_the_window_is_over(
    case: str, kept: bytes | None, heard: list[bytes], expected: object
) -> None:
    machine = _machine()
    machine.arrival.kept = kept
    for index, epoch in enumerate(heard, start=1):
        machine.receive(NODE_IDS[index], _hello(NODE_IDS[index], epoch), 1.0)
    (out,) = machine.arrival.settle(1.2)
    if isinstance(expected, MoveTable):
        assert isinstance(out, MoveTable) and out.epoch == expected.epoch, case
    else:
        assert out == expected, case
    assert machine.arrival.kept is None, case


def test_P267_a_kept_log_waits_for_its_own_table() -> None:
    machine = _machine()
    arrival = machine.arrival
    assert arrival.listen_time() == JOIN_WINDOW
    arrival.kept = LARGE
    assert arrival.listen_time() == 2 * SUSPECT_AFTER  # as long as a join is waited for
    machine.receive(NODE_IDS[1], _hello(NODE_IDS[1], SMALL), 1.0)
    assert not arrival.heard_enough(1.0)  # answered, but not by the kept log's table
    machine.receive(NODE_IDS[2], _hello(NODE_IDS[2], LARGE), 1.1)
    assert arrival.heard_enough(1.1)


def _records(with_start: bool) -> list[bytes]:
    body = Start(75, True) if with_start else Ready(True)
    return [encode(Envelope(TABLE, NODE_IDS[0], 1, 3, Event(body)))]


@pytest.mark.parametrize(
    ("case", "start", "results", "bot", "reload", "kept"),
    [
        ("P-204 a game under way comes back", True, False, False, True, None),
        ("P-257 a lobby's log is kept aside", False, False, False, False, LARGE),
        ("P-204 a headless bot's finished game is given up", True, True, True, False, None),
    ],
)
def test_what_a_restart_does_with_the_log_left(
    case: str, start: bool, results: bool, bot: bool, reload: bool, kept: bytes | None
) -> None:
    machine = _machine()
    records = _records(start)
    assert machine.arrival.restart(LARGE, records, results=results, bot=bot) == reload, case
    assert machine.arrival.kept == kept, case


@pytest.mark.parametrize(
    ("case", "ordered", "hello_at", "message_at", "dropped"),
    [
        ("P-265 in order: no HELLO yet, read as ours", True, None, 1.0, False),
        ("P-264 lossy: no HELLO yet, dropped and asked", False, None, 1.0, True),
        ("P-264 lossy: after its HELLO, read", False, 1.0, 1.5, False),
        ("P-270 lossy: after a silence, dropped and asked", False, 1.0, 3.5, True),
        ("P-270 in order: a silence changes nothing", True, 1.0, 3.5, False),
    ],
)
def test_whose_messages_are_read_by_link_kind(
    case: str, ordered: bool, hello_at: float | None, message_at: float, dropped: bool
) -> None:
    net = Net(2)
    net.open_table()
    machine = _machine(net, ordered)
    peer = NODE_IDS[1]
    if hello_at is not None:
        machine.receive(peer, _hello(peer, net.epoch), hello_at)
    before = machine.other_table
    outs = machine.receive(peer, _heartbeat(peer), message_at)
    assert (AskHello(peer) in outs) == dropped, case
    assert (machine.other_table - before == 1) == dropped, case


def test_P271_the_lobby_greets_again_whom_it_does_not_hear_at_its_table() -> None:
    net = Net(2)
    net.open_table()
    machine = _machine(net)
    stranger, member = b"\x07" * 16, NODE_IDS[1]
    machine.standing.endpoints = {stranger: "tcp://127.0.0.1:2", member: "tcp://127.0.0.1:3"}
    machine.receive(member, _hello(member, net.epoch), net.now)

    def hellos_to(outs: list[object]) -> list[bytes | None]:
        return [
            out.to for out in outs if isinstance(out, Send) and message_kind(out.data) == Kind.HELLO
        ]

    first = hellos_to(machine.tick(net.now + 0.1))
    assert first == [stranger]  # the member is heard at our epoch
    assert hellos_to(machine.tick(net.now + 0.2)) == []  # once per hello_every
    again = hellos_to(machine.tick(net.now + 1.2))
    assert again == [stranger]


def test_P284_a_peer_read_at_another_table_is_asked_where_it_is() -> None:
    """Both seats are at one table, but ours read the peer's last HELLO at another (the one
    naming ours was lost): we drop all it sends while it reads us at its own table, so
    nothing becomes final, and our HELLO listing it would go unanswered (P-201) for good."""
    net = Net(2)
    net.open_table()
    machine = _machine(net)
    peer = NODE_IDS[1]
    machine.replica.know_key(peer, SIGNERS[1].public_key)  # listed in our HELLOs
    endpoint = "tcp://198.18.0.11:7000"
    machine.standing.endpoints = {peer: endpoint}
    stale = Hello("p1", "pump", endpoint, (), b"\xff" * 16, 0)  # a table it has since left
    machine.receive(peer, encode(Envelope(TABLE, peer, 1, 0, stale)), net.now)
    hellos = _hellos_to(peer, machine.tick(net.now + 0.1))
    machine.receive(peer, _heartbeat(peer), net.now + 0.2)
    assert machine.other_table == 1
    assert len(hellos) == 1
    hello = hellos[0]
    assert isinstance(hello, Hello) and hello.epoch == net.epoch
    assert peer not in {listed.node for listed in hello.peers}  # so it answers (P-201)
    answer = net.replica(1).hello(NODE_IDS[0])[0]
    assert isinstance(answer, Send)
    machine.receive(peer, answer.data, net.now + 0.3)
    machine.receive(peer, _heartbeat(peer), net.now + 0.4)
    assert machine.other_table == 1  # read again
    assert _hellos_to(peer, machine.tick(net.now + 1.5)) == []  # heard at our table


def test_P285_a_peer_read_at_another_table_is_asked_where_it_is_once_a_second() -> None:
    net = Net(2)
    net.open_table()
    machine = _machine(net)
    peer = NODE_IDS[1]
    machine.receive(peer, _hello(peer, b"\xff" * 16), net.now)  # a table it has since left
    asked = [
        AskHello(peer) in machine.receive(peer, _heartbeat(peer), net.now + after)
        for after in (0.1, 0.6, 1.2)
    ]
    assert asked == [True, False, True]
    assert machine.other_table == 3


@pytest.mark.parametrize(
    ("case", "founded_at"),
    [
        ("P-286 its table is the smaller: back to its log, not a fresh one", b"\xff" * 16),
        ("P-286 its table is the larger: back to its log all the same", b"\x00" * 16),
    ],
)
def test_P286_a_reloaded_log_given_up_is_gone_back_to_not_joined_afresh(
    case: str, founded_at: bytes
) -> None:
    """Restarted into a game, the seat heard nobody of its table for the patience (P-205)
    and founded a table afresh; then its table is heard. A fresh log there could never
    hold the seat's own events (P-257): it would apply the others' without them, and the
    table would wait for it for good; nor would a table with a game on ever merge into
    the seat's lobby. It goes back to the log it gave up instead."""
    net = Net(2)
    net.open_table()
    machine = _machine()
    restored, peer = net.replica(0), NODE_IDS[1]
    machine.arrival.reload(restored, net.now, floor=0)
    gave_up = [out for out in machine.tick(net.now + 4.5) if isinstance(out, MoveTable)]
    assert gave_up == [MoveTable(None, gave_up[0].why, keep=True)]
    assert machine.arrival.aside == net.epoch
    founded = Identity(NODE_IDS[0], TABLE, founded_at, "p0", "pump", "tcp://p0:1")
    fresh = Replica(founded, net.now + 4.5, restored.settings, SIGNERS[0])
    machine.arrival.begin(fresh, net.now + 4.5, found=True, floor=restored.my_seq)
    outs = machine.receive(peer, _hello(peer, net.epoch), net.now + 5.0)
    assert BackToKept(net.epoch) in outs, case
    assert not [out for out in outs if isinstance(out, MoveTable)], case
    machine.arrival.reload(restored, net.now + 5.0, floor=fresh.my_seq)
    assert machine.arrival.aside is None


def _hellos_to(peer: bytes, outs: list[object]) -> list[Hello]:
    sent = [out.data for out in outs if isinstance(out, Send) and out.to == peer]
    hellos = [decode(data).payload for data in sent if message_kind(data) == Kind.HELLO]
    return [hello for hello in hellos if isinstance(hello, Hello)]


@pytest.mark.parametrize(
    ("case", "joined", "held_elsewhere", "renumbered"),
    [
        ("P-272 a stale ADMIT on a log we joined: from its first-seq", True, False, True),
        ("P-272 a peer holds our events from it: above them", True, True, False),
        ("P-80 a log we did not just join: above every number used", False, False, False),
    ],
)
def test_P272_our_stream_starts_at_the_first_seq_we_are_seated_from(
    case: str, joined: bool, held_elsewhere: bool, renumbered: bool
) -> None:
    net = Net(2)
    net.open_table()
    replica = net.replica(1)
    machine = SeatMachine(
        NODE_IDS[1], TABLE, Wishes("p1"), None, lambda purpose: random.Random(purpose),
        Pace(eager=True), TableFinder(SUSPECT_AFTER, 0.5), JOIN_WINDOW, random.Random(0),
    )  # fmt: skip
    machine.replica = replica
    first = replica.stable.members[NODE_IDS[1]].since
    replica.my_seq = first + 3  # numbers used at another table since that ADMIT's request
    machine.arrival.joined = joined
    if held_elsewhere:
        replica.streams[NODE_IDS[1]].announced = first
    outs = machine.submit(Ready(True), net.now)
    seqs = [
        decode(out.data).seq
        for out in outs
        if isinstance(out, Send) and message_kind(out.data) == Kind.EVENT
    ]
    assert seqs == [first if renumbered else first + 4], case
