"""spec/vectors/fairdeal.json (P-107): every case passes, a wrong vector is caught, and the
file is what export_fairdeal_vectors writes, computed apart from protocol/table/fairdeal.py."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest
from dutchblitz.protocol.conformance import fairdeal_vectors
from dutchblitz.protocol.conformance.case import Case

from tests.protocol import export_fairdeal_vectors


def vectors() -> dict[str, Any]:
    source = resources.files("dutchblitz.vectors").joinpath("fairdeal.json")
    data: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return data


CASES = fairdeal_vectors.cases(vectors())


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.spec_id} {c.name}")
def test_vector(case: Case) -> None:
    """P-107: commitments, the joint randomness, the draws and the deck orders."""
    assert case.run() is None


def test_the_file_is_what_the_exporter_writes() -> None:
    assert export_fairdeal_vectors.build() == vectors()


@pytest.mark.parametrize(
    ("group", "field"),
    [("commitments", "share_hash"), ("joints", "joint"), ("decks", "seed"), ("draws", "words")],
)
def test_a_wrong_vector_is_caught(group: str, field: str) -> None:
    data = copy.deepcopy(vectors())
    vector = data[group][0]
    vector[field] = [0] if isinstance(vector[field], list) else "00" * 32
    assert all(case.run() is not None for case in fairdeal_vectors.cases({group: [vector]}))


def test_a_wrong_order_is_caught() -> None:
    data = copy.deepcopy(vectors())
    vector = data["decks"][0]
    vector["order"] = vector["order"][::-1]
    assert fairdeal_vectors.cases({"decks": [vector]})[0].run() is not None
