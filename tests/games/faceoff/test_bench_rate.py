"""bench/faceoff_rate.py runs and prints its figures for every table size (spec/faceoff.md
F-2, F-4 to F-6: the layout makes face-offs often, not on every card)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_F2_F4_the_rate_benchmark_prints_a_rate_per_size() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "faceoff_rate.py"), "--games", "20"],
        capture_output=True, text=True, timeout=100, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()[1:] if line.strip()[0].isdigit()]
    assert [int(r[0]) for r in rows] == [3, 4, 5, 6, 7, 8]
    assert all(0.1 < float(r[1]) < 1.5 for r in rows)
    assert "answer check:" in done.stdout
