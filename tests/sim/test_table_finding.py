"""The simulation with table finding: each node starts on a table id of its own.

``tests/rigs/finding.py`` runs the real ``TableFinder`` and the seat's finding steps, so
that the lobby merge runs in every seed (spec/protocol.md section 12, P-200 to P-205,
P-257, P-283, P-284). Its seeds sweep here beside the single-table ones, and the seeds
that once went wrong stay as regression cases.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from dutchblitz.protocol.table.game import Phase

from tests.rigs.finding import FindingSimulation
from tests.rigs.watch import LOBBY_BOUND, LOBBY_LOG_LIMIT, Diverged, Stalled, Watch
from tests.sim.test_simulation import sweep_workers

FINDING_SEEDS = 60
CHUNK = 30
CHUNKS = [range(first, first + CHUNK) for first in range(0, FINDING_SEEDS, CHUNK)]

# Seeds where a node took another table's events as its own while P-202 let through the
# messages of a peer that had sent no HELLO yet: a founding ADMIT taken into a log that
# asked to join elsewhere, or another table's digests taken for a desync (P-283).
BEFORE_P283 = [(35, "different event at log index 0")]


@pytest.mark.timeout(600)
@pytest.mark.parametrize("seeds", CHUNKS, ids=lambda seeds: f"{seeds.start}-{seeds.stop - 1}")
def test_sweep_with_table_finding(seeds: range) -> None:
    """P-200 to P-205, P-283: every node founds or joins a table of its own finding, the
    tables merge in the lobby, and the game is played to its end under single faults."""
    command = [sys.executable, "-m", "tests.rigs.sim", "--finding", "--first", str(seeds.start)]
    command += ["--seeds", str(len(seeds)), "--workers", str(sweep_workers())]
    result = subprocess.run(command, capture_output=True, text=True, timeout=580)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert f"{len(seeds)} passed, 0 failed" in result.stdout


@pytest.mark.timeout(120)
def test_tables_of_their_own_merge_into_one() -> None:
    """P-200, P-203: seed 1's nodes found or join tables of their own, and end at one."""
    lines: list[str] = []
    summary = FindingSimulation(1, "single", lines.append).run()
    assert any("founds table" in line for line in lines)
    assert summary["games"] == 1 and int(str(summary["tables"])) >= int(str(summary["players"]))


@pytest.mark.timeout(120)
def test_the_same_seed_gives_the_same_trace() -> None:
    first: list[str] = []
    second: list[str] = []
    FindingSimulation(4, "single", first.append).run()
    FindingSimulation(4, "single", second.append).run()
    assert first == second


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("seed", "broken"), BEFORE_P283)
def test_a_peer_with_no_hello_yet_is_asked_for_one(seed: int, broken: str) -> None:
    """P-283: the seed holds; with the rule before it, another table's events get in."""
    FindingSimulation(seed).run()
    FindingSimulation.before_p283 = True
    try:
        with pytest.raises(Diverged, match=broken):
            FindingSimulation(seed).run()
    finally:
        FindingSimulation.before_p283 = False


def test_a_lobby_log_may_not_grow_without_bound() -> None:
    watch = Watch()
    watch.lobby_log(0, Phase.LOBBY, LOBBY_LOG_LIMIT)
    watch.lobby_log(0, Phase.PLAYING, 10 * LOBBY_LOG_LIMIT)
    with pytest.raises(Stalled, match="still in the lobby"):
        watch.lobby_log(1, Phase.LOBBY, LOBBY_LOG_LIMIT + 1)


def test_every_node_leaves_the_lobby_within_the_bound() -> None:
    watch = Watch()
    heal = 30.0
    assert watch.left_lobby(5.0, heal, [(0, Phase.LOBBY), (1, Phase.LOBBY)]) is None
    assert watch.left_lobby(6.0, heal, [(0, Phase.DEALING), (1, Phase.LOBBY)]) is None
    late = heal + LOBBY_BOUND + 1.0
    assert (
        watch.left_lobby(heal + LOBBY_BOUND - 1.0, heal, [(0, Phase.PLAYING), (1, Phase.LOBBY)])
        is None
    )
    assert watch.left_lobby(late, heal, [(0, Phase.PLAYING), (1, Phase.LOBBY)]) == 1
    assert watch.left_lobby(late, heal, [(0, Phase.PLAYING), (1, Phase.PLAYING)]) is None
