"""Blitz! in the seeded simulator (tests/rigs/faceoffsim.py): four bot seats under message
loss, duplication, reordering, delay, partitions, crashes with a restart from the persisted
log and the kept secrets, pauses and clock skew; on every node the same log and digest, and
the game played to its end (spec/faceoff.md F-46 to F-56). 300 seeds, in chunks."""

from __future__ import annotations

import os

import pytest

from tests.rigs.faceoffsim import FaceoffSimulation, cores, run_seeds

SEEDS = 300
CHUNK = 25


@pytest.mark.timeout(300)
@pytest.mark.parametrize("first", range(0, SEEDS, CHUNK))
def test_every_node_agrees_and_the_game_ends(first: int) -> None:
    """F-46, F-48, F-52, F-55: the simulator raises on any broken invariant."""
    workers = 1 if os.environ.get("PYTEST_XDIST_WORKER") else min(2, cores())
    assert run_seeds(range(first, first + CHUNK), workers=workers) == []


def test_a_game_is_played_to_its_end_with_face_offs() -> None:
    """F-41, F-47, F-49: every card is turned through the openings, and face-offs happen."""
    sim = FaceoffSimulation(0, faults="none")
    sim.run()
    tables = [node.replica.stable.table for node in sim.nodes]
    assert all(t is not None and t.game.ending is not None for t in tables)
    table = tables[0]
    assert table.game.turned == len(table.game.in_game)
    assert table.game.faceoffs > 5
    assert table.opening >= table.game.turned  # every hidden card came from an opening
