"""The suite compiles the project once for all its processes where Python writes no bytecode
(tests/conftest.py ``share_bytecode``), and leaves everything as it was elsewhere."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _core() -> Path:
    """Where the replica's core is imported from (the checkout, or an installed copy)."""
    spec = importlib.util.find_spec("dutchblitz.protocol.replica.core")
    assert spec is not None and spec.origin is not None
    return Path(spec.origin)


pytestmark = pytest.mark.timeout(120)


def _python(code: str, env: dict[str, str], *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *flags, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=100,
        check=True,
    )


def _env(**changes: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPYCACHEPREFIX"}
    for key, value in changes.items():
        env.pop(key, None)
        if value is not None:
            env[key] = value
    return env


SHARE = (
    "import os; from pathlib import Path; from tests.conftest import share_bytecode;"
    "print(share_bytecode(Path('{cache}')), os.environ.get('PYTHONPYCACHEPREFIX'))"
)


def test_without_bytecode_the_project_is_compiled_once_and_children_load_it(
    tmp_path: Path,
) -> None:
    cache = tmp_path / "bytecode"
    env = _env(PYTHONDONTWRITEBYTECODE="1")
    shared = _python(SHARE.format(cache=cache), env)
    assert shared.stdout.split() == ["True", str(cache)]
    compiled = list(cache.rglob("core.cpython-*.pyc"))
    assert any(_core().parent.as_posix() in path.as_posix() for path in compiled)
    child = _python(
        "import dutchblitz.protocol.replica.core",
        {**env, "PYTHONPYCACHEPREFIX": str(cache)},
        "-v",
    )
    loaded = [line for line in child.stderr.splitlines() if "code object from" in line]
    assert any(str(cache) in line and "replica/core" in line for line in loaded)


@pytest.mark.parametrize(
    ("changes", "prefix"),
    [
        ({"PYTHONDONTWRITEBYTECODE": None}, "None"),  # bytecode may be written: as it was
        ({"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": "/elsewhere"}, "/elsewhere"),
    ],
)
def test_elsewhere_nothing_changes(
    tmp_path: Path, changes: dict[str, str | None], prefix: str
) -> None:
    cache = tmp_path / "bytecode"
    shared = _python(SHARE.format(cache=cache), _env(**changes))
    assert shared.stdout.split() == ["False", prefix]
    assert not cache.exists()


def test_this_run_and_its_workers_read_one_shared_prefix() -> None:
    """Under pytest-xdist too: a worker starts after the first process set the prefix."""
    if not sys.flags.dont_write_bytecode:
        pytest.skip("Python writes bytecode beside the sources here, as usual")
    prefix = os.environ.get("PYTHONPYCACHEPREFIX")
    assert prefix and sys.pycache_prefix == prefix
