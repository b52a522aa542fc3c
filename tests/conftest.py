"""Settings for the whole suite.

The suite runs on more pytest-xdist workers than cores (README), so one example of a
Hypothesis test can be held up by the scheduler for longer than Hypothesis's 200 ms
per-example deadline without being slow itself. What each property checks is unchanged;
the suite's own time limits (pytest-timeout) still hold.

The long tests start first. ``--dist worksteal`` gives worker k the k-th of N equal runs of
the collected order, and an idle worker later takes the back half of the longest queue. A
long test late in a run starts late and ends the suite alone, and long tests together at
the front of the order all go to the first worker. So each run gets, at its head, a share
of the long tests (longest first, each to the run with the least so far), and the rest of
the tests fill the runs in the order collected. Every worker computes the same order (xdist
checks that the collections agree). The long tests and their seconds are listed in
``long_tests.txt`` (rough, from docs/testing.md); they only order the tests: a test missing
there, or one that has got faster, is still run.
"""

from __future__ import annotations

import compileall
import importlib.util
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from itertools import islice
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import settings

settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

LONG_TESTS_FILE = Path(__file__).with_name("long_tests.txt")


def read_long_tests(text: str) -> dict[str, float]:
    """Test id (with every parameter, or without the "[...]" for all of them) -> seconds,
    from lines of seconds and id; "#" starts a comment."""
    found: dict[str, float] = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split()
        if fields:
            found[fields[1]] = float(fields[0])
    return found


LONG_TESTS = read_long_tests(LONG_TESTS_FILE.read_text(encoding="utf-8"))

T = TypeVar("T")


def seconds_of(nodeid: str) -> float:
    """The time ``LONG_TESTS`` gives a test, or 0.0 for one not named there."""
    found = LONG_TESTS.get(nodeid)
    if found is None and nodeid.endswith("]"):
        found = LONG_TESTS.get(nodeid.split("[", 1)[0])
    return found or 0.0


def run_sizes(total: int, workers: int) -> list[int]:
    """How many tests each worker is first given, as ``worksteal`` splits them."""
    sizes: list[int] = []
    for remaining in range(max(1, workers), 0, -1):
        sizes.append((total - sum(sizes)) // remaining)
    return sizes


def long_first(
    items: Sequence[T],
    seconds: Callable[[T], float],
    workers: int,
    processes: Callable[[T], bool] = lambda _: False,
) -> list[T]:
    """``items`` in the order that starts each worker on its share of the long ones.

    Long tests that run real processes (``processes``) are shared out first, so each run
    gets as many seconds of them as the others; then the rest, to the runs with the least
    so far. Each run's head alternates the two kinds, even runs beginning with processes
    and odd ones without: about half the workers wait on real processes and timers while
    the others compute, rather than every worker starting a table of nodes at once."""
    long = sorted((item for item in items if seconds(item) > 0), key=seconds, reverse=True)
    rest = iter([item for item in items if seconds(item) <= 0])
    sizes = run_sizes(len(items), workers)
    heads: list[tuple[list[T], list[T]]] = [([], []) for _ in sizes]
    loads = [0.0] * len(sizes)
    for kind in (True, False):
        for item in (item for item in long if processes(item) == kind):
            run = min(
                (k for k, size in enumerate(sizes) if sum(map(len, heads[k])) < size),
                key=loads.__getitem__,
            )
            heads[run][0 if kind else 1].append(item)
            loads[run] += seconds(item)
    ordered: list[T] = []
    for k, (size, (real, other)) in enumerate(zip(sizes, heads, strict=True)):
        first, second = (real, other) if k % 2 == 0 else (other, real)
        for index in range(max(len(first), len(second))):
            ordered += first[index : index + 1] + second[index : index + 1]
        ordered += islice(rest, size - len(real) - len(other))
    return ordered


PROCESS_MARKS = ("lan", "tmux", "netns")
ROOT = Path(__file__).resolve().parent.parent
COMPILED = ("tests", "bench")  # beside the package's own folders, wherever it is installed
PACKAGES = ("dutchblitz.protocol", "dutchblitz.node", "dutchblitz.client")


def package_folders() -> list[Path]:
    """Where the project's modules are imported from: the checkout's folders under an
    editable install, the installed copy under any other (as CI installs it)."""
    found = (importlib.util.find_spec(name) for name in PACKAGES)
    return [Path(spec.origin).parent for spec in found if spec is not None and spec.origin]


def share_bytecode(cache: Path) -> bool:
    """Where Python writes no bytecode (``PYTHONDONTWRITEBYTECODE``), compile the project once
    into ``cache`` and point every process the suite starts there (``PYTHONPYCACHEPREFIX``).

    Otherwise each of the suite's processes (a sweep chunk, every node of a LAN game, every
    tmux client) compiles the project's modules again as it imports them: about half a
    second of processor each. Python still writes nothing beside the sources, and checks
    each compiled file against its source's time and size before it uses it. False (and
    nothing changed) where bytecode may be written, or a prefix is set already."""
    if not sys.flags.dont_write_bytecode or os.environ.get("PYTHONPYCACHEPREFIX"):
        return False
    sys.pycache_prefix = str(cache)
    for folder in [*package_folders(), *(ROOT / name for name in COMPILED)]:
        compileall.compile_dir(folder, quiet=2)
    os.environ["PYTHONPYCACHEPREFIX"] = str(cache)
    return True


BYTECODE = pytest.StashKey[Path]()


def pytest_configure(config: pytest.Config) -> None:
    # In the first process only: the xdist workers, started after this, inherit the prefix.
    if hasattr(config, "workerinput"):
        return
    cache = Path(tempfile.mkdtemp(prefix="dutchblitz-bytecode-"))
    if share_bytecode(cache):
        config.stash[BYTECODE] = cache
    else:
        cache.rmdir()


def pytest_unconfigure(config: pytest.Config) -> None:
    cache = config.stash.get(BYTECODE, None)
    if cache is not None:
        shutil.rmtree(cache, ignore_errors=True)
