"""The evening's wedges, in real terminals: each ``blitz-node --join`` in its own tmux pane
on loopback (``--no-discovery``, ``--peer 127.0.0.1:PORT``, a ``--state-dir`` of its own
under the test's folder), keys typed with ``send-keys``, screens read with
``capture-pane``. Each test plays one wedge players met and checks that the table goes on:

- ``-`` right after ``+`` in the lobby leaves no ghost seat, and ``r`` then starts the game;
- a player who leaves at the game's end and starts again on the same state directory is
  back at that end, the rematch starts, and every screen names the same winner (P-257);
- the last player left at the game's end is back in the lobby (P-258);
- the lobby's length is the table's, alike on every screen (P-261).

Games are one round to 1 point against a flat-out bot, so the bot ends each one quickly.
"""

from __future__ import annotations

import contextlib
import re
import sys
import time
from pathlib import Path

import pytest

from tests.client.test_tmux_e2e import REPO, child_env, free_port, text, tmux
from tests.client.tmux import Screen, Tmux, have_tmux, own_tops

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.timeout(180),
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed"),
]
__all__ = ["tmux"]  # the fixture

OFFER = "Again? r: rematch"
WAITING = "it starts once everyone does"
GAME_S = 90.0
LOBBY_ROW = re.compile(r"^\s+\d+\s+(.+?)\s{2,}\S+\s+(not ready|ready)\s")
LENGTH = re.compile(r"Game: ([^,]+), (.+?)(?:\s{2,}|$)")
WINNER = re.compile(r"GAME OVER: (.+?) wins")


class Table:
    """Nodes in tmux panes, the first the host and every other one finding it at its port."""

    def __init__(self, server: Tmux, root: Path, target: int | None = 1) -> None:
        self.server, self.root, self.target = server, root, target
        self.host_port = free_port()
        self.commands: dict[str, list[str]] = {}

    def start(self, name: str, pane: str | None = None) -> str:
        """Start ``name``'s node (again, on the same state directory, in a new pane)."""
        pane = pane or name.lower()
        if name not in self.commands:
            first = not self.commands
            port = self.host_port if first else free_port()
            self.commands[name] = [
                sys.executable, "-m", "dutchblitz.client.main", "--join", "--no-discovery",
                "--interface", "127.0.0.1", "--port", str(port), "--name", name,
                "--state-dir", str(self.root / name.lower()),
                *(["--target", str(self.target)] if self.target is not None else []),
                *([] if first else ["--peer", f"127.0.0.1:{self.host_port}"]),
            ]  # fmt: skip
        self.server.start(pane, self.commands[name], REPO, child_env())
        self.server.wait_text(pane, f"{name} (you)", timeout=40)
        return pane


def lobby(shown: Screen) -> list[tuple[str, str]]:
    """The lobby's rows as this screen shows them: [("Ada (you)", "ready"), ...]."""
    if " lobby " not in shown[0]:
        return []
    return [(m.group(1), m.group(2)) for line in shown if (m := LOBBY_ROW.match(line))]


def seated(names: list[str]) -> object:
    """A wait condition: the lobby lists exactly these players, by name, in any order."""
    want = sorted(names)
    return lambda shown: sorted(n.removesuffix(" (you)") for n, _ in lobby(shown)) == want


def length_shown(shown: Screen) -> tuple[str, str] | None:
    """The lobby's game and length: ("Dutch Blitz", "to 50 points")."""
    found = next((m for line in shown if (m := LENGTH.search(line))), None)
    return (found.group(1), found.group(2)) if found else None


def winner(shown: Screen) -> str:
    found = WINNER.search(text(shown))
    assert found is not None, text(shown)
    return found.group(1)


def add_flat_out_bot(server: Tmux, pane: str) -> None:
    server.keys(pane, "l")
    server.wait_text(pane, "Next bot: fast")
    server.keys(pane, "l")
    server.wait_text(pane, "Next bot: flat-out")
    server.keys(pane, "+")
    server.wait(pane, lambda s: any("flat-out bot" in n for n, _ in lobby(s)), "the bot seated")


