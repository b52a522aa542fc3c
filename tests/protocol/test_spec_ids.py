"""Every requirement of spec/protocol.md is checked by some vector or some test.

A requirement is a sentence with MUST or SHALL, tagged with its id: ``[P-12]``. It counts
as covered when a vector in spec/vectors/*.json names it in ``spec``, or when a test
file under tests/ (other than this one) mentions it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec" / "protocol.md"
VECTORS = ROOT / "spec" / "vectors"
TESTS = ROOT / "tests"

DEFINED = re.compile(r"\[(P-\d+)\]")
MENTIONED = re.compile(r"\bP-\d+\b")
KEYWORD = re.compile(r'(?<!")\b(MUST|SHALL)\b(?!")')

# Every requirement is covered now. Should one be added before its test, list it here until
# something checks it: the test says when.
PENDING: set[str] = set()


def _spec_ids() -> list[str]:
    return DEFINED.findall(SPEC.read_text(encoding="utf-8"))


def _vector_ids(value: Any) -> set[str]:
    if isinstance(value, dict):
        found = {value["spec"]} if isinstance(value.get("spec"), str) else set()
        return found.union(*(_vector_ids(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_vector_ids(v) for v in value))
    return set()


def _covered() -> set[str]:
    covered: set[str] = set()
    for path in VECTORS.glob("*.json"):
        covered |= _vector_ids(json.loads(path.read_text(encoding="utf-8")))
    for path in TESTS.rglob("*.py"):
        if path.resolve() != Path(__file__).resolve():
            covered |= set(MENTIONED.findall(path.read_text(encoding="utf-8")))
    return covered


def test_ids_are_numbered_once_without_gaps() -> None:
    """Each number once, none left out. A requirement added to a section later goes at the
    end of that section with the next free number, so ids need not run in document order."""
    ids = _spec_ids()
    assert sorted(ids, key=lambda i: int(i[2:])) == [f"P-{n}" for n in range(1, len(ids) + 1)]


def test_every_requirement_has_one_id() -> None:
    """One requirement per sentence, and one sentence per line in the source."""
    text = SPEC.read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), 1):
        if KEYWORD.search(line):
            assert len(DEFINED.findall(line)) == 1, f"protocol.md:{number}: {line}"


def test_every_id_is_covered() -> None:
    missing = sorted(set(_spec_ids()) - _covered() - PENDING, key=lambda i: int(i[2:]))
    assert not missing, f"no vector or test names {missing}"


def test_pending_ids_are_still_pending() -> None:
    covered = sorted(PENDING & _covered(), key=lambda i: int(i[2:]))
    assert not covered, f"now covered: remove {covered} from PENDING"
    assert set(_spec_ids()) >= PENDING


def test_vectors_name_only_defined_ids() -> None:
    defined = set(_spec_ids())
    named: set[str] = set()
    for path in VECTORS.glob("*.json"):
        named |= _vector_ids(json.loads(path.read_text(encoding="utf-8")))
    assert {i for i in named if i.startswith("P-")} <= defined
