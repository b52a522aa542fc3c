"""A player removed without a goodbye in the middle of a round of Dutch (spec/dutch.md D-43
to D-46, spec/dutch-deal.md M-43, spec/rules.md R-59 to R-61): the round waits for it within
the deal's grace, goes on once it is back (its node still holds its key), and is void once
the grace is over without it; a void round is not one of the game's rounds."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.games.dutch.state import Ending
from dutchblitz.protocol.games.dutch.state import Phase as Phase_
from dutchblitz.protocol.games.dutch.table import DutchTable, Stage
from dutchblitz.protocol.seat.deal_duties import Grace, grace_duty
from dutchblitz.protocol.table.absence import counted_rounds
from dutchblitz.protocol.table.state import Phase
from dutchblitz.protocol.wire.messages import Admit, Start, Suspect

from tests.games.dutch.tablerig import Rig

GRACE = Grace(seconds=10.0, step=1.0)


def _in_play(rig: Rig, turns: int) -> DutchTable:
    for _ in range(500):
        table = rig.game.table
        if (
            isinstance(table, DutchTable)
            and table.stage is Stage.PLAY
            and table.round is not None
            and table.round.phase is Phase_.DRAW
            and table.round.turns >= turns
            and not table.queue
        ):
            return table
        rig.step()
    raise AssertionError("never in play")


def _crash(rig: Rig, seat: int, by: int = 0) -> None:
    """``seat``'s node is gone without a word: another node removes it (its SUSPECT)."""
    held = rig.game.members[rig.nodes[seat]].since
    rig.apply(rig.nodes[by], Suspect(rig.nodes[seat], held))
    assert not rig.game.members[rig.nodes[seat]].present


def _stalls(rig: Rig) -> None:
    for _ in range(20):
        rig.step()


def _grace_over(rig: Rig) -> Start:
    body = grace_duty(rig.game, rig.nodes[0], [], lambda node: 99.0, GRACE)
    assert body is not None
    return body


@pytest.mark.parametrize("players,crashed,turns", [(3, 1, 1), (3, 2, 2), (4, 3, 1), (4, 0, 3)])
def test_d43_m43_a_crashed_player_is_waited_for_and_the_round_goes_on_when_back(
    players: int, crashed: int, turns: int
) -> None:
    """D-43, M-43, R-59: nothing ends while the player is away; back, it plays on."""
    rig = Rig(players=players, seed=30 + crashed, rounds=2)
    _in_play(rig, turns)
    number = rig.game.round
    by = 1 if crashed == 0 else 0
    _crash(rig, crashed, by)
    _stalls(rig)
    table = rig.table()
    assert rig.game.phase == Phase.PLAYING and rig.game.round == number, "the round waits"
    assert table.stage is not Stage.DONE and crashed in table.missing
    assert rig.game.awaited() == [crashed]
    # within the grace, no START; back in time, it is dealt in again
    assert grace_duty(rig.game, rig.nodes[by], [], lambda node: 1.0, GRACE) is None
    rig.apply(rig.nodes[by], Admit(rig.nodes[crashed], 50))
    assert rig.game.awaited() == [] and not table.missing
    rig.play()
    assert rig.game.phase == Phase.OVER
    assert [r.void for r in rig.game.results] == [False, False]
    assert rig.tables[0].score is not None and rig.tables[0].round is not None
    assert rig.tables[0].round.ending is not Ending.STRANDED


@pytest.mark.parametrize("players,crashed", [(4, 2), (4, 0), (5, 4)])
def test_d44_d45_r60_r61_a_player_not_back_voids_the_round_and_the_game_goes_on(
    players: int, crashed: int
) -> None:
    """D-44, D-45, R-60, R-61: the grace's START voids the round; its scores do not count,
    nor does it count among the rounds; enough players are left, so the game goes on."""
    rig = Rig(players=players, seed=40 + crashed, rounds=2)
    _in_play(rig, 1)
    number = rig.game.round
    by = 1 if crashed == 0 else 0
    _crash(rig, crashed, by)
    _stalls(rig)
    start = grace_duty(rig.game, rig.nodes[by], [], lambda node: 99.0, GRACE)
    assert start is not None
    rig.apply(rig.nodes[by], start)
    void = rig.tables[-1]
    assert void.absence().void() and void.round is not None and void.round.ending is Ending.STRANDED
    assert rig.game.results[-1].void and counted_rounds(rig.game) == 0
    assert rig.game.round == number + 1 and rig.game.phase == Phase.DEALING
    assert rig.game.totals == {s: 0 for s in range(players)}
    rig.play()
    assert rig.game.phase == Phase.OVER
    assert [r.void for r in rig.game.results] == [True, False, False], "two rounds counted"
    dealt = {seat for r in rig.game.results[1:] for seat in r.scores}
    assert crashed not in dealt
    assert rig.game.totals == {
        s: sum(r.scores.get(s, 0) for r in rig.game.results[1:]) for s in range(players)
    }


def test_d45_too_few_left_ends_the_game_with_the_totals_so_far() -> None:
    """D-45, R-61: three players, one gone in round 2: round 1's scores stand, round 2 is
    void, and the two left cannot be dealt a round of Dutch (D-4): the game ends."""
    rig = Rig(players=3, seed=51, rounds=3)
    for _ in range(3000):
        if rig.game.round == 2 and isinstance(rig.game.table, DutchTable):
            break
        rig.step()
    first = rig.game.results[0]
    assert not first.void
    _in_play(rig, 1)
    _crash(rig, 2)
    _stalls(rig)
    assert rig.game.phase == Phase.PLAYING
    rig.apply(rig.nodes[0], _grace_over(rig))
    rig.play()
    assert rig.game.phase == Phase.OVER
    assert [r.void for r in rig.game.results] == [False, True]
    assert rig.game.totals == first.scores
    lowest = min(first.scores.values())
    assert rig.game.totals[rig.game.winner] == lowest  # type: ignore[index]


def test_d44_a_goodbye_with_no_handover_voids_the_round_at_once() -> None:
    """D-44, R-60: a player who said goodbye is never waited for."""
    rig = Rig(players=4, seed=61)
    _in_play(rig, 1)
    number = rig.game.round
    rig.goodbye(1, farewell=False)
    assert rig.game.round == number + 1
    assert rig.game.results[-1].void and rig.game.awaited() == []


def test_r60_a_start_in_play_with_nobody_awaited_is_refused() -> None:
    """R-60: only a round that waits for someone away can be voided by a START."""
    rig = Rig(players=3, seed=62)
    _in_play(rig, 1)
    start = Start(rig.game.target, rig.game.post_stacking, rig.game.rounds)
    assert rig.game.apply(rig.nodes[0], start).refusal == "nobody_away"
    _crash(rig, 2)
    other = Start(rig.game.target + 1, rig.game.post_stacking, rig.game.rounds)
    assert rig.game.apply(rig.nodes[0], other).refusal == "not_this_game"
    assert rig.game.phase == Phase.PLAYING and rig.game.awaited() == [2]


def test_d43_every_node_reaches_the_same_game_after_a_crash_and_a_return() -> None:
    """D-43: the wait and the return are decided by the log alone."""
    rig = Rig(players=3, seed=63, rounds=1)
    _in_play(rig, 2)
    _crash(rig, 1)
    _stalls(rig)
    rig.apply(rig.nodes[0], Admit(rig.nodes[1], 70))
    rig.play()
    assert rig.replayed().public_form() == rig.game.public_form()
