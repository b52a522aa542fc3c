"""The structure figures of the shipping packages, printed and checked against their limits.

    python -m tests.structure            # print every figure; exit 1 if any is over its limit
    python -m tests.structure --quiet    # print only what is over
    python -m tests.structure --path     # the modules a received PLAY crosses

Figures (the "Done when" of the table's re-layout, see docs/architecture.md):

- methods per class: every ``def`` in a class body, properties included, at most 25;
- lines per module: at most 600, except a module whose first lines carry the marker
  ``# Code generated ... DO NOT EDIT.``;
- cyclomatic complexity per function: at most 15, as ruff's mccabe rule (C901) counts it;
- limits defined twice: a limit (a module-level constant named ``MAX_*``, ``MIN_*``,
  ``*_LIMIT``, ``*_SIZE`` or ``*_BYTES`` and given a number, not another name) whose
  concept (its name less MAX_ and the unit words) is given a number in more than one module.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("protocol", "node", "client")
MAX_METHODS = 25
MAX_LINES = 600
MAX_COMPLEXITY = 15
GENERATED = re.compile(r"^# Code generated .* DO NOT EDIT\.$")
LIMIT_NAME = re.compile(r"^(MAX|MIN)_[A-Z0-9_]+$|^[A-Z0-9_]+_(LIMIT|SIZE|BYTES)$")
# Words that name no concept of their own ("the most bytes of ..."), and two that the
# code spells both ways: a table seats players, and a name is the TXT text it is sent as.
NOISE = {"MAX", "MIN", "LIMIT", "SIZE", "BYTES"}
SYNONYMS = {"SEATS": "PLAYERS", "TEXT": "NAME"}


@dataclass(frozen=True, slots=True)
class Over:
    """One figure over its limit (or, for limits, one concept defined more than once)."""

    figure: str
    where: str
    value: int
    limit: int

    def __str__(self) -> str:
        return f"{self.figure:<12} {self.value:>5} > {self.limit:<4} {self.where}"


def modules() -> Iterator[Path]:
    for package in PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def methods_per_class() -> list[tuple[str, int]]:
    found: list[tuple[str, int]] = []
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                count = sum(
                    isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) for item in node.body
                )
                found.append((f"{_name(path)}:{node.name}", count))
    return sorted(found, key=lambda pair: -pair[1])


def lines_per_module() -> list[tuple[str, int, bool]]:
    """Every module with its line count, and whether it is marked as generated."""
    found = []
    for path in modules():
        lines = path.read_text().splitlines()
        generated = any(GENERATED.match(line) for line in lines[:5])
        found.append((_name(path), len(lines), generated))
    return sorted(found, key=lambda row: -row[1])


def complexity_per_function() -> list[tuple[str, int]]:
    """Functions over the limit, as ruff's C901 reports them (it lists only those)."""
    command = [
        sys.executable,
        "-m",
        "ruff",
        "check",
        "--select",
        "C901",
        "--config",
        f"lint.mccabe.max-complexity = {MAX_COMPLEXITY}",
        "--output-format",
        "json",
        "--exit-zero",
        *PACKAGES,
    ]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    found = []
    for item in json.loads(result.stdout or "[]"):
        score = int(re.search(r"\((\d+) > \d+\)", item["message"]).group(1))  # type: ignore[union-attr]
        function = re.search(r"`([^`]+)`", item["message"])
        where = f"{_name(Path(item['filename']))}:{item['location']['row']}"
        found.append((f"{where}:{function.group(1) if function else '?'}", score))
    return sorted(found, key=lambda pair: -pair[1])


def _concept(name: str) -> str:
    """``MAX_NAME_BYTES`` and ``MAX_TEXT_BYTES`` -> ``NAME``; ``MIN_PLAYERS`` -> ``MIN_PLAYERS``."""
    words = [SYNONYMS.get(word, word) for word in name.split("_") if word not in NOISE]
    return "_".join(["MIN", *words] if name.startswith("MIN_") else words)


def limits_defined_twice() -> dict[str, list[str]]:
    """Each limit concept given a number in more than one module, with where."""
    homes: dict[str, list[str]] = defaultdict(list)
    for path in modules():
        for node in ast.parse(path.read_text()).body:
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets, value = [node.target], node.value
            else:
                continue
            if not _is_number(value):
                continue
            for target in targets:
                if isinstance(target, ast.Name) and LIMIT_NAME.match(target.id):
                    homes[_concept(target.id)].append(f"{_name(path)}:{target.id}")
    return {
        concept: where
        for concept, where in sorted(homes.items())
        if len({home.split(":")[0] for home in where}) > 1
    }


def _is_number(value: ast.expr) -> bool:
    """A number written out (``32``, ``64 * 1024``), not a name for one defined elsewhere."""
    return all(
        isinstance(node, ast.Constant | ast.BinOp | ast.UnaryOp | ast.operator | ast.unaryop)
        and not (isinstance(node, ast.Constant) and not isinstance(node.value, int | float))
        for node in ast.walk(value)
    )


def over_limits() -> list[Over]:
    over = [
        Over("methods", where, count, MAX_METHODS)
        for where, count in methods_per_class()
        if count > MAX_METHODS
    ]
    over += [
        Over("lines", where, count, MAX_LINES)
        for where, count, generated in lines_per_module()
        if count > MAX_LINES and not generated
    ]
    over += [
        Over("complexity", where, score, MAX_COMPLEXITY)
        for where, score in complexity_per_function()
    ]
    over += [
        Over("limit", f"{concept}: {', '.join(where)}", len(where), 1)
        for concept, where in limits_defined_twice().items()
    ]
    return over


def main(argv: list[str]) -> int:
    if "--path" in argv:
        from tests import message_path

        return message_path.main()
    quiet = "--quiet" in argv
    if not quiet:
        classes = methods_per_class()
        print(f"classes: {len(classes)}, most methods: {classes[0][1]} ({classes[0][0]})")
        lines = lines_per_module()
        print(f"modules: {len(lines)}, most lines: {lines[0][1]} ({lines[0][0]})")
    over = over_limits()
    for item in over:
        print(item)
    counts = {figure: sum(o.figure == figure for o in over) for figure in _FIGURES}
    print("over: " + ", ".join(f"{counts[figure]} {label}" for figure, label in _FIGURES.items()))
    return 1 if over else 0


_FIGURES = {
    "methods": f"classes over {MAX_METHODS} methods",
    "lines": f"modules over {MAX_LINES} lines",
    "complexity": f"functions over complexity {MAX_COMPLEXITY}",
    "limit": "limits defined more than once",
}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
