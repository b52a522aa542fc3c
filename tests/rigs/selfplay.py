"""Self-play: random legal bots play whole rounds in one process, with no network.

Play is simultaneous, as at a real table: on every tick each player who is not
waiting on a stuck call picks a random legal move from the table as it stands,
then the moves of that tick are applied in a random order. A move decided on a
table that has since changed can lose a race or fall back to another pile,
exactly as a late message would on the LAN. All randomness comes from one
``random.Random(seed)``, so a seed replays the same rounds.

    python -m tests.rigs.selfplay --rounds 200 --players 4 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from dutchblitz.protocol.games.blitz import plays, rules
from dutchblitz.protocol.games.blitz.cards import Card, new_deck
from dutchblitz.protocol.games.blitz.moves import Move
from dutchblitz.protocol.games.blitz.state import Table, deal

# A round ends by Blitz or as a dead round long before this; reaching it is a bug.
MAX_TICKS = 100_000


@dataclass(frozen=True, slots=True)
class PlayedRound:
    """One whole round: the deal, every move in the order applied, and the end."""

    orders: dict[int, list[Card]]
    post_stacking: bool
    moves: list[Move]
    refused: int
    table: Table

    def fresh_deal(self) -> Table:
        return deal(list(self.orders), self.orders, post_stacking=self.post_stacking)


@dataclass(slots=True)
class Totals:
    rounds: int = 0
    moves: int = 0
    refused: int = 0
    blitzes: int = 0
    seconds: float = 0.0

    def add(self, played: PlayedRound) -> None:
        self.rounds += 1
        self.moves += len(played.moves)
        self.refused += played.refused
        self.blitzes += played.table.blitz_by is not None


def shuffled_orders(players: int, rng: random.Random) -> dict[int, list[Card]]:
    """Each seat's own deck, shuffled: the one place where chance enters a round."""
    orders: dict[int, list[Card]] = {}
    for seat in range(players):
        order = new_deck(seat)
        rng.shuffle(order)
        orders[seat] = order
    return orders


def choose_move(table: Table, seat: int, rng: random.Random) -> Move | None:
    """A random legal move, or None for a player waiting on their stuck call.

    A stuck player has nothing for the centre until the centre changes or a
    stalemate turns the hands, so waiting is all a sensible player would do.
    """
    area = table.areas[seat]
    if area.stuck or not area.active:
        return None
    moves = plays.legal_moves(table, seat)
    return rng.choice(moves) if moves else None


def play_round(players: int, rng: random.Random, *, post_stacking: bool = True) -> PlayedRound:
    orders = shuffled_orders(players, rng)
    table = deal(range(players), orders, post_stacking=post_stacking)
    applied: list[Move] = []
    refused = 0
    for _ in range(MAX_TICKS):
        if table.over:
            return PlayedRound(orders, post_stacking, applied, refused, table)
        tick = [choose_move(table, seat, rng) for seat in table.seats]
        decided = [move for move in tick if move is not None]
        rng.shuffle(decided)
        for move in decided:
            applied.append(move)
            refused += rules.apply(table, move) is not None
    raise RuntimeError(f"a round of {players} players did not end in {MAX_TICKS} ticks")


def replay(played: PlayedRound) -> Table:
    """Apply a played round's moves again on a fresh deal: the same table comes out."""
    table = played.fresh_deal()
    for move in played.moves:
        rules.apply(table, move)
    return table


def play_rounds(
    rounds: int, players: int, seed: int, *, post_stacking: bool = True
) -> tuple[list[PlayedRound], Totals]:
    """Play ``rounds`` whole rounds from one seed; the rounds, and their totals timed."""
    rng = random.Random(seed)
    played: list[PlayedRound] = []
    totals = Totals()
    started = time.perf_counter()
    for _ in range(rounds):
        one = play_round(players, rng, post_stacking=post_stacking)
        played.append(one)
        totals.add(one)
    totals.seconds = time.perf_counter() - started
    return played, totals


def report(totals: Totals) -> str:
    seconds = max(totals.seconds, 1e-9)
    return "\n".join(
        [
            f"rounds: {totals.rounds} in {totals.seconds:.2f} s, "
            f"{totals.rounds / seconds:,.1f} rounds/s "
            f"({totals.blitzes} ended by Blitz, {totals.rounds - totals.blitzes} dead)",
            f"moves applied: {totals.moves:,}, {totals.moves / seconds:,.0f} moves/s "
            f"({totals.refused:,} refused), bots' choices included",
        ]
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tests.rigs.selfplay",
        description="Random legal bots play whole rounds in-process, with no network.",
    )
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--players", type=int, default=4, choices=range(2, 9))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-post-stacking", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    _, totals = play_rounds(
        args.rounds, args.players, args.seed, post_stacking=not args.no_post_stacking
    )
    print(report(totals))
    return 0


if __name__ == "__main__":
    sys.exit(main())
