"""spec/vectors/rules.json: every case passes, and a wrong vector is caught."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest
from dutchblitz.protocol.conformance.case import Case
from dutchblitz.protocol.games.blitz import rules_vectors

from tests.protocol.rule_scenarios import SCENARIOS


def vectors() -> dict[str, Any]:
    source = resources.files("dutchblitz.vectors").joinpath("rules.json")
    data: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return data


CASES = rules_vectors.cases(vectors())


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.spec_id} {c.name}")
def test_vector(case: Case) -> None:
    assert case.run() is None


def test_every_rule_with_a_scenario_has_a_vector() -> None:
    assert {case.spec_id for case in CASES} >= {s.rule for s in SCENARIOS}


def _first_centre_play() -> dict[str, Any]:
    """The first case that opens with a centre play, which has every field to spoil."""
    cases = vectors()["cases"]
    return copy.deepcopy(next(c for c in cases if c["moves"][:1] and "card" in c["moves"][0]))


def _tampered(change: str) -> dict[str, Any]:
    raw = _first_centre_play()
    if change == "expect":
        raw["expect"][0] = "needs_a_one" if raw["expect"][0] == "ok" else "ok"
    elif change == "digest":
        raw["public_digest"] = "00" * 16
    elif change == "order":
        raw["orders"][0] = raw["orders"][0][:39]
    elif change == "move":
        raw["moves"][0]["type"] = "Shuffle"
    elif change == "seat":
        raw["moves"][0]["seat"] = "zero"
    elif change == "card":
        raw["moves"][0]["card"] = 999
    return raw


@pytest.mark.parametrize("change", ["expect", "digest", "order", "move", "seat", "card"])
def test_a_wrong_vector_fails_with_a_message(change: str) -> None:
    message = rules_vectors.run(_tampered(change))
    assert isinstance(message, str) and message


def test_a_lost_race_must_name_its_winner() -> None:
    raw = copy.deepcopy(next(c for c in vectors()["cases"] if c["id"] == "R-16"))
    index = next(i for i, want in enumerate(raw["expect"]) if isinstance(want, dict))
    raw["expect"][index] = raw["expect"][index]["reason"]
    assert rules_vectors.run(raw) is not None
