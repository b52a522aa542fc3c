"""A fair start to every round: play waits until every present player has seen the scores.

spec/rules.md R-54, spec/protocol.md section 22 (P-147, P-148). Whole tables of
replicas play round 1 to its end; then some players hold back the READY that says
they have seen the scores, and the table must not begin round 2 until they send it,
leave, or are removed.
"""

from __future__ import annotations

import pytest
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.wire.messages import Admit, Body, Bye, Ready, Start

from tests.protocol.replicas import NODE_IDS, Net
from tests.protocol.test_fair_deal import _dealt, _play_round
from tests.protocol.test_rematch import NODES, game_over


def _round_two_dealt(looking: set[int], players: int = 3) -> Net:
    """Round 1 played to its end; round 2 committed, shared and dealt by everyone, while
    the players in ``looking`` have not said that they saw the scores."""
    net = _dealt(players)
    _play_round(net)
    net.looking = set(looking)
    net.deal()
    return net


def _fully_dealt(game: Game) -> bool:
    present = {m.seat for m in game.members.values() if m.present}
    return game.joint is not None and all(
        seat in game.deals for seat in game.dealers if seat in present
    )


@pytest.mark.parametrize("looking", [{2}, {0, 2}, {0, 1, 2}])
def test_round_two_begins_only_once_every_present_player_has_seen_the_scores_R54(
    looking: set[int],
) -> None:
    """P-148, R-54: every deck is dealt, yet the round waits for each player's READY."""
    net = _round_two_dealt(looking)
    for index in range(3):
        game = net.replica(index).stable
        assert (game.round, game.phase) == (2, Phase.DEALING)
        assert _fully_dealt(game), "only the READYs are missing"
        assert game.still_looking() == sorted(looking)
        assert game.table is None
    for index in sorted(looking):
        net.submit(index, Ready(True))
        net.settle()
        game = net.replica(0).stable
        done = index == max(looking)
        assert game.phase == (Phase.PLAYING if done else Phase.DEALING)
    assert len({net.replica(i).digest() for i in range(3)}) == 1
    assert all(net.replica(i).stable.still_looking() == [] for i in range(3))


def test_a_player_who_says_goodbye_while_looking_does_not_hold_the_round_R54() -> None:
    """P-148, R-54: the READYs are counted over the present players only."""
    net = _round_two_dealt({2})
    net.submit(2, Bye())
    net.settle()
    for index in (0, 1):
        game = net.replica(index).stable
        assert game.phase == Phase.PLAYING and game.table is not None
        assert not game.table.areas[2].active


def test_a_player_removed_while_looking_does_not_hold_the_round_R54() -> None:
    """P-148, R-54: a removal (an agreed SUSPECT) lets the round begin without it."""
    game = _round_two_dealt({2}).replica(0).stable.copy()
    game.leave(NODE_IDS[2])
    assert game.phase == Phase.PLAYING and game.table is not None
    assert not game.table.areas[2].active


def test_a_player_who_comes_back_must_say_again_that_it_has_seen_R54() -> None:
    """R-54: leaving forgets the READY; a returning player holds the round until it sends one."""
    game = _round_two_dealt({1, 2}).replica(0).stable.copy()
    assert game.apply(NODE_IDS[2], Ready(True)).accepted
    game.leave(NODE_IDS[2])
    assert game.apply(NODE_IDS[0], Admit(NODE_IDS[2], 500)).accepted
    assert game.still_looking() == [1, 2]
    assert game.apply(NODE_IDS[1], Ready(True)).accepted
    assert game.phase == Phase.DEALING
    assert game.apply(NODE_IDS[2], Ready(True)).accepted
    assert game.phase == Phase.PLAYING


def _in_lobby() -> Game:
    net = Net(2)
    net.open_table()
    return net.replica(0).stable.copy()


def _in_round_one_dealing() -> Game:
    net = Net(2)
    net.open_table()
    net.lobby()
    return net.replica(0).stable.copy()


def _in_round_two_dealing() -> Game:
    return _round_two_dealt({0, 1}, players=2).replica(0).stable.copy()


def _in_round_one_playing() -> Game:
    return _dealt(2).replica(0).stable.copy()


# (where, who, body, the refusal or None, what the sender's ready is after it)
CASES: list[tuple[str, int, Body, str | None, bool]] = [
    ("lobby", 0, Ready(True), None, True),
    ("lobby", 1, Ready(False), None, False),
    ("round 1 dealing", 0, Ready(True), "nothing_to_see", True),
    ("round 2 dealing", 0, Ready(True), None, True),
    ("round 2 dealing", 0, Ready(False), "seen_only", False),
    ("round 1 playing", 0, Ready(True), "not_in_playing", True),
]
MAKERS = {
    "lobby": _in_lobby,
    "round 1 dealing": _in_round_one_dealing,
    "round 2 dealing": _in_round_two_dealing,
    "round 1 playing": _in_round_one_playing,
}


@pytest.mark.parametrize(("where", "who", "body", "refusal", "ready"), CASES)
def test_ready_in_each_phase_R54(
    where: str, who: int, body: Body, refusal: str | None, ready: bool
) -> None:
    """P-147: READY keeps its lobby meaning, and while dealing round 2 on says "seen"."""
    game = MAKERS[where]()
    before = game.public_form()
    outcome = game.apply(NODE_IDS[who], body)
    assert outcome.refusal == refusal
    if refusal is not None:
        assert game.public_form()[1:12] == before[1:12], "a refusal changes nothing"
    assert game.members[NODE_IDS[who]].ready is ready


def test_seen_counts_once_per_player_and_round_R54() -> None:
    """P-147: a second READY of the same round is refused `already_seen`."""
    game = _in_round_two_dealing()
    assert game.apply(NODE_IDS[0], Ready(True)).accepted
    assert game.apply(NODE_IDS[0], Ready(True)).refusal == "already_seen"
    assert game.still_looking() == [1]


def test_a_rematchs_first_round_needs_no_seen_and_its_second_does_R54() -> None:
    """P-147: rounds count from 1 in each game (R-52): a rematch's START begins its first."""
    game = game_over()
    for seat in range(3):
        assert game.apply(NODES[seat], Ready(True)).accepted  # each wants a rematch
    assert game.apply(NODES[0], Start(40, True)).accepted
    assert (game.phase, game.shown_round()) == (Phase.DEALING, 1) and game.round == 4
    assert game.still_looking() == []
    assert game.apply(NODES[1], Ready(True)).refusal == "nothing_to_see"
    assert all(m.ready for m in game.members.values()), "the rematch's wish stands"
