"""A bot that never waits keeps a few moves on its own cards in flight, never past a race."""

from __future__ import annotations

import random

from dutchblitz.protocol.games.blitz.bots import LEVELS
from dutchblitz.protocol.seat.duties import Steward, Wishes
from dutchblitz.protocol.wire.messages import Body, MoveKind, Play

from tests.protocol.replicas import NODE_IDS, Net, RandomSchedule

OWN_CARDS = (MoveKind.POST, MoveKind.FLIP, MoveKind.TURN)


def _steward(net: Net, index: int, level_name: str) -> Steward:
    def submit(body: Body) -> bool:
        net.submit(index, body)
        return True

    level = LEVELS[level_name]
    node = NODE_IDS[index]

    def draw(purpose: str) -> random.Random:  # as the node draws for ``--seed 1``
        return random.Random(f"1-{node.hex()}-{purpose}")

    return Steward(node, Wishes(f"p{index}"), level, draw, lambda n, s: None, submit)


def test_a_flat_out_bot_pipelines_only_moves_on_its_own_cards() -> None:
    rng = random.Random(3)
    net = Net(2)
    net.open_table()
    net.lobby()
    net.deal()
    bot = _steward(net, 0, "flat-out")
    limit = LEVELS["flat-out"].in_flight
    assert limit > 1
    most = 0
    for _ in range(300):
        bot.step(net.replica(0))
        pending = net.replica(0).pending_own()
        assert len(pending) <= limit
        plays = [body for body in pending if isinstance(body, Play)]
        assert len(plays) == len(pending)
        # A centre play or a stuck call is only ever the last of ours in flight.
        assert all(play.move in OWN_CARDS for play in plays[:-1])
        most = max(most, len(pending))
        net.run(RandomSchedule(rng), budget=rng.randrange(1, 6))
        net.tick_all()
    assert most > 1
    assert net.replica(0).stable.refused == net.replica(1).stable.refused


def test_a_bot_with_a_think_time_keeps_one_move_in_flight() -> None:
    net = Net(2)
    net.open_table()
    net.lobby()
    net.deal()
    bot = _steward(net, 0, "fast")
    for _ in range(40):
        bot.step(net.replica(0))
        assert len(net.replica(0).pending_own()) <= 1
        net.run(budget=3)
        net.tick_all()
