"""When a game ends (spec/protocol.md P-238): played to a target, once the game names a
winner; played to a number of rounds, once they are played, whatever the totals, and a
draw where the game names nobody, never a round past the rounds chosen."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from dutchblitz.protocol.games.blitz.game import GAME as BLITZ
from dutchblitz.protocol.games.dutch.game import DutchGame
from dutchblitz.protocol.table import audit
from dutchblitz.protocol.table import state as table_game
from dutchblitz.protocol.table.records import FlagKind, RoundResult
from dutchblitz.protocol.table.rules import AnyGame
from dutchblitz.protocol.table.state import Game, Phase

pytestmark = pytest.mark.timeout(30)


class DrawnDutch(DutchGame):
    """Dutch, but a tie on the lowest total names nobody: a draw."""

    def final_winner(self, totals: Mapping[int, int]) -> int | None:
        lowest = min(totals.values())
        leaders = [seat for seat, total in totals.items() if total == lowest]
        return leaders[0] if len(leaders) == 1 else None


DRAWN = DrawnDutch()

# (rules, rounds, each round's scores, void rounds) -> (over, winner)
CASES: dict[str, tuple[AnyGame, int | None, list[dict[int, int]], set[int], bool, int | None]] = {
    "P-238: rounds to play go on": (DRAWN, 2, [{0: 1, 1: 1}], set(), False, None),
    "P-238: a tie is a draw": (DRAWN, 2, [{0: 1, 1: 2}, {0: 2, 1: 1}], set(), True, None),
    "P-238: the game names one": (DRAWN, 2, [{0: 1, 1: 2}, {0: 0, 1: 1}], set(), True, 0),
    "R-61: a void round is none": (DRAWN, 2, [{0: 1, 1: 1}, {0: 0, 1: 0}], {1}, False, None),
    "D-39: Dutch names the first seat of a tie": (DutchGame(), 1, [{0: 3, 1: 3}], set(), True, 0),
    "R-30: a tie at the target plays on": (BLITZ, None, [{0: 80, 1: 80}], set(), False, None),
    "R-29: the one highest at the target wins": (BLITZ, None, [{0: 80, 1: 70}], set(), True, 0),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_p238_a_game_ends_after_its_rounds_and_may_end_drawn(case: str) -> None:
    rules, rounds, scores, void, over, winner = CASES[case]
    game = Game(rules=rules)
    game.target, game.rounds = 75, rounds
    for number, round_scores in enumerate(scores, 1):
        game.results.append(RoundResult(number, round_scores, None, number - 1 in void))
        for seat, points in round_scores.items():
            game.totals[seat] = game.totals.get(seat, 0) + points
    assert table_game._ends(game) == (over, winner)


class FirstOfATie(DutchGame):
    """A game of rounds whose highest total wins, the first seat of a tie (as Blitz!'s)."""

    worst_round = 0

    def final_winner(self, totals: Mapping[int, int]) -> int | None:
        return max(totals, key=lambda seat: (totals[seat], -seat)) if totals else None


def test_p238_r46_a_penalty_after_the_rounds_names_the_game_s_own_winner() -> None:
    """R-46 after a game of rounds is over: its winner is named again by the game's
    ``final_winner`` (here the first seat of a tie), not as the one highest total."""
    game = Game(rules=FirstOfATie())
    game.target, game.rounds, game.phase = 75, 1, Phase.OVER
    game.results = [RoundResult(1, {0: 5, 1: 3, 2: 3}, None)]
    game.totals = {0: 5, 1: 3, 2: 3}
    game.winner = 0
    audit.flag(game, 1, 0, FlagKind.MISMATCH, "a reveal that does not fit")
    assert game.totals == {0: 0, 1: 3, 2: 3} and game.winner == 1
