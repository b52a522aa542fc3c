"""Bounded model checking of small tables over the real replicas (tests/rigs/modelcheck.py).

The window spec/protocol.md section 12 names: a member agrees on X's cut from a SUSPECT
whose UNSUSPECT is still on its way, while the member that withdrew makes an event of X
above that cut final. With the withdrawal rule before P-262 (``Flushes.enabled`` off, the
test-only switch) the stored traces show it and the aimed search finds it; with the flush
of P-262 the same search explores the window and finds no violation.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from dutchblitz.protocol.replica.flush import Flushes

from tests.rigs import modelcheck

TRACES = Path(modelcheck.__file__).parent / "traces"
# Found by the aimed search (B's messages to A held back), and by a random walk that also
# delivers B's messages to A: B's SUSPECT arrives, its CUT is still in flight.
RACE_TRACES = ["withdrawal_race.json", "withdrawal_race_cut_in_flight.json"]


@pytest.fixture
def old_withdrawal_rule() -> Iterator[None]:
    """The withdrawal rule before P-262: a withdrawal caps no acknowledgement."""
    Flushes.enabled = False
    try:
        yield
    finally:
        Flushes.enabled = True


def replay_trace(path: Path) -> list[str]:
    members, steps = modelcheck.read_trace(path)
    try:
        return modelcheck.replay(steps, members)
    except (IndexError, ValueError):
        return []  # the rule sent other messages: a step of the old trace does not apply


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", RACE_TRACES)
def test_the_withdrawal_race_trace_breaks_the_old_rule_P88_P89(
    name: str, old_withdrawal_rule: None
) -> None:
    """P-88, P-89: the stored traces of the race break agreement under the old rule."""
    broken = replay_trace(TRACES / name)
    assert "event 2 of p2 is final at p0 but cut at p1 (1)" in broken
    assert any("different stable logs" in line for line in broken)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", RACE_TRACES)
def test_the_withdrawal_race_trace_is_safe_with_the_flush_P262(name: str) -> None:
    """P-262: the same traces, under the flush, break nothing."""
    assert replay_trace(TRACES / name) == []


@pytest.mark.timeout(120)
def test_the_aimed_search_finds_the_race_under_the_old_rule_P88_P89(
    old_withdrawal_rule: None,
) -> None:
    """P-88, P-89: searching from the window finds the race when the flush is off."""
    report = modelcheck.search(modelcheck.withdrawal_race(), modelcheck.RACE_BOUNDS, limit=3000)
    assert report.counterexample is not None, report.line()
    assert "final at p0 but cut at p1" in " ".join(modelcheck.replay(report.counterexample, 3))


@pytest.mark.timeout(120)
def test_the_aimed_search_finds_no_race_with_the_flush_P262() -> None:
    """P-262: the same search, with the flush, explores the window and finds no violation."""
    report = modelcheck.search(modelcheck.withdrawal_race(), modelcheck.RACE_BOUNDS, limit=3000)
    assert report.counterexample is None, report.violation
    assert report.states > 1000, report.line()


# (members, depth, losses, duplicates, ticks, submits, distinct states at least)
QUIET_TABLES = [
    (3, 4, 0, 0, 2, 1, 900),  # 967 distinct states when written
    (3, 4, 1, 0, 1, 1, 1400),  # 1530
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("members", "depth", "losses", "duplicates", "ticks", "submits", "least"), QUIET_TABLES
)
def test_a_quiet_table_stays_safe_P74_P89(
    members: int, depth: int, losses: int, duplicates: int, ticks: int, submits: int, least: int
) -> None:
    """P-74, P-89: every interleaving of a small table within the bounds keeps the invariants
    (a fault-free table, and one losing or doubling a message: the known race needs a
    suspicion, which these bounds leave no time for)."""
    bounds = modelcheck.Bounds(depth, losses, duplicates, ticks, submits)
    report = modelcheck.search(modelcheck.quiet_table(members), bounds)
    assert report.counterexample is None, report.violation
    assert report.states >= least, report.line()
