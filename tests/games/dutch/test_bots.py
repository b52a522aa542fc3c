"""Dutch's bots: they play whole rounds with legal moves only, decide only from what their
seat may see, and the careful bot scores better than the forgetful one."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from dutchblitz.protocol.games.dutch.bots import BotLevel, bot_move
from dutchblitz.protocol.games.dutch.cards import FULL_DECK
from dutchblitz.protocol.games.dutch.rules import apply
from dutchblitz.protocol.games.dutch.scoring import score_round
from dutchblitz.protocol.games.dutch.state import Phase, Round, deal

MOVE_BOUND = 2000


def _redacted(state: Round, seat: int) -> Round:
    """The round as ``seat``'s node holds it: only the faces opened to it."""
    faces = tuple(f if state.knows(seat, t) else None for t, f in enumerate(state.faces))
    return replace(state, faces=faces)


def _round(levels: list[BotLevel], seed: int, check_blind: bool = False) -> Round:
    rng = random.Random(seed)
    order = list(FULL_DECK)
    rng.shuffle(order)
    state = deal(len(levels), starter=seed % len(levels), faces=order)
    for _ in range(MOVE_BOUND):
        if state.phase is Phase.OVER:
            return state
        wanted = []
        for seat, level in enumerate(levels):
            move = bot_move(state, seat, level)
            if check_blind:
                assert bot_move(_redacted(state, seat), seat, level) == move
            if move is not None:
                wanted.append((seat, move))
        seat, move = rng.choice(wanted)  # the table's order picks among simultaneous moves
        outcome = apply(state, seat, move)
        assert outcome.accepted, (seat, move, outcome.refusal)
        state = outcome.state
    raise AssertionError("the round did not end")


@pytest.mark.parametrize("seats", [3, 5, 8])
def test_bots_play_whole_rounds_with_legal_moves_only(seats: int) -> None:
    for seed in range(6):
        levels = [BotLevel.CAREFUL if s % 2 else BotLevel.FORGETFUL for s in range(seats)]
        assert _round(levels, seed).phase is Phase.OVER


def test_a_bot_decides_only_from_what_its_seat_may_see() -> None:
    for seed in range(4):
        _round([BotLevel.CAREFUL, BotLevel.FORGETFUL, BotLevel.CAREFUL], seed, check_blind=True)


def test_the_careful_bot_scores_lower_than_the_forgetful_one() -> None:
    careful, forgetful = [], []
    for seed in range(40):
        seat = seed % 3  # the careful bot sits at each seat in turn
        levels = [BotLevel.FORGETFUL] * 3
        levels[seat] = BotLevel.CAREFUL
        scores = score_round(_round(levels, seed)).scores
        careful.append(scores[seat])
        forgetful += [s for i, s in enumerate(scores) if i != seat]
    assert sum(careful) / len(careful) < sum(forgetful) / len(forgetful)
