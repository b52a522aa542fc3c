"""How the notices tell a game's end: its winner, too few to deal (P-239), every round void
(R-61), or a draw after the rounds chosen (P-238)."""

from __future__ import annotations

import pytest
from dutchblitz.node.api import News
from dutchblitz.node.notices import _game_over_news
from dutchblitz.protocol.games.dutch.game import GAME as DUTCH
from dutchblitz.protocol.table.records import RoundResult
from dutchblitz.protocol.table.state import Game
from dutchblitz.protocol.wire.messages import Admit

pytestmark = pytest.mark.timeout(30)
A, B = b"a" * 16, b"b" * 16

# (each round's void, the winner) -> the news
CASES = {
    "P-239: too few to deal": ([], None, News.TOO_FEW),
    "the winner": ([False, False], 1, News.GAME_WON),
    "R-61: every round void": ([True], None, News.NO_WINNER),
    "P-238: a draw after the rounds": ([False, True, False], None, News.DRAWN),
}


@pytest.mark.parametrize("case", list(CASES))
def test_p238_r61_p239_the_game_s_end_is_told_as_it_ended(case: str) -> None:
    voids, winner, news = CASES[case]
    game = Game(rules=DUTCH)
    game.apply(A, Admit(A, 1))
    game.apply(A, Admit(B, 1))
    game.results = [RoundResult(n, {0: 1, 1: 1}, None, void) for n, void in enumerate(voids, 1)]
    game.totals = {0: 2, 1: 2}
    game.winner = winner
    assert _game_over_news(game, 0).news == news
