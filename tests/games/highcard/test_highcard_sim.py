"""High card in the seeded simulator: the same table code under loss, reordering,
partitions, crashes and pauses, on every node the same log and digest, to the game's end."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.games import registry

from tests.games.highcard.rules import RULES
from tests.rigs.sim import Simulation


@pytest.mark.parametrize("seed", range(6))
def test_high_card_survives_the_simulator_faults(seed: int) -> None:
    with registry.registered(RULES):
        summary = Simulation(seed, game=RULES.tag).run()  # raises on any broken invariant
    assert int(summary["rounds"]) >= 1  # type: ignore[call-overload]
