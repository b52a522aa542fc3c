"""Properties of the rules over random legal play (spec/faceoff.md): every card is in one
place (F-45), a refused move changes nothing (F-44), no two tops match when no face-off is
left (F-21), and every game ends (F-40, F-41)."""

from __future__ import annotations

import random
from collections import Counter

from dutchblitz.protocol.games.faceoff.moves import TABLE, Turn
from dutchblitz.protocol.games.faceoff.rules import apply, next_faceoff
from dutchblitz.protocol.games.faceoff.state import Game, Mode, Phase, new_game, winners
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.faceoff.table import EN, Dealer, candidates, random_step

MOVE_BOUND = 5000  # far more than a game takes: a turn or a face-off every few moves


def _check_places(state: Game) -> None:
    """F-45: every card in the game is in exactly one place."""
    seen = Counter(state.places())
    assert all(n == 1 for n in seen.values()), seen.most_common(3)
    assert not set(seen) & state.unseen
    assert set(seen) | state.unseen == set(state.in_game)
    assert sum(state.hidden) == len(state.unseen)


def _check_refusals(state: Game, dealer: Dealer, rng: random.Random) -> None:
    """F-44: a refused move hands back the very state it was given."""
    for seat, move in candidates(state, dealer, rng):
        outcome = apply(state, seat, move)
        if outcome.refusal is not None:
            assert outcome.state is state
    assert apply(state, 99, Turn(0, 0)).state is state


@settings(max_examples=40, deadline=None)
@given(
    seats=st.integers(3, 8),
    mode=st.sampled_from(list(Mode)),
    seed=st.integers(0, 2**32),
)
def test_F21_F41_F44_F45_random_games_keep_every_card_once_and_end(
    seats: int, mode: Mode, seed: int
) -> None:
    rng = random.Random(seed)
    state = new_game(EN, seats, first=rng.randrange(seats), mode=mode)
    dealer = Dealer.shuffled(state, rng)
    for step in range(MOVE_BOUND):
        if state.phase is Phase.OVER:
            break
        _check_places(state)
        if step % 7 == 0:
            _check_refusals(state, dealer, rng)
        if state.phase is Phase.TURN:
            assert next_faceoff(state) is None  # F-21: no match is left at rest
        state, seat, _ = random_step(state, dealer, rng)
        assert seat == TABLE or 0 <= seat < seats
    assert state.phase is Phase.OVER  # F-40, F-41: every game ends
    _check_places(state)
    assert state.draw_left() == 0 or len(state.active) < 2
    assert winners(state)
