"""spec/rules.md and the code keep each other honest: every rule id is tested, every
id the code cites exists, and every refusal reason is in the spec's table."""

from __future__ import annotations

import re
from pathlib import Path

from dutchblitz.protocol.games.blitz.rules import Reason

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "spec" / "rules.md"
DEFINED = re.compile(r"^- \*\*R-(\d+)\*\*", re.MULTILINE)
# "R-12" in a case name or comment, "R12" in a test function's name.
NAMED = re.compile(r"(?<![A-Za-z0-9])R-?(\d+)(?!\d)")
CITED = re.compile(r"(?<![A-Za-z0-9])R-(\d+)(?!\d)")


def defined_ids() -> list[int]:
    return [int(n) for n in DEFINED.findall(RULES.read_text(encoding="utf-8"))]


def ids_named_in(paths: list[Path], pattern: re.Pattern[str]) -> set[int]:
    return {int(n) for path in paths for n in pattern.findall(path.read_text(encoding="utf-8"))}


def test_rule_ids_run_from_1_without_gaps() -> None:
    ids = defined_ids()
    assert ids, "spec/rules.md defines no rule"
    assert ids == list(range(1, len(ids) + 1))


def test_every_rule_id_is_named_in_a_test() -> None:
    tests = [p for p in (ROOT / "tests").rglob("*.py") if p.name != Path(__file__).name]
    untested = sorted(set(defined_ids()) - ids_named_in(tests, NAMED))
    assert not untested, "rules with no test: " + ", ".join(f"R-{n}" for n in untested)


def test_every_rule_id_the_code_cites_exists() -> None:
    code = sorted((ROOT / "protocol").glob("*.py"))
    unknown = sorted(ids_named_in(code, CITED) - set(defined_ids()))
    assert not unknown, "the code cites rules the spec lacks: " + ", ".join(map(str, unknown))


def test_every_refusal_reason_is_in_the_spec_table() -> None:
    text = RULES.read_text(encoding="utf-8")
    missing = [reason.value for reason in Reason if f"| `{reason.value}`" not in text]
    assert not missing, f"reasons missing from spec/rules.md: {missing}"
