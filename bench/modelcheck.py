"""Model checker throughput: distinct states explored per second, and in all.

A deeper bounded search of a table of three than the suite's (tests/sim/test_modelcheck.py):
every interleaving of deliveries, one loss, one duplicate, timer ticks and an event from
each member, to the depth given; then the aimed search of the withdrawal race.

    python bench/modelcheck.py             # depth 5: 35445 states, about 7 minutes
    python bench/modelcheck.py --quick     # depth 4
    python bench/modelcheck.py --depth 6 --limit 200000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# The test rigs (tests/rigs/) live in the repository, not in the installed package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.rigs.modelcheck import RACE_BOUNDS, Bounds, quiet_table, search, withdrawal_race


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a short run (depth 4)")
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--limit", type=int, default=None, help="stop after this many states")
    args = parser.parse_args()
    depth = 4 if args.quick else args.depth
    bounds = Bounds(depth=depth, losses=1, duplicates=1, ticks=2, submits=1)
    quiet = search(quiet_table(3), bounds, args.limit)
    race = search(withdrawal_race(), RACE_BOUNDS, args.limit)
    print(f"{'search':<34}{'states':>9}{'states/s':>10}  result")
    for name, report in ((f"quiet table of 3, depth {depth}", quiet), ("withdrawal race", race)):
        rate = report.states / report.seconds if report.seconds else 0.0
        result = report.violation or "no violation"
        print(f"{name:<34}{report.states:>9}{rate:>10.0f}  {result}")
    print(f"total {quiet.states + race.states} distinct states")
    return 0


if __name__ == "__main__":
    sys.exit(main())
