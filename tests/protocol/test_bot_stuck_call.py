"""A bot waits for the lapse of its own stuck call to be final, as a person does (P-153).

Three replicas on the in-memory network of tests/protocol/replicas.py, with a deal in
which no 1 is face up. Seat 0 is a bot's steward; its stuck call is final. Then its own
table lapses the call before the order has: either another player's centre play, or
the last stuck call that makes a stalemate, has reached it but is not final yet. The
bot sends nothing until it is, and plays again once it is.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from dutchblitz.protocol.games.blitz.bots import LEVELS
from dutchblitz.protocol.games.blitz.cards import Colour
from dutchblitz.protocol.games.blitz.moves import Source, StuckCall
from dutchblitz.protocol.games.blitz.plays import centre_play
from dutchblitz.protocol.seat.duties import Steward, Wishes
from dutchblitz.protocol.wire.messages import Body

from tests.protocol.replicas import NODE_IDS, Net, blitz_top, deck_order

GREEN, RED = Colour.GREEN, Colour.RED


def _stuck_table(red_one: bool) -> Net:
    """Three players and no 1 face up, but player 1's red 1 on its first Post stack if asked."""
    greens = {place: (GREEN, place + 5) for place in range(4)}
    top = blitz_top(3)
    ones = {0: (RED, 1)} if red_one else {}
    net = Net(3)
    net.open_table()
    net.lobby()
    net.deal(
        {
            0: deck_order(0, 3, {**greens, top: (GREEN, 10)}),
            1: deck_order(1, 3, {**greens, **ones, top: (GREEN, 10)}),
            2: deck_order(2, 3, {**greens, top: (GREEN, 10)}),
        }
    )
    return net


def _bot(net: Net, level: str = "flat-out") -> Steward:
    def submit(body: Body) -> bool:
        net.submit(0, body)
        return True

    def draw(purpose: str) -> random.Random:
        return random.Random(f"1-{NODE_IDS[0].hex()}-{purpose}")

    return Steward(NODE_IDS[0], Wishes("p0"), LEVELS[level], draw, lambda n, s: None, submit)


def _stuck(net: Net, index: int) -> None:
    net.play(index, StuckCall(net.seat(index)))


def _lapse_by_a_centre_play(net: Net) -> None:
    one = centre_play(net.view(1), net.seat(1), Source.POST, 0)
    assert one is not None
    net.play(1, one)
    net.deliver_where(lambda f: f.source == 1 and f.target == 0)


def _lapse_by_a_stalemate(net: Net) -> None:
    _stuck(net, 1)
    net.settle()
    _stuck(net, 2)
    net.deliver_where(lambda f: f.source == 2 and f.target == 0)


@pytest.mark.parametrize(
    ("lapse", "red_one"),
    [(_lapse_by_a_centre_play, True), (_lapse_by_a_stalemate, False)],
    ids=["centre play", "stalemate"],
)
def test_a_bot_plays_only_once_the_lapse_of_its_stuck_call_is_final(
    lapse: Callable[[Net], None], red_one: bool
) -> None:
    net = _stuck_table(red_one)
    bot = _bot(net)
    seat = net.seat(0)
    _stuck(net, 0)
    net.settle()
    lapse(net)
    replica = net.replica(0)
    assert replica.stable.table is not None and replica.stable.table.areas[seat].stuck
    assert not net.view(0).areas[seat].stuck, "the call has lapsed on the bot's own table"
    for _ in range(5):
        bot.step(replica)
        assert replica.pending_own() == [], "the bot played on a lapse not final yet"
    net.settle(until=lambda: not any(net.replica(i).pending for i in range(3)))
    assert replica.stable.table is not None and not replica.stable.table.areas[seat].stuck
    bot.step(replica)
    assert replica.pending_own(), "the bot plays again once the lapse is final"
    net.settle()
    assert len({net.replica(i).digest() for i in range(3)}) == 1
