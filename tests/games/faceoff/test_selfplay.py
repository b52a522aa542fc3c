"""bench/faceoff_selfplay.py plays whole games of bots against bots on the pure rules and
prints its figures (spec/faceoff.md F-2: face-offs often, not on every card; F-28, F-31:
votes and the list decide face-offs)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("mode", ["typed", "spoken"])
def test_F2_F31_selfplay_prints_its_figures_per_size(mode: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "faceoff_selfplay.py"), "--games", "3",
         "--mode", mode],
        capture_output=True, text=True, timeout=100, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = [
        line.split()
        for line in done.stdout.splitlines()[1:]
        if line.strip()[0].isdigit() and "games" not in line
    ]
    assert [int(r[0]) for r in rows] == [3, 4, 5, 6]
    assert all(0.1 < float(r[1]) < 1.5 for r in rows)
    for r in rows:
        decided = [float(cell.rstrip("%")) for cell in r[3:7]]
        assert abs(sum(decided) - 100) <= 2  # each face-off was decided one way
        assert float(r[7]) + float(r[8]) > 0  # somebody won
