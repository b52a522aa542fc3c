"""A member that floods one player: the player drops the excess, and the game completes.

Four flat-out bot nodes on 127.0.0.1; the fourth runs with ``BLITZ_FLOOD`` (tests/rigs/flood.py)
and sends the first, on top of its honest play, thousands of valid messages a second:
copies of its heartbeat, its latest event again, and repair requests. The first node's
throttle (protocol/replica/throttle.py) drops what is over its limits before decoding it, and the
game goes on to the end with every node writing the same summary (P-118).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.lan.nodes import BlitzNode, check_agreement, free_ports, loopback_args, stop_all

pytestmark = [pytest.mark.lan, pytest.mark.timeout(240)]

PLAYERS = 4
FLOOD_RATE = 4000  # messages a second: four times the per-peer limit


def _counters(node: BlitzNode) -> dict[str, object]:
    line = next(x for x in node.output().splitlines() if "counters:" in x)
    return ast.literal_eval(line.split("counters: ", 1)[1])  # type: ignore[no-any-return]


def test_a_flooding_member_is_throttled_and_the_game_completes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ports = free_ports(PLAYERS)
    nodes = []
    try:
        for i in range(PLAYERS):
            if i == PLAYERS - 1:
                monkeypatch.setenv("BLITZ_FLOOD", f"rate={FLOOD_RATE},name=bot0")
            nodes.append(
                BlitzNode(f"bot{i}", tmp_path / f"node{i}", loopback_args(i, ports, PLAYERS))
            )
        monkeypatch.delenv("BLITZ_FLOOD")
        try:
            codes = [node.finish(150) for node in nodes]
        except AssertionError:
            for node in nodes:
                print(node.label, node.output()[-1500:])
            raise
        assert codes == [0] * PLAYERS, "\n\n".join(node.output()[-3000:] for node in nodes)
        check_agreement(nodes)
    finally:
        stop_all(nodes)
    for node in nodes:
        assert "Traceback" not in node.output()
    flooded = _counters(nodes[0])
    print({node.label: _counters(node)["throttled"] for node in nodes})
    assert flooded["loop_errors"] == 0
    throttled = flooded["throttled"]
    assert isinstance(throttled, dict)
    assert throttled["dropped"] > 1000, throttled
    for node in nodes[1:]:
        honest = _counters(node)["throttled"]
        assert isinstance(honest, dict)
        assert honest["dropped"] == 0, (node.label, honest)
