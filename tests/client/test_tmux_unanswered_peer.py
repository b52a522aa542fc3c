"""A ``--peer`` that never answers, in a real terminal: the lobby names it in one line and
says where the right address is; a player's and a spectator's screen alike. Once a node
listens there, the line goes.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.client.test_tmux_e2e import REPO, child_env, free_port
from tests.client.tmux import Tmux, have_tmux

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.timeout(120),
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed"),
]

BASE = [sys.executable, "-m", "dutchblitz.client.main", "--no-discovery",
        "--interface", "127.0.0.1", "--port", "0"]  # fmt: skip


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    server = Tmux("unanswered")
    try:
        yield server
    finally:
        server.kill()


def test_a_peer_that_never_answers_is_named_until_it_does(tmux: Tmux, tmp_path: Path) -> None:
    port = free_port()  # nothing listens there yet
    peer = ["--peer", f"127.0.0.1:{port}"]
    said = f"No answer at 127.0.0.1:{port}: --peer takes the Address their lobby shows"
    sam = [*BASE, "--join", "--name", "sam", "--state-dir", str(tmp_path / "s"), *peer]
    tom = [*BASE, "--watch", "--name", "tom", "--state-dir", str(tmp_path / "t"), *peer]
    tmux.start("sam", sam, REPO, child_env())
    tmux.start("tom", tom, REPO, child_env())
    for pane in ("sam", "tom"):
        shown = tmux.wait_text(pane, said)
        assert sum(said in line for line in shown) == 1
        assert all(len(line) <= 80 for line in shown)

    ada = [*BASE[:-1], str(port), "--join", "--name", "ada", "--state-dir", str(tmp_path / "a")]
    tmux.start("ada", ada, REPO, child_env())
    tmux.wait(
        "sam",
        lambda shown: "ada" in "\n".join(shown) and said not in "\n".join(shown),
        "ada seated, the line gone",
        timeout=40,
    )
