"""Bots against bots in one process: whole rounds on one table, on a virtual clock.

Each seat is a ``Bot`` of protocol/games/blitz/bots.py with its level's think time. A bot decides on
the table as its own node would see it (``redact``: other players' hidden cards
unknown), sends one move at a time, and its move reaches the table after a small
latency, so a move decided on a table that has since changed can lose a race, as on
the LAN. All randomness comes from one ``random.Random``, so a seed replays a match.
The network and the fair deal are left out: bench/selfplay_report.py uses this to
measure how well the bots play, not how the protocol behaves (tests/rigs/sim.py does that).
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Sequence
from dataclasses import dataclass

from dutchblitz.protocol.games.blitz import rules
from dutchblitz.protocol.games.blitz.bots import Bot, Level, think_time
from dutchblitz.protocol.games.blitz.moves import Move
from dutchblitz.protocol.games.blitz.scoring import round_scores
from dutchblitz.protocol.games.blitz.state import deal, redact

from tests.rigs.selfplay import shuffled_orders

# Seconds from a bot's decision to its move's place on the table: a LAN's commit latency.
LATENCY = (0.004, 0.02)
# A bot with nothing to do looks again after this long at the least (a flat-out bot has no
# think time, and in a node it waits for the next change of the table).
IDLE = 0.02
# A round ends by Blitz or as a dead round long before this; reaching it is a bug.
MAX_DECISIONS = 200_000


@dataclass(frozen=True, slots=True)
class MatchRound:
    """How one round ended: each seat's score, who called Blitz, and how it went."""

    scores: dict[int, int]
    blitz_by: int | None
    stalemates: int
    moves: int
    seconds: float  # virtual seconds of play

    @property
    def dead(self) -> bool:
        return self.blitz_by is None


def play_match_round(
    levels: Sequence[Level], rng: random.Random, *, post_stacking: bool = True
) -> MatchRound:
    """One round with seat ``i`` played by a bot of ``levels[i]``."""
    table = deal(range(len(levels)), shuffled_orders(len(levels), rng), post_stacking=post_stacking)
    bots = [Bot(level, random.Random(rng.random())) for level in levels]
    # (time, tie-break, seat, move on its way or None for a decision)
    queue: list[tuple[float, int, int, Move | None]] = []
    counter = 0

    def at(when: float, seat: int, move: Move | None) -> None:
        nonlocal counter
        counter += 1
        heapq.heappush(queue, (when, counter, seat, move))

    for seat, level in enumerate(levels):
        at(think_time(level, bots[seat].rng), seat, None)
    moves, now = 0, 0.0
    for _ in range(MAX_DECISIONS):
        if table.over:
            return MatchRound(round_scores(table), table.blitz_by, table.stalemates, moves, now)
        now, _, seat, move = heapq.heappop(queue)
        bot = bots[seat]
        pause = think_time(bot.level, bot.rng)
        if move is not None:
            rules.apply(table, move)
            moves += 1
            at(now + pause, seat, None)
            continue
        chosen = bot.choose(redact(table, seat), seat)
        if chosen is None:
            at(now + max(pause, IDLE), seat, None)
        else:
            at(now + rng.uniform(*LATENCY), seat, chosen)
    raise RuntimeError(f"a round of {len(levels)} bots did not end in {MAX_DECISIONS} decisions")
