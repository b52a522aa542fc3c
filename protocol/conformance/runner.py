"""The conformance runner: every vector of spec/vectors, reported by the requirement it checks.

    python -m dutchblitz.protocol.conformance [--json PATH]

``python -m dutchblitz.node.cli.conformance`` runs the same vectors, and with ``--target``
checks a live node from the outside.

Each vector file has a module that turns its JSON into ``Case`` objects. A file whose
module or data is not there yet is skipped with a note, unless it is required. Reading
the packaged files (and writing the JSON report) is the only IO, and it happens here in
``main``; the cases themselves are pure.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..games.registry import game_for, tags
from .case import Case


@dataclass(frozen=True, slots=True)
class VectorFile:
    file: str
    module: str  # in dutchblitz.protocol, with ``cases(data) -> list[Case]``
    required: bool


# The table's own files, then each registered game's (``TableGame.vectors``), in the
# registry's order: the runner names no game.
TABLE_FILES = (
    VectorFile("codec.json", "conformance.codec_vectors", required=True),
    VectorFile("ordering.json", "conformance.order_vectors", required=False),
    VectorFile("digests.json", "conformance.digest_vectors", required=False),
    VectorFile("fairdeal.json", "conformance.fairdeal_vectors", required=False),
    VectorFile("door.json", "door.vectors", required=False),
    VectorFile("gamefile.json", "conformance.gamefile_vectors", required=False),
)
VECTOR_FILES = TABLE_FILES + tuple(
    VectorFile(file, module, required=False)
    for tag in tags()
    for file, module in game_for(tag).vectors
)
VECTORS_PACKAGE = "dutchblitz.vectors"
PROTOCOL = "dutchblitz.protocol"  # the vector modules are named within it


@dataclass(frozen=True, slots=True)
class Result:
    spec_id: str
    name: str
    message: str | None  # None: passed

    @property
    def passed(self) -> bool:
        return self.message is None


def run_case(case: Case) -> Result:
    """Run one case; a case that crashes fails with the error instead of stopping the run."""
    try:
        message = case.run()
    except Exception as exc:  # a crashing case is a failed case, not a crashed runner
        message = f"crashed: {type(exc).__name__}: {exc}"
    return Result(case.spec_id, case.name, message)


def _spec_order(spec_id: str) -> tuple[str, int, str]:
    found = re.fullmatch(r"([A-Za-z]+)-(\d+)(.*)", spec_id)
    if found is None:
        return (spec_id, -1, "")
    return (found.group(1), int(found.group(2)), found.group(3))


def report_lines(results: Sequence[Result], notes: Iterable[str]) -> list[str]:
    """The report: results grouped by spec id, the notes, then ``N passed, M failed``."""
    lines: list[str] = []
    for spec_id in sorted({r.spec_id for r in results}, key=_spec_order):
        lines.append(spec_id)
        for result in (r for r in results if r.spec_id == spec_id):
            status = "OK    " if result.passed else "FAILED"
            detail = "" if result.passed else f": {result.message}"
            lines.append(f"  {status} {result.name}{detail}")
    lines.extend(notes)
    passed = sum(r.passed for r in results)
    lines.append(f"{passed} passed, {len(results) - passed} failed")
    return lines


def report_json(results: Sequence[Result], notes: Sequence[str]) -> dict[str, Any]:
    passed = sum(r.passed for r in results)
    return {
        "passed": passed,
        "failed": len(results) - passed,
        "notes": list(notes),
        "results": [
            {"spec": r.spec_id, "name": r.name, "ok": r.passed, "message": r.message}
            for r in results
        ],
    }


def _failing(spec_id: str, name: str, message: str) -> Case:
    return Case(spec_id, name, lambda: message)


def load_cases(vector_file: VectorFile) -> tuple[list[Case], str | None]:
    """The cases of one vector file, or none and a note saying why it was skipped."""
    module_name = f"{PROTOCOL}.{vector_file.module}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name or vector_file.required:
            return [_failing("load", vector_file.file, f"cannot import: {exc}")], None
        return [], f"skipped {vector_file.file}: {module_name} does not exist yet"
    source = resources.files(VECTORS_PACKAGE).joinpath(vector_file.file)
    if not source.is_file():
        if vector_file.required:
            return [_failing("load", vector_file.file, "the vector file is missing")], None
        return [], f"skipped {vector_file.file}: the vector file does not exist yet"
    try:
        make_cases: Callable[[Any], list[Case]] = module.cases
        return make_cases(json.loads(source.read_text(encoding="utf-8"))), None
    except Exception as exc:  # a broken file fails the run with a reason, it does not crash it
        return [_failing("load", vector_file.file, f"{type(exc).__name__}: {exc}")], None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m dutchblitz.protocol.conformance",
        description="Run the conformance vectors of spec/vectors against this implementation.",
    )
    parser.add_argument("--json", metavar="PATH", help="also write the report as JSON to PATH")
    args = parser.parse_args(argv)
    cases: list[Case] = []
    notes: list[str] = []
    for vector_file in VECTOR_FILES:
        found, note = load_cases(vector_file)
        cases.extend(found)
        notes.extend([note] if note else [])
    results = [run_case(case) for case in cases]
    print("\n".join(report_lines(results, notes)))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report_json(results, notes), out, indent=1)
    return 0 if all(r.passed for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
