"""Post stacking as a table option, over real ZeroMQ on loopback (spec/protocol.md P-141,
P-142, P-261).

Two headless bot nodes: the one that founds the table and starts the game was told
``--no-post-stacking``, the other was not. The founder's options are the table's (its
OPTIONS), the joiner shows and keeps them, and the START carries them, so both play the
whole game without Post stacking and say so in their summaries.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lan.nodes import BlitzNode, free_ports, loopback_args, stop_all

pytestmark = [pytest.mark.lan, pytest.mark.timeout(180)]


def test_the_starters_choice_reaches_every_node_and_the_summary(tmp_path: Path) -> None:
    ports = free_ports(2)
    starter = loopback_args(0, ports, 2, "--no-post-stacking", "--target", "15")
    other = loopback_args(1, ports, 2, "--target", "15")
    at = other.index("--players")
    del other[at : at + 2]  # it never starts the game: the starter's START decides
    nodes = [BlitzNode("starter", tmp_path / "starter", starter)]
    try:
        nodes[0].wait_for_text("founded table")  # the founder's options are the table's
        nodes.append(BlitzNode("other", tmp_path / "other", other))
        codes = [node.finish() for node in nodes]
        assert codes == [0, 0], "\n\n".join(node.output() for node in nodes)
        summaries = [node.summary() for node in nodes]
    finally:
        stop_all(nodes)
    assert [s["post_stacking"] for s in summaries] == [False, False]
    assert summaries[0]["rounds"] == summaries[1]["rounds"]
    assert summaries[0]["log_digest"] == summaries[1]["log_digest"]
    assert all(s["over"] for s in summaries)
