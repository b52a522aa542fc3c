"""Bot players: they choose moves from what their own node knows, like a person would.

A bot seat is an ordinary peer: it sees the optimistic table of its own node and
sends moves through the same protocol. Levels differ in reaction time and in
how well they choose.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from dutchblitz.protocol.moves import (
    CentrePlay,
    Move,
    PostPlay,
    Source,
    StuckCall,
    WoodFlip,
    WoodTurn,
)
from dutchblitz.protocol.plays import legal_moves
from dutchblitz.protocol.state import Table


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    think: tuple[float, float]  # seconds between moves, low and high
    skill: float  # chance of taking the best move rather than any legal one
    # Moves on its own cards alone (Post plays, Wood flips and turns) it may have on their
    # way at once; a centre play or stuck call always waits until nothing else is.
    in_flight: int = 1


LEVELS = {
    "easy": Level("easy", (0.8, 1.6), 0.4),
    "normal": Level("normal", (0.35, 0.8), 0.8),
    "fast": Level("fast", (0.12, 0.3), 1.0),
    "flat-out": Level("flat-out", (0.0, 0.0), 1.0, in_flight=4),
}


def think_time(level: Level, rng: random.Random) -> float:
    low, high = level.think
    return low if high <= low else rng.uniform(low, high)


@dataclass(slots=True)
class Bot:
    """One bot seat's memory: how long it has flipped without anything changing."""

    level: Level
    rng: random.Random
    flips: int = 0
    seen_centre: int = -1

    def choose(self, table: Table, seat: int) -> Move | None:
        """A move for ``seat``, or None when the round is over or the seat is out."""
        if table.areas[seat].stuck:
            return None  # wait for a centre play or the stalemate rotation
        moves = legal_moves(table, seat)
        if not moves:
            return None
        centre = sum(len(pile.cards) for pile in table.piles)
        if centre != self.seen_centre:
            self.seen_centre, self.flips = centre, 0
        area = table.areas[seat]
        cycle = (len(area.hand) + len(area.wood)) // 3 + 2
        stuck = [m for m in moves if isinstance(m, StuckCall)]
        if stuck and self.flips > cycle:
            return stuck[0]  # a whole pass through the hand found nothing: say so
        if self.rng.random() < self.level.skill:
            move = max(moves, key=_worth)
        else:
            move = self.rng.choice(moves)
        if isinstance(move, WoodFlip | WoodTurn):
            self.flips += 1
        elif isinstance(move, StuckCall):
            pass
        else:
            self.flips = 0
        return move


def _worth(move: Move) -> int:
    """Blitz cards first (they cost points), then Post, then Wood; flip before stuck."""
    if isinstance(move, CentrePlay):
        return {Source.BLITZ: 50, Source.POST: 40, Source.WOOD: 30}[move.source]
    if isinstance(move, PostPlay):
        return 20 if move.source == Source.BLITZ else 10
    if isinstance(move, WoodFlip):
        return 5
    if isinstance(move, StuckCall):
        return 0
    return 4  # turning the Wood pile over
