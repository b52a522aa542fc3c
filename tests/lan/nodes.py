"""Start ``blitz-node`` processes for the end-to-end tests, and read what they leave behind.

Each node is ``python -m dutchblitz.client.main --join --bot --headless ...``
with its own state directory and summary file; its stderr (the node's log
lines) is read on a thread, so a test can wait for a line with a deadline.
Every line is also written to ``<label>.log`` beside the state directory (a
restarted node appends to the same file), and a failed test shows the log of
every node it started (tests/lan/conftest.py).
"""

from __future__ import annotations

import json
import os
import random
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
    "post_stacking",
    "log_digest",
    "races_lost",
    "refused",
    "flags",
)


def free_ports(count: int) -> list[int]:
    """Ports free on 127.0.0.1 now, for the nodes' doors (they bind them moments later).

    They are drawn below the kernel's ephemeral range: each node also binds its table
    socket to a port the kernel picks from that range, which could otherwise be a port
    handed out here for another node's door, still unbound.
    """
    low, high = _ephemeral_range()
    first, end = (max(1024, low - 12000), low) if low > 2048 else (high + 1, 65536)
    draw = random.Random()
    ports: list[int] = []
    while len(ports) < count:
        port = draw.randrange(first, end)
        if port in ports:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        ports.append(port)
    return ports


def _ephemeral_range() -> tuple[int, int]:
    try:
        text = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text(encoding="ascii")
        low, high = (int(field) for field in text.split())
    except (OSError, ValueError):
        return 32768, 60999  # Linux's default
    return low, high


WATCH = ("--watch",)  # a BlitzNode's role: a spectator, which plays nothing
STARTED: list[BlitzNode] = []  # every node the running test has started, in order


def _entry() -> str:
    """The node's module: the shipped one, or the rigged one when a test rig is asked for."""
    rigged = any(os.environ.get(name) for name in ("BLITZ_FAULTS", "BLITZ_FLOOD"))
    return "tests.rigs.node" if rigged else "dutchblitz.client.main"


class BlitzNode(Process):
    """One headless bot node (or, with ``role=WATCH``, a headless spectator); ``entry``
    names another module to run it (a game's own)."""

    def __init__(
        self,
        label: str,
        state_dir: Path,
        args: list[str],
        prefix: list[str] | None = None,
        wait_s: float = GAME_S,
        role: tuple[str, ...] = ("--join", "--bot", "--bot-level", "flat-out"),
        entry: str | None = None,
    ) -> None:
        self.state_dir = state_dir
        self.summary_path = state_dir.parent / f"{label}-summary.json"
        self.log_path = state_dir.parent / f"{label}.log"
        self.args = args
        self.prefix = prefix or []
        command = [
            *self.prefix,
            sys.executable, "-m", entry or _entry(),
            *role, "--headless",
            "--name", label, "--state-dir", str(state_dir),
            "--summary-json", str(self.summary_path), *args,
        ]  # fmt: skip
        super().__init__(label, command, wait_s=wait_s)
        STARTED.append(self)

    def _read(self) -> None:
        """Take in the node's lines, and keep a copy in its log file."""
        assert self.process.stdout is not None
        with self.log_path.open("a", encoding="utf-8") as kept:
            kept.write(f"--- {' '.join(self.process.args)}\n")  # type: ignore[arg-type]
            for line in self.process.stdout:
                kept.write(line)
                kept.flush()
                self._incoming.put(line.rstrip("\n"))
        self._incoming.put(None)

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
    assert max(first["final_scores"].values()) >= first["target"]
    for node in nodes:
        results = list((node.state_dir / "results").glob("*.json"))
        assert len(results) == 1
        assert json.loads(results[0].read_text())["log_digest"] == first["log_digest"]
    return first


def stop_all(nodes: list[BlitzNode]) -> None:
    for node in nodes:
        node.stop()
