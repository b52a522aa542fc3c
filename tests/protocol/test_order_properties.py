"""Properties of the total order over generated runs (spec/protocol.md sections 9 to 11).

A few players found a table, hold a lobby and play: each deals a shuffled deck and makes
random legal moves, all drawn from a seed Hypothesis picks. Hypothesis also draws the
delivery schedule: which message in flight arrives next (any order), and whether it is
lost or arrives twice. Once the drawn schedule runs out, every message left arrives once
and ticks repair what was lost. Then, on every replica:

* the same stable log and the same digest (P-67, P-96);
* no event applied twice, nor moved once applied (P-68, P-74);
* every event a node made is in the log, applied or refused with a reason, or came back
  to it as Withdrawn: never silently lost (P-69, P-77).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from dutchblitz.protocol.games.blitz.plays import legal_moves
from dutchblitz.protocol.table.state import Phase
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.protocol.replicas import ChoiceSchedule, Net, Schedule

RUNS = settings(max_examples=40, deadline=None)

players = st.integers(min_value=2, max_value=4)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
# (which flight, how many copies): 1 first, so that Hypothesis shrinks towards plain delivery.
deliveries = st.lists(
    st.tuples(st.integers(min_value=0, max_value=2**16), st.sampled_from((1, 0, 2))),
    max_size=250,
)


@dataclass
class Played:
    net: Net
    moves: int


def play(net: Net, seed: int, schedule: Schedule, steps: int = 160) -> Played:
    """Players act at random moments while messages arrive as the schedule says."""
    rng = random.Random(seed)
    moves = 0
    for step in range(steps):
        index = rng.randrange(len(net.nodes))
        moves += act(net, index, rng)
        net.run(schedule, budget=rng.randrange(4))
        if step % 4 == 3:
            net.tick_all()
    settle(net, schedule)
    return Played(net, moves)


def settle(net: Net, schedule: Schedule) -> None:
    """Until all is delivered and applied, and any node that was removed is back."""
    net.settle(
        schedule, until=lambda: net.quiet() and all(n.replica.is_member() for n in net.nodes)
    )


def act(net: Net, index: int, rng: random.Random) -> int:
    """One player's next step, as a careful player takes it: one own event in flight."""
    replica = net.replica(index)
    if not replica.can_play() or replica.pending_own():
        return 0
    game = replica.optimistic()
    seat = game.seat_of(replica.me.node)
    if seat is None or seat not in game.players:
        return 0
    duties = net.deal_duties(index)
    for body in duties:
        net.submit(index, body)
    if duties:
        return 1
    if game.phase == Phase.PLAYING and game.table is not None and seat in game.table.areas:
        moves = legal_moves(game.table, seat)
        if moves:
            net.play(index, rng.choice(moves))
            return 1
    return 0


def check_agreement(net: Net) -> None:
    """Same log, same digest, same public state everywhere (P-67, P-96)."""
    logs = net.logs()
    assert all(log == logs[0] for log in logs), [len(log) for log in logs]
    assert len({n.replica.digest() for n in net.nodes}) == 1
    forms = [n.replica.stable.public_form() for n in net.nodes]
    assert all(form == forms[0] for form in forms)


def check_once(net: Net) -> None:
    """Nothing applied twice; Delivered once per entry, in log order (P-68, P-74)."""
    for node in net.nodes:
        log = net.logs()[node.index]
        assert len(set(log)) == len(log)
        assert [(e.sender, e.seq) for e in node.delivered] == log
        assert [e.index for e in node.delivered] == list(range(len(log)))


def check_nothing_lost(net: Net) -> None:
    """Each event a node made is in its log, or came back Withdrawn (P-69)."""
    for node in net.nodes:
        logged = {seq for sender, seq in net.logs()[node.index] if sender == node.node_id}
        withdrawn = {w.seq for w in node.withdrawn}
        lost = sorted(set(node.own) - logged - withdrawn)
        assert not lost, f"node {node.index} made {lost}, which neither counted nor came back"
        assert not logged & withdrawn
        for entry in node.replica.log:
            assert entry.outcome.accepted or entry.outcome.refusal


@RUNS
@given(players, seeds, deliveries)
def test_a_game_under_any_delivery_schedule(
    count: int, seed: int, choices: list[tuple[int, int]]
) -> None:
    net = Net(count)
    net.open_table()
    net.lobby(target=5)
    played = play(net, seed, ChoiceSchedule(choices))
    check_agreement(played.net)
    check_once(played.net)
    check_nothing_lost(played.net)
    assert net.replica(0).stable.phase != Phase.LOBBY


@RUNS
@given(players, deliveries)
def test_founding_joining_and_the_lobby_under_any_delivery_schedule(
    count: int, choices: list[tuple[int, int]]
) -> None:
    """HELLOs, ADMITs and the lobby itself arrive late, twice, or are lost and repaired."""
    net = Net(count)
    schedule = ChoiceSchedule(choices)
    net.found()
    for index in range(1, count):
        net.join(index, schedule)
    net.lobby(schedule=schedule, names=True)
    settle(net, schedule)
    check_agreement(net)
    check_once(net)
    check_nothing_lost(net)
    seats = net.replica(0).stable.by_seat()
    assert sorted(seats) == list(range(count))
    assert [seats[s].node for s in sorted(seats)] == [n.node_id for n in net.nodes]
