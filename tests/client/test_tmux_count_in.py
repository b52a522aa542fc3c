"""The count-in in a real terminal: a real ``blitz-node --join`` against a fast bot, in tmux.

spec/rules.md R-55: the table counts in 3, 2, 1 where the centre will be; a key
pressed meanwhile plays nothing and says why; the bot moves nothing either, and
plays as soon as the count-in is over.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.client.test_tmux_e2e import REPO, child_env, free_port
from tests.client.tmux import CARD, Screen, Tmux, have_tmux

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.timeout(120),
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed"),
]


@pytest.fixture
def tmux(request: pytest.FixtureRequest) -> Iterator[Tmux]:
    server = Tmux(request.node.name.replace("[", "-").replace("]", "")[:20])
    try:
        yield server
    finally:
        server.kill()


def bot_row(shown: Screen) -> str:
    """The bot's row among the other players: its name says it is a bot, then its cards."""
    return next((line for line in shown if "bot" in line and CARD.search(line)), "")


def test_round_one_counts_in_and_nobody_plays_before_it_ends_R55(
    tmux: Tmux, tmp_path: Path
) -> None:
    command = [
        sys.executable, "-m", "dutchblitz.client.main", "--join", "--no-discovery",
        "--interface", "127.0.0.1", "--port", str(free_port()), "--name", "Ada",
        "--state-dir", str(tmp_path / "ada"),
    ]  # fmt: skip
    tmux.start("ada", command, REPO, child_env())
    tmux.wait_text("ada", "Ada (you)")
    tmux.keys("ada", "l")  # normal -> fast
    tmux.keys("ada", "+")
    tmux.wait_text("ada", "(bot)")
    tmux.keys("ada", "r")
    tmux.wait_text("ada", "Everyone is ready")
    tmux.keys("ada", "s")
    shown = tmux.wait_text("ada", "Round 1 begins in", timeout=30)
    assert "█" in "\n".join(shown) and "Centre" not in "\n".join(shown)
    before = bot_row(shown)
    assert before, "the bot's cards show during the count-in"
    tmux.keys("ada", "Space")
    shown = tmux.wait_text("ada", "wait for the count-in")
    if "begins in" in "\n".join(shown):
        assert bot_row(shown) == before, "the bot waits for its own count-in too"
    tmux.wait("ada", lambda s: "Centre" in "\n".join(s), "the count-in to end", timeout=10)
    tmux.wait("ada", lambda s: bot_row(s) != before, "the bot's first move", timeout=20)
