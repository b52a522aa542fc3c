"""The seeded simulator playing Blitz! (word face-offs): four bot seats, the simulator's
fault plans drawn as for any table, packed into the first seconds of play. Blitz!'s
openings are hashes, not group operations, so no stand-in group is needed.

    python -m tests.rigs.faceoffsim --seeds 300
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from dutchblitz.protocol.games.blitz.bots import LEVELS

from tests.rigs.sim import InvariantViolated, Scenario, Simulation

PLAYERS = 4
SQUEEZE = 0.3  # every fault's time and length, scaled
HEAL_AT = 8.0  # every fault is over by then (the latest, drawn at 20 s, lasts 6 s at most)
THINK = (0.02, 0.06)  # a bot's wait between looks at the table, in seconds
MAX_WORKERS = 4  # processes for a sweep, at most


def squeezed(scenario: Scenario) -> Scenario:
    """The same faults, sooner and shorter (``SQUEEZE``), on four seats (a fault drawn for a
    fifth seat falls on the first)."""
    sides = [frozenset(i % PLAYERS for i in side) for _, _, side, _ in scenario.partitions]
    return replace(
        scenario,
        partitions=tuple(
            (start * SQUEEZE, end * SQUEEZE, side, one_way)
            for (start, end, _, one_way), side in zip(scenario.partitions, sides, strict=True)
            if len(side) < PLAYERS
        ),
        crashes=tuple(
            (at * SQUEEZE, back * SQUEEZE, node % PLAYERS) for at, back, node in scenario.crashes
        ),
        pauses=tuple(
            (at * SQUEEZE, back * SQUEEZE, node % PLAYERS) for at, back, node in scenario.pauses
        ),
        heal_at=min(scenario.heal_at, HEAL_AT),
    )


class FaceoffSimulation(Simulation):
    """One seeded run of a Blitz! game between four bots."""

    def __init__(
        self, seed: int, faults: str = "single", trace: Callable[[str], None] | None = None
    ) -> None:
        super().__init__(seed, faults, trace, players=PLAYERS, game="faceoff")
        self.scenario = squeezed(self.scenario)
        self.think = replace(LEVELS["fast"], think=THINK)


def _failure(job: tuple[int, str]) -> tuple[int, str] | None:
    seed, faults = job
    try:
        FaceoffSimulation(seed, faults).run()
    except InvariantViolated as error:
        return seed, str(error)
    return None


def cores() -> int:
    """The processor cores this process may use, at most ``MAX_WORKERS``."""
    return max(1, min(MAX_WORKERS, len(os.sched_getaffinity(0))))


def run_seeds(
    seeds: Sequence[int], faults: str = "single", workers: int = 1
) -> list[tuple[int, str]]:
    """Every seed's failure, if any; on ``workers`` processes (each
    seed is a pure function of its number, so where it runs changes nothing)."""
    jobs = [(seed, faults) for seed in seeds]
    if workers <= 1 or len(jobs) <= 1:
        found = [_failure(job) for job in jobs]
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            found = pool.map(_failure, jobs, chunksize=1)
    return [failure for failure in found if failure is not None]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.rigs.faceoffsim")
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--faults", choices=("none", "single", "overlapping"), default="single")
    parser.add_argument("--workers", type=int, default=cores())
    args = parser.parse_args(argv)
    started = time.perf_counter()
    failures = run_seeds(range(args.first, args.first + args.seeds), args.faults, args.workers)
    for seed, error in failures:
        print(f"seed {seed}: FAILED: {error}")
    print(f"faceoff sim: {args.seeds} seeds in {time.perf_counter() - started:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
