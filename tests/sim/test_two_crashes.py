"""Two crashes in a row: one player is removed and comes back, then another crashes and restarts.

The second node reloads its log and agrees on the first one's cut as soon as it can,
before its game reaches the first one's original ADMIT; applying that old ADMIT must
not wipe the cut, or the node waits for ever for a number the first one skipped when it
came back, and the whole table stalls (seen in the ``kill -9`` game of tests/lan).
That cut stands across the old ADMIT: spec/protocol.md P-198.
"""

from __future__ import annotations

import random

import pytest

from tests.rigs.sim import Scenario, Simulation


class TwoCrashes(Simulation):
    """A seeded table whose faults are two crashes: A, removed and back, then B, at once."""

    def __init__(self, seed: int, players: int | None = None) -> None:
        super().__init__(seed, "single", players=players)
        draw = random.Random(seed * 13 + 5)
        drawn = self.scenario
        first = draw.randrange(drawn.players)
        second = (first + 1 + draw.randrange(drawn.players - 1)) % drawn.players
        down = draw.uniform(2.0, 10.0)
        back = down + draw.uniform(1.5, 3.0)  # after the others have removed it
        again = back + draw.uniform(0.05, 1.5)
        crashes = ((down, back, first), (again, again + draw.uniform(0.1, 0.8), second))
        self.scenario = Scenario(
            drawn.players,
            drawn.target,
            drawn.loss,
            drawn.duplicate,
            drawn.latency,
            (),
            crashes,
            (),
            drawn.skews,
            drawn.heal_at,
        )


@pytest.mark.timeout(300)
@pytest.mark.parametrize("seed", [51, 53, 56])
def test_a_restart_just_after_anothers_return_finishes_the_game(seed: int) -> None:
    summary = TwoCrashes(seed).run()
    assert summary["rounds"] >= 1


@pytest.mark.timeout(300)
def test_a_player_removed_again_at_once_comes_back_and_the_game_finishes() -> None:
    """Three players. C comes back and is admitted, and B, which has not heard it yet, found
    it silent since before its crash and suspected it at once: the timeout now counts from
    the ADMIT (P-85). That SUSPECT removed C again, and a late HELLO had C admitted again at
    the same first-seq; the SUSPECT, ordered before that ADMIT, is about the stay it ended,
    so B's suspicion and its cap on C's acknowledgements end with it (P-87). Either bug alone
    stalled the table for good."""
    summary = TwoCrashes(67, players=3).run()
    assert summary["rounds"] >= 1
