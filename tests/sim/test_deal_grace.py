"""A short absence costs no round (spec/rules.md R-56, R-57), on a simulated table.

A player's node goes quiet (a closed lid, a Wi-Fi hiccup) just as a round ends, long
enough for the table to remove it, and comes back within the grace: it is dealt into
the next round. With no grace it sits that round out, as it did before the grace.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from dutchblitz.protocol.replica.effects import Delivered
from dutchblitz.protocol.seat.deal_duties import Grace
from dutchblitz.protocol.table.state import Phase

from tests.rigs.sim import SimNode, Simulation

AWAY_S = 1.8  # the simulation suspects after 1 s: removed, and back well within the grace


class LidClosed(Simulation):
    """A fault-free table whose last seat goes quiet for ``AWAY_S`` as round 1 ends."""

    def __init__(self, seed: int, grace: Grace) -> None:
        super().__init__(seed, "none", players=3)
        self.scenario = replace(self.scenario, target=150)  # a game of more than one round
        self.grace = grace
        self.victim = self.nodes[-1]
        self.closed = False
        self.removed = False

    def _check_delivered(self, node: SimNode, effect: Delivered) -> None:
        super()._check_delivered(node, effect)
        stable = node.replica.stable
        victim = stable.members.get(self.victim.node_id)
        if node is not self.victim and victim is not None and not victim.present:
            self.removed = True
        quiet = node is self.victim and not self.closed and stable.results
        if quiet and stable.phase == Phase.DEALING:
            self.closed = True
            self.at(self.now, lambda: self._pause(node, True))
            self.at(self.now + AWAY_S, lambda: self._pause(node, False))

    def victim_dealt(self, round_number: int) -> bool:
        game = self.nodes[0].replica.stable
        seat = game.seat_of(self.victim.node_id)
        result = next(r for r in game.results if r.round == round_number)
        return seat in result.scores


@pytest.mark.timeout(120)
@pytest.mark.parametrize("seed", [3, 8])
def test_a_player_back_within_the_grace_is_dealt_in_R56(seed: int) -> None:
    sim = LidClosed(seed, Grace(seconds=5.0, step=0.5))
    summary = sim.run()
    assert sim.closed and sim.removed, "the quiet player was not removed: no test"
    assert isinstance(summary["rounds"], int) and summary["rounds"] >= 2
    assert sim.victim_dealt(2)


@pytest.mark.timeout(120)
def test_with_no_grace_the_same_absence_costs_the_round_R57() -> None:
    sim = LidClosed(3, Grace(seconds=0.0, step=0.0))
    sim.run()
    assert sim.closed and sim.removed
    assert not sim.victim_dealt(2)
