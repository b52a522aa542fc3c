"""The member runs of spec/vectors/ordering.json: a wrong expectation is caught."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest
from dutchblitz.protocol.conformance import member_vectors
from dutchblitz.protocol.replica.flush import Flushes
from dutchblitz.protocol.replica.viewchange import ViewChange


def runs() -> list[dict[str, Any]]:
    source = resources.files("dutchblitz.vectors").joinpath("ordering.json")
    found: list[dict[str, Any]] = json.loads(source.read_text(encoding="utf-8"))["member_runs"]
    return found


def failures(run: dict[str, Any]) -> dict[str, str]:
    """Per aspect, the message of its first failing case."""
    found: dict[str, str] = {}
    for case in member_vectors.cases({"member_runs": [run]}):
        message = case.run()
        if message is not None:
            found.setdefault(case.name.rsplit(": ", 1)[1], message)
    return found


def test_the_runs_pass_and_cover_the_member_ids() -> None:
    named = set()
    for run in runs():
        assert failures(run) == {}
        named |= {check["spec"] for check in run["checks"]}
    assert {"P-66", "P-70", "P-76", "P-77", "P-85", "P-89", "P-196"} <= named
    assert {"P-86", "P-87", "P-88", "P-226", "P-227", "P-228", "P-262"} <= named


def test_wrong_acknowledgements_are_caught() -> None:
    run = copy.deepcopy(runs()[0])
    for check in run["checks"]:
        if check["aspect"] == "acks":
            check["acks"][0][1] += 1
        if check["aspect"] == "unstable":
            check["step"] = len(run["steps"]) - 1  # by then they are final
    assert set(failures(run)) == {"acks", "unstable"}


def test_a_wrong_suspicion_or_cut_is_caught() -> None:
    run = copy.deepcopy(runs()[1])
    for check in run["checks"]:
        body = check.get("message", {}).get("payload", {}).get("body", {})
        if body.get("type") == "Suspect":
            body["held"] += 1
        if body.get("type") == "Cut":
            body["seq"] -= 1
    assert set(failures(run)) == {"sends"}
    assert sum(1 for c in member_vectors.cases({"member_runs": [run]}) if c.run()) == 2


def test_a_lost_step_changes_what_the_observer_sends() -> None:
    """Without the messages of the other members, the observer suspects nobody."""
    run = copy.deepcopy(runs()[1])
    run["steps"] = [step for step in run["steps"] if "receive" not in step]
    assert failures(run)


def test_an_unreadable_run_fails_with_a_message() -> None:
    run = copy.deepcopy(runs()[0])
    run["observer_seed"] = "00" * 32
    assert all("seed" in message for message in failures(run).values())


def test_without_the_other_withdrawal_the_observer_holds_on() -> None:
    """P-228: without seat 2's UNSUSPECT, a majority nobody suspects can still agree on the
    cut, so the observer keeps its suspicion when it hears seat 3 again (P-88)."""
    run = copy.deepcopy(runs()[2])
    quiet = next(c["step"] for c in run["checks"] if c["spec"] == "P-227")
    assert "receive" in run["steps"][quiet]
    del run["steps"][quiet]
    failed = {
        case.spec_id
        for case in member_vectors.cases({"member_runs": [run]})
        if case.run() is not None
    }
    assert {"P-226", "P-228", "P-88"} <= failed


def test_the_old_withdrawal_rule_fails_the_race(monkeypatch: pytest.MonkeyPatch) -> None:
    """P-262: under the rule before it (the cap lifts with the UNSUSPECT), the observer
    acknowledges seat 3's event E past the cut seat 0 agreed on, and E becomes final."""
    race = next(run for run in runs() if "flushed past a cut" in run["name"])
    assert failures(race) == {}
    monkeypatch.setattr(Flushes, "enabled", False)
    failed = {
        (case.spec_id, case.name.rsplit(": ", 1)[1])
        for case in member_vectors.cases({"member_runs": [race]})
        if case.run() is not None
    }
    assert {("P-262", "acks"), ("P-262", "unstable")} <= failed


def test_acknowledgements_of_a_later_view_counted_are_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """P-287: a node that counts a HEARTBEAT's acks of a view it has not learnt makes final
    an event of a stay that the decision it missed cut: the run of that race catches it."""
    run = next(r for r in runs() if r.get("rounds"))
    assert failures(run) == {}
    monkeypatch.setattr(ViewChange, "ahead", lambda self, sender, view: None)
    assert {"unstable", "sends", "order"} <= set(failures(run))
