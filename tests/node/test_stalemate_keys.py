"""Keys around a stalemate: the stuck call that completes it turns it at once, and the
next key goes at once, not one step behind (spec/rules.md R-23, R-24; spec/protocol.md
P-153). Real replicas on the in-memory network, player 0 pressing keys through a
``PlayQueue`` as ``NodeSession.act`` does."""

from __future__ import annotations

from dutchblitz.protocol.games.blitz.cards import Colour
from dutchblitz.protocol.games.blitz.moves import StuckCall
from dutchblitz.protocol.games.blitz.playqueue import PlayQueue
from dutchblitz.protocol.games.blitz.plays import flip_or_turn
from dutchblitz.protocol.games.blitz.state import Table
from dutchblitz.protocol.wire.messages import Body, Play

from tests.protocol.replicas import NODE_IDS, Net, blitz_top, deck_order

GREEN = Colour.GREEN


def _stuck_table() -> Net:
    """Three players with no 1 face up anywhere: nobody has a centre play."""
    greens = {place: (GREEN, place + 5) for place in range(4)}
    top = blitz_top(3)
    net = Net(3)
    net.open_table()
    net.lobby()
    net.deal({i: deck_order(i, 3, {**greens, top: (GREEN, 10)}) for i in range(3)})
    return net


def _queue(net: Net) -> PlayQueue:
    def submit(body: Body) -> bool:
        net.submit(0, body)
        return True

    return PlayQueue(NODE_IDS[0], submit)


def _stable(net: Net) -> Table:
    table = net.replica(0).stable.table
    assert table is not None
    return table


def _press_flip(net: Net, queue: PlayQueue) -> None:
    game = queue.view(net.replica(0))
    assert game.table is not None
    move = flip_or_turn(game.table, net.seat(0))
    assert move is not None
    assert queue.offer(net.replica(0), move, game.round)


def test_the_last_stuck_call_turns_the_stalemate_and_the_next_keys_go_at_once() -> None:
    net = _stuck_table()
    for index in (1, 2):
        net.play(index, StuckCall(net.seat(index)))
    net.settle()
    queue = _queue(net)
    hand = list(_stable(net).areas[net.seat(0)].hand)
    game = queue.view(net.replica(0))
    assert queue.offer(net.replica(0), StuckCall(net.seat(0)), game.round)
    assert not queue.held  # sent, not held: nothing of ours was in flight
    net.settle()
    table = _stable(net)
    assert table.stalemates == 1  # at once, with the call that left everyone stuck
    assert not any(area.stuck for area in table.areas.values())
    assert table.areas[net.seat(0)].hand == [hand[-1], *hand[:-1]]
    for press in range(12):  # more than a whole pass through the hand, Wood turn included
        _press_flip(net, queue)
        assert not queue.held, f"press {press + 1} was held"
        assert [b for b in net.replica(0).pending_own() if isinstance(b, Play)]
        net.settle()
        assert not net.replica(0).pending_own()
    assert _stable(net).stalemates == 1
    assert len({net.replica(i).digest() for i in range(3)}) == 1


def test_a_stuck_call_pressed_behind_a_flip_in_flight_waits_then_turns_the_stalemate() -> None:
    net = _stuck_table()
    for index in (1, 2):
        net.play(index, StuckCall(net.seat(index)))
    net.settle()
    queue = _queue(net)
    _press_flip(net, queue)
    game = queue.view(net.replica(0))
    assert queue.offer(net.replica(0), StuckCall(net.seat(0)), game.round)
    assert len(queue.held) == 1  # a stuck call reads every place: it waits for the flip
    view = queue.view(net.replica(0)).table
    assert view is not None and view.stalemates == 1  # the screen shows it turned already
    net.settle(until=lambda: not net.replica(0).pending_own())
    assert queue.pump(net.replica(0)) == []
    assert not queue.held
    net.settle()
    assert _stable(net).stalemates == 1
    _press_flip(net, queue)
    assert not queue.held


def test_stuck_first_then_the_others_the_last_call_turns_it_at_once() -> None:
    """R-24 whoever calls last: our call stands, and the others' calls complete it."""
    net = _stuck_table()
    queue = _queue(net)
    game = queue.view(net.replica(0))
    assert queue.offer(net.replica(0), StuckCall(net.seat(0)), game.round)
    net.settle()
    net.play(1, StuckCall(net.seat(1)))
    net.settle()
    assert _stable(net).stalemates == 0 and _stable(net).areas[net.seat(0)].stuck
    net.play(2, StuckCall(net.seat(2)))
    net.settle()
    assert _stable(net).stalemates == 1
    assert queue.pump(net.replica(0)) == []
    _press_flip(net, queue)
    assert not queue.held  # the lapse is final: the flip goes at once (P-153)
