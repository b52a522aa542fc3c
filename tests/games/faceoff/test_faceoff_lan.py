"""Blitz! played by four real nodes over ZeroMQ on 127.0.0.1 (``blitz-node --game faceoff``):
headless bot seats send their chains and links, turn every card through the table's
openings, answer, contest, vote and close windows, to the end of the game; every node
writes the same results and the same log digest (spec/faceoff.md section 9)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from dutchblitz.protocol.replays.gamefile import check_game_file

from tests.games.highcard.test_highcard import first_result
from tests.lan.nodes import AGREED, BlitzNode, free_ports, loopback_args, stop_all

PLAYERS = 4
GAME_S = 240.0  # a whole game between bots that think as people do takes a minute or two


@pytest.mark.lan
@pytest.mark.timeout(420)
def test_four_nodes_play_blitz_to_the_end(tmp_path: Path) -> None:
    """F-46 to F-52 between real nodes: one game of Blitz! is one round, over at F-41."""
    ports = free_ports(PLAYERS)
    nodes = [
        BlitzNode(
            f"fo{i}",
            tmp_path / f"node{i}",
            loopback_args(i, ports, PLAYERS, "--game", "faceoff"),
            role=("--join", "--bot", "--bot-level", "sharp" if i % 2 else "easy"),
            wait_s=GAME_S,
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
    assert first["rules"] == "faceoff" and first["over"]
    assert first["winner"] is not None and first["flags"] == []
    assert sum(first["final_scores"].values()) > 0  # face-offs were won
    # The game's file replays to the digest every node wrote (spec/replay.md).
    kept = sqlite3.connect(tmp_path / "node0" / "games.sqlite")
    try:
        [(data,)] = kept.execute("SELECT file FROM games").fetchall()
    finally:
        kept.close()
    checked = check_game_file(data)
    assert checked.final.rules.tag == "faceoff"
