"""A bot seated for one game takes the next game's level when the lobby's g picks another
(P-241), and its new name: in a real terminal, the notice that it sat down says the new
name too, and the old level's words go with the old game.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.client.test_tmux_e2e import REPO, child_env, text, tmux
from tests.client.tmux import Tmux, have_tmux

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.timeout(120),
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed"),
]
__all__ = ["tmux"]  # the fixture


def test_the_sat_down_notice_follows_the_bot_into_the_next_game_P241(
    tmux: Tmux, tmp_path: Path
) -> None:
    ada = [sys.executable, "-m", "dutchblitz.client.main", "--no-discovery",
           "--interface", "127.0.0.1", "--port", "0", "--join", "--name", "ada",
           "--state-dir", str(tmp_path / "a")]  # fmt: skip
    tmux.start("ada", ada, REPO, child_env())
    tmux.wait_text("ada", "Next bot: normal", timeout=40)
    tmux.keys("ada", "l")
    tmux.wait_text("ada", "Next bot: fast")
    tmux.keys("ada", "l")
    tmux.wait_text("ada", "Next bot: flat-out")
    tmux.keys("ada", "+")
    tmux.wait("ada", lambda shown: "flat-out bot" in text(shown) and "sat down" in text(shown),
              "the flat-out bot seated, and the notice that says so")  # fmt: skip
    tmux.keys("ada", "g")
    shown = tmux.wait(
        "ada",
        lambda shown: "careful bot" in text(shown) and "Game: Dutch" in text(shown),
        "the bot renamed for Dutch",
    )
    assert "flat-out" not in text(shown), text(shown)
    [notice] = [line for line in shown if "sat down" in line]
    assert "careful bot" in notice, text(shown)
