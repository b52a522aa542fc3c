"""The simulator drives the protocol alone: of the package, it imports only protocol/."""

from __future__ import annotations

import ast
from pathlib import Path

RIGS = Path(__file__).resolve().parent


def _package_imports(source: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("dutchblitz")}


def test_the_simulator_imports_only_protocol() -> None:
    imports = _package_imports(RIGS / "sim.py")
    assert imports, "no import of the package found: the test reads the wrong file"
    assert all(name.startswith("dutchblitz.protocol") for name in imports), imports
