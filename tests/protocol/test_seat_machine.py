"""The seat's machine (protocol/seat/machine.py): one call per input, effects back.

* P-139: a message whose header names another sender than its channel's key is dropped
  and counted (``Forged``), in any phase;
* P-202: while the seat holds no log, what arrives is kept for the log to come (``Arrival``);
  at a table, a message from a peer whose last HELLO named another epoch is dropped and
  counted, and one from a peer at our epoch goes to the replica;
* P-200, P-257, P-267: a seat with no log listens for a table (``listen``) and settles in
  the call that ends the window: a tick, or a HELLO after which it has heard enough;
* a HELLO is decoded once on its way to the replica, also one kept for the log to come,
  and so is a message overheard by a seat that waits while a game is on (P-117), whose
  news tell of that game;
* R-40: a round's secret is written down (``KeepSecret``) before the commitment that
  needs it is persisted or sent.
"""

from __future__ import annotations

import random

import pytest
from dutchblitz.protocol.replica import core as core_module
from dutchblitz.protocol.replica.effects import Persist, Send, Timer
from dutchblitz.protocol.seat import machine as machine_module
from dutchblitz.protocol.seat import standing as standing_module
from dutchblitz.protocol.seat.duties import Wishes
from dutchblitz.protocol.seat.effects import (
    AskHello,
    BackToKept,
    Forged,
    KeepSecret,
    MoveTable,
    Out,
)
from dutchblitz.protocol.seat.finding import TableFinder
from dutchblitz.protocol.seat.latecomer import GameUnderWay
from dutchblitz.protocol.seat.machine import SeatMachine
from dutchblitz.protocol.seat.pace import Pace
from dutchblitz.protocol.wire.codec import decode, encode
from dutchblitz.protocol.wire.messages import Commit, Envelope, Event, Heartbeat, Hello

from tests.protocol.replicas import NODE_IDS, TABLE, Net

OTHER_EPOCH = b"\xff" * 16
ASKED = AskHello(NODE_IDS[1])  # where it is (P-285)


def _machine(net: Net | None = None) -> SeatMachine:
    machine = SeatMachine(
        NODE_IDS[0], TABLE, Wishes("p0"), None, lambda purpose: random.Random(purpose),
        Pace(eager=True), TableFinder(2.0, 0.5), 0.5, random.Random(0),
    )  # fmt: skip
    if net is not None:
        machine.replica = net.replica(0)
    return machine


def _heartbeat(named: bytes) -> bytes:
    return encode(Envelope(TABLE, named, 1, 0, Heartbeat(0, (), 0, b"")))


@pytest.mark.parametrize(
    ("case", "seated", "channel", "peer_epoch", "expected", "other_table"),
    [
        ("P-139 forged, finding", False, NODE_IDS[2], None, [Forged(1)], 0),
        ("P-139 forged, seated", True, NODE_IDS[2], None, [Forged(1)], 0),
        ("P-202 held while finding", False, NODE_IDS[1], None, ["held"], 0),
        ("P-202, P-285 another table: asked", True, NODE_IDS[1], OTHER_EPOCH, [ASKED], 1),
        ("P-202 our table: the replica", True, NODE_IDS[1], "ours", ["replica"], 0),
    ],
)
def test_where_a_message_goes(
    case: str,
    seated: bool,
    channel: bytes,
    peer_epoch: bytes | str | None,
    expected: list[object],
    other_table: int,
) -> None:
    net = Net(2)
    net.open_table()
    machine = _machine(net if seated else None)
    if peer_epoch is not None:
        machine.standing.epochs[NODE_IDS[1]] = net.epoch if peer_epoch == "ours" else peer_epoch
    data = _heartbeat(NODE_IDS[1])
    outs = machine.receive(channel, data, 1.0)
    if expected == ["held"]:
        assert outs == [] and list(machine.arrival.early) == [(channel, data, None, None)], case
    elif expected == ["replica"]:
        assert not any(isinstance(out, Forged) for out in outs), case
        assert not machine.arrival.early, case
        assert machine.replica is not None and machine.replica.counters.received > 0, case
    else:
        assert outs == expected, case
    assert machine.other_table == other_table, case


def test_R40_a_secret_is_kept_before_its_commitment_goes_out() -> None:
    net = Net(2)
    net.open_table()
    net.lobby()
    machine = _machine(net)
    outs: list[Out] = machine.duties(net.now)
    kept = [i for i, out in enumerate(outs) if isinstance(out, KeepSecret)]
    commits = [
        i
        for i, out in enumerate(outs)
        if isinstance(out, Persist | Send)
        and isinstance(payload := decode(out.data).payload, Event)
        and isinstance(payload.body, Commit)
    ]
    assert kept and commits, outs
    assert kept[0] < commits[0]


