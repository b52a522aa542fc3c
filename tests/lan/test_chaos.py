"""Real-process chaos: four headless bot nodes on loopback under message loss, and under
repeated ``kill -9``, still finish the game with identical summaries.

The loss comes from the node's test-only fault layer (``BLITZ_FAULTS``, see docs/testing.md).
The kills are triggered by what the nodes log (the start of a round), never by a timer,
and the victims are drawn from a fixed seed, so a failure can be rerun as it happened.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.lan.nodes import BlitzNode, check_agreement, free_ports, loopback_args, stop_all

pytestmark = [pytest.mark.lan, pytest.mark.timeout(400)]

PLAYERS = 4
LOSSY_GAME_S = 240.0
# The game with kills is long enough to outlast each restart: a node that comes back after
# the others have finished finds nobody to rejoin (a restart can take seconds here).
KILLS_TARGET = "120"
LOSSY_TARGET = "40"  # a short game: two or three rounds, every one of them under loss


def test_four_nodes_finish_a_game_with_ten_percent_loss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ports = free_ports(PLAYERS)
    nodes = []
    for i in range(PLAYERS):
        # Each child takes our environment: every node drops a tenth of what it sends.
        monkeypatch.setenv("BLITZ_FAULTS", f"loss=0.1,seed={i}")
        args = loopback_args(i, ports, PLAYERS, "--target", LOSSY_TARGET)
        nodes.append(BlitzNode(f"bot{i}", tmp_path / f"node{i}", args, wait_s=LOSSY_GAME_S))
    monkeypatch.delenv("BLITZ_FAULTS")
    try:
        codes = [node.finish(LOSSY_GAME_S) for node in nodes]
        assert codes == [0] * PLAYERS, "\n\n".join(node.output() for node in nodes)
        check_agreement(nodes)
    finally:
        stop_all(nodes)


@pytest.mark.parametrize("seed", [1])
def test_repeated_kill_9_of_random_nodes_and_the_game_still_completes(
    tmp_path: Path, seed: int
) -> None:
    draw = random.Random(seed)
    ports = free_ports(PLAYERS)
    args = [loopback_args(i, ports, PLAYERS, "--target", KILLS_TARGET) for i in range(PLAYERS)]
    nodes = [BlitzNode(f"bot{i}", tmp_path / f"node{i}", args[i]) for i in range(PLAYERS)]
    kills = 0
    try:
        for round_number in (2, 3, 4):
            victim = draw.randrange(PLAYERS)
            witness = (victim + 1) % PLAYERS
            if not _wait_for_round(nodes[witness], round_number):
                break  # the game ended first: no more rounds to disturb
            nodes[victim].kill()
            kills += 1
            if draw.random() < 0.5:
                nodes[witness].wait_for_text(f"bot{victim} left the table")
            nodes[victim] = BlitzNode(f"bot{victim}", tmp_path / f"node{victim}", args[victim])
        codes = [node.finish() for node in nodes]
        assert codes == [0] * PLAYERS, "\n\n".join(node.output() for node in nodes)
        check_agreement(nodes)
    finally:
        stop_all(nodes)
    assert kills >= 2, "the game ended before the chaos could start"


def _wait_for_round(node: BlitzNode, round_number: int) -> bool:
    """Wait until ``node`` starts this round; False if the game ends first."""
    started = f"round {round_number}: playing"

    def seen(lines: list[str]) -> bool:
        return any(started in line or " written to " in line for line in lines)

    node.wait_for_line(seen, repr(started))
    return any(started in line for line in node.lines)
