"""``blitz-node replay`` in a real terminal: step, jump a round, switch views, help, quit.

The game is a finished one from the seeded simulator, kept in a temporary archive, so the
screens it shows are the same every run.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from dutchblitz.node.store.archive import Archive
from dutchblitz.protocol.replays.gamefile import check_game_file

from tests.client.test_tmux_e2e import REPO, child_env, text, tmux
from tests.client.tmux import CARD, Screen, Tmux, have_tmux
from tests.protocol.finished_games import finished

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.timeout(120),
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed"),
]
__all__ = ["tmux"]  # the fixture

MOVE = re.compile(r"move (\d+)/(\d+)")


def move_of(shown: Screen) -> int:
    found = MOVE.search(shown[0])
    assert found, shown[0]
    return int(found.group(1))


def test_replay_steps_jumps_and_shows_each_view(tmux: Tmux, tmp_path: Path) -> None:
    home = tmp_path / "state"
    Archive(home).keep(finished().data)
    final = check_game_file(finished().data).final
    names = [final.by_seat()[seat].name for seat in final.players]
    argv = [sys.executable, "-m", "dutchblitz.client.main", "replay", "--state-dir", str(home)]
    tmux.start("r", argv, REPO, child_env())

    shown = tmux.wait_text("r", "Dealing round 1")
    assert "Replay" in shown[0] and "public view" in shown[0] and move_of(shown) == 1
    assert "v view" in shown[-2] or "v view" in text(shown)  # the keys are on screen

    tmux.keys("r", "Down")  # the next round's deal
    shown = tmux.wait("r", lambda s: "round 1 of" in s[0] and "Centre" in text(s), "round 1")
    dealt = move_of(shown)
    for name in names:
        assert name[:12] in text(shown)
    assert "You are watching this round" in text(shown)

    tmux.keys("r", "Right", "Right", "Right")
    shown = tmux.wait("r", lambda s: move_of(s) == dealt + 3, "three moves on")
    tmux.keys("r", "Left")
    shown = tmux.wait("r", lambda s: move_of(s) == dealt + 2, "one move back")

    tmux.keys("r", "v")  # the first player's own view: their face-down cards
    shown = tmux.wait_text("r", "Hand, top first:")
    assert f"{names[0]}'s view" in shown[0] or "'s view" in shown[0]
    hand = next(line for line in shown if "Hand, top first:" in line)
    assert len(CARD.findall(hand)) >= 5
    assert " You " in text(shown) and move_of(shown) == dealt + 2

    for _ in names:  # each seat's view in turn, then the public one again
        tmux.keys("r", "v")
    shown = tmux.wait("r", lambda s: "public view" in s[0], "the public view")
    assert "Hand, top first:" not in text(shown)

    tmux.keys("r", "?")
    tmux.wait_text("r", "Replay keys")
    tmux.keys("r", "Escape")
    tmux.wait("r", lambda s: "Replay keys" not in text(s), "help closed")

    tmux.keys("r", "End")
    tmux.wait_text("r", "GAME OVER")
    tmux.keys("r", "Home")
    tmux.wait_text("r", "Dealing round 1")

    tmux.keys("r", "Space")  # play: the moves go on by themselves
    tmux.wait_text("r", "playing")
    tmux.wait("r", lambda s: move_of(s) > 3, "playing on")
    tmux.keys("r", "Space")
    tmux.wait_text("r", "paused")

    tmux.keys("r", "q")
    tmux.wait_text("r", "EXITED 0")
