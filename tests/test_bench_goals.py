"""bench/goals.py lists every goal of the performance work, measured or not yet."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import goals

pytestmark = pytest.mark.timeout(30)

GOALS = (
    "throughput, 4 flat-out bots, whole game",
    "commit p50, 4 nodes, x the bare floor",
    "commit p50, 8 nodes, x the bare floor",
    "processor per final move per node, 4 nodes",
    "codec, encode + decode, x bare msgpack",
    "catch-up after 5 rounds",
    "catch-up after 50 rounds",
    "messages per event, 8 nodes",
    "resident memory after a whole game",
    "blitz-node --join to the lobby on screen",
)

FIGURES: dict[str, Any] = {
    "baseline_rtt_ms": 0.5,
    "commit_ms": {"4": [2.0, 6.0], "8": [8.0, 30.0]},
    "floor_p50_ratio": {"4": 2.0, "8": 8.0},
    "floor_moves_per_s": {"4": 7000.0},
    "throughput_moves_per_s": {"4": 2500.0},
    "throughput_cpu_ms_per_move": {"4": 0.8},
    "codec_ratio": 2.5,
    "cost_growth": {"8": {"messages_per_event": 56.0}},
    "rss_mb": 50.0,
    "startup_s": 0.8,
    "startup_import_s": 0.5,
}


@pytest.mark.parametrize(
    ("figures", "measured"),
    [({}, False), (FIGURES, True)],
    ids=["nothing measured", "measured"],
)
def test_every_goal_has_a_row(figures: dict[str, Any], measured: bool) -> None:
    rows = {row["figure"]: row for row in goals.rows(figures)}
    for name in GOALS:
        assert name in rows, name
        assert rows[name]["goal"] is not None
    if not measured:
        assert all(row["measured"] is None and row["met"] is None for row in rows.values())


@pytest.mark.parametrize(
    ("name", "measured", "met"),
    [
        ("throughput, 4 flat-out bots, whole game", 2500.0, True),
        ("commit p50, 4 nodes, x the bare floor", 2.0, False),  # 2 ms against a 1 ms floor
        ("commit p50, 8 nodes, x the bare floor", 2.0, False),
        ("processor per final move per node, 4 nodes", 0.2, False),
        ("codec, encode + decode, x bare msgpack", 2.5, False),
        ("messages per event, 8 nodes", 56.0, False),
        ("resident memory after a whole game", 50.0, True),
        ("blitz-node --join to the lobby on screen", 0.8, True),
    ],
)
def test_a_row_is_judged_against_its_goal(name: str, measured: float, met: bool) -> None:
    row = next(r for r in goals.rows(FIGURES) if r["figure"] == name)
    assert row["measured"] == pytest.approx(measured)
    assert row["met"] is met
