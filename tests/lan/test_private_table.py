"""A private table on loopback: three players who share the passphrase play; a fourth is kept out.

Each node knows the others only by their doors (``--peer``). The three with the
right phrase pass each other's doors (SPAKE2), put each other's keys on their
rosters and play a whole game. The fourth knocks with a wrong phrase: every
door turns it away, so its key is on no roster and its table socket hears
nobody; it never sits down at their table.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.lan.nodes import BlitzNode, check_agreement, free_ports, loopback_args, stop_all

pytestmark = [pytest.mark.lan, pytest.mark.timeout(180)]

PLAYERS = 3


def counters_of(node: BlitzNode) -> dict[str, object]:
    line = next(x for x in node.output().splitlines() if "counters:" in x)
    return ast.literal_eval(line.split("counters: ", 1)[1])  # type: ignore[no-any-return]


def test_players_with_the_phrase_play_and_a_wrong_phrase_is_kept_out(tmp_path: Path) -> None:
    ports = free_ports(PLAYERS + 1)
    table = ["--table", "attic"]
    nodes = [
        BlitzNode(
            f"bot{i}",
            tmp_path / f"node{i}",
            loopback_args(i, ports, PLAYERS, *table, "--passphrase", "correct horse"),
        )
        for i in range(PLAYERS)
    ]
    intruder = BlitzNode(
        "intruder",
        tmp_path / "intruder",
        loopback_args(PLAYERS, ports, PLAYERS, *table, "--passphrase", "battery staple"),
    )
    try:
        codes = [node.finish() for node in nodes]
        assert codes == [0] * PLAYERS, "\n\n".join(node.output() for node in nodes)
        summary = check_agreement(nodes)
        intruder.wait_for_text("refused us: wrong passphrase")
    finally:
        stop_all([*nodes, intruder])
    assert "intruder" not in {player["name"] for player in summary["players"]}
    for node in nodes:
        output = node.output()
        assert "Traceback" not in output
        assert "intruder" not in output
    assert counters_of(intruder)["received"] == 0
