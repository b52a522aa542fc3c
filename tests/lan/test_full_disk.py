"""A node whose disk fills up mid-game stops cleanly, keeps what it wrote, and the game goes on.

One of four nodes keeps its state on a 32 KiB tmpfs, which the event log
outgrows within a few rounds. That node says so in one line and exits with
code 1, with no traceback; its log on the full disk reads back intact. The
other three remove it from the table and finish the game in agreement.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from dutchblitz.node.store.state import StateDir

from tests.lan.nodes import AGREED, BlitzNode, free_ports, loopback_args, stop_all
from tests.netns_helpers import tiny_tmpfs

pytestmark = [pytest.mark.lan, pytest.mark.timeout(180)]

PLAYERS = 4


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    with tiny_tmpfs(tmp_path, "32k") as mount_point:
        yield mount_point


def test_a_full_disk_stops_one_node_cleanly_and_the_others_finish(
    tmp_path: Path, tiny_disk: Path
) -> None:
    ports = free_ports(PLAYERS)
    homes = [tmp_path / f"node{i}" for i in range(PLAYERS - 1)] + [tiny_disk / "node3"]
    nodes = [
        BlitzNode(f"bot{i}", homes[i], loopback_args(i, ports, PLAYERS)) for i in range(PLAYERS)
    ]
    full, others = nodes[-1], nodes[:-1]
    try:
        assert full.finish() == 1, full.output()
        codes = [node.finish() for node in others]
        assert codes == [0] * len(others), "\n\n".join(node.output() for node in nodes)
        summaries = [node.summary() for node in others]
    finally:
        stop_all(nodes)
    output = full.output()
    assert "the disk is full" in output and "Traceback" not in output
    for summary in summaries[1:]:
        for key in AGREED:
            assert summary[key] == summaries[0][key], key
    assert summaries[0]["over"]
    state = StateDir(homes[-1])
    found = state.open_events()
    state.close()
    assert found.problem == "" and len(found.records) > 20
