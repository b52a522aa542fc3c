"""``--web`` at a real table: the lobby says where the TV view is, the page follows the
table the player sees (one session for both), and leaving closes it. One real
``blitz-node --join`` on loopback, in tmux."""

from __future__ import annotations

import json
import re
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.client.test_tmux_e2e import REPO, child_env, free_port, needs_node, text, tmux
from tests.client.tmux import Tmux, have_tmux

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.timeout(120),
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed"),
]
__all__ = ["tmux"]  # the fixture
TV_LINE = re.compile(r"^ TV +(http://127\.0\.0\.1:\d+/)  \(this machine only\)")
WAIT_S = 20.0


def state(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}state", timeout=5) as answer:
        return json.loads(answer.read())  # type: ignore[no-any-return]


def until_state(url: str, accept: Any, what: str) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT_S
    while True:
        seen = state(url)
        if accept(seen):
            return seen
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} on the TV view in {WAIT_S} s: {seen}")
        time.sleep(0.1)


@needs_node
def test_the_lobby_shows_the_tv_view_which_follows_the_table(tmux: Tmux, tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "dutchblitz.client.main", "--join", "--no-discovery",
            "--interface", "127.0.0.1", "--port", str(free_port()), "--name", "Ada",
            "--state-dir", str(tmp_path / "ada"), "--web", "0"]  # fmt: skip
    tmux.start("ada", argv, REPO, child_env())
    shown = tmux.wait("ada", lambda s: any(TV_LINE.match(line) for line in s), "the TV line")
    url = next(m.group(1) for line in shown if (m := TV_LINE.match(line)))
    # The page follows the stable log: a moment after the ADMIT, the PROFILE names Ada.
    until_state(url, lambda s: s["phase"] == "lobby" and _names(s) == ["Ada"], "Ada's lobby")
    tmux.keys("ada", "+")
    tmux.wait_text("ada", "normal bot")
    until_state(url, lambda s: len(s["players"]) == 2, "the bot")
    tmux.keys("ada", "r")
    tmux.wait_text("ada", "Everyone is ready")
    tmux.keys("ada", "s")
    tmux.wait("ada", lambda s: "round 1" in s[0], "round 1")
    seen = until_state(url, lambda s: s["phase"] == "playing", "the round")
    assert all(p["area"] is not None for p in seen["players"])
    tmux.keys("ada", "q")
    tmux.wait_text("ada", "Leave the game?")
    tmux.keys("ada", "y")
    shown = tmux.wait_text("ada", "EXITED")
    assert "Traceback" not in text(shown) and "EXITED 0" in text(shown), text(shown)
    with pytest.raises(urllib.error.URLError):
        state(url)  # the page's server went with the node


def _names(state: dict[str, Any]) -> list[str]:
    return [p["name"] for p in state.get("players", [])]
