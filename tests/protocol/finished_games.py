"""Finished games as files, from the seeded simulator: real replicas, real signatures.

``finished(rematches)`` plays one table of three bots to its end (and to the end of each
rematch) with no faults, and seals the last game as a node does when it ends
(``protocol.gamefile.sealed_game``). The same seed always gives the same file.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from dutchblitz.protocol.replays.gamefile import CheckedGame, sealed_game
from dutchblitz.protocol.replays.steps import Replay
from dutchblitz.protocol.wire.auth import Signer

from tests.rigs.sim import Simulation

SEED = 3


@dataclass(frozen=True)
class Finished:
    data: bytes
    events: tuple[bytes, ...]  # the log's EVENT messages, as the file holds them
    signers: tuple[Signer, ...]  # the players', in the order the simulation made them
    digest: bytes
    game: int
    epoch: bytes


@functools.cache
def finished(rematches: int = 0) -> Finished:
    simulation = Simulation(SEED, "none", players=3, rematches=rematches)
    simulation.run()
    node = simulation.nodes[0]
    replica = node.replica
    assert replica.ended is not None
    length, digest, game = replica.ended
    raws = replica.order.stable_raws
    events = tuple(raws[(entry.sender, entry.seq)] for entry in replica.log[:length])
    data = sealed_game(replica, simulation.signers[node.node_id])
    assert data is not None
    signers = tuple(simulation.signers[n.node_id] for n in simulation.nodes)
    return Finished(data, events, signers, digest, game.game_number, replica.me.epoch)


def replay_of(data: bytes) -> Replay:
    from dutchblitz.protocol.replays.gamefile import check_game_file

    return Replay(check_game_file(data))


@functools.cache
def checked_file(rematches: int = 0) -> CheckedGame:
    """``finished(rematches)``'s file, checked once. A replay reads a checked game and
    changes nothing in it, so replays built on the one object are each as fresh as one
    built on a file checked again."""
    from dutchblitz.protocol.replays.gamefile import check_game_file

    return check_game_file(finished(rematches).data)
