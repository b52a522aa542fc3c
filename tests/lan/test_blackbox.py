"""The black-box runner against a reference node: every case passes, open and private.

``python -m dutchblitz.node.cli.conformance --target HOST:PORT`` knocks at a live node's door
and sits at its table as a guest (spec/protocol.md section 25); the node here waits in its
lobby for players who never come, so the runner sees a table that is not changing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lan.nodes import BlitzNode, free_ports, stop_all

pytestmark = [pytest.mark.lan, pytest.mark.timeout(120)]


def _reference(tmp_path: Path, *extra: str) -> tuple[BlitzNode, int]:
    (port,) = free_ports(1)
    args = ["--interface", "127.0.0.1", "--port", str(port), "--no-discovery"]
    node = BlitzNode("reference", tmp_path / "reference", [*args, "--players", "3", *extra])
    node.wait_for_text("sat down")
    return node, port


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dutchblitz.node.cli.conformance", *args],
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )


@pytest.mark.parametrize("phrase", [None, "open sesame"], ids=["open", "private"])
def test_every_black_box_case_passes(tmp_path: Path, phrase: str | None) -> None:
    """P-131, P-201, P-95, P-99, P-77, P-103, P-119, P-78, P-96, P-129 from outside."""
    node, port = _reference(tmp_path, *(["--passphrase", phrase] if phrase else []))
    report = tmp_path / "report.json"
    try:
        extra = ["--passphrase", phrase] if phrase else []
        done = _run(
            "--target", f"127.0.0.1:{port}", "--table", "blitz", "--json", str(report), *extra
        )
    finally:
        stop_all([node])
    assert done.returncode == 0, done.stdout + done.stderr + node.output()[-3000:]
    results = json.loads(report.read_text())["results"]
    assert len(results) == 10 and all(r["ok"] for r in results)
    assert {r["spec"] for r in results} >= {"P-96", "P-78", "P-103", "P-129"}


def test_a_wrong_passphrase_fails_the_run(tmp_path: Path) -> None:
    node, port = _reference(tmp_path, "--passphrase", "open sesame")
    try:
        done = _run("--target", f"127.0.0.1:{port}", "--table", "blitz", "--passphrase", "nope")
    finally:
        stop_all([node])
    assert done.returncode == 1
    assert "FAILED the door lets the checker in: refused: wrong passphrase" in done.stdout


def test_a_bad_target_is_a_usage_error() -> None:
    done = _run("--target", "no-port-here")
    assert done.returncode == 2
    assert "HOST:PORT" in done.stderr
