"""The lobby's choice of game at the node: the START a node sends names the game its
player chose (P-241) only when it is not the one the table hosts; a START that names a
game is judged by that game's rules; bots keep their place in the levels of the game
the table plays."""

from __future__ import annotations

import pytest
from dutchblitz.node.cli.main import build_parser, options_from_args
from dutchblitz.node.session_lobby import length_wish
from dutchblitz.protocol.games import registry
from dutchblitz.protocol.games.blitz.bots import LEVELS
from dutchblitz.protocol.games.dutch.bots import BotLevel
from dutchblitz.protocol.games.dutch.game import DutchGame
from dutchblitz.protocol.seat.duties import (
    Wishes,
    can_start,
    lobby_duty,
    our_start,
    started_game,
    table_options,
)
from dutchblitz.protocol.table.rules import AnyGame
from dutchblitz.protocol.table.state import Game
from dutchblitz.protocol.wire.messages import Admit, Ready, Start

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
    assert registry.level_name(expected) in registry.game_for(tag).levels


def test_every_game_s_levels_are_known() -> None:
    assert {"easy", "normal", "fast", "flat-out", "forgetful", "careful"} <= registry.all_levels()


def test_P237_our_start_carries_rounds_only_to_a_game_that_offers_them() -> None:
    game = _ready_lobby(A, B, C)
    me = game.members[A]
    wishes = Wishes(me.name, ready=True, start_at=3, target=60, rounds=5)
    assert our_start(wishes, game) == Start(60, True)  # Dutch Blitz: played to a target
    wishes.game = "dutch"
    assert our_start(wishes, game) == Start(60, True, 5, "dutch")
    assert lobby_duty(game, me, wishes, game) == Start(60, True, 5, "dutch")


def test_the_rounds_flag() -> None:
    assert options_from_args(build_parser().parse_args(["--join"])).rounds is None
    args = build_parser().parse_args(["--join", "--game", "dutch", "--rounds", "5"])
    assert options_from_args(args).rounds == 5


class _TwoRounds(DutchGame):
    """Dutch, as a game whose usual length is two rounds."""

    default_rounds = 2


@pytest.mark.parametrize(
    ("rules", "chosen", "carried"),
    [
        (_TwoRounds(), None, 2),  # none chosen: the game's usual length
        (_TwoRounds(), 5, 5),  # chosen: the player's
        (DutchGame(), None, None),  # Dutch's usual length is its target
        (registry.game_for("blitz"), 5, None),  # Dutch Blitz offers no rounds (P-237)
    ],
)
def test_P237_a_start_carries_the_game_s_usual_rounds_where_none_are_chosen(
    rules: AnyGame, chosen: int | None, carried: int | None
) -> None:
    game = Game(rules=rules)
    wishes = Wishes("Ada", target=60, rounds=chosen)
    assert our_start(wishes, game) == Start(60, True, carried)
    options = table_options(wishes, game)
    assert options is not None and options.rounds == (carried or 0)


@pytest.mark.parametrize(
    ("target", "rounds", "wished"),
    [
        (50, None, (50, None)),
        (0, 3, (75, 3)),  # P-238: with rounds the target ends nothing; 0 keeps the one kept
        (60, 3, (60, 3)),
        (0, None, None),  # a target of 0 ends nothing: refused
        (75, 0, None),
        (1001, None, None),
        (0, 101, None),
    ],
)
def test_P238_a_length_with_rounds_may_leave_the_target_as_it_is(
    target: int, rounds: int | None, wished: tuple[int, int | None] | None
) -> None:
    assert length_wish(target, rounds, 75) == wished
