"""Word toy in the simulator (tests/rigs/sim.py) with faults: its bots decide with their
seats' private seeds (``bots_use_secrets``) though the game owes no bodies, silence closes
its cards (``timed_duty``), and every node ends with the same log; registered for the run
only (``registry.registered``)."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.games import registry

from tests.games.wordtoy.game import GAME, TAG
from tests.rigs.sim import Simulation

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize("seed", range(3))
def test_word_toy_survives_the_simulator_faults(seed: int) -> None:
    with registry.registered(GAME):
        summary = Simulation(seed, game=TAG).run()  # raises on any broken invariant
    assert int(summary["rounds"]) >= 1  # type: ignore[call-overload]
    assert TAG not in registry.tags()