def ready_and_start(server: Tmux, panes: list[str]) -> None:
    """Each player presses `r` (again if the first press did not take), and the host `s`."""
    for pane in panes:
        for _ in range(5):
            mine = next((r for n, r in lobby(server.screen(pane)) if n.endswith("(you)")), "")
            if mine == "ready":
                break
            server.keys(pane, "r")
            with contextlib.suppress(AssertionError):
                server.wait(
                    pane,
                    lambda s: any(n.endswith("(you)") and r == "ready" for n, r in lobby(s)),
                    "ready",
                    timeout=3,
                )
    server.wait_text(panes[0], "Everyone is ready", timeout=20)
    server.keys(panes[0], "s")


def play_until_over(server: Tmux, panes: list[str]) -> None:
    """Press keys like impatient players on every screen until each shows the game over."""
    deadline = time.monotonic() + GAME_S
    while time.monotonic() < deadline:
        left = [pane for pane in panes if OFFER not in text(server.screen(pane))]
        if not left:
            return
        for pane in left:
            server.keys(pane, "a", "s", "d", "f", "g", "w", "e", "Space", "x")
        time.sleep(0.3)  # a player's pace between handfuls of keys, not a wait for a state
    raise AssertionError(f"no game over in {GAME_S}s:\n" + text(server.screen(panes[0])))


def press_rematch(server: Tmux, pane: str) -> None:
    """`r` at the game's end, pressed again while the last step is still on its way."""
    for _ in range(10):
        server.keys(pane, "r")
        with contextlib.suppress(AssertionError):
            server.wait(
                pane,
                lambda s: WAITING in text(s) or "Rematch!" in text(s) or "round 1" in s[0],
                "the rematch wished for",
                timeout=3,
            )
            return
    raise AssertionError(f"{pane}: r never taken:\n" + text(server.screen(pane)))


@pytest.mark.parametrize(
    "together", [pytest.param(True, id="in-one-go"), pytest.param(False, id="once-it-sits")]
)
def test_a_bot_added_and_removed_at_once_leaves_no_ghost_seat(
    tmux: Tmux, tmp_path: Path, together: bool
) -> None:
    """The wedge "`-` within about a second of `+` in the lobby": no ghost seat and no bot
    that never becomes ready on either screen, and `r` then starts the game."""
    table = Table(tmux, tmp_path)
    ada, bo = table.start("Ada"), table.start("Bo")
    for pane in (ada, bo):
        tmux.wait(pane, seated(["Ada", "Bo"]), "both seated")
    if together:
        tmux.keys(ada, "+", "-")  # one tmux command: the two keys back to back
    else:
        tmux.keys(ada, "+")
        tmux.wait(ada, lambda s: len(lobby(s)) == 3, "the bot's seat")
        tmux.keys(ada, "-")
    tmux.wait_text(ada, "left the table")  # the bot `+` seats goes again with `-`
    for pane in (ada, bo):
        shown = tmux.wait(pane, seated(["Ada", "Bo"]), "no seat but the two players", timeout=20)
        assert "bot" not in " ".join(n for n, _ in lobby(shown)), text(shown)
    ready_and_start(tmux, [ada, bo])
    for pane in (ada, bo):
        shown = tmux.wait(pane, lambda s: "round 1" in s[0] and len(own_tops(s)) >= 6, "round 1")
        # The table, not the news below it ("+  normal bot 834 sat down", "-  ... left").
        table_lines = [line for line in shown if not line.strip().startswith(("+ ", "- "))]
        assert "bot" not in " ".join(table_lines), "a game of the two players: " + text(shown)


