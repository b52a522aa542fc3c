"""Plays made while earlier ones are in flight: taken, sent in order, re-checked after a loss.

Real replicas on the in-memory network of tests/protocol/replicas.py, with chosen deals.
Player 0 presses keys through a ``PlayQueue`` the way the terminal table does
(``NodeSession.act``): the move is built on the queue's view and offered.
spec/protocol.md section 23: P-151, P-152, P-153, P-154, P-155 and P-156.
"""

from __future__ import annotations

from dutchblitz.protocol.games.blitz.cards import Card, Colour, card
from dutchblitz.protocol.games.blitz.moves import CentrePlay, Move, Source, StuckCall
from dutchblitz.protocol.games.blitz.playqueue import PlayQueue
from dutchblitz.protocol.games.blitz.plays import centre_play, wood_flip
from dutchblitz.protocol.games.blitz.rules import Reason
from dutchblitz.protocol.games.blitz.wire_moves import play_from_move
from dutchblitz.protocol.replica.core import Replica
from dutchblitz.protocol.table.state import Phase
from dutchblitz.protocol.wire.codec import decode
from dutchblitz.protocol.wire.messages import Body, Event, Play

from tests.protocol.replicas import NODE_IDS, Net, blitz_top, deck_order

RED, BLUE, GREEN, YELLOW = Colour.RED, Colour.BLUE, Colour.GREEN, Colour.YELLOW
TOP = blitz_top(2)  # place of the Blitz top in a deck order; TOP - 1 is the card below it
FIRST_FLIP_SHOWS = TOP + 3  # the hand's third card: the Wood top after the first flip


def _table(p0: dict[int, tuple[Colour, int]], p1: dict[int, tuple[Colour, int]]) -> Net:
    net = Net(2)
    net.open_table()
    net.lobby()
    net.deal({0: deck_order(0, 2, p0), 1: deck_order(1, 2, p1)})
    return net


def _queue(net: Net, index: int = 0) -> PlayQueue:
    def submit(body: Body) -> bool:
        net.submit(index, body)
        return True

    return PlayQueue(NODE_IDS[index], submit)


def _press(net: Net, queue: PlayQueue, source: Source, slot: int = 0) -> CentrePlay:
    """A centre key, as ``NodeSession.act`` handles it: built on the view, then offered."""
    game = queue.view(net.replica(0))
    assert game.table is not None
    move = centre_play(game.table, net.seat(0), source, slot)
    assert move is not None, f"no centre play from {source.name} {slot}"
    assert queue.offer(net.replica(0), move, game.round)
    return move


def _sent_plays(net: Net, index: int = 0) -> list[Play]:
    return [b for b in net.replica(index).pending_own() if isinstance(b, Play)]


def _centre(net: Net, index: int) -> list[list[Card]]:
    table = net.replica(index).stable.table
    assert table is not None
    return [pile.cards for pile in table.piles]


def _agree(net: Net) -> None:
    assert net.replica(0).digest() == net.replica(1).digest()
    assert not net[0].alarms and not net[1].alarms


def test_two_plays_on_different_piles_go_at_once_and_both_count() -> None:
    """The `a` then `w` of the issue: a Post card and the Wood top, pressed back to back."""
    net = _table({0: (BLUE, 1), FIRST_FLIP_SHOWS: (YELLOW, 1)}, {})
    flip = wood_flip(net.view(0), net.seat(0))
    assert flip is not None
    net.play(0, flip)
    net.settle()
    queue = _queue(net)
    post = _press(net, queue, Source.POST, 0)
    wood = _press(net, queue, Source.WOOD)
    # Neither waited for the other: both are on their way (P-151, P-152).
    assert [p.card for p in _sent_plays(net)] == [post.card.code, wood.card.code]
    assert not queue.held
    net.settle()
    assert _centre(net, 1) == [[card(0, BLUE, 1)], [card(0, YELLOW, 1)]]
    _agree(net)


def test_a_play_on_a_pile_in_flight_is_held_shown_and_sent_when_the_first_is_final() -> None:
    net = _table({TOP: (RED, 1), TOP - 1: (RED, 2), TOP - 2: (GREEN, 9)}, {})
    queue = _queue(net)
    first = _press(net, queue, Source.BLITZ)
    second = _press(net, queue, Source.BLITZ)  # the red 2 the first turned up
    assert second.card == card(0, RED, 2)
    assert len(_sent_plays(net)) == 1 and len(queue.held) == 1  # P-152
    view = queue.view(net.replica(0)).table
    assert view is not None and view.piles[0].cards == [first.card, second.card]
    net.settle(until=lambda: not net.replica(0).pending_own())
    assert queue.pump(net.replica(0)) == []
    assert not queue.held and len(_sent_plays(net)) == 1  # sent in its turn (P-154)
    net.settle()
    assert _centre(net, 1) == [[card(0, RED, 1), card(0, RED, 2)]]
    _agree(net)


