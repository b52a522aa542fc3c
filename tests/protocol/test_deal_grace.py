"""The deal waits a while for a player removed without a goodbye (spec/rules.md R-56, R-57)."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.games.blitz.game import deck_order
from dutchblitz.protocol.games.blitz.state import visible_codes
from dutchblitz.protocol.seat.deal_duties import Grace, grace_duty
from dutchblitz.protocol.table.fairdeal import secret_hash, share_hash
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.wire.messages import (
    Admit,
    Body,
    Bye,
    Commit,
    Deal,
    Ready,
    Share,
    Start,
    Suspect,
)

from tests.protocol.replicas import NODE_IDS


def _started(players: int = 3) -> Game:
    game = Game()
    for seat in range(players):
        assert game.apply(NODE_IDS[0], Admit(NODE_IDS[seat], 1)).accepted
        assert game.apply(NODE_IDS[seat], Ready(True)).accepted
    assert game.apply(NODE_IDS[0], Start(75, True)).accepted
    return game


def _secret(seat: int) -> bytes:
    return bytes([seat + 1]) * 32


def _share(seat: int) -> bytes:
    return bytes([seat + 101]) * 32


def _commit(seat: int) -> Commit:
    node = NODE_IDS[seat]
    return Commit(1, secret_hash(node, 1, _secret(seat)), share_hash(node, 1, _share(seat)))


def _removed(game: Game, seat: int) -> None:
    assert game.apply(NODE_IDS[0], Suspect(NODE_IDS[seat], 0)).accepted
    assert not game.members[NODE_IDS[seat]].present


def test_the_deal_waits_for_a_removed_player_and_deals_it_in_on_its_return_R56() -> None:
    game = _started()
    _removed(game, 2)
    assert game.awaited() == [2]
    for seat in (0, 1):
        assert game.apply(NODE_IDS[seat], _commit(seat)).accepted
    assert not game.commits_closed, "the commitments wait for the player away"
    assert game.apply(NODE_IDS[0], Admit(NODE_IDS[2], 9)).accepted
    assert game.awaited() == []
    assert game.apply(NODE_IDS[2], _commit(2)).accepted
    assert game.commits_closed
    for seat in range(3):
        assert game.apply(NODE_IDS[seat], Share(1, _share(seat))).accepted
    assert game.joint is not None and game.dealers == (0, 1, 2)
    for seat in range(3):
        order = deck_order(seat, _secret(seat), game.joint)
        assert game.apply(NODE_IDS[seat], Deal(1, visible_codes(order, 3), b"")).accepted
    assert game.phase == Phase.PLAYING and game.table is not None
    assert game.table.areas[2].active


def test_a_player_removed_after_committing_holds_the_shares_until_the_grace_ends_R56() -> None:
    game = _started()
    for seat in range(3):
        game.apply(NODE_IDS[seat], _commit(seat))
    _removed(game, 1)
    for seat in (0, 2):
        game.apply(NODE_IDS[seat], Share(1, _share(seat)))
    assert game.joint is None, "it committed: the joint randomness waits for its share"
    assert game.apply(NODE_IDS[2], Start(75, True)).accepted
    assert game.dealers == (0, 2)


def test_a_start_in_the_deal_ends_the_wait_R57() -> None:
    game = _started()
    assert game.apply(NODE_IDS[1], Start(75, True)).refusal == "nobody_away"
    _removed(game, 2)
    for seat in (0, 1):
        game.apply(NODE_IDS[seat], _commit(seat))
    assert game.apply(NODE_IDS[1], Start(80, True)).refusal == "not_this_game"
    assert game.apply(NODE_IDS[1], Start(75, False)).refusal == "not_this_game"
    assert game.apply(NODE_IDS[1], Start(75, True)).accepted
    assert game.commits_closed and game.awaited() == []
    assert game.apply(NODE_IDS[1], Start(75, True)).refusal == "nobody_away"
    assert game.apply(NODE_IDS[0], Admit(NODE_IDS[2], 9)).accepted
    assert game.apply(NODE_IDS[2], _commit(2)).refusal == "commits_closed", "back too late"


def test_a_goodbye_is_not_waited_for_R56() -> None:
    game = _started()
    assert game.apply(NODE_IDS[2], Bye()).accepted
    for seat in (0, 1):
        game.apply(NODE_IDS[seat], _commit(seat))
    assert game.awaited() == [] and game.commits_closed


def test_nobody_away_leaves_the_digest_form_as_it_was() -> None:
    game = _started()
    before = game.public_form()
    _removed(game, 2)
    assert game.public_form()[-1] == [2]
    assert game.apply(NODE_IDS[0], Admit(NODE_IDS[2], 9)).accepted
    assert len(game.public_form()) == len(before)
    copied = game.copy()
    _removed(copied, 1)
    assert game.away == set() and copied.away == {1}


GRACE = Grace(seconds=10.0, step=1.0)


@pytest.mark.parametrize(
    ("seat", "silent", "pending", "sends"),
    [
        (0, 9.9, [], False),  # within the grace
        (0, 10.0, [], True),  # the lowest present seat speaks first
        (1, 10.5, [], False),  # the next one waits a step longer
        (1, 11.0, [], True),
        (0, 30.0, [Start(75, True)], False),  # one already on its way
    ],
)
def test_the_grace_duty_R57(seat: int, silent: float, pending: list[Body], sends: bool) -> None:
    game = _started()
    _removed(game, 2)
    away = NODE_IDS[2]

    def silent_for(node: bytes) -> float:
        return silent if node == away else 0.0

    body = grace_duty(game, NODE_IDS[seat], pending, silent_for, GRACE)
    assert body == (Start(75, True) if sends else None)


def test_no_grace_duty_when_nobody_is_away_or_for_the_one_away_R57() -> None:
    game = _started()
    assert grace_duty(game, NODE_IDS[0], [], lambda node: 99.0, GRACE) is None
    _removed(game, 2)
    assert grace_duty(game, NODE_IDS[2], [], lambda node: 99.0, GRACE) is None
