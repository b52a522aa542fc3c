"""``blitz-node --watch`` at a table of Dutch, in a real terminal beside a player's (tmux,
80x24): Ada plays with two bots; Sam watches. His screen shows the round as nobody at the
table sees it (spec/dutch.md D-42): every row face down, no "you", whose turn it is, what
Ada did ("Ada drew a card"), the card she put on the pile, and a key plays nothing."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.client.test_tmux_dutch import row
from tests.client.test_tmux_dutch_node import TURN_S, end_my_turn, my_turn
from tests.client.test_tmux_e2e import REPO, child_env, free_port, text
from tests.client.tmux import Screen, Tmux, have_tmux

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.timeout(240),
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed"),
]
BASE = [sys.executable, "-m", "dutchblitz.client.main", "--no-discovery",
        "--interface", "127.0.0.1"]  # fmt: skip


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    server = Tmux("dutchwatch")
    try:
        yield server
    finally:
        server.kill()


def nobody_s(shown: Screen) -> None:
    """Sam's table: every row face down or open to all, and nothing said to "you"."""
    said = text(shown)
    assert not re.search(r"\b[Yy]our?\b", said), said
    assert not re.search(r"\(\S{2,3}\)", row(shown, "a Ada")), said  # nothing remembered


def test_d42_a_spectator_of_dutch_sees_the_table_as_nobody_at_it(
    tmux: Tmux, tmp_path: Path
) -> None:
    port = free_port()
    ada = [*BASE, "--join", "--game", "dutch", "--name", "Ada", "--port", str(port),
           "--state-dir", str(tmp_path / "a")]  # fmt: skip
    tmux.start("ada", ada, REPO, child_env())
    tmux.wait_text("ada", "Game: Dutch")
    for key in ("+", "+"):
        tmux.keys("ada", key)
    tmux.wait("ada", lambda s: text(s).count("bot") >= 2, "two bots seated")
    tmux.keys("ada", "r")
    tmux.wait_text("ada", "Everyone is ready")
    tmux.keys("ada", "s")
    tmux.wait_text("ada", "Look at two of your cards", timeout=TURN_S)

    sam = [*BASE, "--watch", "--name", "sam", "--state-dir", str(tmp_path / "s"),
           "--peer", f"127.0.0.1:{port}"]  # fmt: skip
    tmux.start("sam", sam, REPO, child_env())
    shown = tmux.wait(
        "sam", lambda s: "Waiting for Ada" in text(s), "the peeks, as nobody sees them", TURN_S
    )
    assert "watching" in shown[0] and "being dealt" not in text(shown)
    assert row(shown, "a Ada").count("##") == 4 and row(shown, "b ") and row(shown, "c ")
    nobody_s(shown)

    tmux.keys("ada", "1", "2")
    my_turn(tmux)
    tmux.wait_text("sam", "Ada is to draw.", timeout=TURN_S)
    shown = end_my_turn(tmux, "x")  # Ada draws and discards: the card turns up to all
    put = re.search(r"You discarded (\S+?)[:\s]", text(shown))
    assert put is not None, text(shown)
    shown = tmux.wait(
        "sam", lambda s: f"Ada discarded {put.group(1)}" in text(s), "Ada's discard", TURN_S
    )
    assert "Ada drew a card" in text(shown)
    nobody_s(shown)
    tmux.keys("sam", "d")
    tmux.wait_text("sam", "a spectator plays nothing")
