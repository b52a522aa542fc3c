"""Two real ``blitz-node --join`` processes in real terminals, played through tmux.

tmux runs each node in its own 80x24 terminal on loopback (``--no-discovery``,
``--peer 127.0.0.1:PORT``, each with its own ``--state-dir``), types with
``send-keys`` and reads with ``capture-pane``. Every wait polls the screen with
a deadline. A harness check runs the client on a fake session, so the terminal
side is tested even before the node can run.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from dutchblitz.node.cli import main as cli

from tests.client.tmux import (
    Screen,
    Tmux,
    centre,
    fits,
    have_tmux,
    opponent_wood,
    own_tops,
    value_colour,
)

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.timeout(180),
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed"),
]
needs_node = pytest.mark.skipif(
    not hasattr(cli, "run_node"),  # kept so this file stands alone
    reason="blitz-node has no networked table (dutchblitz.node.cli.main.run_node)",
)

REPO = str(Path(__file__).resolve().parents[2])
RACE_SECONDS = 90.0
LOST_RACE_MARKS = ("RACE LOST", "beat you")


def child_env() -> dict[str, str]:
    paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return {"PYTHONPATH": os.pathsep.join([*paths, REPO]), "PYTHONUNBUFFERED": "1"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def tmux(request: pytest.FixtureRequest) -> Iterator[Tmux]:
    server = Tmux(request.node.name.replace("[", "-").replace("]", "")[:20])
    try:
        yield server
    finally:
        server.kill()


def text(shown: Screen) -> str:
    return "\n".join(shown)


# -- the harness, on the real client with a fake node ----------------------------------------


def test_harness_reads_and_drives_the_real_client(tmux: Tmux) -> None:
    tmux.start("demo", [sys.executable, "-m", "tests.client.tmux_demo"], REPO, child_env())
    shown = tmux.wait("demo", lambda s: len(own_tops(s)) >= 6, "our cards on the table")
    assert shown[0].startswith(" Dutch Blitz") and "round 1" in shown[0]
    assert set(own_tops(shown)) >= {"e", "a", "s", "d", "f", "g"}
    assert set(centre(shown)) == {"R", "B", "G", "Y"}
    tmux.keys("demo", "Space")
    shown = tmux.wait("demo", lambda s: "w" in own_tops(s), "a Wood top after a flip")
    tmux.keys("demo", "?")
    tmux.wait_text("demo", "Blitz top onto Post stack 1-5")
    tmux.keys("demo", "Escape", "q")
    tmux.wait_text("demo", "Leave the game?")
    tmux.keys("demo", "y")
    shown = tmux.wait_text("demo", "EXITED 0")
    assert "Dutch Blitz" not in text(shown), "quitting leaves the terminal clean"


# -- two real nodes -------------------------------------------------------------------------


def start_two_nodes(tmux: Tmux, tmp_path: Path) -> None:
    port_a, port_b = free_port(), free_port()
    base = [sys.executable, "-m", "dutchblitz.client.main", "--join", "--no-discovery",
            "--interface", "127.0.0.1"]  # fmt: skip
    tmux.start(
        "ada",
        [*base, "--port", str(port_a), "--state-dir", str(tmp_path / "ada")],
        REPO,
        child_env(),
    )
    tmux.start(
        "bob",
        [*base, "--port", str(port_b), "--state-dir", str(tmp_path / "bob"),
         "--peer", f"127.0.0.1:{port_a}"],
        REPO,
        child_env(),
    )  # fmt: skip
    for name in ("ada", "bob"):
        tmux.wait_text(name, "lobby")


def set_name(tmux: Tmux, pane: str, name: str) -> None:
    tmux.keys(pane, "n")
    tmux.wait_text(pane, "Your name:")
    tmux.keys(pane, "C-u")
    tmux.type(pane, name)
    tmux.keys(pane, "Enter")
    tmux.wait_text(pane, f"{name} (you)")


def meet_and_start(tmux: Tmux) -> None:
    set_name(tmux, "ada", "Ada")
    set_name(tmux, "bob", "Bob")
    tmux.wait_text("ada", "Bob")  # each sees the other in the lobby
    tmux.wait_text("bob", "Ada")
    tmux.keys("ada", "r")
    tmux.keys("bob", "r")
    tmux.wait_text("ada", "Everyone is ready")
    tmux.keys("ada", "s")
    for pane in ("ada", "bob"):
        tmux.wait(pane, lambda s: "round 1" in s[0] and len(own_tops(s)) >= 6, "round 1 dealt")
    for pane in ("ada", "bob"):  # no key plays before the count-in (3, 2, 1) ends
        tmux.wait(pane, lambda s: "Centre" in text(s), "the count-in to end", timeout=10)


@needs_node
def test_two_players_meet_start_and_see_each_others_cards(tmux: Tmux, tmp_path: Path) -> None:
    start_two_nodes(tmux, tmp_path)
    meet_and_start(tmux)
    ada = tmux.screen("ada")
    ones = [key for key, label in own_tops(ada).items() if value_colour(label)[0] == 1]
    if ones:  # a 1 starts a centre pile: Bob sees it in the centre
        label = own_tops(ada)[ones[0]]
        tmux.keys("ada", ones[0])
        tmux.wait(
            "bob",
            lambda s: label in centre(s).get(value_colour(label)[1], []),
            f"{label} in the centre",
        )
    tmux.keys("ada", "Space")  # a flip turns up a Wood card: Bob sees Ada's Wood top
    ada = tmux.wait("ada", lambda s: "w" in own_tops(s), "a Wood top on Ada's screen")
    wood = own_tops(ada)["w"]
    tmux.wait("bob", lambda s: opponent_wood(s, "Ada") == wood, f"Ada's Wood top {wood}")


def race_keys(ada: Screen, bob: Screen) -> tuple[str, str] | None:
    """Keys for Ada and Bob to race one card of the same colour and value to one pile."""
    piles = centre(ada)
    bob_tops = own_tops(bob)
    for key_a, label_a in own_tops(ada).items():
        if value_colour(label_a)[0] == 1 or fits(label_a, piles) != 1:
            continue
        for key_b, label_b in bob_tops.items():
            if value_colour(label_b) == value_colour(label_a):
                return key_a, key_b
    return None


def step(tmux: Tmux, pane: str, shown: Screen, flips: dict[str, int]) -> None:
    """Move the round on: play a card the centre takes, else flip, else call stuck."""
    tops, piles = own_tops(shown), centre(shown)
    if not tops:
        tmux.keys(pane, "Space")  # the scores cover the table: uncover it
        return
    playable = [key for key, label in tops.items() if fits(label, piles)]
    if playable:
        flips[pane] = 0
        tmux.keys(pane, playable[0])
    elif flips[pane] > 12:
        flips[pane] = 0
        tmux.keys(pane, "x")
    else:
        flips[pane] += 1
        tmux.keys(pane, "Space")


def lost_race_line(tmux: Tmux, timeout: float) -> str | None:
    """The lost-race notice line on either screen, if one shows within ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for pane in ("ada", "bob"):
            for line in tmux.screen(pane):
                if any(mark in line for mark in LOST_RACE_MARKS):
                    return line
        time.sleep(0.05)
    return None


