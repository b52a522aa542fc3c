"""How often Blitz!'s layout (spec/faceoff.md F-4 to F-6) makes face-offs, by self-play.

    python bench/faceoff_rate.py [--games 500] [--seed 1]

Plays ``games`` games at each table size from 3 to 8 seats, with a random shuffle and a
random die, every face-off won by one of its two players at random (a concession), nobody
leaving and no tie. Prints, per size, the face-offs per card turned (every card turned by a
turn, Duels included), how many of them came from a cascade (a loser's uncovered card) or
from the Duel pair, and the share of turned category cards that started at least one.
The answers play no part, so any pack gives the same figures. Last, the cost of one answer
check (``normalise.check``: normalise, then the repeat and list look-ups), in microseconds.
"""

from __future__ import annotations

import argparse
import random
import timeit
from dataclasses import dataclass
from pathlib import Path

from dutchblitz.protocol.games.faceoff import pack
from dutchblitz.protocol.games.faceoff.moves import TABLE, Concede, Roll, Turn
from dutchblitz.protocol.games.faceoff.normalise import check
from dutchblitz.protocol.games.faceoff.pack import DIE, is_duel, symbol_of
from dutchblitz.protocol.games.faceoff.rules import apply
from dutchblitz.protocol.games.faceoff.state import Game, Phase, new_game

FIXTURE = Path(__file__).resolve().parent.parent / "tests/games/faceoff/fixture_en.json"


@dataclass
class Tally:
    turned: int = 0
    category_turned: int = 0
    faceoffs: int = 0
    cascades: int = 0
    by_duel_pair: int = 0
    turns_with_faceoff: int = 0


def _count_kind(state: Game, tally: Tally, cascade: bool) -> None:
    duel = state.faceoff
    assert duel is not None
    tally.faceoffs += 1
    tally.cascades += cascade
    top_a, top_b = state.top(duel.a), state.top(duel.b)
    assert top_a is not None and top_b is not None
    tally.by_duel_pair += symbol_of(top_a) != symbol_of(top_b)


def _settle(state: Game, rng: random.Random, tally: Tally, cascade: bool) -> Game:
    while state.phase is Phase.FACEOFF:
        _count_kind(state, tally, cascade)
        assert state.faceoff is not None
        state = apply(state, rng.choice((state.faceoff.a, state.faceoff.b)), Concede()).state
        cascade = True
    return state


def play_one(book: pack.Pack, seats: int, rng: random.Random, tally: Tally) -> None:
    state = new_game(book, seats, first=rng.randrange(seats))
    cards = sorted(state.unseen)
    rng.shuffle(cards)
    piles = [cards[: state.hidden[0]], cards[state.hidden[0] :]]
    while state.phase is not Phase.OVER:
        pile = rng.choice([p for p in (0, 1) if piles[p]])
        card = piles[pile].pop(0)
        before = state.faceoffs
        state = apply(state, state.turn, Turn(pile, card)).state
        tally.turned += 1
        while state.phase is Phase.ROLL:
            state = apply(state, TABLE, Roll(rng.randrange(len(DIE)))).state
        if not is_duel(card):
            tally.category_turned += 1
        state = _settle(state, rng, tally, cascade=False)
        tally.turns_with_faceoff += state.faceoffs > before and not is_duel(card)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pack", type=Path, default=FIXTURE)
    args = parser.parse_args()
    book = pack.load(args.pack)
    rng = random.Random(args.seed)
    print("seats  face-offs/card  from cascade  from Duel pair  category cards starting one")
    for seats in range(3, 9):
        tally = Tally()
        for _ in range(args.games):
            play_one(book, seats, rng, tally)
        print(
            f"{seats:>5}  {tally.faceoffs / tally.turned:>14.2f}"
            f"  {tally.cascades / tally.faceoffs:>12.0%}"
            f"  {tally.by_duel_pair / tally.faceoffs:>14.0%}"
            f"  {tally.turns_with_faceoff / tally.category_turned:>27.0%}"
        )
    category, said = book.category_of(1), {"abba", "queen"}
    calls = 20000
    cost = timeit.timeit(lambda: check("The Beatles!", category, said), number=calls)
    print(f"answer check: {cost / calls * 1e6:.1f} us a call")


if __name__ == "__main__":
    main()
