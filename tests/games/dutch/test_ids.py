"""spec/dutch.md and spec/dutch-deal.md keep the code honest: ids run without gaps, every id
is named by a test (or, for the deal, a vector), the code cites only ids that exist, and
every refusal code is in the spec's table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from dutchblitz.protocol.games.dutch.moves import Reason

ROOT = Path(__file__).resolve().parents[3]
SPECS = {"D": ROOT / "spec" / "dutch.md", "M": ROOT / "spec" / "dutch-deal.md"}
# The deal's M-ids live in Dutch's folder and in the table's masked deck, which Dutch uses.
CODE = (ROOT / "protocol" / "games" / "dutch", ROOT / "protocol" / "table" / "masked")
TESTS = (ROOT / "tests" / "games" / "dutch", ROOT / "tests" / "protocol" / "masked")


def _defined(prefix: str) -> list[int]:
    text = SPECS[prefix].read_text(encoding="utf-8")
    return [int(n) for n in re.findall(rf"^- \*\*{prefix}-(\d+)\*\*", text, re.MULTILINE)]


def _named(paths: list[Path], prefix: str, loose: bool) -> set[int]:
    # "D-12" in a docstring or comment; "D12" in a test function's name when ``loose``.
    pattern = re.compile(rf"(?<![A-Za-z0-9]){prefix}{'-?' if loose else '-'}(\d+)(?!\d)")
    return {int(n) for p in paths for n in pattern.findall(p.read_text(encoding="utf-8"))}


@pytest.mark.parametrize("prefix", SPECS)
def test_ids_run_from_1_without_gaps(prefix: str) -> None:
    ids = _defined(prefix)
    assert ids and ids == list(range(1, len(ids) + 1))


@pytest.mark.parametrize("prefix", SPECS)
def test_every_id_is_named_by_a_test_or_a_vector(prefix: str) -> None:
    tests = [p for d in TESTS for p in d.rglob("*.py") if p.name != Path(__file__).name]
    named = _named(tests, prefix, loose=True)
    for vectors in (ROOT / "spec" / "vectors").glob("dutch_*.json"):
        found = re.findall(rf'"spec": "{prefix}-(\d+)"', vectors.read_text(encoding="utf-8"))
        named |= {int(n) for n in found}
    untested = sorted(set(_defined(prefix)) - named)
    assert not untested, f"no test names {[f'{prefix}-{n}' for n in untested]}"


@pytest.mark.parametrize("prefix", SPECS)
def test_the_code_cites_only_ids_that_exist(prefix: str) -> None:
    cited = _named(sorted(p for d in CODE for p in d.glob("*.py")), prefix, loose=False)
    assert cited <= set(_defined(prefix)), sorted(cited - set(_defined(prefix)))


def test_every_refusal_code_is_in_the_spec_table() -> None:
    text = SPECS["D"].read_text(encoding="utf-8")
    assert [r.value for r in Reason if f"| `{r.value}`" not in text] == []


def test_the_vector_files_name_only_defined_ids() -> None:
    for path in (ROOT / "spec" / "vectors").glob("dutch_*.json"):
        ids = re.findall(r'"spec": "([DM])-(\d+)"', path.read_text(encoding="utf-8"))
        assert all(int(n) in _defined(p) for p, n in ids), path.name
