"""spec/vectors/ordering.json: every case passes, a wrong vector is caught, and the file
is what export_order_vectors writes from the harness today."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest
from dutchblitz.protocol.conformance import order_vectors
from dutchblitz.protocol.conformance.case import Case

from tests.protocol import export_order_vectors


def vectors() -> dict[str, Any]:
    source = resources.files("dutchblitz.vectors").joinpath("ordering.json")
    data: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return data


CASES = order_vectors.cases(vectors())


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.spec_id} {c.name}")
def test_vector(case: Case) -> None:
    assert case.run() is None


def test_the_file_is_what_the_exporter_writes() -> None:
    """Regenerate with ``python -m tests.protocol.export_order_vectors`` and read the diff."""
    written = export_order_vectors.layout(export_order_vectors.document())
    committed = resources.files("dutchblitz.vectors").joinpath("ordering.json")
    assert written == committed.read_text(encoding="utf-8")


def test_the_vectors_name_the_ordering_ids() -> None:
    named = {case.spec_id for case in CASES}
    assert {"P-62", "P-63", "P-64", "P-67", "P-69", "P-82", "P-84", "P-94", "P-96"} <= named


def test_the_shuffles_are_permutations_with_repeats() -> None:
    seed = bytes(16)
    orders = [order_vectors.shuffle(seed, number, 12) for number in range(20)]
    for order in orders:
        assert set(order) == set(range(12))
        assert all(order.count(i) <= 2 for i in range(12))
    assert len({tuple(order) for order in orders}) == 20
    assert any(len(order) > 12 for order in orders), "some messages arrive twice"


def test_a_tail_is_every_permutation() -> None:
    orders = list(order_vectors.schedules({"tail": 3}, 5))
    assert len(orders) == 6 and all(order[:2] == [0, 1] for order in orders)
    assert len({tuple(order) for order in orders}) == 6


def _run(name_part: str) -> dict[str, Any]:
    runs = vectors()["runs"]
    return copy.deepcopy(next(run for run in runs if name_part in run["name"]))


def _problems(run: dict[str, Any]) -> dict[str, str | None]:
    cases = order_vectors.cases({"runs": [run]})
    return {case.name.rsplit(": ", 1)[1]: case.run() for case in cases}


@pytest.mark.parametrize(
    ("change", "aspect"),
    [
        ("swap the race in the log", "order"),
        ("the loser wins", "outcomes"),
        ("another digest", "digest"),
        ("another centre", "centre"),
    ],
)
def test_a_wrong_race_vector_fails_its_aspect(change: str, aspect: str) -> None:
    run = _run("same Lamport time")
    if change == "swap the race in the log":
        run["log"][-1], run["log"][-2] = run["log"][-2], run["log"][-1]
    elif change == "the loser wins":
        run["outcomes"][-1] = "ok"
    elif change == "another digest":
        run["digest"] = "00" * 16
    else:
        run["centre"][0][1].reverse()
    problems = _problems(run)
    assert problems[aspect], problems
    assert all(problem is None for name, problem in problems.items() if name != aspect)


def test_a_dropped_event_in_the_log_is_caught() -> None:
    run = _run("stranger")
    run["dropped"].append(run["log"][1])
    assert _problems(run)["dropped"]


def test_an_unreadable_run_fails_every_case_with_a_message() -> None:
    run = _run("found a table")
    del run["messages"]
    assert all(problem and "unreadable" in problem for problem in _problems(run).values())


def test_a_wrong_tiebreak_is_caught() -> None:
    vector = copy.deepcopy(vectors()["tiebreaks"][0])
    vector["tiebreak"] = str(int(vector["tiebreak"]) + 1)
    (case,) = order_vectors.cases({"tiebreaks": [vector]})
    assert case.run()


def test_a_wrong_key_order_is_caught() -> None:
    vector = copy.deepcopy(vectors()["keys"][0])
    vector["order"].reverse()
    (case,) = order_vectors.cases({"keys": [vector]})
    assert case.run()