def test_a_player_who_leaves_at_the_end_and_comes_back_plays_the_rematch_P257(
    tmux: Tmux, tmp_path: Path
) -> None:
    """The wedge "leaving at game over and coming back": Ada presses `r`, Bo presses `q` and
    starts again on the same state directory while Yul decides (P-257). Bo is back at the
    game's end, not in a lobby he cannot ready in; once he and Yul press `r` the rematch
    starts, so Ada's screen does not say who is still deciding for ever; and every screen
    names the same winner."""
    table = Table(tmux, tmp_path)
    ada, bo, yul = table.start("Ada"), table.start("Bo"), table.start("Yul")
    for pane in (ada, bo, yul):
        tmux.wait(pane, seated(["Ada", "Bo", "Yul"]), "all three seated", timeout=30)
    add_flat_out_bot(tmux, ada)
    ready_and_start(tmux, [ada, bo, yul])
    play_until_over(tmux, [ada, bo, yul])
    won = winner(tmux.screen(ada))
    assert winner(tmux.screen(bo)) == won == winner(tmux.screen(yul))

    press_rematch(tmux, ada)
    tmux.keys(bo, "q")
    tmux.wait_text(bo, "EXITED", timeout=20)
    tmux.wait_text(ada, "Bo left the table")
    again = table.start("Bo", pane="bo-again")
    shown = tmux.wait_text(again, OFFER, timeout=30)
    assert "GAME OVER" in text(shown), text(shown)
    assert winner(shown) == won, "the same winner on Bo's screen"
    assert winner(tmux.wait_text(ada, "Bo is back")) == won, "the same winner on Ada's screen"
    mine = text(tmux.screen(again))  # his own log is not news to him: no newcomer's words
    assert "sit down" not in mine and "Bo left the table" not in mine, mine

    press_rematch(tmux, again)
    press_rematch(tmux, yul)
    for pane in (ada, again, yul):
        tmux.wait(pane, lambda s: "round 1" in s[0] and "game over" not in s[0], "the rematch")


def test_the_last_player_left_at_the_end_is_back_in_the_lobby_P258(
    tmux: Tmux, tmp_path: Path
) -> None:
    """The wedge "the last player left at game over": Ada wants a rematch, and Bo leaves
    with his bot (P-258). Ada's screen is the lobby again, not "it starts once everyone
    does", and `r` there turns her ready mark."""
    table = Table(tmux, tmp_path)
    ada, bo = table.start("Ada"), table.start("Bo")
    for pane in (ada, bo):
        tmux.wait(pane, seated(["Ada", "Bo"]), "both seated")
    add_flat_out_bot(tmux, bo)
    ready_and_start(tmux, [ada, bo])
    play_until_over(tmux, [ada, bo])
    press_rematch(tmux, ada)
    tmux.wait_text(ada, WAITING)
    tmux.keys(bo, "q")
    tmux.wait_text(bo, "EXITED", timeout=20)
    shown = tmux.wait(ada, seated(["Ada"]), "the lobby, with Ada alone", timeout=30)
    assert WAITING not in text(shown) and OFFER not in text(shown), text(shown)
    mark = [("Ada (you)", "not ready")]  # her `r` was for the last game, not this lobby
    tmux.wait(ada, lambda s: lobby(s) == mark, "Ada alone and not ready")
    for _ in range(2):  # `r` takes: her mark turns, and turns back
        was = lobby(tmux.screen(ada))
        tmux.keys(ada, "r")
        tmux.wait(ada, lambda s, was=was: lobby(s) not in ([], was), "r to turn her mark")


def test_every_screen_shows_the_lobbys_length_P261(tmux: Tmux, tmp_path: Path) -> None:
    """The wedge "the lobby shows different settings on different screens": the host sets
    the length to 50 points, then a Dutch game of 3 rounds; the joiner then sets it again;
    both screens show the table's choice each time (P-261)."""
    table = Table(tmux, tmp_path, target=None)
    ada, bo = table.start("Ada"), table.start("Bo")
    for pane in (ada, bo):
        tmux.wait(pane, seated(["Ada", "Bo"]), "both seated")

    def both_show(game: str, length: str) -> None:
        for pane in (ada, bo):
            tmux.wait(pane, lambda s: length_shown(s) == (game, length), f"{game}, {length}")

    both_show("Dutch Blitz", "to 75 points")
    tmux.keys(ada, "t")
    both_show("Dutch Blitz", "to 50 points")
    tmux.keys(ada, "g")
    tmux.wait(ada, lambda s: (length_shown(s) or ("",))[0] == "Dutch", "Dutch on Ada's screen")
    for _ in range(6):  # Dutch's lengths: 75, 100, 50 points, then 3, 5, 10 rounds
        before = length_shown(tmux.screen(ada))
        if before == ("Dutch", "3 rounds"):
            break
        tmux.keys(ada, "t")
        tmux.wait(ada, lambda s, was=before: length_shown(s) != was, "the next length")
    both_show("Dutch", "3 rounds")
    tmux.keys(bo, "t")
    both_show("Dutch", "5 rounds")
