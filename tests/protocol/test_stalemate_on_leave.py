"""R-24 is checked again whenever the players who can still act change, not only on a stuck call.

A table of cases on the rules alone (``rules.set_active``), then the same through the
game's log: a BYE and a removal (SUSPECT) of the last player who was not stuck.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from dutchblitz.protocol.games.blitz import rules
from dutchblitz.protocol.games.blitz.moves import StuckCall
from dutchblitz.protocol.games.blitz.rules import DEADLOCK_STALEMATES
from dutchblitz.protocol.games.blitz.state import Table
from dutchblitz.protocol.games.blitz.wire_moves import play_from_move
from dutchblitz.protocol.table.state import Game, Member, Phase
from dutchblitz.protocol.wire.messages import Bye, Suspect

from tests.protocol.scenario_language import Scenario


@dataclass(frozen=True)
class Case:
    name: str
    players: int
    stuck: tuple[int, ...]  # seats that call stuck first, in order
    changes: tuple[tuple[int, bool], ...]  # then (seat, active) in order
    stalemates: int
    stuck_after: tuple[bool, ...]  # every seat's stuck flag at the end


CASES = [
    Case("the last unstuck player leaves: the others rotate", 3, (0, 1), ((2, False),), 1,
         (False, False, False)),
    Case("one unstuck player is left: no stalemate", 3, (0,), ((2, False),), 0,
         (True, False, False)),
    Case("a stuck player leaves: no stalemate while another can act", 3, (0,), ((0, False),), 0,
         (True, False, False)),
    Case("two players, one stuck, the other leaves: the stuck one rotates alone", 2, (0,),
         ((1, False),), 1, (False, False)),
    Case("everybody leaves: nobody is left to rotate", 2, (0,), ((0, False), (1, False)), 0,
         (True, False)),
    Case("a player who comes back is not stuck: no stalemate", 3, (0, 1),
         ((2, False), (2, True)), 1, (False, False, False)),
    Case("the leaver's own stuck call stays as it lies", 3, (2, 0), ((1, False),), 1,
         (False, False, False)),
    Case("a stuck leaver keeps its call, and a return of a free player turns nothing",
         3, (2,), ((2, False), (0, True)), 0, (False, False, True)),
]  # fmt: skip


def _play(case: Case) -> Table:
    table = Scenario("R-24", case.name, case.players).table()  # a quiet deal: no centre play
    for seat in case.stuck:
        assert rules.apply(table, StuckCall(seat)) is None
    for seat, active in case.changes:
        rules.set_active(table, seat, active)
    return table


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_R24_a_change_of_who_can_act_checks_the_stalemate_again(case: Case) -> None:
    table = _play(case)
    assert table.stalemates == case.stalemates
    assert tuple(table.areas[s].stuck for s in table.seats) == case.stuck_after


def test_R24_the_rotation_on_leave_turns_only_the_active_hands() -> None:
    table = Scenario("R-24", "rotation", 3).table()
    hands = {seat: table.areas[seat].hand[:] for seat in table.seats}
    for seat in (0, 1):
        rules.apply(table, StuckCall(seat))
    rules.set_active(table, 2, False)
    for seat in (0, 1):
        assert table.areas[seat].hand == [hands[seat][-1], *hands[seat][:-1]]
    assert table.areas[2].hand == hands[2]


def test_R25_the_thirtieth_stalemate_on_a_leave_ends_the_round_dead() -> None:
    table = Scenario("R-25", "dead", 3).table()
    for _ in range(DEADLOCK_STALEMATES - 1):
        for seat in table.seats:
            assert rules.apply(table, StuckCall(seat)) is None
    for seat in (0, 1):
        rules.apply(table, StuckCall(seat))
    rules.set_active(table, 2, False)
    assert table.over and table.blitz_by is None
    assert table.stalemates == DEADLOCK_STALEMATES


# -- through the game's log ------------------------------------------------------------------

NODES = [bytes([seat + 1]) * 16 for seat in range(3)]


def _playing(players: int = 3) -> Game:
    """A game in play on a quiet deal, as if the fair deal had just finished."""
    game = Game(phase=Phase.PLAYING, round=1, players=tuple(range(players)))
    for seat in range(players):
        game.members[NODES[seat]] = Member(NODES[seat], seat, f"p{seat}", f"back{seat}")
    game.totals = dict.fromkeys(game.players, 0)
    game.table = Scenario("R-24", "game", players).table()
    game.joint = b"j" * 32
    game.visible = {seat: () for seat in game.players}
    game.commits = {seat: (b"s" * 32, b"h" * 32) for seat in game.players}
    game.started_active = frozenset(game.players)
    return game


def _stuck(game: Game, seat: int) -> None:
    outcome = game.apply(NODES[seat], play_from_move(StuckCall(seat), game.round))
    assert outcome.accepted, outcome.refusal


@pytest.mark.parametrize(
    ("leave", "how"),
    [(Bye(), "bye"), (Suspect(NODES[2], 0), "removal")],
    ids=["bye", "removal"],
)
def test_R24_the_last_unstuck_player_leaving_turns_the_hands(
    leave: Bye | Suspect, how: str
) -> None:
    game = _playing()
    _stuck(game, 0)
    _stuck(game, 1)
    sender = NODES[2] if how == "bye" else NODES[0]
    assert game.apply(sender, leave).accepted
    assert game.table is not None
    assert game.table.stalemates == 1
    assert not any(game.table.areas[seat].stuck for seat in (0, 1))
    assert game.steps[-1] == (2, False)


def test_R25_a_dead_round_ended_by_a_leave_is_scored_and_the_next_one_dealt() -> None:
    game = _playing()
    assert game.table is not None
    for _ in range(DEADLOCK_STALEMATES - 1):
        for seat in game.players:
            _stuck(game, seat)
    _stuck(game, 0)
    _stuck(game, 1)
    assert game.apply(NODES[2], Bye()).accepted
    assert [(r.round, r.blitz_by) for r in game.results] == [(1, None)]
    assert game.phase == Phase.DEALING and game.round == 2
    assert game.records[1].steps[-1] == (2, False)
