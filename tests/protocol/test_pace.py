"""A seat's own clock between rounds (protocol/seat/pace.py): the scores' timeout and the count-in.

spec/rules.md R-54 and R-55, spec/protocol.md P-149 and P-150. The pace reads no
clock: each call is given the time, so these tests walk it by hand.
"""

from __future__ import annotations

from dutchblitz.protocol.seat.pace import COUNT_IN_S, SCORES_S, Pace
from dutchblitz.protocol.table.state import Game, Phase


def at(phase: Phase, number: int) -> Game:
    game = Game()
    game.phase, game.round = phase, number
    return game


def test_round_one_has_no_scores_to_see_but_counts_in_R55() -> None:
    """P-150: the count-in runs from the moment the stable game enters play."""
    pace = Pace()
    assert pace.follow(at(Phase.DEALING, 1), 10.0) is None
    assert not pace.seen_due(10.0) and pace.scores_left(10.0) == 0
    assert pace.follow(at(Phase.PLAYING, 1), 12.0) == 12.0 + COUNT_IN_S
    playing = at(Phase.PLAYING, 1)
    assert pace.count_in_left(playing, 12.0) == COUNT_IN_S
    assert pace.count_in_left(playing, 13.5) == COUNT_IN_S - 1.5
    assert pace.count_in_left(playing, 12.0 + COUNT_IN_S) == 0
    assert pace.follow(playing, 20.0) is None, "the same round goes on: no second count-in"
    assert pace.count_in_left(playing, 20.0) == 0


def test_a_round_shown_before_it_is_final_here_has_not_begun_its_count_in_R55() -> None:
    """P-150: the optimistic game may show play while the stable one still deals."""
    pace = Pace()
    pace.follow(at(Phase.DEALING, 1), 0.0)
    assert pace.count_in_left(at(Phase.PLAYING, 1), 99.0) == COUNT_IN_S


def test_the_scores_are_seen_by_a_key_or_after_their_time_R54() -> None:
    """P-149: the person's key, else the timeout, makes the seat say it has seen them."""
    pace = Pace()
    assert not pace.look(), "no scores to see in a lobby"
    assert pace.follow(at(Phase.DEALING, 2), 100.0) == 100.0 + SCORES_S
    assert pace.scores_left(100.0) == SCORES_S and not pace.seen_due(100.0)
    assert pace.scores_left(104.0) == SCORES_S - 4
    assert pace.seen_due(100.0 + SCORES_S), "the time is up"
    assert pace.look() and pace.seen_due(101.0) and pace.scores_left(101.0) == 0
    pace.follow(at(Phase.PLAYING, 2), 102.0)
    assert not pace.seen_due(102.0) and not pace.look()
    pace.follow(at(Phase.DEALING, 3), 200.0)
    assert not pace.seen_due(200.0), "each round's scores are seen anew"


def test_a_bot_sees_the_scores_at_once_R54() -> None:
    """P-149: a bot's seat may say it has seen them as soon as they are up."""
    pace = Pace(eager=True)
    pace.follow(at(Phase.DEALING, 2), 5.0)
    assert pace.seen_due(5.0) and pace.scores_left(5.0) == 0


def test_a_new_game_counts_in_again_even_with_the_same_round_numbers_R55() -> None:
    """P-150: a rematch or a new table starts over at round 1: its count-in runs again."""
    pace = Pace()
    pace.follow(at(Phase.PLAYING, 1), 0.0)
    pace.follow(at(Phase.OVER, 1), 50.0)
    pace.follow(at(Phase.LOBBY, 0), 60.0)
    pace.follow(at(Phase.DEALING, 1), 70.0)
    assert pace.follow(at(Phase.PLAYING, 1), 71.0) == 71.0 + COUNT_IN_S
    assert pace.count_in_left(at(Phase.PLAYING, 1), 72.0) == COUNT_IN_S - 1


def test_a_bench_may_turn_the_count_in_off() -> None:
    """Options.count_in_s = 0: play at once (benches measure the protocol, not people)."""
    pace = Pace(count_in_s=0.0)
    assert pace.count_in_left(at(Phase.PLAYING, 1), 0.0) == 0
    assert pace.follow(at(Phase.PLAYING, 1), 3.0) == 3.0
    assert pace.count_in_left(at(Phase.PLAYING, 1), 3.0) == 0


def test_a_rematchs_first_round_has_no_scores_to_see_R54() -> None:
    """P-149: rounds count from 1 in each game; the rematch's START begins its first."""
    pace = Pace()
    pace.follow(at(Phase.OVER, 3), 0.0)
    rematch = at(Phase.DEALING, 4)
    rematch.rounds_before = 3
    assert pace.follow(rematch, 1.0) is None
    assert not pace.seen_due(1.0) and not pace.look()
    second = at(Phase.DEALING, 5)
    second.rounds_before = 3
    assert pace.follow(second, 9.0) == 9.0 + SCORES_S


def test_a_round_already_under_way_when_it_is_final_here_has_no_count_in_P259() -> None:
    """P-259: a node that restores its log, or catches up after a rejoin, applies the round's
    start and its first moves moments apart: it counts in no round being played. A live
    round's first move comes after its mover's count-in, and leaves ours alone."""
    caught_up = Pace()
    playing = at(Phase.PLAYING, 3)
    assert caught_up.follow(playing, 50.0) == 50.0 + COUNT_IN_S
    playing.steps.append((1, "a move of seat 1"))
    assert caught_up.follow(playing, 50.1) is None
    assert caught_up.count_in_left(playing, 50.1) == 0
    live = Pace()
    round_one = at(Phase.PLAYING, 1)
    live.follow(round_one, 10.0)
    round_one.steps.append((0, False))  # a player left during the count-in: no move
    live.follow(round_one, 10.2)
    assert live.count_in_left(round_one, 10.5) == COUNT_IN_S - 0.5
    round_one.steps.append((1, "the first move, after its mover's count-in"))
    live.follow(round_one, 10.0 + COUNT_IN_S - 0.1)
    assert live.count_in_left(round_one, 10.0 + COUNT_IN_S - 0.1) > 0
