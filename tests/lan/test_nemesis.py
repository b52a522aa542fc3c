"""The nemesis in short (bench/nemesis.py): four real bot nodes, each in its own network
namespace, play game after game for a minute and a half while seeded faults rain on them:
loss and one- and two-way link cuts (nftables), delay (netem, where the kernel has it),
SIGSTOP pauses, kill -9 with a restart on the same state directory (P-204), and a full
state disk. Once every fault is healed, every game that started has ended, every node that
wrote a game's summary wrote the same log digest, and nothing of the lab is left behind.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.netns_helpers import child_env, skip_unless_netns

pytestmark = [pytest.mark.lan, pytest.mark.netns, pytest.mark.timeout(480)]

ROOT = Path(__file__).resolve().parents[2]
MINUTES = 1.5  # of faults; the drain after them is bounded too (--drain-s)


def skip_unless_nft() -> None:
    if shutil.which("nft") is None:
        pytest.skip("needs the nft command (Debian's nftables) to cut links")
    probe = subprocess.run(["nft", "list", "tables"], capture_output=True, text=True, timeout=15)
    if probe.returncode != 0:
        pytest.skip(f"nftables does not answer here: {probe.stderr.strip()}")


@pytest.mark.parametrize("seed", [11])
def test_nodes_under_composed_faults_finish_every_game_with_one_digest(
    tmp_path: Path, seed: int
) -> None:
    skip_unless_netns()
    skip_unless_nft()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs per node needs root")
    report_path = tmp_path / "report.json"
    command = [
        sys.executable, str(ROOT / "bench" / "nemesis.py"),
        "--minutes", str(MINUTES), "--seed", str(seed), "--target", "40",
        "--fault-every-s", "5", "--drain-s", "150", "--straggle-s", "45",
        "--workdir", str(tmp_path / "lab"), "--json", str(report_path), "--quiet",
    ]  # fmt: skip
    ran = subprocess.run(command, capture_output=True, text=True, timeout=450, env=child_env())
    if ran.returncode == 2:
        pytest.skip(ran.stderr.strip())
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert report["faults_total"] > 0 and report["failures"] == []
    assert report["games_finished"] == report["games_started"] >= 1
    assert report["digests_equal"]
    assert all(len(game["log_digest"]) <= 1 for game in report["games"])
    kinds = set(report["faults"])
    assert kinds & {"loss", "cut-one-way", "cut-two-way"} and kinds & {"pause", "kill"}
    assert report["cleanup"] == []
    namespaces = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert report["lab"] not in namespaces
    assert str(tmp_path) not in Path("/proc/mounts").read_text(encoding="utf-8")
    logs = "".join(path.read_text() for path in (tmp_path / "lab" / "logs").glob("*.log"))
    assert "Traceback" not in logs
