"""bench/selfplay_report.py runs on a tiny count and writes every figure; bots' rounds replay."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from dutchblitz.protocol.games.blitz.bots import LEVELS

from tests.rigs.botmatch import play_match_round

ROOT = Path(__file__).resolve().parent.parent


def test_the_quick_report_prints_and_writes_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    command = [sys.executable, str(ROOT / "bench" / "selfplay_report.py"), "--quick"]
    done = subprocess.run(
        [*command, "--json", str(out)], capture_output=True, text=True, timeout=100, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "dead rounds" in done.stdout and "flat-out v fast" in done.stdout
    figures = json.loads(out.read_text())
    assert [row["players"] for row in figures["dead_rounds"]] == [2, 3, 4, 2]
    assert [(d["higher"], d["lower"]) for d in figures["duels"]] == [
        ("normal", "easy"),
        ("fast", "normal"),
        ("flat-out", "fast"),
    ]


def test_a_seed_plays_the_same_bot_round() -> None:
    levels = [LEVELS["fast"], LEVELS["flat-out"], LEVELS["easy"]]
    first = play_match_round(levels, random.Random(4))
    again = play_match_round(levels, random.Random(4))
    assert first == again
    assert first.moves > 0 and set(first.scores) == {0, 1, 2}
