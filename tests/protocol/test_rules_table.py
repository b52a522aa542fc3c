"""Play every rule scenario on a full table and on every player's replica."""

from __future__ import annotations

from dataclasses import replace

import pytest
from dutchblitz.protocol.games.blitz import rules
from dutchblitz.protocol.games.blitz.digest import full_digest, public_digest
from dutchblitz.protocol.games.blitz.rules import Reason, Refusal
from dutchblitz.protocol.games.blitz.scoring import round_scores
from dutchblitz.protocol.games.blitz.state import Table, redact

from tests.protocol.rule_scenarios import SCENARIOS
from tests.protocol.scenario_language import OK, Expect, Scenario

# -- running a scenario ------------------------------------------------------------------


def outcome(refusal: Refusal | None) -> Refusal | str:
    return OK if refusal is None else refusal


def expected(want: Expect) -> Refusal | str:
    return Refusal(want) if isinstance(want, Reason) else want


def play(scenario: Scenario) -> Table:
    table = scenario.table()
    for index, (move, want) in enumerate(scenario.steps):
        before = full_digest(table)
        got = outcome(rules.apply(table, move))
        assert got == expected(want), f"step {index}: {move} gave {got}, not {want}"
        if got != OK:
            assert full_digest(table) == before, f"step {index}: a refusal changed the table"
    return table


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.id)
def test_scenario(scenario: Scenario) -> None:
    table = play(scenario)
    if scenario.scores is not None:
        assert tuple(round_scores(table)[seat] for seat in table.seats) == scenario.scores
    if scenario.check is not None:
        scenario.check(table)


FULL_SCENARIOS = [s for s in SCENARIOS if s.viewer is None]
REPLICA_SCENARIOS = [s for s in SCENARIOS if s.viewer is not None]


@pytest.mark.parametrize("scenario", FULL_SCENARIOS, ids=lambda s: s.id)
def test_R36_every_replica_follows_the_scenario(scenario: Scenario) -> None:
    """R-36: each seat's replica accepts what the full table accepts, and agrees in public."""
    full = scenario.table()
    replicas = [redact(full, seat) for seat in full.seats]
    for move, _ in scenario.steps:
        if rules.apply(full, move) is not None:
            continue
        for replica in replicas:
            assert rules.apply(replica, move) is None, f"a replica refused {move}"
            assert public_digest(replica) == public_digest(full)


@pytest.mark.parametrize("scenario", REPLICA_SCENARIOS, ids=lambda s: s.id)
def test_R37_a_replica_scenario_ends_with_the_full_tables_public_digest(
    scenario: Scenario,
) -> None:
    """R-36, R-37: on a replica the moves go as on the full table, and so does the public view."""
    full = replace(scenario, viewer=None)
    assert public_digest(play(scenario)) == public_digest(play(full))


def test_R32_every_reason_is_shown_by_some_scenario() -> None:
    shown = {
        expected(want).reason
        for scenario in SCENARIOS
        for _, want in scenario.steps
        if expected(want) != OK
    }
    assert shown == set(Reason)
