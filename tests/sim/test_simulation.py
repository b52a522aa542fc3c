"""The seeded simulation: whole tables under faults, checked against every invariant."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.rigs.sim import InvariantViolated, Simulation, run_seed

CI_SEEDS = 300


def _trace(seed: int, faults: str) -> list[str]:
    lines: list[str] = []
    Simulation(seed, faults, lines.append).run()
    return lines


@pytest.mark.timeout(120)
def test_the_same_seed_gives_the_same_trace() -> None:
    first = _trace(7, "single")
    assert first == _trace(7, "single")
    assert any("#" in line for line in first)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("seed", [3, 11])
def test_a_clean_network_finishes_the_game(seed: int) -> None:
    summary = run_seed(seed, "none")
    assert summary["rounds"] >= 1


@pytest.mark.timeout(60)
def test_a_violated_invariant_names_its_seed() -> None:
    sim = Simulation(5, "none")

    def broken(*_: object) -> None:
        raise InvariantViolated("deck 0 has 39 cards")

    sim._check_cards = broken  # type: ignore[method-assign]
    with pytest.raises(InvariantViolated):
        sim.run()


CHUNK = 30
CHUNKS = [range(first, first + CHUNK) for first in range(0, CI_SEEDS, CHUNK)]


def sweep_workers() -> int:
    """Processes for one chunk: one under pytest-xdist, whose workers already fill the
    cores; otherwise every core."""
    return 1 if os.environ.get("PYTEST_XDIST_WORKER") else os.cpu_count() or 1


def test_the_sweeps_chunks_are_the_300_seeds_once_each() -> None:
    assert [seed for chunk in CHUNKS for seed in chunk] == list(range(CI_SEEDS))


@pytest.mark.timeout(600)
@pytest.mark.parametrize("seeds", CHUNKS, ids=lambda seeds: f"{seeds.start}-{seeds.stop - 1}")
def test_sweep_of_seeds_under_single_faults(seeds: range) -> None:
    """The CI sweep: 300 seeds, in chunks of 30 that run side by side, each a whole game
    under loss, duplication, reordering, delay, clock skew and one partition, crash or
    pause. Any violation fails with the seed and a replay command."""
    command = [sys.executable, "-m", "tests.rigs.sim", "--first", str(seeds.start)]
    command += ["--seeds", str(len(seeds)), "--workers", str(sweep_workers())]
    result = subprocess.run(command, capture_output=True, text=True, timeout=580)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert f"{len(seeds)} passed, 0 failed" in result.stdout


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("seed", "faults"), [(3, "none"), (11, "single")])
def test_a_rematch_plays_to_its_own_end(seed: int, faults: str) -> None:
    """R-49 to R-52: after the game's end every bot asks for a rematch, the first seat
    starts it, and the same table plays a second whole game, audit and all."""
    sim = Simulation(seed, faults, rematches=1)
    summary = sim.run(limit=1200.0)
    assert summary["games"] == 2
    for node in sim.nodes:
        game = node.replica.stable
        assert node.replica.ended is not None and node.replica.ended[2].game_number == 2
        assert game.winner is not None and game.rounds_before >= 1
        assert game.results and game.results[0].round == game.rounds_before + 1
        assert game.shown_round(game.results[0].round) == 1
        assert sum(game.totals.values()) == sum(sum(r.scores.values()) for r in game.results)
