"""A crash after the game's end, in a real terminal: the rematch offer comes back.

A real ``blitz-node --join`` in tmux plays a one-round game against two local bots,
is killed with SIGKILL on the game-over screen, and is started again on the same
state directory: it shows the game over and the rematch offer again, with the same
bots, and ``r`` starts the rematch.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.client.test_tmux_e2e import REPO, child_env, free_port
from tests.client.tmux import Tmux, have_tmux

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.timeout(180),
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed"),
]

OFFER = "Again? r: rematch"
GAME_S = 90.0


@pytest.fixture
def tmux(request: pytest.FixtureRequest) -> Iterator[Tmux]:
    server = Tmux("rematch-crash")
    try:
        yield server
    finally:
        server.kill()


def play_until_over(tmux: Tmux, name: str) -> str:
    """Press keys like an impatient player (stuck included) until the game is over."""
    deadline = time.monotonic() + GAME_S
    while time.monotonic() < deadline:
        shown = "\n".join(tmux.screen(name))
        if OFFER in shown:
            return shown
        tmux.keys(name, "a", "s", "d", "f", "g", "w", "e", "Space", "x")
        # The bots keep the screen moving; the scores wait for a key, or their timeout.
        with contextlib.suppress(AssertionError):
            tmux.wait(name, lambda s, was=shown: "\n".join(s) != was, "a change", timeout=2)
    raise AssertionError(f"no game over in {GAME_S}s:\n" + "\n".join(tmux.screen(name)))


def bot_names(shown: str) -> set[str]:
    """The bots named on the screen: "flat-out bot 1ef"."""
    return set(re.findall(r"[\w-]+ bot [0-9a-f]{3}", shown))


def test_a_node_killed_on_the_game_over_screen_comes_back_to_the_rematch(
    tmux: Tmux, tmp_path: Path
) -> None:
    state = tmp_path / "ada"
    command = [
        sys.executable, "-m", "dutchblitz.client.main", "--join", "--no-discovery",
        "--interface", "127.0.0.1", "--port", str(free_port()), "--name", "Ada",
        "--target", "1", "--state-dir", str(state),
    ]  # fmt: skip
    tmux.start("ada", command, REPO, child_env())
    tmux.wait_text("ada", "Ada (you)")
    tmux.keys("ada", "l", "l")  # normal -> fast -> flat-out
    tmux.keys("ada", "+")
    tmux.keys("ada", "+")
    tmux.wait("ada", lambda s: "\n".join(s).count("(bot)") == 2, "two bots")
    tmux.keys("ada", "r")
    tmux.wait_text("ada", "Everyone is ready")
    tmux.keys("ada", "s")
    before = play_until_over(tmux, "ada")
    os.kill(int((state / "lock").read_text().split()[0]), signal.SIGKILL)
    tmux.wait_text("ada", "EXITED 137")
    tmux.start("again", command, REPO, child_env())
    shown = "\n".join(tmux.wait_text("again", OFFER, timeout=30))
    assert "GAME OVER" in shown and "Round 1:" in shown
    assert len(bot_names(before)) == 2
    assert bot_names(shown) == bot_names(before), "the same bots, back with their node"
    assert "sit down" not in shown, "not a late joiner at its own table"
    tmux.keys("again", "r")
    tmux.wait_text("again", "Rematch!", timeout=30)
