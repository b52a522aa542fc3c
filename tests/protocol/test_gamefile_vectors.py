"""spec/vectors/gamefile.json: written apart from protocol/replays/gamefile.py, passed whole."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest
from dutchblitz.protocol.conformance import gamefile_vectors
from dutchblitz.protocol.conformance.case import Case
from dutchblitz.protocol.replays.gamefile import Refusal

from tests.protocol import export_gamefile_vectors


def vectors() -> dict[str, Any]:
    source = resources.files("dutchblitz.vectors").joinpath("gamefile.json")
    data: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return data


CASES = gamefile_vectors.cases(vectors())


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.spec_id} {c.name}")
def test_vector(case: Case) -> None:
    """G-1 to G-15: a sound file read and checked whole; each damaged one refused, and why."""
    assert case.run() is None


def test_the_file_is_what_the_exporter_writes() -> None:
    assert vectors() == json.loads(json.dumps(export_gamefile_vectors.vectors()))


def test_a_wrong_vector_is_caught() -> None:
    data = copy.deepcopy(vectors())
    data["valid"][0]["digest"] = "00" * 16
    data["valid"][0]["kept_by"] = "11" * 16
    data["refused"][0]["reason"] = "digest"
    data["refused"][-1]["file"] = data["valid"][0]["file"]
    failed = [c.name for c in gamefile_vectors.cases(data) if c.run() is not None]
    assert len(failed) == 5  # the digest fails G-3 and G-12


def test_the_vectors_name_every_refusal_and_every_requirement() -> None:
    data = vectors()
    reasons = {v["reason"] for group in ("refused", "oversized") for v in data[group]}
    assert reasons == {str(r) for r in Refusal}
    named = {v["spec"] for group in ("valid", "refused", "oversized") for v in data[group]}
    named |= {case.spec_id for case in CASES}
    assert {f"G-{n}" for n in range(1, 16)} <= named
