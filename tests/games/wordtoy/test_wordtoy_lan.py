"""Word toy played by three real nodes over ZeroMQ on 127.0.0.1: headless bot seats of
``python -m tests.games.wordtoy.node --game wordtoy`` answer, object and close silent
cards through the real seat, replica and table, two rounds (its default) to the game's end;
every node writes the same results and log digest. Nothing outside this folder knows the
game: ``node.py`` registers it before the node's main runs."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from dutchblitz.protocol.games import registry
from dutchblitz.protocol.replays.gamefile import check_game_file

from tests.games.highcard.test_highcard import first_result
from tests.games.wordtoy.game import GAME
from tests.games.wordtoy.rules import CARDS
from tests.lan.nodes import AGREED, BlitzNode, free_ports, loopback_args, stop_all

PLAYERS = 3
GAME_S = 150.0  # two rounds of three cards, bots thinking as people do: under a minute


@pytest.mark.lan
@pytest.mark.timeout(300)
def test_three_nodes_play_two_rounds_of_word_toy(tmp_path: Path) -> None:
    ports = free_ports(PLAYERS)
    nodes = [
        BlitzNode(
            f"wt{i}",
            tmp_path / f"node{i}",
            loopback_args(i, ports, PLAYERS, "--game", "wordtoy"),
            role=("--join", "--bot", "--bot-level", "sharp" if i % 2 else "easy"),
            wait_s=GAME_S,
            entry="tests.games.wordtoy.node",
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
    assert first["rules"] == "wordtoy" and first["over"]
    assert first["flags"] == []
    # Two rounds, and not one more: a tie is a draw (spec/protocol.md P-238).
    assert len(first["rounds"]) == 2
    assert all(sum(r["scores"].values()) <= CARDS for r in first["rounds"])
    assert sum(first["final_scores"].values()) > 0  # cards were won
    totals = sorted(first["final_scores"].values())
    drawn = totals[-1] == totals[-2]
    assert (first["winner"] is None) == drawn  # the winner alone on the most cards, or none
    # The game's file replays to the digest every node wrote (spec/replay.md), here too
    # once the game is known (for this check only).
    kept = sqlite3.connect(tmp_path / "node0" / "games.sqlite")
    try:
        # The first game's: the bots' rematch may have finished too.
        (data,) = kept.execute("SELECT file FROM games ORDER BY rowid LIMIT 1").fetchone()
    finally:
        kept.close()
    with registry.registered(GAME):
        assert check_game_file(data).final.rules.tag == "wordtoy"
