"""Spectators in the seeded simulator: they change nothing, see everything public, and no more.

Each run seats the seed's table and lets one spectator per player follow it through that
player's node (spec/protocol.md section 26), renewing its subscription as a node does, through
loss, crashes and restarts. The table's log comes out exactly as recorded without spectators
(tests/sim/test_same_logs.py): spectators never enter the order, and nobody waits for them.
Every message fed to a spectator is checked as it arrives: it never learns a face-down card,
never a deck order before the round's reveal (the audit), and at the end its log, game and
digest are the table's.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from dutchblitz.protocol.replica.effects import Effect, Send
from dutchblitz.protocol.seat.follower import Follower
from dutchblitz.protocol.table.state import Game
from dutchblitz.protocol.wire.messages import Reveal

from tests.rigs.sim import TABLE, InvariantViolated, SimNode, Simulation
from tests.sim.test_same_logs import RECORDED

pytestmark = pytest.mark.timeout(120)

SEEDS = [("none", 0), ("none", 2), ("single", 0), ("single", 3), ("single", 7)]


def spectator_id(index: int) -> bytes:
    return bytes([0xEE, index]) + bytes(14)


class WithSpectators(Simulation):
    """A simulation with a spectator on every node, checked at every feed."""

    def __init__(self, seed: int, faults: str) -> None:
        super().__init__(seed, faults)
        self.followers = {
            spectator_id(n.index): Follower(TABLE, spectator_id(n.index), f"fan{n.index}",
                                            "tcp://127.0.0.1:9")
            for n in self.nodes
        }  # fmt: skip
        self.fed = 0
        self.checked = 0  # feeds checked against the feeding player's own table

    def _tick(self, node: SimNode) -> None:
        super()._tick(node)
        follower = self.followers[spectator_id(node.index)]
        if node.up and not node.paused:
            local = self._local_now(node)
            for send in follower.subscribe([node.node_id], local):
                assert isinstance(send, Send)
                self._effects(node, node.replica.receive(send.data, local))

    def _send(self, sender: SimNode, effect: Send) -> None:
        follower = self.followers.get(effect.to or b"")
        if follower is None:
            super()._send(sender, effect)
            return
        # A spectator's link is never lost and takes no time here: the table's draws
        # stay as they were.
        self._feed(follower, sender, effect.data)

    def _feed(self, follower: Follower, sender: SimNode, data: bytes) -> None:
        before = len(follower.log)
        effects: Sequence[Effect] = follower.receive(sender.node_id, data, self.now)
        self.fed += len(follower.log) - before
        for entry in follower.log[before:]:
            if isinstance(entry.body, Reveal) and entry.outcome.accepted:
                rounds_over = {r.round for r in follower.game.results}
                if entry.body.round not in rounds_over:
                    raise InvariantViolated(f"a deck order of round {entry.body.round} fed early")
        replica = sender.replica
        if len(replica.log) == len(follower.log):
            own = replica.stable.seat_of(sender.node_id)
            check_nothing_hidden(follower.game, replica.stable, own)
            self.checked += 1
        assert not any(e for e in effects if getattr(e, "kind", "") == "dropped")


def check_nothing_hidden(game: Game, member: Game, own: int | None) -> None:
    """A spectator knows what a player sees of the others' cards, and nothing more.

    ``member`` is a player's stable game at the same point of the log: the spectator's
    table must read as that player's does for every other seat, and for the player's own
    seat it may know a card only where the player does, and the same card.
    """
    if game.own_orders or game.own_secrets:
        raise InvariantViolated("a spectator holds a deck order or a secret")
    if game.table is None or member.table is None:
        return
    for seat, area in game.table.areas.items():
        theirs = member.table.areas[seat]
        if seat != own:
            if area != theirs:
                raise InvariantViolated(f"a spectator sees seat {seat} unlike a player")
            continue
        for mine, known in ((area.blitz, theirs.blitz), (area.wood, theirs.wood),
                            (area.hand, theirs.hand)):  # fmt: skip
            if len(mine) != len(known) or any(
                card is not None and card != other for card, other in zip(mine, known, strict=True)
            ):
                raise InvariantViolated(f"a spectator knows a card of seat {seat} its owner hides")


@pytest.mark.parametrize(("faults", "seed"), SEEDS)
def test_spectators_change_nothing_and_see_the_public_game(faults: str, seed: int) -> None:
    sim = WithSpectators(seed, faults)
    summary = sim.run()
    assert (summary["digest"], summary["events"]) == RECORDED[(faults, seed)]
    assert sim.fed > 0 and sim.checked > 0
    for node in sim.nodes:
        replica, follower = node.replica, sim.followers[spectator_id(node.index)]
        if not node.up or replica.ended is None:
            continue
        assert len(follower.log) >= replica.ended[0]
        assert follower.ended is not None and follower.ended[1] == replica.ended[1]
        assert follower.ended[2].public_form() == replica.ended[2].public_form()
