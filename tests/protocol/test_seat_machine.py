"""The seat's machine (protocol/seat/machine.py): one call per input, effects back.

* P-139: a message whose header names another sender than its channel's key is dropped
  and counted (``Forged``), in any phase;
* P-202: while the seat holds no log, what arrives is kept for the log to come (``Arrival``);
  at a table, a message from a peer whose last HELLO named another epoch is dropped and
  counted, and one from a peer at our epoch goes to the replica;
* R-40: a round's secret is written down (``KeepSecret``) before the commitment that
  needs it is persisted or sent.
"""

from __future__ import annotations

import random

import pytest
from dutchblitz.protocol.replica.effects import Persist, Send
from dutchblitz.protocol.seat.duties import Wishes
from dutchblitz.protocol.seat.effects import Forged, KeepSecret, Out
from dutchblitz.protocol.seat.finding import TableFinder
from dutchblitz.protocol.seat.machine import SeatMachine
from dutchblitz.protocol.seat.pace import Pace
from dutchblitz.protocol.wire.codec import decode, encode
from dutchblitz.protocol.wire.messages import Commit, Envelope, Event, Heartbeat

from tests.protocol.replicas import NODE_IDS, TABLE, Net

OTHER_EPOCH = b"\xff" * 16


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
        ("P-202 another table", True, NODE_IDS[1], OTHER_EPOCH, [], 1),
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
        assert outs == [] and list(machine.arrival.early) == [(channel, data, None)], case
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
