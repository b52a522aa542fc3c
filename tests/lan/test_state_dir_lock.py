"""A second node on a running node's ``--state-dir`` refuses at once and touches nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.lan.nodes import BlitzNode, stop_all
from tests.netns_helpers import child_env

pytestmark = [pytest.mark.lan, pytest.mark.timeout(120)]


def files(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (the lock with its pid too) and what it holds."""
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_a_second_node_on_a_held_state_dir_is_one_line_and_exit_code_1(tmp_path: Path) -> None:
    state = tmp_path / "ada"
    args = ["--interface", "127.0.0.1", "--port", "0", "--no-discovery", "--players", "2"]
    first = BlitzNode("ada", state, args)
    try:
        first.wait_for_text("sat down")  # its table is founded: its log is on disk
        before = files(state)
        assert "table.json" in before and any(name.endswith("events.log") for name in before)
        second = subprocess.run(
            [sys.executable, "-m", "dutchblitz.client.main", "--join", "--bot", "--headless",
             "--name", "bob", "--state-dir", str(state), *args],
            capture_output=True, text=True, timeout=60, env=child_env(),
        )  # fmt: skip
        assert second.returncode == 1, second.stderr
        assert second.stderr.count("\n") == 1 and "Traceback" not in second.stderr
        assert second.stderr.startswith(f"blitz-node: the state directory {state} is in use")
        assert f"(pid {first.process.pid})" in second.stderr
        assert second.stdout == ""
        after = files(state)
        for name, data in before.items():  # the first node's logs may only have grown
            assert after[name].startswith(data) if name.endswith(".log") else after[name] == data
        assert first.process.poll() is None, "the first node plays on"
    finally:
        stop_all([first])
