"""A full table for Blitz!'s tests: the fixture packs, a dealer that plays the table's
hidden-card service (it alone knows the piles' order), states built to order, and random
legal play."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from pathlib import Path

from dutchblitz.protocol.games.faceoff import pack
from dutchblitz.protocol.games.faceoff.moves import (
    TABLE,
    Answer,
    Claim,
    Concede,
    Contest,
    Leave,
    Move,
    Outcome,
    Roll,
    Tie,
    Turn,
    Vote,
    WindowClosed,
)
from dutchblitz.protocol.games.faceoff.rules import apply
from dutchblitz.protocol.games.faceoff.state import Game, Mode, Phase, new_game

HERE = Path(__file__).resolve().parent
EN = pack.load(HERE / "fixture_en.json")
FR = pack.load(HERE / "fixture_fr.json")


def ok(state: Game, seat: int, move: Move) -> Outcome:
    outcome = apply(state, seat, move)
    assert outcome.refusal is None, outcome.refusal
    return outcome


def refused(state: Game, seat: int, move: Move) -> str:
    outcome = apply(state, seat, move)
    assert outcome.refusal is not None, f"{move} by {seat} was accepted"
    assert outcome.state is state
    return outcome.refusal.reason.value


def play(state: Game, *moves: tuple[int, Move]) -> Game:
    for seat, move in moves:
        state = ok(state, seat, move).state
    return state


def card(symbol: int, nth: int = 0) -> int:
    """The ``nth`` category card showing ``symbol``."""
    return symbol + 8 * nth


def laid(
    seats: int, tops: dict[int, list[int]], mode: Mode = Mode.TYPED, **changes: object
) -> Game:
    """A game whose play piles hold ``tops`` (bottom first), those cards out of the piles,
    and nobody in a face-off: the test's starting point."""
    state = new_game(EN, seats, mode=mode)
    used = [c for pile in tops.values() for c in pile]
    play_piles = tuple(tuple(tops.get(s, [])) for s in range(seats))
    hidden0 = state.hidden[0] - (len(used) + 1) // 2
    hidden = (hidden0, len(state.unseen) - len(used) - hidden0)
    state = replace(state, play=play_piles, unseen=state.unseen - set(used), hidden=hidden)
    return replace(state, **changes)  # type: ignore[arg-type]


@dataclass
class Dealer:
    """The hidden-card service: the shuffled cards of each pile, top first; it opens the
    top card of a pile when a player turns it."""

    piles: tuple[list[int], list[int]]
    dealt: list[int] = field(default_factory=lambda: [0, 0])

    @classmethod
    def shuffled(cls, state: Game, rng: random.Random) -> Dealer:
        cards = sorted(state.unseen)
        rng.shuffle(cards)
        first = state.hidden[0]
        return cls((cards[:first], cards[first:]))

    def top(self, state: Game, pile: int) -> int | None:
        if state.hidden[pile]:
            return self.piles[pile][len(self.piles[pile]) - state.hidden[pile]]
        return state.under[pile][0] if state.under[pile] else None


WORDS = ("apple", "Apples", "the beatles", "rock", "zzz", "queen", "racket", "paris", "kiwi")


def candidates(state: Game, dealer: Dealer, rng: random.Random) -> list[tuple[int, Move]]:
    """Moves worth trying now, legal or not; the caller keeps those the rules accept."""
    found: list[tuple[int, Move]] = []
    for pile in (0, 1):
        top = dealer.top(state, pile)
        if top is not None:
            found += [(s, Turn(pile, top)) for s in range(state.seats)]
    found += [(TABLE, Roll(rng.randrange(6))), (TABLE, WindowClosed())]
    for seat in range(state.seats):
        found += [(seat, Claim()), (seat, Contest()), (seat, Vote(rng.random() < 0.5))]
        found += [(seat, Answer(rng.choice(WORDS) + str(rng.randrange(4))))]
        found += [(seat, Answer(rng.choice(WORDS)))]
    if rng.random() < 0.5:
        found += [(s, Concede()) for s in range(state.seats)]
    if rng.random() < 0.05:
        found.append((TABLE, Tie()))
    if rng.random() < 0.01:
        found.append((rng.randrange(state.seats), Leave()))
    return found


def random_step(state: Game, dealer: Dealer, rng: random.Random) -> tuple[Game, int, Move]:
    """One legal move, chosen at random among the candidates the rules accept."""
    moves = candidates(state, dealer, rng)
    rng.shuffle(moves)
    for seat, move in [*moves, *((s, Concede()) for s in range(state.seats))]:
        outcome = apply(state, seat, move)
        if outcome.refusal is None:
            return outcome.state, seat, move
        assert outcome.state is state
    raise AssertionError(f"no legal move in phase {state.phase}")


def random_game(seats: int, seed: int, mode: Mode = Mode.TYPED, bound: int = 20000) -> list[Game]:
    """Every state of one random game, from the set-up to its end."""
    rng = random.Random(seed)
    state = new_game(EN, seats, first=rng.randrange(seats), mode=mode)
    dealer = Dealer.shuffled(state, rng)
    states = [state]
    while state.phase is not Phase.OVER and len(states) < bound:
        state, _, _ = random_step(state, dealer, rng)
        states.append(state)
    return states
