"""The end of a game of Dutch at the table: a shared win is written as its lowest seat, in the
public state and the summary, and a flag changes no Dutch score (spec/dutch.md D-39;
spec/protocol.md P-245, P-246, P-247)."""

from __future__ import annotations

import pytest
from dutchblitz.node.seat.ending import game_summary
from dutchblitz.protocol.games.blitz.game import GAME as BLITZ
from dutchblitz.protocol.games.dutch.game import GAME as RULES
from dutchblitz.protocol.games.dutch.table import DutchTable, Stage
from dutchblitz.protocol.table.audit import flag
from dutchblitz.protocol.table.records import FlagKind
from dutchblitz.protocol.table.state import Game, Phase

from tests.games.dutch.tablerig import Rig


def stranded_game() -> Game:
    """A game of one round that a goodbye with no handover strands (M-35): void (D-44), so
    every total is 0."""
    rig = Rig(players=3, seed=2, rounds=1)
    for _ in range(40):
        table = rig.game.table
        if isinstance(table, DutchTable) and table.stage is Stage.SHUFFLE:
            break
        rig.step()
    rig.goodbye(2, farewell=False)
    return rig.game


def short_game() -> Game:
    """A game of rounds that a player leaves before its first round is dealt: two are too
    few for Dutch (P-239), so it ends with no round played and every total 0."""
    rig = Rig(players=3, seed=2, rounds=1)
    rig.goodbye(2, farewell=False)
    rig.play()
    return rig.game


@pytest.mark.parametrize(
    ("totals", "target", "winner"),
    [
        ({0: 12, 1: 5, 2: 5}, 10, 1),  # a tie on the lowest: the lower seat is written
        ({0: 3, 1: 3, 2: 3}, 3, 0),
        ({0: 12, 1: 7, 2: 5}, 10, 2),  # the lowest alone
        ({0: 9, 1: 7, 2: 5}, 10, None),  # nobody reached the target: the game goes on
    ],
)
def test_the_winner_is_the_lowest_seat_of_the_lowest_total(
    totals: dict[int, int], target: int, winner: int | None
) -> None:
    """P-245, D-38, D-39: with a target."""
    assert RULES.game_winner(totals, target) == winner


def test_a_tie_at_the_end_of_the_rounds_is_written_as_its_lowest_seat() -> None:
    """P-245, P-246, D-39: a game of rounds ends tied on 0; the public state names seat 0,
    the summary its name, and every total shares it."""
    game = short_game()
    assert game.phase == Phase.OVER
    assert game.totals == {0: 0, 1: 0, 2: 0}
    assert game.winner == 0 and game.public_form()[10] == 0
    summary = game_summary("kitchen", game, b"")
    names = [member.name for _, member in sorted(game.by_seat().items())]
    assert summary["winner"] == names[0]
    shared = [name for name, total in summary["final_scores"].items() if total == 0]
    assert shared == names  # all three share the win


def test_a_flag_changes_no_dutch_score() -> None:
    """P-247: Dutch's penalty is 999, above any round's score: totals and winner stand."""
    game = stranded_game()
    before = (dict(game.totals), game.winner, [r.scores for r in game.results])
    flag(game, game.results[0].round, 1, FlagKind.MISMATCH, "a test flag")
    assert (dict(game.totals), game.winner, [r.scores for r in game.results]) == before
    assert RULES.worst_round == 999 and BLITZ.worst_round == -20


@pytest.mark.parametrize(
    ("rules", "seat", "shown", "players", "fits"),
    [
        (RULES, 1, (40, 41, 42, 43), 3, True),  # Dutch: four of its own deck
        (RULES, 1, (40, 41, 42, 43), 8, True),  # whatever the number of players
        (RULES, 1, (40, 41, 42), 3, False),
        (RULES, 1, (40, 41, 42, 43, 44), 3, False),  # not R-7's Post row plus one
        (RULES, 1, (0, 41, 42, 43), 3, False),  # a card of another deck
        (BLITZ, 0, (0, 1, 2, 3, 4, 5), 2, True),  # Dutch Blitz: R-7's Post row plus one
        (BLITZ, 0, (0, 1, 2, 3, 4), 3, True),
        (BLITZ, 0, (0, 1, 2, 3), 4, True),
        (BLITZ, 0, (0, 1, 2, 3), 2, False),
    ],
)
def test_how_many_cards_a_deal_shows(
    rules: object, seat: int, shown: tuple[int, ...], players: int, fits: bool
) -> None:
    """P-244, P-175, M-29: a DEAL's size is its game's; one that does not fit is `bad_deal`."""
    known = rules.known_order(seat, shown, players)  # type: ignore[attr-defined]
    assert (known is not None) == fits
