"""The conformance runner from an editable install (`pip install -e .`), as contributors run it.

The install goes into a fresh virtual environment in a temporary directory; the
dependencies come from the environment running the tests (a ``.pth`` line), so only
the build back end is fetched, from the package index pip is configured with.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _run(command: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )


def _pip_outside() -> bool:
    """Whether this environment's pip can install into another (``--python``, pip 22.3)."""
    try:
        import pip
    except ImportError:
        return False
    return tuple(int(part) for part in pip.__version__.split(".")[:2]) >= (22, 3)


def _editable_env(tmp_path: Path) -> Path:
    """A virtual environment holding this repository as an editable install; its python.

    The install is made by this environment's pip, pointed at the new one with
    ``--python``: the same ``pip install -e`` and build, without seconds spent installing
    pip into a virtual environment that needs it once."""
    home = tmp_path / "venv"
    outside = _pip_outside()
    try:
        venv.EnvBuilder(with_pip=not outside).create(home)
    except Exception as exc:  # no ensurepip, no venv module: nothing to test here
        pytest.skip(f"cannot make a virtual environment: {exc}")
    python = home / "bin" / "python"
    pip = (
        [sys.executable, "-m", "pip", "--python", str(python)]
        if outside
        else [str(python), "-m", "pip"]
    )
    site = Path(_run([str(python), "-c", _PURELIB], tmp_path, 60).stdout.strip())
    # The dependencies, but not an installed copy of this package (the suite itself may run
    # from a plain install), which would shadow the editable one.
    dependencies = tmp_path / "dependencies"
    dependencies.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if not entry.name.startswith(("dutchblitz", "__editable__")):
            (dependencies / entry.name).symlink_to(entry)
    (site / "zz_test_dependencies.pth").write_text(f"{dependencies}\n", encoding="utf-8")
    base = [*pip, "install", "-q", "--no-deps", "--disable-pip-version-check"]
    done = _run([*base, "-e", str(REPO)], tmp_path, 300)
    if done.returncode != 0:  # no index to fetch the build back end from: build with ours
        done = _run([*base, "--no-build-isolation", "-e", str(REPO)], tmp_path, 300)
    if done.returncode != 0:
        pytest.skip(f"pip cannot make an editable install here: {done.stderr[-500:]}")
    return python


_PURELIB = "import sysconfig; print(sysconfig.get_paths()['purelib'])"


@pytest.mark.timeout(600)
def test_the_runner_passes_from_an_editable_install(tmp_path: Path) -> None:
    python = _editable_env(tmp_path)
    where = _run(
        [str(python), "-c", "import dutchblitz.vectors as v; print(v.__file__)"], tmp_path, 60
    )
    assert Path(where.stdout.strip()).parent == REPO / "spec" / "vectors", where
    report = tmp_path / "report.json"
    done = _run(
        [str(python), "-m", "dutchblitz.protocol.conformance", "--json", str(report)],
        tmp_path,
        300,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1].endswith(" 0 failed")
    assert "skipped" not in done.stdout, done.stdout[-2000:]
    assert report.is_file()
    done = _run([str(python), "-m", "dutchblitz.node.cli.conformance"], tmp_path, 300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "door exchanges" in done.stdout
