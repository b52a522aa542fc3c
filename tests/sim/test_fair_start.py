"""A fair start to every round, under the simulator's faults (spec/rules.md R-54, R-55).

Whole seeded games of bots, with loss, duplication, reordering, partitions,
crashes and pauses. Two things are checked on every seed:

* no bot sends a move before its own count-in has run: ``COUNT_IN_S`` after its
  stable game entered the round (each incarnation of a node counts its own), unless the
  round was under way before that incarnation saw it (a move of the round final there
  within half a count-in of its play beginning: a restore, P-259), when it counts none;
* in the agreed log, every round from the second on starts only after each of its
  players has said that it saw the scores: an accepted READY between the last move
  of the round before and the first move of this one (P-148).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from dutchblitz.protocol.replica.effects import Delivered, Effect
from dutchblitz.protocol.seat.pace import COUNT_IN_S
from dutchblitz.protocol.table.state import Phase
from dutchblitz.protocol.wire.messages import Body, Play, Ready

from tests.rigs.sim import InvariantViolated, SimNode, Simulation

SEEDS = range(30)


class Watched(Simulation):
    """A simulation that notes when each node's play began, and checks each move against it."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.began: dict[tuple[int, int, int], float] = {}  # (node, incarnation, round) -> t
        self.under_way: set[tuple[int, int, int]] = set()  # rounds found under way (P-259)
        self.moves = 0

    def _effects(self, node: SimNode, effects: Sequence[Effect]) -> None:
        super()._effects(node, effects)
        if any(isinstance(effect, Delivered) for effect in effects):
            game = node.replica.stable
            key = (node.index, node.incarnation, game.round)
            now = self._local_now(node)
            if game.phase == Phase.PLAYING and key not in self.began:
                self.began[key] = now
            began = self.began.get(key)
            moved = any(not isinstance(step[1], bool) for step in game.steps)
            if began is not None and moved and now - began < COUNT_IN_S / 2:
                self.under_way.add(key)

    def _submit(self, node: SimNode, body: Body, local: float) -> None:
        if isinstance(body, Play):
            key = (node.index, node.incarnation, body.round)
            began = self.began.get(key)
            counted = key in self.under_way or (began is not None and local >= began + COUNT_IN_S)
            if not counted:
                raise InvariantViolated(f"node {node.index} played before its count-in ended")
            self.moves += 1
        super()._submit(node, body, local)


def seen_before_each_round(sim: Simulation) -> int:
    """Check the READYs before each round from the second on; how many rounds were checked."""
    replica = sim.nodes[0].replica
    game = replica.stable
    seen: dict[int, set[bytes]] = {}
    last_round = 0
    checked = 0
    for entry in replica.log:
        body = entry.body
        if not entry.outcome.accepted:
            continue
        if isinstance(body, Ready) and last_round >= 1:
            seen.setdefault(last_round + 1, set()).add(entry.sender)
        elif isinstance(body, Play) and body.round != last_round:
            last_round = body.round
            record = game.records.get(body.round)
            if body.round >= 2 and record is not None:
                players = {record.nodes[seat] for seat in record.active}
                missing = players - seen.get(body.round, set())
                assert not missing, f"round {body.round} began before all saw the scores"
                checked += 1
    return checked


@pytest.mark.timeout(300)
def test_no_bot_plays_before_its_count_in_and_no_round_before_the_scores_are_seen() -> None:
    rounds_checked = 0
    for seed in SEEDS:
        sim = Watched(seed)
        summary = sim.run()
        assert sim.moves > 0
        rounds_checked += seen_before_each_round(sim)
        assert summary["rounds"] == len(sim.nodes[0].replica.stable.results)
    assert rounds_checked >= 5, "enough seeds play a second round"
