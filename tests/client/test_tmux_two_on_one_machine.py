"""Two ``blitz-node --join`` in two terminals of one machine: two players at one table.

Neither names a state directory, a port or a peer: the second finds the default state
directory held and takes ``profile-2``, with a key and a name of its own, and the two find
each other on the LAN. The test's own HOME and XDG_STATE_HOME keep the default directory
in a temporary folder. The "machine" is a network namespace the test makes, plugged into a
private bridge in 198.18.0.0/24, so the zeroconf traffic of two flag-free nodes never
leaves this computer.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.client.test_tmux_e2e import REPO, child_env, text
from tests.client.tmux import Tmux, centre, have_tmux, opponent_wood, own_tops, value_colour
from tests.netns_helpers import Host, private_lan

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.timeout(180),
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed"),
]

FIRST, SECOND = "first", "second"


@pytest.fixture
def tmux(request: pytest.FixtureRequest) -> Iterator[Tmux]:
    server = Tmux("two-on-one")
    try:
        yield server
    finally:
        server.kill()


@pytest.fixture
def machine() -> Iterator[Host]:
    """One computer on a private LAN: a network namespace with one interface and no route."""
    with private_lan() as lan:
        yield lan.add_host(1)


def players_in_lobby(shown: list[str]) -> int:
    return sum(1 for line in shown if "not ready" in line or line.rstrip().endswith(" ready"))


def test_two_nodes_with_no_flags_sit_at_one_table_and_play(
    tmux: Tmux, tmp_path: Path, machine: Host
) -> None:
    env = {
        **child_env(),
        "HOME": str(tmp_path / "home"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "LOGNAME": "ada",
        "USER": "ada",
    }
    command = ["ip", "netns", "exec", machine.namespace, sys.executable, "-m",
               "dutchblitz.client.main", "--join"]  # fmt: skip
    tmux.start(FIRST, command, REPO, env)
    tmux.wait_text(FIRST, "lobby")
    tmux.start(SECOND, command, REPO, env)
    shown = tmux.wait_text(SECOND, "profile 2")
    assert shown[0].startswith(" Dutch Blitz") and "profile 2" in shown[0]
    default = tmp_path / "state" / "dutchblitz"
    where = next(line for line in shown if line.startswith(" Profile  2"))
    assert where.rstrip().endswith("state/dutchblitz/profile-2"), where  # and where it lives
    assert "profile" not in tmux.screen(FIRST)[0]

    tmux.wait_text(SECOND, "ada-2 (you)")  # a name of its own
    tmux.wait_text(FIRST, "ada (you)")
    tmux.wait_text(FIRST, "ada-2")  # each sees the other
    for pane in (FIRST, SECOND):
        tmux.wait(pane, lambda s: players_in_lobby(s) == 2, "two players in the lobby")
    keys = {FIRST: (default / "identity.key"), SECOND: (default / "profile-2" / "identity.key")}
    assert keys[FIRST].read_bytes() != keys[SECOND].read_bytes(), "two identities"

    tmux.keys(FIRST, "r")
    tmux.keys(SECOND, "r")
    tmux.wait_text(FIRST, "Everyone is ready")
    tmux.keys(FIRST, "s")
    for pane in (FIRST, SECOND):
        tmux.wait(pane, lambda s: "round 1" in s[0] and len(own_tops(s)) >= 6, "round 1 dealt")
    for pane in (FIRST, SECOND):  # no key plays before the count-in (3, 2, 1) ends
        tmux.wait(pane, lambda s: any("Centre" in line for line in s), "the count-in to end")

    first = tmux.screen(FIRST)
    ones = [key for key, label in own_tops(first).items() if value_colour(label)[0] == 1]
    if ones:  # a 1 starts a centre pile: the second player sees it there
        label = own_tops(first)[ones[0]]
        tmux.keys(FIRST, ones[0])
        tmux.wait(
            SECOND,
            lambda s: label in centre(s).get(value_colour(label)[1], []),
            f"{label} in the centre",
        )
    tmux.keys(FIRST, "Space")  # a flip turns up a Wood card: the second player sees it
    first = tmux.wait(FIRST, lambda s: "w" in own_tops(s), "a Wood top on the first screen")
    wood = own_tops(first)["w"]
    tmux.wait(SECOND, lambda s: opponent_wood(s, "ada") == wood, f"ada's Wood top {wood}")

    tmux.keys(SECOND, "q")
    tmux.wait_text(SECOND, "Leave the game?")
    tmux.keys(SECOND, "y")
    shown = tmux.wait_text(SECOND, "EXITED")
    assert "EXITED 0" in text(shown) and "Traceback" not in text(shown), text(shown)
    assert os.path.exists(keys[FIRST]), "the first player's files are untouched"
