"""Three bot nodes play a short game on 127.0.0.1; each keeps it in its archive.

Every node's ``games.sqlite`` holds the one game, with the digest of its summary, and
``blitz-node games``, ``stats``, ``export`` and ``replay`` read it. A game whose file
waits in ``archive-pending/`` (as a crash at the end would leave it) is kept at the
next opening of the archive.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from dutchblitz.node.cli.commands import open_replay
from dutchblitz.node.store.archive import DATABASE, PENDING
from dutchblitz.protocol.replays.gamefile import check_game_file

from tests.lan.nodes import BlitzNode, check_agreement, free_ports, loopback_args, stop_all

pytestmark = [pytest.mark.lan, pytest.mark.timeout(180)]

PLAYERS = 3


def _blitz_node(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dutchblitz.client.main", *argv],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_finished_game_is_kept_by_every_node_and_replays(tmp_path: Path) -> None:
    ports = free_ports(PLAYERS)
    nodes = [
        BlitzNode(
            f"bot{i}", tmp_path / f"node{i}", loopback_args(i, ports, PLAYERS, "--target", "5")
        )
        for i in range(PLAYERS)
    ]
    try:
        codes = [node.finish() for node in nodes]
        assert codes == [0] * PLAYERS, "\n\n".join(node.output() for node in nodes)
        summary = check_agreement(nodes)
    finally:
        stop_all(nodes)
    for node in nodes:
        assert "game kept in the archive" in node.output()
        with sqlite3.connect(node.state_dir / DATABASE) as db:
            rows = db.execute("SELECT digest, rounds FROM games").fetchall()
        assert rows == [(summary["log_digest"], len(summary["rounds"]))]
        assert not list((node.state_dir / PENDING).iterdir())

    home = str(nodes[0].state_dir)
    listed = _blitz_node("games", "--state-dir", home)
    assert listed.returncode == 0 and listed.stdout.count("\n") == 2
    assert summary["winner"] in listed.stdout.splitlines()[1]
    stats = _blitz_node("stats", "--state-dir", home)
    assert stats.returncode == 0 and stats.stdout.count("\n") == 1 + PLAYERS
    for player in summary["players"]:
        assert player["name"] in stats.stdout

    exported = tmp_path / "friend.blitz"
    assert _blitz_node("export", "1", str(exported), "--state-dir", home).returncode == 0
    checked = check_game_file(exported.read_bytes())
    assert checked.file.digest.hex() == summary["log_digest"]
    session, code = open_replay([str(exported)])
    assert code == 0 and session is not None and session.rounds == len(summary["rounds"])

    # The file another node kept is the same game: the same events, sealed by another key.
    other, code = open_replay(["--state-dir", str(nodes[1].state_dir)])
    assert other is not None and other.checked.file.events == checked.file.events
    assert other.checked.file.kept_by != checked.file.kept_by

    # As a crash between the game's end and the database would leave it: kept next time.
    later = tmp_path / "later"
    (later / PENDING).mkdir(parents=True)
    shutil.copy(exported, later / PENDING / "game.blitzgame")
    again = _blitz_node("games", "--state-dir", str(later))
    assert again.returncode == 0 and again.stderr == ""
    assert summary["winner"] in again.stdout
    assert not list((later / PENDING).iterdir())
