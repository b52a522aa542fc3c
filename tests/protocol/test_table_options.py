"""The table's options come from the START and hold for the whole game (R-19, R-53, P-141)."""

from __future__ import annotations

import random

from dutchblitz.protocol.games.blitz import rules
from dutchblitz.protocol.games.blitz.moves import PostPlay, Source
from dutchblitz.protocol.games.blitz.plays import legal_moves
from dutchblitz.protocol.games.blitz.rules import Reason, Refusal
from dutchblitz.protocol.table.state import Phase

from tests.protocol.replicas import NODE_IDS, Net


def _round_over(net: Net, rng: random.Random) -> None:
    """Everyone plays random legal moves, one in flight each, until the round is over."""
    number = net.replica(0).stable.round
    for _ in range(3000):
        game = net.replica(0).stable
        if game.round != number or game.phase == Phase.OVER:
            return
        for index in net.player_indexes():
            replica = net.replica(index)
            mine = replica.optimistic()
            seat = mine.seat_of(NODE_IDS[index])
            if replica.pending_own() or mine.table is None or seat not in mine.table.areas:
                continue
            moves = legal_moves(mine.table, seat)
            if moves:
                net.play(index, rng.choice(moves))
        net.settle()
    raise AssertionError("the round did not end")


def test_R19_R53_P141_a_start_without_post_stacking_holds_for_every_round() -> None:
    net = Net(2)
    net.open_table()
    net.lobby(post_stacking=False, target=200)
    for number in (1, 2):
        net.deal()
        for index in range(2):
            game = net.replica(index).stable
            assert game.round == number and not game.post_stacking
            assert game.table is not None and not game.table.post_stacking
            area = game.table.areas[game.seat_of(NODE_IDS[index]) or 0]
            top = area.blitz[-1]
            assert top is not None
            move = PostPlay(area.seat, Source.BLITZ, top, 0, None)
            assert rules.apply(game.table.copy(), move) == Refusal(Reason.STACKING_OFF)
            assert not any(isinstance(m, PostPlay) for m in legal_moves(game.table, area.seat))
        _round_over(net, random.Random(number))
