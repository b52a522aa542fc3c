"""Dutch at a real table, played by a person: the real ``blitz-node --join`` in an 80x24
terminal (tmux), Dutch picked with ``g`` in the lobby (P-241), two bots added there, a
round played with keys as a player does (the two peeks, draws, a replace, a discard, any
special card that comes, a throw, the Dutch call), reading the screen: the deal with no
dealer, the shares and the audit run between the real seats (spec/dutch-deal.md M-29 to
M-35). Every wait polls the screen with a deadline. Issue 19: "a tmux test plays a round
with a human against bots"."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.client.test_tmux_dutch import keybar, row
from tests.client.test_tmux_e2e import REPO, child_env, free_port, text, tmux
from tests.client.tmux import Screen, Tmux, have_tmux

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.timeout(240),
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed"),
]
__all__ = ["tmux"]  # the fixture
ME = "ada"
MINE = "a you (Ada)"
TURN_S = 60.0  # a turn of every bot, each card opened with a share from every seat


def my_turn(server: Tmux) -> Screen:
    return server.wait(
        ME, lambda s: "Your turn: d draws a card." in text(s), "my turn", timeout=TURN_S
    )


def special(server: Tmux, shown: Screen) -> None:
    """A special card's action, as a player picks its target: a Queen looks at Bea's
    first card, a Jack swaps it with my own first card, an Ace gives Bea a card."""
    said = text(shown)
    if "Queen:" in said:
        server.keys(ME, "b", "1")
        server.wait_text(ME, "You peeked at")
    elif "Jack:" in said:
        server.keys(ME, "a", "1", "b", "1")
        server.wait_text(ME, "You swapped")
    elif "Ace:" in said:
        server.keys(ME, "b")
        server.wait(ME, lambda s: "Ace:" not in text(s), "the Ace given")


def end_my_turn(server: Tmux, key: str) -> Screen:
    """Draw, then ``key`` (x discards, a number replaces), then any special card's action;
    returns the screen once the race is open after my turn."""
    server.keys(ME, "d")
    # D-41: the keys to decide come once the card is opened to me, with its face.
    server.wait(ME, lambda s: "You drew " in text(s) and "x discards it" in text(s), "the draw")
    server.keys(ME, key)
    shown = server.wait(
        ME,
        lambda s: " s skip " in keybar(s) or " c call Dutch " in keybar(s),
        "the turn's end",
        timeout=TURN_S,
    )
    if " s skip " in keybar(shown):  # a special card's action (its sentence may wrap)
        special(server, shown)
        shown = server.wait(ME, lambda s: " c call Dutch " in keybar(s), "the race", TURN_S)
    return shown


def test_a_person_plays_dutch_against_bots_at_a_real_node(tmux: Tmux, tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "dutchblitz.client.main", "--join",
            "--no-discovery", "--interface", "127.0.0.1", "--port", str(free_port()),
            "--state-dir", str(tmp_path / "ada"), "--name", "Ada",
            "--table", "kitchen"]  # fmt: skip
    tmux.start(ME, argv, REPO, child_env())
    shown = tmux.wait_text(ME, "Game: Dutch Blitz")  # the table's game, founded by this node
    assert "Post stacking: on" in text(shown)
    tmux.keys(ME, "g")  # the lobby offers the game: Dutch (P-241)
    shown = tmux.wait(ME, lambda s: s[0].startswith(" Dutch  ·  "), "the game picked")
    assert shown[0].startswith(" Dutch  ·  table kitchen  ·  lobby")
    assert "Game: Dutch, to 75 points" in text(shown)
    assert "Post stacking" not in text(shown)  # Dutch Blitz's option only
    tmux.keys(ME, "+")  # a bot at the lobby's level: the first of Dutch's (forgetful)
    tmux.wait_text(ME, "forgetful bot")
    tmux.keys(ME, "l")
    tmux.wait_text(ME, "Next bot: careful")
    tmux.keys(ME, "+")
    tmux.wait_text(ME, "3 players here: you, 2 bots of yours")
    tmux.keys(ME, "r")
    tmux.wait_text(ME, "Everyone is ready")
    tmux.keys(ME, "s")

    # The deck is masked and shuffled by every node, then the peeks (D-6).
    shown = tmux.wait_text(ME, "Look at two of your cards", timeout=TURN_S)
    assert shown[0].startswith(" Dutch  ·  table kitchen  ·  round 1")
    assert row(shown, MINE).count("##") == 4 and row(shown, "b forgetful")
    tmux.keys(ME, "1")
    tmux.wait_text(ME, "Card 1 picked")
    tmux.keys(ME, "2")
    my_turn(tmux)  # the first seat starts the first round (D-7)
    # The two peeked cards show once the others have opened them to me, which may come
    # just after my turn begins.
    shown = tmux.wait(
        ME,
        lambda s: any(line.startswith(MINE) and line[len(MINE) :].count("(") == 2 for line in s),
        "the peeked cards remembered",
        timeout=TURN_S,
    )
    mine = row(shown, MINE).removeprefix(MINE)
    assert mine.count("(") == 2 and "3 ##" in mine  # two cards remembered, for me alone
    assert "Your turn: d draws a card." in text(shown)

    shown = end_my_turn(tmux, "3")  # the drawn card in place of card 3
    assert "You kept the drawn card as card 3" in text(shown)
    assert "Race: OPEN" in text(shown)
    assert row(shown, MINE).split(" 3 ")[1].startswith("(")  # the drawn card, remembered

    # A throw in the race on a card I may not know: a match, or a penalty card (D-21, D-23).
    shown = my_turn(tmux)
    if " t 1-" in keybar(shown):
        tmux.keys(ME, "t", "4")
        tmux.wait(ME, lambda s: "You threw" in text(s), "the throw")
        shown = my_turn(tmux)
    shown = end_my_turn(tmux, "x")
    tmux.keys(ME, "c")
    shown = tmux.wait_text(ME, "You called DUTCH: last turns for")
    assert "DUTCH" in row(shown, MINE)

    # The last turns, the reveal (every card opened to all), the scores and the audit.
    seats = (MINE, "b forgetful", "c careful")

    def revealed(shown: Screen) -> bool:
        """The reveal drawn whole: a screen read while it is drawn may hold old rows."""
        rows = [line for line in shown if line.startswith(seats)]
        whole = " ".join(text(shown).split())
        return "You called Dutch, and it" in whole and len(rows) == len(seats)

    shown = tmux.wait(ME, revealed, "the reveal", TURN_S)
    assert "The round is over" in text(shown)
    for start in seats:
        assert "##" not in row(shown, start)  # every card face up (D-30)
    assert "hand  round   game" in text(shown)
    shown = tmux.wait_text(ME, "DUTCH!", timeout=TURN_S)  # the round scored, and audited
    assert "Blitz" not in text(shown)
    tmux.keys(ME, "q")
    tmux.wait_text(ME, "Leave the game?")
    tmux.keys(ME, "y")
    tmux.wait_text(ME, "EXITED")
