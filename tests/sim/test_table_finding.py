"""The simulation with table finding: each node starts on a table id of its own.

``tests/rigs/finding.py`` drives each node's ``SeatMachine``, table finding included, so
that the lobby merge runs in every seed (spec/protocol.md section 12, P-200 to P-205,
P-257, P-264 to P-267). Its seeds sweep here beside the single-table ones, and the seeds
that once went wrong stay as regression cases.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace

import pytest
from dutchblitz.protocol.table.state import Phase

from tests.rigs.finding import FindingSimulation
from tests.rigs.watch import LOBBY_BOUND, LOBBY_LOG_LIMIT, Stalled, Watch

FINDING_SEEDS = 60
CHUNK = 30
CHUNKS = [range(first, first + CHUNK) for first in range(0, FINDING_SEEDS, CHUNK)]

# Seeds that once went wrong, each with the rule that fixed it.
REGRESSIONS = [
    # Node 1 founds the table, is removed by a crash in the lobby, and node 3 takes its
    # back meanwhile; admitted again with its old back, two seated players held "pump" and
    # every START was refused: the lobby never started (P-266).
    pytest.param(279, id="279-a-back-taken-while-away"),
    # Node 3 crashes in the lobby and restarts before discovery finds its table again: it
    # founded a table after 1.5 s and then merged into its old one with a fresh log that
    # lacked its own PROFILE, so its log differed at index 8 (P-267).
    pytest.param(666, id="666-a-kept-log-waited-for"),
    # Node 1 is paused for 1.8 s just as node 2 joins; node 0 alone suspects it, and two of
    # three members do not: the lobby waited for good. Driven by the seat machine, with
    # the lobby's HELLOs again (P-271), the table forms and plays.
    pytest.param(144, id="144-one-suspicion-unshared"),
    # Node 1 moves from node 0's table to node 2's while node 0 is cut off; its HELLO naming
    # the new epoch is lost in the partition, and node 0 took its digests of the other
    # table for its own: a silence of the listen time makes a peer's epoch unknown again
    # where links lose messages (P-264, P-270).
    pytest.param(412, id="412-a-stale-epoch"),
    # Lobbies of two nodes whose meeting HELLOs were lost (a pause, a crash, 5 to 15% loss):
    # each stayed at a table of its own, or took the other's digests before its HELLO; the
    # lobby greets again (P-271), and a message before its sender's HELLO is dropped where
    # links lose messages (P-264).
    pytest.param(1505, id="1505-a-lost-hello-under-loss"),
    pytest.param(1651, id="1651-a-crash-as-it-joins"),
    pytest.param(1768, id="1768-two-lobbies-apart"),
]


def sweep_workers() -> int:
    """One process under pytest-xdist, whose workers fill the cores; else every core."""
    return 1 if os.environ.get("PYTEST_XDIST_WORKER") else os.cpu_count() or 1


@pytest.mark.timeout(600)
@pytest.mark.parametrize("seeds", CHUNKS, ids=lambda seeds: f"{seeds.start}-{seeds.stop - 1}")
def test_sweep_with_table_finding(seeds: range) -> None:
    """P-200 to P-205, P-264 to P-267: every node founds or joins a table of its own
    finding, the tables merge in the lobby, and the game is played to its end under single
    faults. A seat's HELLO naming a new epoch goes out before anything else of that log,
    and one link delivers in order (P-265), as the rig models it."""
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


@pytest.mark.timeout(300)
@pytest.mark.parametrize("seed", REGRESSIONS)
def test_a_seed_that_once_went_wrong_holds(seed: int) -> None:
    """P-264, P-266, P-267, P-270, P-271: each seed plays its game to the end, every
    invariant held."""
    summary = FindingSimulation(seed).run()
    assert summary["games"] == 1 and int(str(summary["rounds"])) >= 1


@pytest.mark.timeout(300)
def test_a_stale_admit_seats_a_node_that_founded_a_table_meanwhile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """P-272: seed 1651 without the lobby's HELLOs again (P-271). Node 0 asks to join
    node 1's table, is admitted with first-seq 4 and crashes before it hears so; restarted,
    it founds a table of its own (numbers 1 to 4 there), then merges into node 1's with a
    fresh log: node 1 seats it from seq 4, which it had used elsewhere. Numbered above 4,
    its events waited for good; from 4, the lobby starts."""
    from dutchblitz.protocol.seat.standing import Standing

    monkeypatch.setattr(Standing, "lobby_hellos", lambda self, replica, at: [])
    lines: list[str] = []
    summary = FindingSimulation(1651, "single", lines.append).run()
    assert sum("founds table" in line for line in lines) >= 3  # node 0 founded twice
    assert summary["games"] == 1 and int(str(summary["rounds"])) >= 1


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    "seed",
    [
        # Founded anew at a larger epoch: alone in its lobby while its table played on.
        pytest.param(2, id="2-alone-at-a-larger-table"),
        # Merged back into its table with a fresh log: the lobby there, the game elsewhere.
        pytest.param(4, id="4-a-fresh-log-at-its-own-table"),
        # The same, and the fresh log took the others' events without its own: diverged.
        pytest.param(5, id="5-a-fresh-log-diverged"),
    ],
)
def test_a_node_restarted_into_a_game_and_cut_off_goes_back_to_its_log(seed: int) -> None:
    """P-205, P-286 (the nemesis's game 12, seed 2028: a node restarted into a game gave up
    its log at once and joined its table again with a fresh one; the next round was never
    dealt). Here one node crashes at 9 s, in the game, restarts 0.3 s later and is cut off
    from every other node for 6 s, longer than its 4 s wait for its table (P-205): it
    founds a table afresh, keeping the log it gave up aside. Once healed it hears its table
    again and goes back to that log, not to a fresh one, and the game ends everywhere."""
    lines: list[str] = []
    sim = FindingSimulation(seed, "none", lines.append)
    node = seed % sim.scenario.players
    crash, restart, heal = 9.0, 9.3, 15.3
    sim.scenario = replace(
        sim.scenario,
        crashes=((crash, restart, node),),
        partitions=((restart, heal, frozenset({node}), False),),
        heal_at=heal,
    )
    summary = sim.run()
    assert summary["games"] == 1 and int(str(summary["rounds"])) >= 1
    assert any(f"node {node}: nobody at table" in line for line in lines)  # gave up (P-205)
    assert sum(f"node {node} reloads table" in line for line in lines) >= 2  # and came back


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
