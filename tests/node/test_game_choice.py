"""The lobby's choice of game at the node: the START a node sends names the game its
player chose (P-241) only when it is not the one the table hosts; a START that names a
game is judged by that game's rules; bots keep their place in the levels of the game
the table plays."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.duties import Wishes, can_start, lobby_duty, started_game
from dutchblitz.protocol.games import registry
from dutchblitz.protocol.games.blitz.bots import LEVELS
from dutchblitz.protocol.games.dutch.bots import BotLevel
from dutchblitz.protocol.messages import Admit, Ready, Start
from dutchblitz.protocol.table.game import Game

A, B, C = b"a" * 16, b"b" * 16, b"c" * 16


def _ready_lobby(*nodes: bytes) -> Game:
    game = Game()
    assert game.apply(nodes[0], Admit(nodes[0], 1)).accepted
    for node in nodes[1:]:
        assert game.apply(nodes[0], Admit(node, 1)).accepted
    for node in nodes:
        assert game.apply(node, Ready(True)).accepted
    return game


@pytest.mark.parametrize(
    ("wished", "named"),
    [(None, None), ("blitz", None), ("dutch", "dutch")],
)
def test_P241_a_start_names_the_game_only_when_it_is_another(
    wished: str | None, named: str | None
) -> None:
    game = _ready_lobby(A, B, C)
    me = game.members[A]
    wishes = Wishes(me.name, ready=True, start_at=3, target=30, game=wished)
    assert started_game(wishes, game) == named
    assert lobby_duty(game, me, wishes, game) == Start(30, True, game=named)


def test_P241_the_named_game_s_rules_judge_the_seats() -> None:
    two = _ready_lobby(A, B)
    assert can_start(two, A)  # Dutch Blitz: 2 players are enough
    assert not can_start(two, A, named="dutch")  # Dutch: 3 at least (D-4)
    wishes = Wishes(two.members[A].name, ready=True, start_at=2, game="dutch")
    assert lobby_duty(two, two.members[A], wishes, two) is None
    assert can_start(_ready_lobby(A, B, C), A, named="dutch")


@pytest.mark.parametrize(
    ("tag", "level", "expected"),
    [
        ("blitz", "fast", LEVELS["fast"]),  # its own game's level
        ("blitz", LEVELS["easy"], LEVELS["easy"]),
        ("dutch", "forgetful", BotLevel.FORGETFUL),
        ("dutch", "easy", BotLevel.FORGETFUL),  # first for first
        ("dutch", LEVELS["normal"], BotLevel.CAREFUL),  # second for second
        ("dutch", "flat-out", BotLevel.CAREFUL),  # past the end: the last
        ("blitz", BotLevel.CAREFUL, LEVELS["normal"]),
        ("blitz", "forgetful", LEVELS["easy"]),
        ("blitz", "no-such-level", LEVELS["easy"]),  # unknown: the first
    ],
)
def test_a_bot_level_of_one_game_stands_for_the_same_place_in_another(
    tag: str, level: object, expected: object
) -> None:
    assert registry.level_in(tag, level) == expected
    assert registry.level_name(expected) in registry.player_for(tag).levels


def test_every_game_s_levels_are_known() -> None:
    assert {"easy", "normal", "fast", "flat-out", "forgetful", "careful"} <= registry.all_levels()
