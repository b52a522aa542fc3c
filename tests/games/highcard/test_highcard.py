"""High card, a second game in one folder, played through the real table and nodes.

Three headless nodes on 127.0.0.1 (real ZeroMQ, the real seat, replica and table) play
high card to 3 points: each round is the whole fair deal (commit, share, deal, reveal and
its audit), and the nodes agree on every score. Nothing in dutchblitz/node knows the game:
it is registered by ``tests/games/highcard/node.py`` before the node's main runs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from dutchblitz.protocol.games import registry
from dutchblitz.protocol.table.rules import AnyGame
from dutchblitz.protocol.table.state import Game

from tests.games.highcard.rules import RULES, HighCard
from tests.lan.nodes import AGREED, BlitzNode, free_ports, loopback_args, stop_all

PLAYERS = 3
TARGET = 3


def test_high_card_is_game_rules() -> None:
    rules: AnyGame = RULES  # mypy checks the interface; this checks the registry
    with registry.registered(rules):
        assert registry.game_for("highcard") is RULES
        assert registry.tags()[0] == registry.DEFAULT_GAME
        assert Game(rules=RULES).rules.tag == "highcard"


@pytest.mark.parametrize(
    ("tops", "scores", "ended_by"),
    [({0: 7, 1: 3}, {0: 1, 1: 0}, 0), ({0: 9, 1: 9, 2: 1}, {0: 1, 1: 1, 2: 0}, None)],
)
def test_the_highest_card_scores(
    tops: dict[int, int], scores: dict[int, int], ended_by: int | None
) -> None:
    decks = {seat: [c for c in HighCard().deck(seat) if c.value == value][:1]
             for seat, value in tops.items()}  # fmt: skip
    state = RULES.deal(list(tops), decks, None, len(tops), frozenset(tops))  # type: ignore[arg-type]
    assert RULES.round_over(state)
    assert RULES.round_scores(state) == scores
    assert RULES.ended_by(state) == ended_by


@pytest.mark.lan
@pytest.mark.timeout(180)
def test_three_nodes_play_high_card_to_the_end(tmp_path: Path) -> None:
    ports = free_ports(PLAYERS)
    extra = ("--game", "highcard", "--target", str(TARGET))
    nodes = [
        BlitzNode(
            f"hc{i}",
            tmp_path / f"node{i}",
            loopback_args(i, ports, PLAYERS, *extra),
            entry="tests.games.highcard.node",
        )
        for i in range(PLAYERS)
    ]
    try:
        for node in nodes:
            node.wait_for_text("game over")
        # Bots ask for a rematch at once, and a round of high card takes milliseconds: the
        # rematch begins before the nodes finish. The first game's results are what count.
        firsts = [first_result(node) for node in nodes]
    finally:
        stop_all(nodes)
    first = firsts[0]
    for node, result in zip(nodes, firsts, strict=True):
        for key in AGREED:
            assert result[key] == first[key], f"{node.label} differs in {key}"
        assert "Traceback" not in node.output()
    assert first["rules"] == "highcard" and first["over"]
    assert first["winner"] is not None and first["flags"] == []
    assert max(first["final_scores"].values()) >= TARGET
    assert len(first["rounds"]) >= TARGET
    assert all(sum(r["scores"].values()) >= 1 for r in first["rounds"])


def first_result(node: BlitzNode) -> dict[str, Any]:
    """The node's results file of its table's first game, once written."""
    results = node.state_dir / "results"
    node.wait_for_line(
        lambda _: any(p.name.count("-") == 0 for p in results.glob("*.json")), "first results"
    )
    first = next(p for p in results.glob("*.json") if "-" not in p.name)
    return json.loads(first.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
