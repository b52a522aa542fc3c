"""Each test's wall time and CPU seconds: a pytest plugin for finding where the suite's time goes.

    PYTEST_XDIST_WORKER=gw0 python -m pytest -p no:xdist -p bench.pytest_costs FILE ...

prints, after the run, a line per test, the most CPU first: wall seconds, then the CPU
seconds of the test's process and of the child processes it waited for (a sweep chunk's
subprocess, a game's nodes), then its id; with ``BLITZ_TEST_COSTS=PATH`` each line is also
appended to PATH as the test ends. ``PYTEST_XDIST_WORKER`` set makes each chunk of a sweep
run on one process, as it does under pytest-xdist (outside it a chunk takes every core).
Compare CPU seconds on a shared machine: wall time grows with everyone else's load.
"""

from __future__ import annotations

import os
import resource
import time

import pytest

_started: dict[str, tuple[float, float]] = {}
_costs: list[tuple[float, float, str]] = []


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def pytest_runtest_setup(item: pytest.Item) -> None:
    _started[item.nodeid] = (time.perf_counter(), _cpu_seconds())


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "teardown" or report.nodeid not in _started:
        return
    wall, cpu = _started.pop(report.nodeid)
    cost = (time.perf_counter() - wall, _cpu_seconds() - cpu, report.nodeid)
    _costs.append(cost)
    path = os.environ.get("BLITZ_TEST_COSTS")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(_line(cost) + "\n")


def _line(cost: tuple[float, float, str]) -> str:
    wall, cpu, nodeid = cost
    return f"{wall:8.1f} s wall {cpu:8.1f} s cpu  {nodeid}"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not _costs:
        return
    terminalreporter.section("wall and CPU seconds per test, the most CPU first")
    for cost in sorted(_costs, key=lambda c: c[1], reverse=True):
        terminalreporter.write_line(_line(cost))
    total = sum(cpu for _, cpu, _ in _costs)
    terminalreporter.write_line(f"{total:.1f} s of CPU in {len(_costs)} tests")
