"""A Dutch node killed with ``kill -9`` in the middle of a round, between real nodes on
127.0.0.1 (spec/dutch.md D-43 to D-45, spec/rules.md R-59 to R-61): restarted, it finds
its key in its state directory and the round goes on; not restarted, the round is void
after the grace, and the game ends with the totals of the rounds scored."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.highcard.test_highcard import first_result
from tests.lan.nodes import AGREED, BlitzNode, free_ports, loopback_args, stop_all

PLAYERS = 3  # Dutch's fewest (D-4): one gone for good leaves too few to deal again
ROLE = ("--join", "--bot", "--bot-level", "careful")
WAIT_S = 240.0  # two rounds of Dutch and a grace, on a machine busy with the rest of the suite


def _nodes(tmp_path: Path, rounds: int) -> tuple[list[BlitzNode], list[list[str]]]:
    ports = free_ports(PLAYERS)
    extra = ("--game", "dutch", "--rounds", str(rounds))
    args = [loopback_args(i, ports, PLAYERS, *extra) for i in range(PLAYERS)]
    nodes = [
        BlitzNode(f"du{i}", tmp_path / f"node{i}", args[i], role=ROLE, wait_s=WAIT_S)
        for i in range(PLAYERS)
    ]
    return nodes, args


def _agree(nodes: list[BlitzNode]) -> dict[str, object]:
    firsts = [first_result(node) for node in nodes]
    for node, result in zip(nodes, firsts, strict=True):
        for key in AGREED:
            assert result[key] == firsts[0][key], f"{node.label} differs in {key}"
        assert "Traceback" not in node.output()
    return firsts[0]


@pytest.mark.lan
@pytest.mark.timeout(600)
def test_d43_a_node_killed_mid_round_and_restarted_plays_the_round_on(tmp_path: Path) -> None:
    """D-43, R-59: the round waits; the restarted node opens its cards again."""
    nodes, args = _nodes(tmp_path, rounds=2)
    victim = 2
    try:
        nodes[0].wait_for_text("round 1: playing")
        nodes[victim].kill()
        nodes[0].wait_for_text(f"du{victim} left the table (removed)")
        nodes[victim] = BlitzNode(
            f"du{victim}", tmp_path / f"node{victim}", args[victim], role=ROLE, wait_s=WAIT_S
        )
        first = _agree(nodes)
    finally:
        stop_all(nodes)
    rounds = first["rounds"]
    assert isinstance(rounds, list) and len(rounds) == 2
    assert not any(r.get("void") for r in rounds), "the round went on once it was back"
    assert first["winner"] is not None and any(first["final_scores"].values())  # type: ignore[union-attr]


@pytest.mark.lan
@pytest.mark.timeout(600)
def test_d44_d45_a_node_killed_for_good_voids_the_round_and_the_game_ends(tmp_path: Path) -> None:
    """D-44, D-45, R-60, R-61: after the grace the round is void; two players are too few
    for another round, so the game ends with round 1's scores, not with everyone at 0."""
    nodes, _ = _nodes(tmp_path, rounds=3)
    victim = 2
    try:
        nodes[0].wait_for_text("round 2: playing")
        nodes[victim].kill()
        first = _agree(nodes[:victim])
    finally:
        stop_all(nodes)
    rounds = first["rounds"]
    assert isinstance(rounds, list) and [bool(r.get("void")) for r in rounds] == [False, True]
    assert first["final_scores"] == rounds[0]["scores"]
    assert first["winner"] is not None
