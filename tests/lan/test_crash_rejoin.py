"""A node killed with SIGKILL mid-round comes back from its state directory, and the game ends.

It reloads its log, which holds the game's START, and says HELLO as a member (P-204).

Two cases: it comes back at once (before the others suspect it), and it comes
back only after the others have removed it from the table, so that it must be
admitted again. Either way every node, the restarted one included, writes the
same summary.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lan.nodes import BlitzNode, check_agreement, free_ports, loopback_args, stop_all

pytestmark = [pytest.mark.lan, pytest.mark.timeout(240)]

PLAYERS = 4
# A game long enough to outlast the restart: a node that comes back after the others
# have finished finds nobody to rejoin (on a busy machine a restart can take seconds;
# every round counts in for 3 s, so a game to 100 lasts half a minute or more).
TARGET = "100"


@pytest.mark.parametrize("comes_back", ["at_once", "after_removal"])
def test_a_killed_node_restarts_from_its_state_dir_and_the_game_completes(
    tmp_path: Path, comes_back: str
) -> None:
    ports = free_ports(PLAYERS)
    args = [loopback_args(i, ports, PLAYERS, "--target", TARGET) for i in range(PLAYERS)]
    nodes = [BlitzNode(f"bot{i}", tmp_path / f"node{i}", args[i]) for i in range(PLAYERS)]
    victim = PLAYERS - 1
    try:
        nodes[victim].wait_for_text("round 2: playing")
        nodes[victim].kill()
        if comes_back == "after_removal":
            nodes[0].wait_for_text(f"bot{victim} left the table")
        nodes[victim] = BlitzNode(f"bot{victim}", tmp_path / f"node{victim}", args[victim])
        codes = [node.finish() for node in nodes]
        assert codes == [0] * PLAYERS, "\n\n".join(node.output() for node in nodes)
        check_agreement(nodes)
    finally:
        stop_all(nodes)
    restarted = nodes[victim].output()
    assert "restored" in restarted and "Traceback" not in restarted
    if comes_back == "after_removal":
        assert f"bot{victim} sat down" in nodes[0].output() or "sat down" in nodes[0].output()
