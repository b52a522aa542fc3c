"""Four bot nodes play a whole game to 75 on 127.0.0.1, and agree on every score.

They start at once, so each greets, listens and founds its own table, and the tables merge
in the lobby into the one of the smallest epoch (spec/protocol.md P-200, P-203); a node
answers a HELLO that does not list it with its own (P-201).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.lan.nodes import BlitzNode, check_agreement, free_ports, loopback_args, stop_all

pytestmark = [pytest.mark.lan, pytest.mark.timeout(180)]

PLAYERS = 4


def test_four_nodes_play_a_whole_game_and_write_the_same_summary(tmp_path: Path) -> None:
    ports = free_ports(PLAYERS)
    started = time.monotonic()
    nodes = [
        BlitzNode(f"bot{i}", tmp_path / f"node{i}", loopback_args(i, ports, PLAYERS))
        for i in range(PLAYERS)
    ]
    try:
        codes = [node.finish() for node in nodes]
        assert codes == [0] * PLAYERS, "\n\n".join(node.output() for node in nodes)
        summary = check_agreement(nodes)
    finally:
        stop_all(nodes)
    for node in nodes:
        output = node.output()
        assert "game over" in output
        assert "Traceback" not in output
    print(
        f"a game of {len(summary['rounds'])} rounds to 75 took "
        f"{time.monotonic() - started:.1f} s, start-up included"
    )
