"""Drive real terminals: tmux runs each player, ``send-keys`` types, ``capture-pane`` reads.

Each test gets its own tmux server (``-L``), so nothing leaks between tests or
into a tmux the developer has open. Waits poll the screen with a deadline.
The parsers read the table screen the way a player does: by the key letters
above each card, by the column headers, by the colour names in the centre.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import subprocess
import time
from collections.abc import Callable, Sequence

COLUMNS, ROWS = 80, 24
POLL_S = 0.05
CARD = re.compile(r"(10|[1-9])([RBGY])([♂♀])")
COLOURS = {"Red": "R", "Blue": "B", "Green": "G", "Yellow": "Y"}
OWN_KEYS = "easdfgw"

Screen = list[str]


def have_tmux() -> bool:
    return shutil.which("tmux") is not None


class Tmux:
    """A private tmux server with one detached 80x24 session per player."""

    def __init__(self, label: str) -> None:
        self.socket = f"blitz-{label}-{os.getpid()}"

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=10
        )
        if done.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def start(self, name: str, argv: Sequence[str], cwd: str, env: dict[str, str]) -> None:
        """Run ``argv`` in a new session; when it ends, the pane says how, and stays."""
        assignments = " ".join(f"{key}={shlex.quote(value)}" for key, value in env.items())
        command = (
            f"cd {shlex.quote(cwd)} && env {assignments} {shlex.join(argv)}; "
            f"echo EXITED $?; sleep 600"
        )
        self.tmux(
            "new-session", "-d", "-s", name, "-x", str(COLUMNS), "-y", str(ROWS), command
        )  # fmt: skip

    def screen(self, name: str) -> Screen:
        return self.tmux("capture-pane", "-p", "-t", name).split("\n")

    def keys(self, name: str, *keys: str) -> None:
        self.tmux("send-keys", "-t", name, *keys)

    def type(self, name: str, text: str) -> None:
        self.tmux("send-keys", "-t", name, "-l", text)

    def keys_together(self, presses: Sequence[tuple[str, str]]) -> None:
        """Several panes' keys in one tmux command: as close to simultaneous as tmux gets."""
        args: list[str] = []
        for name, key in presses:
            args += [*([";"] if args else []), "send-keys", "-t", name, key]
        self.tmux(*args)

    def wait(
        self, name: str, condition: Callable[[Screen], bool], what: str, timeout: float = 20.0
    ) -> Screen:
        deadline = time.monotonic() + timeout
        while True:
            shown = self.screen(name)
            if condition(shown):
                return shown
            if time.monotonic() > deadline:
                raise AssertionError(f"{name}: timed out waiting for {what}:\n" + "\n".join(shown))
            time.sleep(POLL_S)

    def wait_text(self, name: str, text: str, timeout: float = 20.0) -> Screen:
        return self.wait(name, lambda shown: text in "\n".join(shown), repr(text), timeout)

    def kill(self) -> None:
        """Stop this test's tmux server and remove its socket file."""
        try:
            path = self.tmux("display-message", "-p", "#{socket_path}").strip()
        except RuntimeError:
            return  # no server was started
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)
        if path:
            with contextlib.suppress(OSError):
                os.unlink(path)


# -- reading the table screen --------------------------------------------------------------


def card_at(line: str, column: int) -> str | None:
    found = CARD.match(line, column) if 0 <= column < len(line) else None
    return found.group(0) if found else None


def own_tops(shown: Screen) -> dict[str, str]:
    """Our face-up cards by the key that plays them: {"e": "4B♂", "a": "9G♀", ...}."""
    for index, line in enumerate(shown[:-1]):
        if " Blitz" in line and " Wood" in line and "Hand" in line:
            row = shown[index + 1]
            tops = {}
            for key in re.finditer(r"(?<= )([a-z])(?= )", line):
                label = card_at(row, key.start())
                if key.group(1) in OWN_KEYS and label is not None:
                    tops[key.group(1)] = label
            return tops
    return {}


def opponent_wood(shown: Screen, name: str) -> str | None:
    """The Wood top another player shows, read under the "Wood" column header."""
    header = next((line for line in shown if line.startswith(" Player") and "Wood" in line), None)
    row = next((line for line in shown if line.startswith(f" {name} ")), None)
    if header is None or row is None:
        return None
    return card_at(row, header.index("Wood"))


def centre(shown: Screen) -> dict[str, list[str]]:
    """The centre pile tops by colour letter: {"R": ["2R♂"], "B": [], ...}."""
    piles: dict[str, list[str]] = {}
    for line in shown:
        found = re.match(r"^(?: Centre)?\s+(Red|Blue|Green|Yellow)\s(.*)$", line)
        if found:
            piles[COLOURS[found.group(1)]] = [m.group(0) for m in CARD.finditer(found.group(2))]
    return piles


def value_colour(label: str) -> tuple[int, str]:
    found = CARD.match(label)
    assert found is not None, label
    return int(found.group(1)), found.group(2)


def fits(label: str, piles: dict[str, list[str]]) -> int:
    """How many centre piles take this card now (a 1 always starts its own)."""
    value, colour = value_colour(label)
    if value == 1:
        return 1
    return sum(1 for top in piles.get(colour, []) if value_colour(top) == (value - 1, colour))