@needs_node
def test_a_lost_race_shows_who_won_it(tmux: Tmux, tmp_path: Path) -> None:
    start_two_nodes(tmux, tmp_path)
    meet_and_start(tmux)
    flips = {"ada": 0, "bob": 0}
    deadline = time.monotonic() + RACE_SECONDS
    while time.monotonic() < deadline:
        ada, bob = tmux.screen("ada"), tmux.screen("bob")
        keys = race_keys(ada, bob)
        if keys is not None:
            tmux.keys_together([("ada", keys[0]), ("bob", keys[1])])
            notice = lost_race_line(tmux, timeout=3.0)
            if notice is None:
                continue  # one saw the other's card first: no race this time
            assert "Ada" in notice or "Bob" in notice, f"the notice names the winner: {notice}"
            return
        step(tmux, "ada", ada, flips)
        step(tmux, "bob", bob, flips)
        with contextlib.suppress(AssertionError):  # a refused key may change nothing
            tmux.wait("ada", lambda s, before=ada: s != before, "the table to move", timeout=2.0)
    pytest.skip(f"no race for one pile came up in {RACE_SECONDS:.0f} s of this deal")


@needs_node
def test_leaving_ends_the_process_cleanly_and_the_other_sees_it(tmux: Tmux, tmp_path: Path) -> None:
    start_two_nodes(tmux, tmp_path)
    meet_and_start(tmux)
    tmux.keys("ada", "q")
    tmux.wait_text("ada", "Leave the game?")
    tmux.keys("ada", "y")
    shown = tmux.wait_text("ada", "EXITED")
    assert "Traceback" not in text(shown) and "EXITED 0" in text(shown), text(shown)
    assert "Dutch Blitz" not in text(shown), "quitting leaves the terminal clean"
    tmux.wait_text("bob", "Ada left the table")
    tmux.keys("bob", "C-c")
    tmux.wait_text("bob", "Leave the game?")
    tmux.keys("bob", "C-c")
    shown = tmux.wait_text("bob", "EXITED")
    assert "Traceback" not in text(shown) and "EXITED 0" in text(shown), text(shown)
