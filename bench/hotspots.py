"""Where a flat-out node spends its time: cProfile of every node of one table.

    python bench/hotspots.py [--nodes 4] [--seconds 8] [--top 25] [--sort tottime]

Runs a table of flat-out bots as ``bench/commit_latency.py`` does (real node processes on
loopback), each node under cProfile in its own thread (the event loop and all the Python
work; ZeroMQ's I/O threads are not seen), adds the nodes' profiles together and prints the
top entries, with the share of each in the total.
"""

from __future__ import annotations

import argparse
import os
import pstats
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import commit_latency as processes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/hotspots.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=8.0, help="play time")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--sort", default="tottime", help="a pstats key: tottime, cumulative")
    parser.add_argument("--save", type=Path, help="keep the summed profile here (pstats)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        os.environ["BLITZ_BENCH_PROFILE"] = folder
        try:
            run = processes.table_run(
                args.nodes,
                argparse.Namespace(
                    seconds=args.seconds,
                    level="flat-out",
                    restart_after=None,
                    restart_down=0.5,
                    target=1000,
                ),
                [],
            )
        finally:
            del os.environ["BLITZ_BENCH_PROFILE"]
        files = sorted(str(p) for p in Path(folder).glob("worker*.prof"))
        if not files:
            print("no profile came back", file=sys.stderr)
            return 1
        stats = pstats.Stats(*files)
        if args.save:
            stats.dump_stats(args.save)
    moves = len(run["results"][-1]["delivered"])
    print(f"{args.nodes} flat-out nodes, {args.seconds:g} s of play, {moves} moves final")
    if run["cpu_per_move"]:
        cpu = run["cpu_per_move"] * 1e3
        print(f"processor ms per final move, all nodes, under the profiler: {cpu:.2f}")
    stats.sort_stats(args.sort).print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
