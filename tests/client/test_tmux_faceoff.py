"""Blitz! (word face-offs) in a real terminal (tmux, 80x24): Ada starts ``blitz-node
--join``, picks the game with g, seats three bots and plays with keys. Typed: she wins a
face-off with a listed answer, and the same answer again is refused as said before
(spec/faceoff.md F-31, F-32, F-49, F-50). Spoken: she claims "I answered first" and silence
accepts it, then she gives a face-off up with Tab (F-25, F-26, F-29, F-51, F-52)."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from dutchblitz.protocol.games.faceoff.normalise import normalise
from dutchblitz.protocol.games.faceoff.pack import table_pack as pack

from tests.client.test_tmux_e2e import REPO, child_env, free_port, text
from tests.client.tmux import Screen, Tmux, have_tmux

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.timeout(300),
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed"),
]
BASE = [sys.executable, "-m", "dutchblitz.client.main", "--no-discovery",
        "--interface", "127.0.0.1"]  # fmt: skip
PLAY_S = 150.0  # a game's first few face-offs come within a minute or two
TURN_KEY_S = 1.0  # a turn's key pressed before the card may open (F-48) is pressed again


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    server = Tmux("faceoff")
    try:
        yield server
    finally:
        server.kill()


def start(tmux: Tmux, tmp_path: Path, spoken: bool) -> None:
    """Ada's node, Blitz! picked with g, three bots, everyone ready, the game started."""
    ada = [*BASE, "--join", "--name", "Ada", "--port", str(free_port()),
           "--state-dir", str(tmp_path / "a")]  # fmt: skip
    tmux.start("ada", ada, REPO, child_env())
    tmux.wait_text("ada", "Game: Dutch Blitz")
    for _ in range(3):
        before = game_line(tmux.screen("ada"))
        if "Game: Blitz! (word face-offs)" in before:
            break
        tmux.keys("ada", "g")
        tmux.wait("ada", lambda s, was=before: game_line(s) != was, "g picks the next game")
    shown = tmux.wait_text("ada", "Game: Blitz! (word face-offs), one game")
    assert "Answers: typed" in text(shown) and "p answers" in text(shown)
    if spoken:
        tmux.keys("ada", "p")
        tmux.wait_text("ada", "Answers: spoken")
    seat_bots_and_start(tmux, 3)


def seat_bots_and_start(tmux: Tmux, bots: int) -> None:
    """In Ada's Blitz! lobby: ``bots`` bots seated with +, ready with r, started with s."""
    for _ in range(bots):
        tmux.keys("ada", "+")
    tmux.wait("ada", lambda s: text(s).count(" bot ") >= bots, f"{bots} bots seated")
    tmux.keys("ada", "r")
    tmux.wait_text("ada", "Everyone is ready")
    tmux.keys("ada", "s")
    tmux.wait_text("ada", "Draw pile 1:", timeout=30)


def game_line(shown: Screen) -> str:
    return next((line for line in shown if "Game: " in line), "")


def in_faceoff(shown: Screen) -> bool:
    return "you against" in text(shown) or "against you" in text(shown)


def cards_won(shown: Screen, player: str = "you (Ada)") -> int:
    """How many cards ``player``'s row of the table says they have won."""
    found = re.search(re.escape(player) + r"\s+(\d+)", text(shown))
    assert found is not None, text(shown)
    return int(found.group(1))


def opponent(shown: Screen) -> str:
    """Who Ada is in a face-off against, as the table's rows name them."""
    found = re.search(r"FACE-OFF: (.+?) against (.+?)(?:  CASCADE.*)? \*\*\*", text(shown))
    assert found is not None, text(shown)
    return found.group(2) if found.group(1) == "you" else found.group(1)


def within(tmux: Tmux, condition: Callable[[Screen], bool], seconds: float) -> bool:
    """Whether Ada's screen meets ``condition`` within ``seconds`` (not meeting it is no
    error: the caller tries again)."""
    try:
        tmux.wait("ada", condition, "", seconds)
    except AssertionError:
        return False
    return True


def my_move(tmux: Tmux, deadline: float) -> Screen:
    """Turn cards when it is Ada's turn, until she is in a face-off; that screen."""
    while (left := deadline - time.monotonic()) > 0:
        shown = tmux.wait(
            "ada", lambda s: in_faceoff(s) or "Your turn:" in text(s), "Ada's turn", left
        )
        if in_faceoff(shown):
            return shown
        tmux.keys("ada", "1")
        # The card opens once every seat's link is in (F-48); until then the key does
        # nothing and the turn's prompt stays, and the loop presses it again.
        within(tmux, lambda s: in_faceoff(s) or "Your turn:" not in text(s), TURN_KEY_S)
    raise AssertionError("no face-off for Ada:\n" + text(tmux.screen("ada")))


def listed(shown: Screen, taken: set[str]) -> str:
    """A listed answer of the category Ada must answer, not said yet."""
    found = re.search(r"you answer: (.+?) \(", text(shown))
    assert found is not None, text(shown)
    category = next(c for c in pack().categories if c.title == found.group(1))
    said = set(re.findall(r"[a-z0-9' ]+", text(shown).split("Said", 1)[-1]))
    return next(
        k for k in sorted(category.answers)
        if k not in taken and k not in said and normalise(k, "en") == k
    )  # fmt: skip


def test_f31_f32_typed_a_listed_answer_wins_and_a_repeat_is_refused(
    tmux: Tmux, tmp_path: Path
) -> None:
    start(tmux, tmp_path, spoken=False)
    deadline = time.monotonic() + PLAY_S
    won = None
    while won is None:
        shown = my_move(tmux, deadline)
        before = cards_won(shown)
        answer = listed(shown, set())
        tmux.keys("ada", "Escape")  # a turn's key that came as the face-off began is cleared
        tmux.type("ada", answer)
        tmux.keys("ada", "Enter")
        tmux.wait("ada", lambda s: not in_faceoff(s), "Ada's face-off over")
        if cards_won(tmux.screen("ada")) > before:
            won = answer
    shown = my_move(tmux, deadline)
    tmux.keys("ada", "Escape")
    tmux.type("ada", won)
    tmux.keys("ada", "Enter")
    tmux.wait_text("ada", "that was said before in this game")
    assert "Traceback" not in text(tmux.screen("ada"))


def test_f25_f26_f29_spoken_a_claim_wins_by_silence_and_tab_gives_up(
    tmux: Tmux, tmp_path: Path
) -> None:
    start(tmux, tmp_path, spoken=True)
    deadline = time.monotonic() + PLAY_S
    shown = my_move(tmux, deadline)
    assert "Space: I answered first" in text(shown)
    # "You won ..." and "... won your card" show only until the next face-off begins, which
    # a Duel can start at once (a screen read a moment later shows that face-off): the
    # table's count of cards won stays.
    mine = cards_won(shown)
    tmux.keys("ada", "Space")
    tmux.wait(
        "ada",
        lambda s: "you answered first" in text(s) or cards_won(s) > mine,
        "Ada's claim",
    )
    tmux.wait(
        "ada",
        lambda s: "You won" in text(s) or cards_won(s) > mine,
        "silence accepts the claim",
        timeout=15,
    )
    shown = my_move(tmux, deadline)
    other = opponent(shown)
    theirs = cards_won(shown, other)
    tmux.keys("ada", "Tab")
    tmux.wait(
        "ada",
        lambda s: "won your card" in text(s) or cards_won(s, other) > theirs,
        "the face-off given up",
        timeout=15,
    )
