"""A failed end-to-end game shows the log of every node it started.

These start real node processes that race real timers on a shared machine; each test
waits on what the nodes report, never on a fixed time, and has no rerun: a failure
fails the build, with every node's log beside it.
"""

from __future__ import annotations

from collections.abc import Generator

import pytest

from tests.lan import nodes


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.failed and call.when == "call":
        for node in nodes.STARTED:
            report.sections.append((f"node {node.label} ({node.log_path})", node.output()))
    return report


@pytest.fixture(autouse=True)
def _forget_started_nodes() -> None:
    nodes.STARTED.clear()
