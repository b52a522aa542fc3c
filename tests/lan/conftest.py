"""The end-to-end games get one rerun each, and a failed one shows every node's log.

These start real node processes that race real timers on a shared machine. A test that
fails twice in a row fails the build; one that needed its rerun is listed by ``-ra`` as
rerun. Run with ``-p no:rerunfailures`` to see every failure.
"""

from __future__ import annotations

from collections.abc import Generator

import pytest

from tests.lan import nodes


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/lan/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.flaky(reruns=1))


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
