"""bench/run.py in its shortest form writes every figure of the docs/performance.md table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KEYS = (
    "commit_p50_ratio",
    "commit_p99_ratio",
    "throughput_moves_per_s",
    "codec_ratio",
    "engine_moves_per_s",
    "rss_mb",
    "catchup_s",
    "discovery_s",
    "cost_growth",
    "floor_p50_ratio",
    "floor_moves_per_s",
    "throughput_cpu_ms_per_move",
    "throughput_main_thread_share",
    "spectators_commit_ms",
    "dutch_deal_ms",
    "startup_s",
    "startup_import_s",
    "goals",
    "catchup_2_rounds_s",
)


@pytest.mark.lan
@pytest.mark.timeout(300)
def test_quick_run_writes_every_key(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    command = [
        sys.executable, str(ROOT / "bench" / "run.py"), "--quick", "--no-netns",
        "--sizes", "2", "--seconds", "1.5", "--json", str(out),
    ]  # fmt: skip
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=290, env=dict(os.environ), check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(out.read_text())
    for key in KEYS:
        assert key in figures, key
    assert set(figures["commit_p50_ratio"]) == {"2"}
    assert figures["commit_p50_ratio"]["2"] > 0
    assert figures["throughput_moves_per_s"]["4"] > 0
    assert 0 < figures["throughput_main_thread_share"]["4"] <= 1
    assert figures["floor_p50_ratio"]["2"] > 0 and figures["floor_moves_per_s"]["4"] > 0
    assert figures["cost_growth"]["4"]["messages_per_event"] >= 3
    assert set(figures["spectators_commit_ms"]) == {"0", "4"}
    assert figures["dutch_deal_ms"]["sealed_opening_ms"] > 0
    assert "commit p50" in done.stdout and "Dutch: shuffle by 6" in done.stdout
    assert figures["startup_import_s"] > 0
    assert "blitz-node --join to the lobby on screen" in done.stdout
