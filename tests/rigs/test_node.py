"""The rigged node: BLITZ_FAULTS and BLITZ_FLOOD are read by the test rig, never by the node."""

from __future__ import annotations

import pytest
from dutchblitz.node.net.transport import Transport
from dutchblitz.node.seat.local import LocalSeat

from tests.node.test_transport import SIGNERS, free_port, key, node_id, roster, run
from tests.rigs import node as rigged

pytestmark = pytest.mark.timeout(30)


def _keep_the_plain_node(monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``install`` replaces is put back after the test."""
    monkeypatch.setattr(Transport, "open", Transport.__dict__["open"])
    monkeypatch.setattr(LocalSeat, "start", LocalSeat.start)


async def _dropped_of_100(node: int) -> int:
    async with await Transport.open(SIGNERS[node], "127.0.0.1", 0, roster=roster()) as a:
        a.add_peer(node_id(2), f"tcp://127.0.0.1:{free_port()}", key(2))
        for _ in range(100):
            a.send(node_id(2), b"x")
        return a.stats.dropped_fault


def test_the_transport_reads_no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLITZ_FAULTS", "loss=0.5,seed=1")
    assert run(_dropped_of_100(1)) == 0


def test_blitz_faults_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    _keep_the_plain_node(monkeypatch)
    rigged.install({"BLITZ_FAULTS": "loss=0.5,seed=1"})
    assert 30 < run(_dropped_of_100(1)) < 70


def test_a_bad_blitz_faults_stops_the_node_starting(monkeypatch: pytest.MonkeyPatch) -> None:
    _keep_the_plain_node(monkeypatch)
    with pytest.raises(ValueError, match="BLITZ_FAULTS: loss must be a number"):
        rigged.install({"BLITZ_FAULTS": "loss=lots"})


def test_blitz_flood_makes_each_seat_start_a_flood(monkeypatch: pytest.MonkeyPatch) -> None:
    _keep_the_plain_node(monkeypatch)
    plain = LocalSeat.start
    rigged.install({"BLITZ_FLOOD": "rate=10,name=bot0"})
    assert LocalSeat.start is not plain
