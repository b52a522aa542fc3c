"""The self-play report: how well the bots play, against the goals in docs/performance.md.

    python bench/selfplay_report.py                # the full report (well under a minute)
    python bench/selfplay_report.py --quick        # a few rounds each, to see that it runs
    python bench/selfplay_report.py --json out.json

Bots play whole rounds against bots in one process (tests/rigs/botmatch.py): each decides
on what its own node would see, one move in flight, on a virtual clock with a LAN's
latency. Two figures:

* dead rounds: rounds that end after 30 stalemates with no Blitz, at tables of 2, 3
  and 4 `fast` bots. Goal: at most 2% with 2 bots, at most 1% with 3 or 4.
* levels: each level against the level below, two players, both at the same think
  time (that of `fast`) and one move in flight, seats swapped every round. A round is
  won by the higher round score; a tie is not a win. Goal: at least 60% won.

Every figure comes from one seed, so a run repeats exactly.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from dutchblitz.protocol.games.blitz.bots import LEVELS, Level

# The test rigs (tests/rigs/) live in the repository, not in the installed package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.rigs.botmatch import play_match_round

DEAD_GOALS = {2: 0.02, 3: 0.01, 4: 0.01}
WIN_GOAL = 0.60
LADDER = ("easy", "normal", "fast", "flat-out")


@dataclass(frozen=True, slots=True)
class DeadRounds:
    players: int
    post_stacking: bool
    rounds: int
    dead: int
    stalemates: int

    @property
    def share(self) -> float:
        return self.dead / self.rounds


@dataclass(frozen=True, slots=True)
class Duel:
    higher: str
    lower: str
    rounds: int
    wins: int
    ties: int

    @property
    def share(self) -> float:
        return self.wins / self.rounds


def dead_rounds(players: int, rounds: int, seed: int, post_stacking: bool = True) -> DeadRounds:
    rng = random.Random(f"dead-{players}-{post_stacking}-{seed}")
    levels = [LEVELS["fast"]] * players
    played = [play_match_round(levels, rng, post_stacking=post_stacking) for _ in range(rounds)]
    dead = sum(one.dead for one in played)
    return DeadRounds(players, post_stacking, rounds, dead, sum(p.stalemates for p in played))


def at_speed(level: Level, speed: Level) -> Level:
    """The level's play at another level's think time, one move in flight."""
    return replace(level, think=speed.think, in_flight=1)


def duel(higher: str, lower: str, rounds: int, seed: int, speed: str = "fast") -> Duel:
    """``higher`` against ``lower``, seats swapped every round; rounds won by ``higher``."""
    rng = random.Random(f"duel-{higher}-{lower}-{seed}")
    pace = LEVELS[speed]
    pair = (at_speed(LEVELS[higher], pace), at_speed(LEVELS[lower], pace))
    wins = ties = 0
    for number in range(rounds):
        seat = number % 2  # the higher level's seat this round
        levels = pair if seat == 0 else pair[::-1]
        scores = play_match_round(levels, rng).scores
        ours, theirs = scores[seat], scores[1 - seat]
        wins += ours > theirs
        ties += ours == theirs
    return Duel(higher, lower, rounds, wins, ties)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few rounds each")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dead-rounds", type=int, default=300, help="rounds per table size")
    parser.add_argument("--duel-rounds", type=int, default=400, help="rounds per pair of levels")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    dead_count = 4 if args.quick else args.dead_rounds
    duel_count = 4 if args.quick else args.duel_rounds
    started = time.perf_counter()
    missed = 0
    print(f"dead rounds, `fast` bots, {dead_count} rounds per table")
    print(f"  {'players':<9}{'post stacking':<15}{'dead':>6}{'share':>8}{'goal':>8}")
    tables = [dead_rounds(n, dead_count, args.seed) for n in DEAD_GOALS]
    tables.append(dead_rounds(2, dead_count, args.seed, post_stacking=False))
    for row in tables:
        goal = DEAD_GOALS[row.players] if row.post_stacking else None
        met = goal is None or row.share <= goal
        missed += not met
        goal_text = "-" if goal is None else f"<={goal:.0%}"
        print(
            f"  {row.players:<9}{'on' if row.post_stacking else 'off':<15}{row.dead:>6}"
            f"{row.share:>8.1%}{goal_text:>8}{'' if met else '  MISSED'}"
        )
    print(f"levels, each against the one below at the think time of `fast`, {duel_count} rounds")
    print(f"  {'level':<20}{'won':>6}{'tied':>6}{'share':>8}{'goal':>8}")
    duels = [duel(LADDER[i + 1], LADDER[i], duel_count, args.seed) for i in range(len(LADDER) - 1)]
    for pair in duels:
        met = pair.share >= WIN_GOAL
        missed += not met
        print(
            f"  {pair.higher + ' v ' + pair.lower:<20}{pair.wins:>6}{pair.ties:>6}"
            f"{pair.share:>8.1%}{'>=' + format(WIN_GOAL, '.0%'):>8}{'' if met else '  MISSED'}"
        )
    elapsed = time.perf_counter() - started
    print(f"{'every goal met' if not missed else f'{missed} goals missed'} in {elapsed:.1f} s")
    if args.json:
        figures = {
            "dead_rounds": [
                {"players": r.players, "post_stacking": r.post_stacking, "rounds": r.rounds,
                 "dead": r.dead, "stalemates": r.stalemates}
                for r in tables
            ],
            "duels": [
                {"higher": d.higher, "lower": d.lower, "rounds": d.rounds, "wins": d.wins,
                 "ties": d.ties}
                for d in duels
            ],
        }  # fmt: skip
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=2)
    return 0 if args.quick or not missed else 1


if __name__ == "__main__":
    sys.exit(main())
