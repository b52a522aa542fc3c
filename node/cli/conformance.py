"""The conformance runner for the whole node: every vector of spec/vectors, the framing's too.

    python -m dutchblitz.node.cli.conformance [--json PATH]
    python -m dutchblitz.node.cli.conformance --target HOST:PORT [--table NAME] [--passphrase P]

``python -m dutchblitz.protocol.conformance`` runs the vectors of the pure protocol
(codec, rules, ordering, digests, fair deal, and the door's exchange); the framing's
(framing.json) need a real table socket on 127.0.0.1, so they are run here, with all of
the protocol's. With ``--target`` it checks a live node from the outside instead
(node/cli/blackbox.py), at the door HOST:PORT.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Sequence
from importlib import resources

from dutchblitz.protocol.conformance import runner
from dutchblitz.protocol.conformance.case import Case

from . import blackbox, framing_vectors

NODE_VECTOR_FILES = (("framing.json", framing_vectors.cases),)


def _failing(name: str, message: str) -> Case:
    def check() -> str:
        return message

    return Case("load", name, check)


def node_cases() -> tuple[list[Case], list[str]]:
    cases: list[Case] = []
    notes: list[str] = []
    for name, make in NODE_VECTOR_FILES:
        source = resources.files(runner.VECTORS_PACKAGE).joinpath(name)
        if not source.is_file():
            notes.append(f"skipped {name}: the vector file does not exist yet")
            continue
        try:
            cases.extend(make(json.loads(source.read_text(encoding="utf-8"))))
        except Exception as exc:  # a broken file fails the run with a reason
            cases.append(_failing(name, f"{type(exc).__name__}: {exc}"))
    return cases, notes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m dutchblitz.node.cli.conformance",
        description="Run every conformance vector of spec/vectors, the framing's included.",
    )
    parser.add_argument("--json", metavar="PATH", help="also write the report as JSON to PATH")
    parser.add_argument(
        "--target", metavar="HOST:PORT", help="check a live node at this door from outside"
    )
    parser.add_argument("--table", default="blitz", help="its table name (default: blitz)")
    parser.add_argument("--passphrase", metavar="PHRASE", help="its passphrase, if private")
    args = parser.parse_args(argv)
    if args.target:
        try:
            host, port = blackbox.parse_target(args.target)
        except ValueError as exc:
            parser.error(str(exc))
        target = blackbox.Target(host, port, args.table, args.passphrase)
        return _report(asyncio.run(blackbox.check(target)), [], args.json)
    cases: list[Case] = []
    notes: list[str] = []
    for vector_file in runner.VECTOR_FILES:
        found, note = runner.load_cases(vector_file)
        cases.extend(found)
        notes.extend([note] if note else [])
    found, more = node_cases()
    cases.extend(found)
    notes.extend(more)
    results = [runner.run_case(case) for case in cases]
    return _report(results, notes, args.json)


def _report(results: list[runner.Result], notes: list[str], path: str | None) -> int:
    print("\n".join(runner.report_lines(results, notes)))
    if path:
        with open(path, "w", encoding="utf-8") as out:
            json.dump(runner.report_json(results, notes), out, indent=1)
    return 0 if results and all(r.passed for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
