"""spec/vectors/dutch_deal.json (spec/dutch-deal.md): every case passes, a wrong vector is
caught, and the file is what export_deal_vectors writes with libsodium's bindings directly,
apart from protocol/games/dutch/."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest
from dutchblitz.protocol.conformance.case import Case
from dutchblitz.protocol.games.dutch import vectors as deal_vectors

from tests.games.dutch import export_deal_vectors


def vectors() -> dict[str, Any]:
    source = resources.files("dutchblitz.vectors").joinpath("dutch_deal.json")
    data: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return data


CASES = deal_vectors.cases(vectors())


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.spec_id} {c.name}")
def test_vector(case: Case) -> None:
    """M-4, M-6, M-10, M-14, M-21: card points, streams, whole deals, shares, audits."""
    assert case.run() is None


def test_the_file_is_what_the_exporter_writes() -> None:
    assert export_deal_vectors.build() == vectors()


@pytest.mark.parametrize(
    ("group", "field", "value"),
    [
        ("cards", "points", ["00" * 32] * 54),
        ("streams", "numbers", [0] * 12),
        ("deals", "deck_digests", ["00" * 32] * 3),
        ("deals", "code", 53),
        ("shares", "valid", False),
        ("audits", "cheats", [[2, "bad_shuffle"]]),
    ],
)
def test_a_wrong_vector_fails(group: str, field: str, value: object) -> None:
    data = copy.deepcopy(vectors())
    data[group][0][field] = value
    case = next(c for c in deal_vectors.cases(data) if c.name.startswith(f"{group}:"))
    assert case.run() is not None
