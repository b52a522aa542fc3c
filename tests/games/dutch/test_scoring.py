"""spec/dutch.md sections 6 and 8: the reveal, the score of a round, the game's end."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.games.dutch.moves import CallDutch, Discard, Draw
from dutchblitz.protocol.games.dutch.scoring import (
    DutchResult,
    GameLength,
    game_over,
    reveal_tokens,
    score_round,
    winners,
)
from dutchblitz.protocol.games.dutch.state import Phase, Round, deal

from tests.games.dutch.table import deck, peeked, play


def _called(hands: tuple[str, ...], draw: str, caller: int = 0) -> Round:
    """Seat ``caller`` starts, draws and discards, and calls; the others play a last turn."""
    state = play(peeked(hands, draw=draw, starter=caller), (caller, Draw()), (caller, Discard()))
    state = play(state, (caller, CallDutch()))
    while state.phase is not Phase.OVER:
        state = play(state, (state.turn, Draw()), (state.turn, Discard()))
    return state


def test_D30_the_reveal_opens_every_hand_and_the_two_extra_cards() -> None:
    state = _called(("Ac 2c 3c 4c", "9d 9h 9s 9c", "8d 8h 8s 8c"), "5s 5h 5d 7c 7d 7h")
    hands = {t for hand in state.hands for t in hand if t is not None}
    tokens = reveal_tokens(state)
    assert set(tokens) == hands | set(state.draw[:2]) and len(tokens) == 14
    with pytest.raises(ValueError):
        reveal_tokens(deal(3))


def test_D31_a_dutch_strictly_lowest_scores_zero_and_the_caller_starts() -> None:
    state = _called(("Ac 2c 3c 4c", "9d 9h 9s 9c", "8d 8h 8s 8c"), "5s 5h 5d")
    score = score_round(state)
    assert score.hand_totals == (10, 36, 32) and score.scores == (0, 36, 32)
    assert score.result is DutchResult.SUCCESS and score.next_starter == 0
    assert not score.penalised


def test_D31_a_negative_total_is_kept() -> None:
    state = _called(("* ** Kh Ac", "9d 9h 9s 9c", "8d 8h 8s 8c"), "Kd 5h 5d")
    assert score_round(state).scores[0] == -1  # -1 - 1 + 0 + 1


def test_D32_D33_a_tie_fails_two_cards_are_added_and_a_fifth_card_follows() -> None:
    state = _called(("9d 9h 9s 9c", "8d 8h 10s 10c", "Jc Jd Jh Js"), "2s 7s 5d 3h 4h", caller=1)
    score = score_round(state)
    assert score.hand_totals[0] == score.hand_totals[1] == 36
    assert score.result is DutchResult.FAILURE and score.penalised == {1}
    assert score.scores == (36, 36 + 3 + 4, 44) and score.next_starter == 2
    following = deal(3, score.next_starter, score.penalised)
    assert [len(h) for h in following.hands] == [4, 5, 4]


def test_D34_with_no_call_the_seat_after_the_starter_starts_next() -> None:
    state = peeked(("Ac 2c 3c 4c", "9d 9h 9s 9c", "8d 8h 8s 8c"), starter=2)
    while state.phase is not Phase.OVER:
        state = play(state, (state.turn, Draw()), (state.turn, Discard()))
        if state.phase is Phase.ACTION:
            from dutchblitz.protocol.games.dutch.moves import Skip

            state = play(state, (state.turn, Skip()))
    score = score_round(state)
    assert score.result is DutchResult.NONE and score.scores == score.hand_totals
    assert score.next_starter == 0


def test_D30_scoring_needs_every_revealed_face() -> None:
    state = _called(("Ac 2c 3c 4c", "9d 9h 9s 9c", "8d 8h 8s 8c"), "5s 5h 5d")
    hidden = Round(**{**{f: getattr(state, f) for f in state.__slots__}, "faces": (None,) * 54})
    with pytest.raises(ValueError):
        score_round(hidden)
    assert len(deck(("Ac 2c 3c 4c",) * 1)) == 54


@pytest.mark.parametrize(
    ("length", "totals", "rounds", "over"),
    [
        (GameLength(target=100), (99, 50, 12), 7, False),
        (GameLength(target=100), (100, 50, 12), 7, True),
        (GameLength(rounds=5), (300, 50, 12), 4, False),
        (GameLength(rounds=5), (3, 5, 1), 5, True),
    ],
)
def test_D37_D38_a_game_is_played_to_a_target_or_a_number_of_rounds(
    length: GameLength, totals: tuple[int, ...], rounds: int, over: bool
) -> None:
    assert game_over(length, totals, rounds) is over


@pytest.mark.parametrize("bad", [{}, {"target": 10, "rounds": 3}, {"rounds": 0}])
def test_D37_a_game_length_is_one_positive_choice(bad: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        GameLength(**bad)


def test_D39_the_lowest_total_wins_and_a_tie_shares_it() -> None:
    assert winners((40, 12, 30)) == (1,)
    assert winners((12, 40, 12)) == (0, 2)
