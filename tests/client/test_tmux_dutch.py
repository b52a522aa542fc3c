"""Dutch in a real terminal: a human plays a whole round against the bots with keys,
reading the screen as a player does (the local table, python -m
dutchblitz.client.games.dutch.demo: no network). Issue 19: "a tmux test plays a round
with a human against bots"."""

from __future__ import annotations

import sys

import pytest

from tests.client.test_tmux_e2e import REPO, child_env, text, tmux
from tests.client.tmux import Screen, Tmux, have_tmux

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.timeout(120),
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed"),
]
__all__ = ["tmux"]  # the fixture
ME = "ada"


def row(shown: Screen, start: str) -> str:
    return next(line for line in shown if line.startswith(start))


def keybar(shown: Screen) -> str:
    return next(line for line in reversed(shown) if line.strip())


def my_turn(server: Tmux) -> Screen:
    return server.wait(ME, lambda s: "Your turn: d draws a card." in text(s), "my turn", timeout=30)


def end_my_turn(server: Tmux, key: str) -> None:
    """Draw, then ``key`` (x discards, a number replaces); skip a special card's action."""
    server.keys(ME, "d")
    server.wait_text(ME, "You drew")
    server.keys(ME, key)
    shown = server.wait(
        ME, lambda s: "s skips" in text(s) or " c call Dutch " in keybar(s), "the turn's end"
    )
    if "s skips" in text(shown):
        server.keys(ME, "s")
        server.wait(ME, lambda s: " c call Dutch " in keybar(s), "the race window after my turn")


def test_a_human_plays_a_round_against_the_bots_with_keys(tmux: Tmux) -> None:
    argv = [sys.executable, "-m", "dutchblitz.client.games.dutch.demo", "--seed", "5",
            "--name", "Ada", "--bots", "3", "--rounds", "1", "--pace", "0.05",
            "--race", "3"]  # fmt: skip
    tmux.start(ME, argv, REPO, child_env())
    shown = tmux.wait_text(ME, "Look at two of your cards")
    assert "##" in row(shown, "a you (Ada)") and row(shown, "b Bea (bot)")
    tmux.keys(ME, "1")
    tmux.wait_text(ME, "Card 1 picked")
    tmux.keys(ME, "2")
    shown = my_turn(tmux)  # seat 0 starts the first round (D-7)
    mine = row(shown, "a you (Ada)").removeprefix("a you (Ada)")
    assert mine.count("(") == 2 and "3 ##" in mine  # two cards remembered, two face down

    end_my_turn(tmux, "3")  # keep the drawn card in place of card 3
    shown = tmux.screen(ME)
    assert "You kept the drawn card as card 3" in text(shown)
    assert "Race: OPEN" in text(shown)
    mine = row(shown, "a you (Ada)").removeprefix("a you (Ada)")
    assert mine.split(" 3 ")[1].startswith("(")  # the drawn card, remembered
    my_turn(tmux)
    end_my_turn(tmux, "x")
    tmux.keys(ME, "c")
    shown = tmux.wait_text(ME, "You called DUTCH: last turns for Bea, Carl and Dana;")
    assert "DUTCH" in row(shown, "a you (Ada)")

    shown = tmux.wait_text(ME, "The round is over", timeout=30)
    said = " ".join(text(shown).split())
    assert "You called Dutch, and it" in said
    for start in ("a you (Ada)", "b Bea (bot)", "c Carl (bot)", "d Dana (bot)"):
        assert "##" not in row(shown, start)  # the reveal: every card face up (D-30)
    assert "Game over:" in said and " q leave" in keybar(shown)
    tmux.keys(ME, "q")
    tmux.wait_text(ME, "EXITED 0")
    assert "--seed 5" in text(tmux.screen(ME))
