"""Build Dutch tables for tests: hands and the draw pile written as card labels."""

from __future__ import annotations

import random
from collections.abc import Sequence

from dutchblitz.protocol.games.dutch.cards import (
    CARDS_IN_DECK,
    RANK_LETTERS,
    SUIT_LETTERS,
    DutchCard,
)
from dutchblitz.protocol.games.dutch.legal import legal_moves
from dutchblitz.protocol.games.dutch.moves import CallDutch, InitialPeek, Move, Outcome
from dutchblitz.protocol.games.dutch.rules import apply
from dutchblitz.protocol.games.dutch.state import HAND_CARDS, Phase, Round, deal

RANKS = {letter: rank for rank, letter in RANK_LETTERS.items()}
JOKERS = (52, 53)


def card(label: str) -> DutchCard:
    """``5h``, ``10d``, ``Ks``, ``Ac``; ``*`` is a joker (the first, then the second)."""
    if label.startswith("*"):
        return DutchCard(JOKERS[1] if label == "**" else JOKERS[0])
    rank_text, suit = label[:-1], label[-1]
    rank = RANKS.get(rank_text) or int(rank_text)
    return DutchCard(SUIT_LETTERS.index(suit) * 13 + rank - 1)


def deck(hands: Sequence[str], draw: str = "", penalised: Sequence[int] = ()) -> list[DutchCard]:
    """A deck order (faces by token) that deals ``hands`` (one string of 4 labels a seat),
    then a fifth card to each penalised seat, then ``draw`` on top of the draw pile; the
    cards not named follow in code order."""
    seats = len(hands)
    faces: list[DutchCard | None] = [None] * CARDS_IN_DECK
    for seat, text in enumerate(hands):
        labels = text.split()
        for slot, label in enumerate(labels[:HAND_CARDS]):
            faces[slot * seats + seat] = card(label)
    extra = [hands[seat].split()[HAND_CARDS] for seat in sorted(penalised)]
    for offset, label in enumerate([*extra, *draw.split()]):
        faces[HAND_CARDS * seats + offset] = card(label)
    named = {c.code for c in faces if c is not None}
    rest = iter(c for c in range(CARDS_IN_DECK) if c not in named)
    return [c if c is not None else DutchCard(next(rest)) for c in faces]


def table(
    hands: Sequence[str], draw: str = "", starter: int = 0, penalised: Sequence[int] = ()
) -> Round:
    return deal(len(hands), starter, penalised, deck(hands, draw, penalised))


def peeked(hands: Sequence[str], draw: str = "", starter: int = 0) -> Round:
    """The table once every seat has looked at its slots 0 and 1: the first turn is due."""
    state = table(hands, draw, starter)
    for seat in range(len(hands)):
        state = ok(state, seat, InitialPeek(0, 1)).state
    return state


def ok(state: Round, seat: int, move: Move) -> Outcome:
    outcome = apply(state, seat, move)
    assert outcome.refusal is None, f"seat {seat} {move}: {outcome.refusal}"
    return outcome


def play(state: Round, *steps: tuple[int, Move]) -> Round:
    for seat, move in steps:
        state = ok(state, seat, move).state
    return state


def labels(state: Round, seat: int) -> list[str | None]:
    return [None if t is None else str(state.faces[t]) for t in state.hands[seat]]


MOVE_BOUND = 3000  # moves in a random round, at most: every one ends well before


def random_round(
    seats: int, order: Sequence[DutchCard], seed: int
) -> tuple[list[tuple[Round, int, Move, Round]], Round]:
    """A round dealt from ``order``, played to its end by random legal moves (Dutch called
    rarely, so rounds run long): each step (before, seat, move, after), and the end."""
    rng = random.Random(seed)
    state = deal(seats, starter=rng.randrange(seats), faces=order)
    steps = []
    for _ in range(MOVE_BOUND):
        if state.phase is Phase.OVER:
            break
        choices = [(s, m) for s in sorted(state.active) for m in legal_moves(state, s)]
        if rng.random() < 0.9:
            choices = [(s, m) for s, m in choices if not isinstance(m, CallDutch)] or choices
        seat, move = rng.choice(choices)
        after = apply(state, seat, move).state
        steps.append((state, seat, move, after))
        state = after
    assert state.phase is Phase.OVER
    return steps, state
