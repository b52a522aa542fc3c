"""Start ``blitz-node`` processes for the end-to-end tests, and read what they leave behind.

Each node is ``python -m dutchblitz.client.main --join --bot --headless ...``
with its own state directory and summary file; its stderr (the node's log
lines) is read on a thread, so a test can wait for a line with a deadline.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.netns_helpers import Process

GAME_S = 90.0  # a whole game of four flat-out bots to 75 takes about 5 s on loopback
AGREED = (
    "players",
    "rounds",
    "final_scores",
    "winner",
    "log_digest",
    "races_lost",
    "refused",
    "flags",
)


def free_ports(count: int) -> list[int]:
    """Ports free on 127.0.0.1 now (the nodes bind them moments later)."""
    probes = []
    try:
        for _ in range(count):
            probe = socket.socket()
            probe.bind(("127.0.0.1", 0))
            probes.append(probe)
        return [int(probe.getsockname()[1]) for probe in probes]
    finally:
        for probe in probes:
            probe.close()


class BlitzNode(Process):
    """One headless bot node."""

    def __init__(
        self,
        label: str,
        state_dir: Path,
        args: list[str],
        prefix: list[str] | None = None,
        wait_s: float = GAME_S,
    ) -> None:
        self.state_dir = state_dir
        self.summary_path = state_dir.parent / f"{label}-summary.json"
        self.args = args
        self.prefix = prefix or []
        command = [
            *self.prefix,
            sys.executable, "-m", "dutchblitz.client.main",
            "--join", "--bot", "--headless", "--bot-level", "flat-out",
            "--name", label, "--state-dir", str(state_dir),
            "--summary-json", str(self.summary_path), *args,
        ]  # fmt: skip
        super().__init__(label, command, wait_s=wait_s)

    def wait_for_text(self, text: str) -> None:
        self.wait_for_line(lambda lines: any(text in line for line in lines), repr(text))

    def finish(self, timeout: float = GAME_S) -> int:
        """Wait for the node to exit on its own; its exit code."""
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
            raise AssertionError(
                f"{self.label} did not finish in {timeout}s:\n{self.output()}"
            ) from None

    def kill(self) -> None:
        """``kill -9``: no goodbye, no flush."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def summary(self) -> dict[str, Any]:
        return json.loads(self.summary_path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def loopback_args(index: int, ports: list[int], players: int, *extra: str) -> list[str]:
    """A node on 127.0.0.1 that meets the others through ``--peer`` alone."""
    peers = [arg for port in ports for arg in ("--peer", f"127.0.0.1:{port}")]
    return [
        "--interface", "127.0.0.1", "--port", str(ports[index]), "--no-discovery",
        "--players", str(players), "--seed", str(index), *peers, *extra,
    ]  # fmt: skip


def check_agreement(nodes: list[BlitzNode]) -> dict[str, Any]:
    """Every node wrote the same game; returns the first summary."""
    summaries = [node.summary() for node in nodes]
    first = summaries[0]
    assert first["over"] and first["winner"] is not None
    cheats = [flag for flag in first["flags"] if flag["kind"] != "unaudited"]
    assert cheats == [], "honest players flagged"
    for node, summary in zip(nodes, summaries, strict=True):
        for key in AGREED:
            assert summary[key] == first[key], f"{node.label} differs in {key}"
    names = {player["name"] for player in first["players"]}
    assert names == {node.label for node in nodes}
    assert max(first["final_scores"].values()) >= 75
    for node in nodes:
        results = list((node.state_dir / "results").glob("*.json"))
        assert len(results) == 1
        assert json.loads(results[0].read_text())["log_digest"] == first["log_digest"]
    return first


def stop_all(nodes: list[BlitzNode]) -> None:
    for node in nodes:
        node.stop()
