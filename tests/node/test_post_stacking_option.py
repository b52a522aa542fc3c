"""Post stacking at the node: the flag, the START it sends (P-142), the summary (P-143)."""

from __future__ import annotations

from dutchblitz.node.cli.main import build_parser, options_from_args
from dutchblitz.node.seat.ending import game_summary
from dutchblitz.protocol.seat.duties import Wishes, lobby_duty
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.wire.messages import Admit, Ready, Start

A, B = b"a" * 16, b"b" * 16


def _ready_lobby() -> Game:
    game = Game()
    assert game.apply(A, Admit(A, 1)).accepted
    assert game.apply(A, Admit(B, 1)).accepted
    for node in (A, B):
        assert game.apply(node, Ready(True)).accepted
    return game


def test_P142_a_node_starts_the_game_with_its_players_choice() -> None:
    game = _ready_lobby()
    me = game.members[A]
    off = Wishes(me.name, ready=True, start_at=2, target=30, post_stacking=False)
    assert lobby_duty(game, me, off, game) == Start(30, False)
    on = Wishes(me.name, ready=True, start_at=2, target=30)
    assert lobby_duty(game, me, on, game) == Start(30, True)


def test_the_flag_turns_post_stacking_off() -> None:
    assert options_from_args(build_parser().parse_args(["--join"])).post_stacking
    args = build_parser().parse_args(["--join", "--no-post-stacking"])
    assert not options_from_args(args).post_stacking


def test_P143_the_summary_names_the_games_choice() -> None:
    game = _ready_lobby()
    assert game.apply(A, Start(40, False)).accepted
    assert game.phase == Phase.DEALING
    summary = game_summary("kitchen", game, b"\0" * 16)
    assert summary["post_stacking"] is False and summary["target"] == 40