def _race_table() -> Net:
    """Seat 1 has a red 1 down and a red 2 on its Post row; seat 0's Blitz top is a red 2."""
    net = _table(
        {0: (BLUE, 1), TOP: (RED, 2), TOP - 1: (RED, 3), TOP - 2: (GREEN, 9)},
        {0: (RED, 1), 1: (RED, 2)},
    )
    one = centre_play(net.view(1), net.seat(1), Source.POST, 0)
    assert one is not None
    net.play(1, one)
    net.settle()
    return net


def _lose_the_red_two(net: Net, queue: PlayQueue) -> CentrePlay:
    """Seat 1's red 2 and seat 0's go at once, and seat 1's wins the race."""
    theirs = centre_play(net.view(1), net.seat(1), Source.POST, 1)
    assert theirs is not None
    net.play(1, theirs)
    mine = _press(net, queue, Source.BLITZ)
    assert mine.card == card(0, RED, 2)
    return mine


def test_a_play_held_behind_a_lost_race_comes_back_once_with_why() -> None:
    net = _race_table()
    queue = _queue(net)
    _lose_the_red_two(net, queue)
    held = _press(net, queue, Source.BLITZ)  # the red 3, on top of our red 2
    assert held.card == card(0, RED, 3) and len(queue.held) == 1
    net.settle(until=lambda: not net.replica(0).pending_own())
    lost = [e for e in net[0].delivered if e.sender == NODE_IDS[0] and not e.outcome.accepted]
    assert [e.outcome.refusal for e in lost] == [Reason.PILE_TAKEN]
    came_back = queue.pump(net.replica(0))
    # Our red 2 is back on the Blitz pile: the red 3 was never on top (P-155).
    assert [(c.move, c.reason) for c in came_back] == [(held, Reason.NOT_ON_TOP)]
    assert not queue.held and not net.replica(0).pending_own()
    assert queue.pump(net.replica(0)) == []  # once
    net.settle()
    _agree(net)


def test_a_play_held_behind_a_lost_race_that_still_can_goes_with_what_it_shows_now() -> None:
    """A Post 1 card to the centre refills the stack from the Blitz pile: it waits on it."""
    net = _race_table()
    queue = _queue(net)
    _lose_the_red_two(net, queue)
    held = _press(net, queue, Source.POST, 0)  # the blue 1; the refill turns up the green 9
    assert held.shows == card(0, GREEN, 9) and len(queue.held) == 1
    net.settle(until=lambda: not net.replica(0).pending_own())
    assert queue.pump(net.replica(0)) == []
    (sent,) = _sent_plays(net)
    # Built again: the red 2 refills the stack, and the red 3 below it is what shows.
    assert sent.card == held.card.code and sent.shows == card(0, RED, 3).code
    net.settle()
    area = net.replica(1).stable.table.areas[net.seat(0)]  # type: ignore[union-attr]
    assert area.post[0] == [card(0, RED, 2)] and area.blitz[-1] == card(0, RED, 3)
    _agree(net)


def test_without_the_hold_a_play_built_on_a_lost_race_splits_the_tables() -> None:
    """Why P-152 is a MUST: the stale play's `shows` is refused by its owner alone."""
    net = _race_table()
    queue = _queue(net)
    _lose_the_red_two(net, queue)
    stale = _built_on_view(net, queue)
    net.submit(0, play_from_move(stale, net.replica(0).stable.round))  # sent at once
    net.settle(until=lambda: not net.replica(0).pending_own() and not net.flights)
    outcomes = [
        [e.outcome.refusal for e in net[i].delivered if e.sender == NODE_IDS[0]][-1] for i in (0, 1)
    ]
    assert outcomes == [Reason.SHOWS_MISMATCH, None]


def _built_on_view(net: Net, queue: PlayQueue) -> Move:
    game = queue.view(net.replica(0))
    assert game.table is not None
    move = centre_play(game.table, net.seat(0), Source.POST, 0)
    assert move is not None
    return move


