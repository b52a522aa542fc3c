"""bench/dutch_deal.py runs and prints its figures (it asserts no timing: a benchmark)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_the_deal_benchmark_prints_its_figures() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "dutch_deal.py"), "--players", "3", "--repeat", "1"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "mask-and-shuffle by 3" in done.stdout and "opening one card" in done.stdout
