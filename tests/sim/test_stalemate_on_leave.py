"""The last player who is not stuck leaves: the others rotate at once, and the game goes on.

One player of three sits at the table without playing until both others have called stuck,
then leaves for good: by a goodbye (BYE) or by crashing and being removed (SUSPECT, CUT).
Before R-24 was checked on a leave the two stuck players waited for ever and the game never
ended; now the leave itself is the stalemate (spec/rules.md R-24).
"""

from __future__ import annotations

from functools import partial

import pytest
from dutchblitz.protocol.games.blitz.bots import LEVELS, think_time
from dutchblitz.protocol.table.state import Phase
from dutchblitz.protocol.wire.messages import Bye

from tests.rigs.sim import SimNode, Simulation


class LastUnstuckLeaves(Simulation):
    """A clean network; node 2 only watches until everyone else is stuck, then leaves."""

    LEAVER = 2

    def __init__(self, seed: int, how: str) -> None:
        super().__init__(seed, "none", players=3)
        self.how = how
        self.left_at: float | None = None
        self.leaver = self.nodes[self.LEAVER].node_id

    def _bot(self, node: SimNode) -> None:
        if node.index != self.LEAVER:
            super()._bot(node)
            return
        self.at(self.now + think_time(LEVELS["fast"], node.rng), partial(self._bot, node))
        if not node.up or not node.replica.can_play() or self.left_at is not None:
            return
        game = node.replica.stable
        if game.phase == Phase.LOBBY or game.seat_of(node.node_id) in game.still_looking():
            super()._bot(node)  # name, ready, the scores seen: as any bot
            return
        local = self._local_now(node)
        if self._deal(node, local) or game.phase != Phase.PLAYING or game.table is None:
            return
        me = game.seat_of(node.node_id)
        others = [a for seat, a in game.table.areas.items() if seat != me and a.active]
        if others and all(area.stuck for area in others):
            self._leave(node)

    def _leave(self, node: SimNode) -> None:
        self.left_at = self.now
        self.log(f"node {node.index} leaves ({self.how}) with everyone else stuck")
        if self.how == "bye":
            self._submit(node, Bye(), self._local_now(node))
        self._crash(node)
        self.nodes.remove(node)  # gone for good: the game ends without it


@pytest.mark.timeout(300)
@pytest.mark.parametrize("how", ["bye", "crash"])
def test_the_last_unstuck_player_leaving_never_hangs_the_round_R24(how: str) -> None:
    sim = LastUnstuckLeaves(12, how)  # a seed whose deal leaves the watcher alone unstuck
    summary = sim.run()
    assert sim.left_at is not None, "nobody was ever left alone unstuck"
    assert summary["rounds"] >= 1
    game = sim.nodes[0].replica.stable
    assert game.phase == Phase.OVER
    assert not game.members[sim.leaver].present
