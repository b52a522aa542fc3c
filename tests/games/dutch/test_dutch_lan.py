"""Dutch played by four real nodes over ZeroMQ on 127.0.0.1 (``blitz-node --game dutch``):
headless bot seats run the deal with no dealer, every share sealed or sent to all as the
rules open each card, the reveal and the audit, to the end of the game; every node writes
the same results and the same log digest (spec/dutch-deal.md section 8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.highcard.test_highcard import first_result
from tests.lan.nodes import AGREED, BlitzNode, free_ports, loopback_args, stop_all

PLAYERS = 4
TARGET = 10  # one round of Dutch scores about 10 a hand: a game of a round or two
# A round takes about 20 s on an idle 2-core machine and 75 s on a loaded one: the whole
# game, waited for at once, gets the time of two loaded rounds and more.
WAIT_S = 180.0


@pytest.mark.lan
@pytest.mark.timeout(300)
def test_four_nodes_play_dutch_to_the_end(tmp_path: Path) -> None:
    """M-30 to M-34 between real nodes."""
    ports = free_ports(PLAYERS)
    extra = ("--game", "dutch", "--target", str(TARGET))
    nodes = [
        BlitzNode(
            f"du{i}",
            tmp_path / f"node{i}",
            loopback_args(i, ports, PLAYERS, *extra),
            role=("--join", "--bot", "--bot-level", "careful" if i % 2 else "forgetful"),
            wait_s=WAIT_S,
        )
        for i in range(PLAYERS)
    ]
    try:
        for node in nodes:
            node.wait_for_text("game over")
        firsts = [first_result(node) for node in nodes]
    finally:
        stop_all(nodes)
    first = firsts[0]
    for node, result in zip(nodes, firsts, strict=True):
        for key in AGREED:
            assert result[key] == first[key], f"{node.label} differs in {key}"
        assert "Traceback" not in node.output()
    assert first["rules"] == "dutch" and first["over"]
    assert first["winner"] is not None and first["flags"] == []
    assert max(first["final_scores"].values()) >= TARGET
