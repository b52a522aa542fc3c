"""``blitz-node --watch`` in a real terminal, beside a player's in another.

Ada plays with two bots; Sam watches with ``--watch``: his screen shows every player's
public cards (Ada's Blitz top as her own screen shows it), the centre and the round, and
both screens say who watches. A key that would play answers with one line. Tom arrives
while the game is on: his lobby offers to watch, and one key does it. Sam leaves at once,
and the players' screens stop naming him.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.client.test_tmux_e2e import REPO, child_env, free_port, text
from tests.client.tmux import CARD, Screen, Tmux, have_tmux, own_tops

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.timeout(180),
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed"),
]

BASE = [sys.executable, "-m", "dutchblitz.client.main", "--no-discovery",
        "--interface", "127.0.0.1"]  # fmt: skip


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    server = Tmux("watch")
    try:
        yield server
    finally:
        server.kill()


def row_of(shown: Screen, name: str) -> str:
    return next(line for line in shown if line.startswith(f" {name} "))


def test_a_spectator_sees_the_public_game_and_who_watches(tmux: Tmux, tmp_path: Path) -> None:
    port = free_port()
    peer = ["--peer", f"127.0.0.1:{port}"]
    ada = [*BASE, "--join", "--name", "ada", "--port", str(port)]
    ada += ["--state-dir", str(tmp_path / "a")]
    tmux.start("ada", ada, REPO, child_env())
    tmux.wait_text("ada", "lobby")
    for key in ("+", "+"):
        tmux.keys("ada", key)
    tmux.wait("ada", lambda s: text(s).count("bot ") >= 2, "two bots seated")
    tmux.keys("ada", "r")
    tmux.wait_text("ada", "press s to start")
    tmux.keys("ada", "s")
    tmux.wait_text("ada", "round 1")

    sam = [*BASE, "--watch", "--name", "sam", "--state-dir", str(tmp_path / "s"), *peer]
    tmux.start("sam", sam, REPO, child_env())
    shown = tmux.wait(
        "sam", lambda s: "round 1" in s[0] and "Watching: 1 (sam)" in text(s), "the game, live"
    )
    assert "watching" in shown[0]
    tmux.wait_text("ada", "Watching: 1 (sam)")
    # Ada does not play: her Blitz top and count read the same on both screens.
    blitz = own_tops(tmux.wait("ada", lambda s: "e" in own_tops(s), "Ada's cards"))["e"]
    shown = tmux.wait(
        "sam", lambda s: CARD.search(row_of(s, "ada")) is not None, "Ada's public cards"
    )
    assert CARD.search(row_of(shown, "ada")).group(0) == blitz  # type: ignore[union-attr]
    assert "x10" in row_of(shown, "ada")
    assert all(colour in text(shown) for colour in ("Red", "Blue", "Green", "Yellow"))
    assert "You are watching this round." in text(shown)
    tmux.keys("sam", "e")
    tmux.wait_text("sam", "a spectator plays nothing")

    tom = [*BASE, "--join", "--name", "tom", "--state-dir", str(tmp_path / "t"), *peer]
    tmux.start("tom", tom, REPO, child_env())
    tmux.wait_text("tom", "Press w to watch", timeout=30)
    tmux.keys("tom", "w")
    shown = tmux.wait_text("tom", "Watching: 2 (sam, tom)")
    assert "watching" in shown[0]
    tmux.wait_text("ada", "Watching: 2 (sam, tom)")
    tmux.keys("sam", "q")  # a spectator leaves at once: nobody waits for it
    tmux.wait_text("sam", "EXITED 0")
    tmux.wait_text("ada", "Watching: 1 (tom)")  # Sam's END took him off at once
