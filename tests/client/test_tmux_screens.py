"""A game night's screens in a real terminal: the minimum size, help that teaches, the
first game's hint line, bots labelled with their level, and a rematch taken (issue parts
10-15). One real ``blitz-node --join`` on loopback with a local bot, played through tmux."""

from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path

import pytest

from tests.client.test_tmux_e2e import REPO, child_env, free_port, needs_node, step, text, tmux
from tests.client.tmux import Tmux, have_tmux, own_tops

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.timeout(240),
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed"),
]
__all__ = ["tmux"]  # the fixture
GAME_SECONDS = 150.0


def play_until(server: Tmux, pane: str, wanted: str) -> None:
    """Play like a plain person (a card the centre takes, else flip, else stuck)."""
    flips = {pane: 0}
    deadline = time.monotonic() + GAME_SECONDS
    while time.monotonic() < deadline:
        shown = server.screen(pane)
        if wanted in text(shown):
            return
        step(server, pane, shown, flips)
        with contextlib.suppress(AssertionError):  # a key that changed nothing: look again
            server.wait(pane, lambda now, was=shown: now != was, "a change", timeout=1.0)
    raise AssertionError(f"no {wanted!r} in {GAME_SECONDS:.0f} s:\n{text(server.screen(pane))}")


@needs_node
def test_a_game_night_size_help_hint_bot_label_and_rematch(tmux: Tmux, tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "dutchblitz.client.main", "--join", "--no-discovery",
            "--interface", "127.0.0.1", "--port", str(free_port()), "--name", "Ada",
            "--target", "5", "--state-dir", str(tmp_path / "ada")]  # fmt: skip
    tmux.start("ada", argv, REPO, child_env())
    tmux.wait_text("ada", "lobby")
    tmux.tmux("resize-window", "-t", "ada", "-x", "60", "-y", "20")
    shown = tmux.wait_text("ada", "at least 80 x 24")
    assert "Table" not in text(shown)
    tmux.tmux("resize-window", "-t", "ada", "-x", "80", "-y", "24")
    tmux.wait_text("ada", "Next bot")
    tmux.keys("ada", "l", "l")  # normal -> fast -> flat-out
    tmux.wait_text("ada", "flat-out")
    tmux.keys("ada", "+")
    tmux.wait_text("ada", "flat-out bot")  # the bot's name carries its level
    tmux.keys("ada", "r")
    tmux.wait_text("ada", "Everyone is ready")
    tmux.keys("ada", "s")
    tmux.wait("ada", lambda s: "round 1" in s[0] and len(own_tops(s)) >= 6, "round 1")
    shown = tmux.wait_text("ada", " Hint: ")
    assert "flat-out bot" in text(shown)
    tmux.keys("ada", "?")
    shown = tmux.wait_text("ada", "Goal:")
    assert "-2" in text(shown) and "At the table" in text(shown)
    tmux.keys("ada", "Escape")
    play_until(tmux, "ada", "r: rematch")
    shown = tmux.screen("ada")
    assert "GAME OVER" in text(shown) and "round 0" not in text(shown).lower()
    tmux.keys("ada", "r")
    tmux.wait_text("ada", "Rematch!")
    tmux.wait(
        "ada", lambda s: "round 1" in s[0] and "game over" not in s[0], "round 1 of the rematch"
    )
    results = list((tmp_path / "ada" / "results").glob("*.json"))
    assert len(results) == 1, "the first game's result is kept"
    tmux.keys("ada", "q")
    tmux.wait_text("ada", "Leave the game?")
    tmux.keys("ada", "y")
    shown = tmux.wait_text("ada", "EXITED")
    assert "Traceback" not in text(shown) and "EXITED 0" in text(shown), text(shown)
