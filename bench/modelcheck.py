"""Model checker throughput: distinct states explored per second, and in all.

A deeper bounded search of a table of three than the suite's (tests/sim/test_modelcheck.py):
every interleaving of deliveries, one loss, one duplicate, timer ticks and an event from
each member, to the depth given; then the aimed search of the withdrawal race; then the
overlapping removals of a table of five: the aimed search under the cut rules before P-268
and P-269 (until it finds the break), the same search under the current rules (to
``--overlap-limit`` states), and random walks from the same start under the current rules
(which find the break that Known limits, spec/protocol.md section 12, leaves).

    python bench/modelcheck.py             # depth 5: 35445 states, about 7 minutes
    python bench/modelcheck.py --quick     # depth 4
    python bench/modelcheck.py --depth 6 --limit 200000
    python bench/modelcheck.py --overlap-only --overlap-limit 20000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dutchblitz.protocol.replica.liveness import Liveness

# The test rigs (tests/rigs/) live in the repository, not in the installed package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.rigs.modelcheck import (
    OVERLAP_BOUNDS,
    RACE_BOUNDS,
    Bounds,
    Report,
    overlapping_removals,
    quiet_table,
    search,
    walks,
    withdrawal_race,
)


def overlap_runs(limit: int, walk_count: int) -> list[tuple[str, Report]]:
    """The overlapping removals: old cut rules, current rules, current rules at random."""
    start = overlapping_removals()
    Liveness.learns_cuts = False
    try:
        old = search(start, OVERLAP_BOUNDS, limit)
    finally:
        Liveness.learns_cuts = True
    return [
        ("overlap, old cut rules", old),
        ("overlap, current rules", search(start, OVERLAP_BOUNDS, limit)),
        (f"overlap, {walk_count} walks, seed 0", walks(start, OVERLAP_BOUNDS, walk_count, 0)),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a short run (depth 4)")
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--limit", type=int, default=None, help="stop after this many states")
    parser.add_argument("--overlap-only", action="store_true", help="only the overlapping removals")
    parser.add_argument("--overlap-limit", type=int, default=5000, help="states per overlap search")
    parser.add_argument("--walks", type=int, default=200, help="random walks of the overlap")
    args = parser.parse_args()
    depth = 4 if args.quick else args.depth
    runs: list[tuple[str, Report]] = []
    if not args.overlap_only:
        bounds = Bounds(depth=depth, losses=1, duplicates=1, ticks=2, submits=1)
        runs.append(
            (f"quiet table of 3, depth {depth}", search(quiet_table(3), bounds, args.limit))
        )
        runs.append(("withdrawal race", search(withdrawal_race(), RACE_BOUNDS, args.limit)))
    runs += overlap_runs(args.overlap_limit, args.walks)
    print(f"{'search':<34}{'states':>9}{'states/s':>10}  result")
    for name, report in runs:
        rate = report.states / report.seconds if report.seconds else 0.0
        result = report.violation or "no violation"
        print(f"{name:<34}{report.states:>9}{rate:>10.0f}  {result}")
    print(f"total {sum(report.states for _, report in runs)} distinct states")
    return 0


if __name__ == "__main__":
    sys.exit(main())
