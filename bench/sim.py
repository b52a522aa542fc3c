"""Simulator throughput: seeds per second, with faults and without.

The baseline is the same seeds on a clean network, measured in the same run, so the
figure shows what fault handling (repair, suspicion, cuts, rejoins) costs.

    python bench/sim.py            # 60 seeds each way, one process
    python bench/sim.py --quick    # 12 seeds each way
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

# The test rigs (tests/rigs/) live in the repository, not in the installed package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.rigs.sim import run_seed


def _rate(seeds: range, faults: str) -> tuple[float, int]:
    started = time.perf_counter()
    events = 0
    for seed in seeds:
        events += int(str(run_seed(seed, faults)["events"]))
    elapsed = time.perf_counter() - started
    return len(seeds) / elapsed, events


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a short run")
    args = parser.parse_args()
    seeds = range(12 if args.quick else 60)
    clean_rate, clean_events = _rate(seeds, "none")
    fault_rate, fault_events = _rate(seeds, "single")
    print(f"{'run':<28}{'seeds/s':>10}{'events':>10}")
    print(f"{'clean network (baseline)':<28}{clean_rate:>10.2f}{clean_events:>10}")
    print(f"{'single faults (CI sweep)':<28}{fault_rate:>10.2f}{fault_events:>10}")
    print(f"fault handling costs {clean_rate / fault_rate:.2f}x the clean run per seed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
