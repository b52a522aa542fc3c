"""How fast the rules engine applies moves, against baselines measured in the same run.

    PYTHONPATH=... python bench/engine.py [--quick] [--players 4] [--rounds 300] [--seed 1]

Three figures:

* self-play: random legal bots play whole rounds (tests/rigs/selfplay.py), so the figure
  includes the bots' own work of listing legal moves;
* apply alone: the moves of those rounds replayed with ``rules.apply`` on fresh
  deals, dealt before the clock starts: the engine's own cost per move;
* baselines: a bare Python loop over the same moves, and ``Table.copy()``, the cost
  of duplicating a table, to read the other figures against this machine.

The goal for the pure engine is at least 50,000 moves applied per second on one core.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from dutchblitz.protocol.games.blitz import rules

# The test rigs (tests/rigs/) live in the repository, not in the installed package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.rigs.selfplay import PlayedRound, play_rounds, report

GOAL_MOVES_PER_SECOND = 50_000


def best_of(repeats: int, timed: Callable[[], float]) -> float:
    """The fastest of several runs: the one least disturbed by the rest of the machine."""
    return min(timed() for _ in range(repeats))


def replay_seconds(played: list[PlayedRound]) -> float:
    """Seconds to apply every move of ``played`` on fresh deals, dealing not counted."""
    tables = [one.fresh_deal() for one in played]
    apply = rules.apply
    started = time.perf_counter()
    for one, table in zip(played, tables, strict=True):
        for move in one.moves:
            apply(table, move)
    return time.perf_counter() - started


def bare_loop_seconds(played: list[PlayedRound]) -> float:
    """Seconds to walk the same moves and call a function that does nothing."""

    def nothing(table: object, move: object) -> None:
        return None

    started = time.perf_counter()
    for one in played:
        for move in one.moves:
            nothing(one, move)
    return time.perf_counter() - started


def copy_seconds(played: list[PlayedRound], copies: int) -> float:
    table = played[0].fresh_deal()
    started = time.perf_counter()
    for _ in range(copies):
        table.copy()
    return time.perf_counter() - started


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bench/engine.py", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few rounds, for a smoke test")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 9))
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    rounds, repeats = (20, 2) if args.quick else (args.rounds, 5)
    played, totals = play_rounds(rounds, args.players, args.seed)
    moves = totals.moves
    applying = best_of(repeats, lambda: replay_seconds(played))
    looping = best_of(repeats, lambda: bare_loop_seconds(played))
    copying = best_of(repeats, lambda: copy_seconds(played, 2_000))
    rate = moves / applying
    print(f"engine bench: {args.players} players, {rounds} rounds, seed {args.seed}")
    print("self-play    " + report(totals).replace("\n", "\n             "))
    print(f"apply alone  {rate:,.0f} moves/s ({moves:,} moves replayed on fresh deals)")
    print(f"baseline     bare loop over the same moves: {moves / looping:,.0f} moves/s")
    print(f"baseline     Table.copy(): {2_000 / copying:,.0f} copies/s")
    verdict = "met" if rate >= GOAL_MOVES_PER_SECOND else "NOT met"
    print(f"goal         {GOAL_MOVES_PER_SECOND:,} moves/s for apply alone: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
