"""The suite's order under pytest-xdist (tests/conftest.py): every test once, the long ones
at the heads of the runs ``worksteal`` first gives each worker."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import LONG_TESTS, long_first, run_sizes, seconds_of

ROOT = Path(__file__).resolve().parent.parent
SECONDS = {"a": 50.0, "b": 40.0, "c": 30.0, "d": 20.0, "e": 10.0}


def _seconds(name: str) -> float:
    return SECONDS.get(name, 0.0)


@pytest.mark.parametrize(
    ("total", "workers", "sizes"),
    [(10, 4, [2, 2, 3, 3]), (3210, 4, [802, 802, 803, 803]), (5, 1, [5]), (2, 4, [0, 0, 1, 1])],
)
def test_the_runs_are_split_as_worksteal_splits_them(
    total: int, workers: int, sizes: list[int]
) -> None:
    assert run_sizes(total, workers) == sizes


@pytest.mark.parametrize(
    ("items", "workers", "ordered"),
    [
        # Each run begins with the long tests it got, longest first; the rest keep their order.
        (list("xyzabcdevw"), 4, ["a", "x", "b", "y", "c", "z", "v", "d", "e", "w"]),
        (list("xyzabcdevw"), 2, ["a", "d", "e", "x", "y", "b", "c", "z", "v", "w"]),
        # Without xdist: the long ones first, longest first.
        (list("xaeyb"), 1, ["a", "b", "e", "x", "y"]),
        # More long tests than a run holds: the next run with room takes them.
        (list("abcde"), 4, ["a", "b", "c", "d", "e"]),
        (list("xyz"), 4, ["x", "y", "z"]),
    ],
)
def test_each_run_starts_with_its_share_of_the_long_tests(
    items: list[str], workers: int, ordered: list[str]
) -> None:
    result = long_first(items, _seconds, workers)
    assert result == ordered
    assert sorted(result) == sorted(items)


def test_the_long_tests_with_processes_are_shared_out_and_alternate() -> None:
    """a, c and e start real processes: each run gets its share of them first, and the
    heads alternate kinds, the first run beginning with processes and the second without."""
    ordered = long_first(list("xyzabcdevw"), _seconds, 2, lambda name: name in "ace")
    assert ordered == ["a", "d", "x", "y", "z", "b", "c", "e", "v", "w"]


@pytest.mark.parametrize(
    ("nodeid", "named"),
    [
        ("tests/sim/test_simulation.py::test_sweep_of_seeds_under_single_faults[0-29]", True),
        ("tests/sim/test_simulation.py::test_the_same_seed_gives_the_same_trace", False),
    ],
)
def test_a_parametrized_test_takes_the_time_named_for_all_its_cases(
    nodeid: str, named: bool
) -> None:
    assert (seconds_of(nodeid) > 0) == named


def test_every_long_test_named_is_a_test_of_the_suite() -> None:
    """A name left behind by a renamed or moved test would order nothing."""
    for name in LONG_TESTS:
        path, function = name.split("[", 1)[0].split("::", 1)
        source = ROOT / path
        assert source.is_file(), name
        assert f"def {function}(" in source.read_text(encoding="utf-8"), name
