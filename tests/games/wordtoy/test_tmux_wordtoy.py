"""Word toy in a real terminal (tmux, 80x24): Ada starts ``python -m tests.games.wordtoy.node
--join --game wordtoy``, seats two easy bots in the lobby, and types answers
with keys through the real client and node, reading the screen, to the end of the game:
a word of another category is objected to by a bot, a word nobody knows is accepted by
silence, a listed answer wins its card at once."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.client.test_tmux_e2e import REPO, child_env, free_port, text, tmux
from tests.client.tmux import Screen, Tmux, have_tmux
from tests.games.wordtoy.rules import categories

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.timeout(300),
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed"),
]
__all__ = ["tmux"]  # the fixture
ME = "ada"
GAME_S = 200.0  # two rounds of three cards
CARD = re.compile(r"Card (\d) of (\d)\s+Category: (.+?)\s*$", re.M)
UNKNOWN = "zyzzyva"  # in no list: no bot objects to it


def card_on(shown: Screen) -> tuple[int, str] | None:
    """The card on screen and its category's title, while Ada may answer it."""
    found = CARD.search(text(shown))
    if found is None or "Your answer:" not in text(shown):
        return None
    return int(found.group(1)), found.group(3)


def said(shown: Screen) -> set[str]:
    return set(re.findall(r'"([^"]+)"', text(shown)))


def answer(server: Tmux, word: str) -> None:
    server.keys(ME, "Escape")
    server.type(ME, word)
    server.keys(ME, "Enter")


class Ada:
    """What Ada has shown so far: a bot's objection, and silence accepting a word."""

    def __init__(self, server: Tmux) -> None:
        self.server = server
        self.objected = self.accepted = False

    def left_on(self, on: tuple[int, str]) -> Callable[[Screen], bool]:
        return lambda s: card_on(s) != on

    def play(self, shown: Screen, on: tuple[int, str]) -> None:
        """One answer to the card ``on``: first a word of another category, then a word in
        no list, then listed answers."""
        category = next(c for c in categories() if c.title.upper() == on[1])
        if not self.objected:
            # A word a bot knows, of another category: a bot objects to it (after 0.5 s).
            word = next(w for c in categories() if c is not category for w in sorted(c.answers)
                        if w not in category.answers)  # fmt: skip
            mark = f'Objected: "{word}"'
            answer(self.server, word)
            after = self.server.wait(
                ME, lambda s: mark in text(s) or self.left_on(on)(s), "an objection"
            )
            self.objected = mark in text(after)
        elif not self.accepted:
            won = f'you (Ada), "{UNKNOWN}"'
            answer(self.server, UNKNOWN)
            after = self.server.wait(
                ME, lambda s: won in text(s) or self.left_on(on)(s), "the card decided"
            )
            if won not in text(after) and f'you (Ada) says "{UNKNOWN}"' in text(after):
                after = self.server.wait_text(ME, won, timeout=20)  # silence accepts it
            self.accepted = won in text(after)
        else:
            answer(self.server, sorted(category.answers - said(shown))[0])
            self.server.wait(ME, self.left_on(on), "the card decided", timeout=30)


def test_a_person_plays_word_toy_against_bots_to_the_end(tmux: Tmux, tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "tests.games.wordtoy.node", "--join", "--no-discovery",
            "--interface", "127.0.0.1", "--port", str(free_port()), "--name", "Ada",
            "--state-dir", str(tmp_path / "ada"), "--game", "wordtoy"]  # fmt: skip
    tmux.start(ME, argv, REPO, child_env())
    shown = tmux.wait_text(ME, "Game: Word toy, 2 rounds")  # the game's default length
    for length in ("3 rounds", "1 round", "2 rounds"):  # t: the face's lengths, in turn
        tmux.keys(ME, "t")
        tmux.wait_text(ME, f"Game: Word toy, {length}")
    assert shown[0].startswith(" Word toy  ·  ")
    tmux.keys(ME, "+")
    tmux.wait_text(ME, "easy bot")
    tmux.keys(ME, "+")
    tmux.wait_text(ME, "3 players here: you, 2 bots of yours")
    tmux.keys(ME, "r")
    tmux.wait_text(ME, "Everyone is ready")
    tmux.keys(ME, "s")

    ada = Ada(tmux)
    deadline = time.monotonic() + GAME_S
    while time.monotonic() < deadline:
        shown = tmux.wait(
            ME,
            lambda s: card_on(s) is not None or "any key" in text(s) or "game over" in s[0],
            "a card, the scores or the game's end",
            timeout=deadline - time.monotonic(),
        )
        on = card_on(shown)
        if "game over" in shown[0]:
            break
        if on is None:
            tmux.keys(ME, "x")  # the scores between rounds: seen
            tmux.wait(ME, lambda s: "any key" not in text(s), "the next round", timeout=30)
        else:
            ada.play(shown, on)
    shown = tmux.screen(ME)
    assert "game over" in shown[0], text(shown)
    assert "Round 1:" in text(shown) and "Round 2:" in text(shown)
    assert "won the game." in text(shown)
    assert ada.objected and ada.accepted, "a bot objected to a word, and silence accepted one"
    total = re.search(r"In all: Ada (\d+)", text(shown))
    assert total is not None and int(total.group(1)) >= 2, text(shown)
    assert "Traceback" not in text(shown)
    print(text(shown))
    tmux.keys(ME, "q")
    tmux.wait_text(ME, "EXITED")
