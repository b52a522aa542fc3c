"""spec/vectors/dutch_rules.json (spec/dutch.md): every case passes, a wrong vector is
caught, and the file is what export_rules_vectors writes."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest
from dutchblitz.protocol.conformance.case import Case
from dutchblitz.protocol.games.dutch import rules_vectors

from tests.games.dutch import export_rules_vectors


def vectors() -> dict[str, Any]:
    source = resources.files("dutchblitz.vectors").joinpath("dutch_rules.json")
    data: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return data


CASES = rules_vectors.cases(vectors())


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.spec_id} {c.name}")
def test_vector(case: Case) -> None:
    """D-5 to D-36 as whole rounds: D-6, D-7, D-11, D-14 to D-18, D-20, D-22, D-23, D-28,
    D-31, D-32, D-36."""
    assert case.run() is None


def test_the_file_is_what_the_exporter_writes() -> None:
    assert export_rules_vectors.build() == vectors()


@pytest.mark.parametrize(
    ("index", "field", "value"),
    [(1, "expect", ["ok", "ok", "ok"]), (3, "after", {}), (13, "scores", [0, 0, 0])],
)
def test_a_wrong_vector_fails(index: int, field: str, value: object) -> None:
    data = copy.deepcopy(vectors())
    data["cases"][index][field] = value
    assert rules_vectors.cases(data)[index].run() is not None
