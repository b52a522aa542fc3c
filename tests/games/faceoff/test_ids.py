"""spec/faceoff.md keeps the code honest: ids run without gaps, every id is named by a test,
the code cites only ids that exist, and every refusal code is in the spec's table."""

from __future__ import annotations

import re
from pathlib import Path

from dutchblitz.protocol.games.faceoff.moves import Reason

ROOT = Path(__file__).resolve().parents[3]
SPEC = ROOT / "spec" / "faceoff.md"
CODE = ROOT / "protocol" / "games" / "faceoff"
TESTS = ROOT / "tests" / "games" / "faceoff"


def _defined() -> list[int]:
    text = SPEC.read_text(encoding="utf-8")
    return [int(n) for n in re.findall(r"^- \*\*F-(\d+)\*\*", text, re.MULTILINE)]


def _named(paths: list[Path], loose: bool) -> set[int]:
    # "F-12" in a docstring or comment; "F12" in a test function's name when ``loose``.
    pattern = re.compile(rf"(?<![A-Za-z0-9])F{'-?' if loose else '-'}(\d+)(?!\d)")
    return {int(n) for p in paths for n in pattern.findall(p.read_text(encoding="utf-8"))}


def test_ids_run_from_1_without_gaps() -> None:
    ids = _defined()
    assert ids and ids == list(range(1, len(ids) + 1))


def test_every_id_is_named_by_a_test() -> None:
    tests = [p for p in TESTS.rglob("test_*.py") if p.name != Path(__file__).name]
    untested = sorted(set(_defined()) - _named(tests, loose=True))
    assert not untested, f"no test names {[f'F-{n}' for n in untested]}"


def test_the_code_cites_only_ids_that_exist() -> None:
    cited = _named(sorted(CODE.glob("*.py")), loose=False)
    assert cited <= set(_defined()), sorted(cited - set(_defined()))


def test_every_refusal_code_is_in_the_spec_table() -> None:
    text = SPEC.read_text(encoding="utf-8")
    assert [r.value for r in Reason if f"| `{r.value}`" not in text] == []
