"""The conformance runner: `python -m dutchblitz.protocol.conformance`."""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from dutchblitz.protocol.conformance import codec_vectors
from dutchblitz.protocol.conformance import runner as conformance
from dutchblitz.protocol.conformance.case import Case
from dutchblitz.protocol.conformance.runner import VectorFile, load_cases, main

TOTAL = re.compile(r"^(\d+) passed, (\d+) failed$")


def _total(output: str) -> tuple[int, int]:
    found = TOTAL.match(output.strip().splitlines()[-1])
    assert found is not None, output[-300:]
    return int(found.group(1)), int(found.group(2))


@dataclass(frozen=True)
class WholeRun:
    code: int
    out: str
    report: Path


@pytest.fixture(scope="module")
def whole_run(tmp_path_factory: pytest.TempPathFactory) -> WholeRun:
    """One run of every vector, with its JSON report, for the tests that read it (a run
    takes seconds; without ``--json`` the runner prints the same, see the command line's
    test below)."""
    report = tmp_path_factory.mktemp("conformance") / "report.json"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main(["--json", str(report)])
    return WholeRun(code, printed.getvalue(), report)


def test_every_vector_passes(whole_run: WholeRun) -> None:
    assert whole_run.code == 0
    passed, failed = _total(whole_run.out)
    assert passed > 200
    assert failed == 0


def test_report_is_grouped_by_spec_id(whole_run: WholeRun) -> None:
    lines = whole_run.out.splitlines()
    headings = [line for line in lines if re.fullmatch(r"P-\d+", line)]
    numbers = [int(h[2:]) for h in headings]
    assert numbers == sorted(set(numbers))
    assert lines[lines.index("P-2") + 1].startswith("  OK ")


def test_json_report(whole_run: WholeRun) -> None:
    assert whole_run.code == 0
    passed, failed = _total(whole_run.out)
    report = json.loads(whole_run.report.read_text())
    assert (report["passed"], report["failed"]) == (passed, failed)
    assert len(report["results"]) == passed + failed
    assert {"spec", "name", "ok", "message"} <= set(report["results"][0])


def test_a_failing_case_fails_the_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def crash() -> str | None:
        raise RuntimeError("boom")

    broken = [
        Case("P-1", "passes", lambda: None),
        Case("P-1", "fails", lambda: "wrong bytes"),
        Case("P-3", "crashes", crash),
    ]
    monkeypatch.setattr(codec_vectors, "cases", lambda data: broken)
    # The codec's file alone: the other files' cases pass, and cost seconds, either way.
    codec_only = tuple(
        f for f in conformance.VECTOR_FILES if f.module == "conformance.codec_vectors"
    )
    monkeypatch.setattr(conformance, "VECTOR_FILES", codec_only)
    assert main([]) == 1
    out = capsys.readouterr().out
    assert "  FAILED fails: wrong bytes" in out
    assert "  FAILED crashes: crashed: RuntimeError: boom" in out
    passed, failed = _total(out)
    assert failed == 2
    assert passed >= 1


def test_a_missing_optional_module_is_skipped_with_a_note() -> None:
    found, note = load_cases(VectorFile("later.json", "no_such_vectors", required=False))
    assert found == []
    assert note is not None and "later.json" in note


def test_a_missing_optional_file_is_skipped_with_a_note() -> None:
    found, note = load_cases(
        VectorFile("no-such-file.json", "conformance.codec_vectors", required=False)
    )
    assert found == []
    assert note is not None and "no-such-file.json" in note


def test_a_missing_required_file_fails() -> None:
    found, note = load_cases(
        VectorFile("no-such-file.json", "conformance.codec_vectors", required=True)
    )
    assert note is None
    assert [case.run() for case in found] == ["the vector file is missing"]


def test_the_runner_knows_the_vector_files() -> None:
    files = {f.file: f.module for f in conformance.VECTOR_FILES}
    assert files == {
        "codec.json": "conformance.codec_vectors",
        "rules.json": "games.blitz.rules_vectors",
        "ordering.json": "conformance.order_vectors",
        "digests.json": "conformance.digest_vectors",
        "fairdeal.json": "conformance.fairdeal_vectors",
        "door.json": "door.vectors",
        "dutch_deal.json": "games.dutch.vectors",
        "dutch_rules.json": "games.dutch.rules_vectors",
        "dutch_wire.json": "games.dutch.wire_vectors",
        "faceoff_wire.json": "games.faceoff.wire_vectors",
        "gamefile.json": "conformance.gamefile_vectors",
        "dutch_digests.json": "conformance.digest_vectors",
    }


def test_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dutchblitz.protocol.conformance"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert _total(done.stdout)[1] == 0