SMALL = b"\x01" * 16


def _hello(sender: bytes, epoch: bytes) -> bytes:
    hello = Hello("peer", "pump", "tcp://127.0.0.1:1", (), epoch, 0)
    return encode(Envelope(TABLE, sender, 1, 0, hello))


@pytest.mark.parametrize(
    ("case", "kept", "heard", "settled_at", "expected"),
    [
        ("P-200 nobody answers: founded on the tick that ends the window", None, [], 0.5, None),
        ("P-267 a member's answer ends the window at once", None, [SMALL], 0.1, SMALL),
        ("P-267 another table's answer leaves a kept log waiting", OTHER_EPOCH, [SMALL], 4.0, None),
        ("P-257 the kept log's table answers", OTHER_EPOCH, [SMALL, OTHER_EPOCH], 0.2, "kept"),
    ],
)
def test_listening_for_a_table(
    case: str, kept: bytes | None, heard: list[bytes], settled_at: float, expected: object
) -> None:
    """The window (``listen``, ``Arrival.window``): the machine settles in the call at
    which it is over (a tick, asked for with a ``Timer``) or at which it has heard enough
    (a HELLO)."""
    machine = _machine()
    machine.arrival.kept = kept
    window = machine.arrival.listen_time()
    outs = machine.listen(0.0)
    assert outs == [Timer(window)], case
    for index, epoch in enumerate(heard, start=1):
        at = index / 10
        outs += machine.receive(NODE_IDS[index], _hello(NODE_IDS[index], epoch), at)
    if settled_at >= window:
        early = machine.tick(window - 0.01)
        assert Timer(window) in early, case  # not over yet: the tick at its end asked again
        outs += early + machine.tick(settled_at)
    settled = [out for out in outs if isinstance(out, MoveTable | BackToKept)]
    if expected == "kept":
        assert settled == [BackToKept(OTHER_EPOCH)], case
    else:
        assert len(settled) == 1 and isinstance(settled[0], MoveTable), case
        assert settled[0].epoch == expected, case


def test_a_seat_that_never_listens_never_settles() -> None:
    """A spectator's seat: no window, so no table of its own on any tick (section 26)."""
    machine = _machine()
    assert not any(isinstance(out, MoveTable) for out in machine.tick(100.0))


@pytest.mark.parametrize("seated", [True, False], ids=["at a table", "finding"])
def test_a_hello_is_decoded_once(seated: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """A HELLO is read by the machine (its epoch) and by the replica: decoded once, the
    decoded message handed on, also when it waited for the log (P-202)."""
    decoded: list[bytes] = []

    def counting(data: bytes) -> Envelope:
        decoded.append(data)
        return decode(data)

    net = Net(2)
    net.open_table()
    machine = _machine(net if seated else None)
    data = _hello(NODE_IDS[1], net.epoch)
    for module in (machine_module, core_module):
        monkeypatch.setattr(module, "decode", counting)
    machine.receive(NODE_IDS[1], data, 1.0)
    if not seated:
        (held,) = machine.arrival.early
        assert isinstance(held[3], Envelope)
        machine.arrival.begin(net.replica(0), 1.1, found=False, floor=0)
    assert decoded.count(data) == 1


@pytest.mark.parametrize(
    ("case", "heard_at", "asked_at", "expected"),
    [
        ("P-117 a lobby admits in a moment: nothing to tell yet", 1.0, 1.5, None),
        ("P-117 refused long with no round seen: a game is on", 4.5, 5.0, GameUnderWay(1, 0)),
        ("P-117 nothing heard lately: the table may be gone", 1.0, 7.0, None),
    ],
)
def test_what_a_latecomer_overhears(
    case: str, heard_at: float, asked_at: float, expected: GameUnderWay | None
) -> None:
    """A seat that asked to join while a game is on reads the members' HEARTBEATs, once
    decoded, for the game that keeps it out (protocol/seat/latecomer.py)."""
    machine = _machine()
    machine.arrival.begin(Net(2).replica(0), 0.0, found=False, floor=0)
    machine.receive(NODE_IDS[1], _heartbeat(NODE_IDS[1]), heard_at)
    assert machine.standing.game_on(machine.replica, asked_at) == expected, case


def test_an_overheard_message_is_decoded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    decoded: list[bytes] = []

    def counting(data: bytes) -> Envelope:
        decoded.append(data)
        return decode(data)

    machine = _machine()
    machine.arrival.begin(Net(2).replica(0), 0.0, found=False, floor=0)
    data = _heartbeat(NODE_IDS[1])
    for module in (standing_module, core_module):
        monkeypatch.setattr(module, "decode", counting)
    machine.receive(NODE_IDS[1], data, 1.0)
    assert decoded == [data] and machine.standing.news.nodes == {NODE_IDS[1]}
