"""Properties of the rules over random legal play: no card is ever in two places, nobody
learns a card the rules do not open to them, and every round ends (spec/dutch.md D-3,
D-9, D-15, D-35, D-41)."""

from __future__ import annotations

import random

from dutchblitz.protocol.games.dutch.cards import FULL_DECK
from dutchblitz.protocol.games.dutch.legal import legal_moves
from dutchblitz.protocol.games.dutch.moves import CallDutch, InitialPeek, Leave, Move
from dutchblitz.protocol.games.dutch.rules import apply, needs_open
from dutchblitz.protocol.games.dutch.scoring import reveal_tokens, score_round
from dutchblitz.protocol.games.dutch.state import Phase, Round, deal
from hypothesis import given, settings
from hypothesis import strategies as st

MOVE_BOUND = 3000  # far more than a round can take: a draw or a penalty every few moves


def _step(state: Round, rng: random.Random) -> tuple[Round, int, Move]:
    """One move among every seat's legal moves (now and then a seat leaves)."""
    choices = [(seat, move) for seat in sorted(state.active) for move in legal_moves(state, seat)]
    if rng.random() < 0.9:  # a call ends the round: keep most rounds long
        choices = [(s, m) for s, m in choices if not isinstance(m, CallDutch)] or choices
    if len(state.active) > 1 and rng.random() < 0.01:
        choices = [(rng.choice(sorted(state.active)), Leave())]
    seat, move = rng.choice(choices)
    return apply(state, seat, move).state, seat, move


def _check_knowledge(before: Round, after: Round, seat: int, move: Move) -> None:
    outcome = apply(before, seat, move)
    assert outcome.state == after
    for opening in outcome.openings:
        assert opening.seat == seat  # a private opening goes to the mover alone (D-41)
        if isinstance(move, InitialPeek):
            assert opening.token in before.hands[seat]
    for token in range(54):
        learnt = after.seen_by[token] - before.seen_by[token]
        assert learnt <= {o.seat for o in outcome.openings if o.token == token}
    assert after.public - before.public <= set(needs_open(before, seat, move))


@settings(max_examples=60, deadline=None)
@given(
    seats=st.integers(3, 8),
    order=st.permutations(FULL_DECK),
    seed=st.integers(0, 2**32),
)
def test_random_rounds_keep_every_card_once_open_nothing_unearned_and_end(
    seats: int, order: list, seed: int
) -> None:
    rng = random.Random(seed)
    state = deal(seats, starter=rng.randrange(seats), penalised=[rng.randrange(seats)], faces=order)
    for _ in range(MOVE_BOUND):
        if state.phase is Phase.OVER:
            break
        before = state
        state, seat, move = _step(state, rng)
        assert sorted(state.places()) == list(range(54))  # D-3: each card in one place
        _check_knowledge(before, state, seat, move)
        for token in state.places():
            if token not in state.public and token not in [state.drawn]:
                assert state.seen_by[token] <= set(range(seats))
    assert state.phase is Phase.OVER  # D-35, D-36: every round ends
    reveal_tokens(state)
    score = score_round(state)
    assert len(score.scores) == seats
