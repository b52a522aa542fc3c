"""The acknowledgement before the applying (P-70), and the optimistic view kept up to date."""

from __future__ import annotations

import random

from dutchblitz.protocol.games.blitz.plays import legal_moves
from dutchblitz.protocol.replica.effects import Delivered, Send
from dutchblitz.protocol.table.state import Game
from dutchblitz.protocol.wire.messages import Event, Heartbeat, Profile, Ready

from tests.protocol.replicas import Net, RandomSchedule


def _fresh_optimistic(net: Net, index: int) -> Game:
    """The optimistic game built from scratch: the stable game and every pending event."""
    replica = net.replica(index)
    game = replica.stable.copy()
    for _key, sender, seq in replica.pending:
        held = replica.streams[sender].events.get(seq)
        if held is not None and isinstance(held.envelope.payload, Event):
            game.apply(sender, held.envelope.payload.body)
    return game


def test_receive_without_advance_applies_nothing_until_advance_P70() -> None:
    """P-70: a batch is acknowledged first; what it made stable is applied after."""
    net = Net(3)
    net.open_table()
    net.settle()
    net.submit(0, Ready(True))
    event = next(f for f in net.flights if f.target == 1)
    net.drop_where(lambda f: f.target == 1)
    net.run()  # node 2 holds and acknowledges the event; node 1 has not seen it
    net.tick_all()
    replica = net.replica(1)
    beats = [f for f in net.flights if f.target == 1]
    net.drop_where(lambda f: f.target == 1)
    log_before = len(replica.log)
    effects = replica.receive(event.data, net.now, advance=False)
    for beat in beats:
        effects += replica.receive(beat.data, net.now, advance=False)
    assert not any(isinstance(e, Delivered) for e in effects)
    assert len(replica.log) == log_before
    ack = replica.flush(net.now)
    sent = [e for e in ack if isinstance(e, Send)]
    assert len(sent) == 1 and isinstance(_payload(sent[0].data), Heartbeat)
    applied = replica.advance(net.now)
    assert [e.entry.body for e in applied if isinstance(e, Delivered)] == [Ready(True)]


def _payload(data: bytes) -> object:
    from dutchblitz.protocol.wire.codec import decode

    return decode(data).payload


def test_the_optimistic_game_is_kept_up_to_date_without_a_rebuild_P71() -> None:
    """P-71: built on after each new event, it always equals the one built from scratch."""
    rng = random.Random(7)
    net = Net(3)
    net.open_table()
    net.lobby(names=True)
    net.deal()
    schedule = RandomSchedule(rng)
    for step in range(120):
        index = rng.randrange(3)
        replica = net.replica(index)
        game = replica.optimistic()
        table = game.table
        seat = game.seat_of(replica.me.node)
        if table is not None and seat is not None and seat in table.areas:
            moves = legal_moves(table, seat)
            if moves:
                net.play(index, rng.choice(moves))
        if step % 5 == 0:
            net.submit(index, Profile(f"n{step}", replica.stable.members[replica.me.node].back))
        net.run(schedule, budget=rng.randrange(1, 12))
        if step % 3 == 0:
            net.tick_all()
        for other in range(3):
            built = net.replica(other).optimistic()
            fresh = _fresh_optimistic(net, other)
            assert built.public_form() == fresh.public_form()
            assert built.phase == fresh.phase and built.round == fresh.round