def test_after_a_stuck_call_a_play_waits_until_the_lapse_is_final() -> None:
    """P-153: a centre play lapses our stuck call on screen at once, but a stalemate may
    yet come before it in the order, so nothing of ours goes until it is final."""
    greens = {place: (GREEN, place + 5) for place in range(4)}  # no 1 face up anywhere
    net = Net(3)
    net.open_table()
    net.lobby()
    top3 = blitz_top(3)
    net.deal(
        {
            0: deck_order(0, 3, {**greens, top3: (GREEN, 10)}),
            1: deck_order(1, 3, {**greens, 0: (RED, 1), top3: (GREEN, 10)}),
            2: deck_order(2, 3, {**greens, top3: (GREEN, 10)}),
        }
    )
    queue = _queue(net)
    game = queue.view(net.replica(0))
    assert game.table is not None
    stuck = StuckCall(net.seat(0))
    assert queue.offer(net.replica(0), stuck, game.round)
    net.settle()
    assert net.replica(0).stable.table.areas[net.seat(0)].stuck  # type: ignore[union-attr]
    one = centre_play(net.view(1), net.seat(1), Source.POST, 0)
    assert one is not None
    net.play(1, one)
    net.deliver_where(lambda f: f.source == 1 and f.target == 0)
    view = queue.view(net.replica(0)).table
    assert view is not None and not view.areas[net.seat(0)].stuck  # lapsed on screen
    flip = wood_flip(view, net.seat(0))
    assert flip is not None
    assert queue.offer(net.replica(0), flip, game.round)
    assert queue.held and not _sent_plays(net)  # held: the lapse is not final
    net.settle(until=lambda: not net.replica(0).pending)
    assert queue.pump(net.replica(0)) == []
    assert not queue.held and len(_sent_plays(net)) == 1
    net.settle()
    assert len({net.replica(i).digest() for i in range(3)}) == 1


def test_plays_held_when_the_round_ends_are_dropped_unsent() -> None:
    """P-156: seat 1 calls Blitz while seat 0 has a play in flight and one held behind it."""
    reds = {TOP - n: (RED, n + 1) for n in range(10)}  # a Blitz pile of red 1 (top) to 10
    net = _table({TOP: (BLUE, 1), TOP - 1: (BLUE, 2)}, reds)
    for _ in range(9):
        move = centre_play(net.view(1), net.seat(1), Source.BLITZ)
        assert move is not None
        net.play(1, move)
        net.settle()
    blitz = centre_play(net.view(1), net.seat(1), Source.BLITZ)
    assert blitz is not None and blitz.card == card(1, RED, 10)
    net.play(1, blitz)
    queue = _queue(net)
    _press(net, queue, Source.BLITZ)
    _press(net, queue, Source.BLITZ)
    assert len(queue.held) == 1
    net.settle(until=lambda: not net.replica(0).pending_own() and not net.flights)
    assert net.replica(0).stable.results  # the round is over
    assert queue.pump(net.replica(0)) == []  # dropped, with no notice: the Blitz says it
    assert not queue.held
    sent = [p.card for p in _own_plays(net)]
    assert card(0, BLUE, 1).code in sent and card(0, BLUE, 2).code not in sent


def _own_plays(net: Net) -> list[Play]:
    bodies = [decode(raw).payload for raw in net[0].own.values()]
    return [e.body for e in bodies if isinstance(e, Event) and isinstance(e.body, Play)]


def test_plays_pressed_before_the_deal_is_final_are_kept() -> None:
    """The table shows as soon as every deal is in, before ours is final: a play held then
    waits its turn and is not taken for one left over from a round that has ended."""
    net = Net(2)
    net.open_table()
    net.lobby()
    orders = {
        0: deck_order(0, 2, {TOP: (RED, 1), TOP - 1: (RED, 2), TOP - 2: (GREEN, 9)}),
        1: deck_order(1, 2, {}),
    }
    net.deal(orders, settle=False)
    net.deliver_where(lambda f: f.source == 1 and f.target == 0)
    replica = net.replica(0)
    assert _shows_the_table(replica) and replica.stable.phase != Phase.PLAYING
    queue = _queue(net)
    _press(net, queue, Source.BLITZ)
    _press(net, queue, Source.BLITZ)
    assert len(queue.held) == 1
    assert queue.pump(replica) == [] and len(queue.held) == 1  # kept, waiting its turn
    net.settle(until=lambda: not replica.pending_own() and not net.flights)
    assert queue.pump(replica) == [] and not queue.held
    net.settle()
    assert _centre(net, 1) == [[card(0, RED, 1), card(0, RED, 2)]]
    _agree(net)


def _shows_the_table(replica: Replica) -> bool:
    return replica.optimistic().phase == Phase.PLAYING
