"""A whole game night in a real terminal: a person's keys against two bots, through tmux.

One real ``blitz-node --join`` on loopback hosts two ``flat-out`` bots; the test types for
the person and reads the screen the way a player does. It plays a whole game to a target
no single round can reach (a deck is 40 cards, so one round scores at most +40), so the
game lasts at least two rounds, and it sees every step of the evening (issue 15):

- each round's count-in (3, 2, 1) before any card can go (R-55);
- a double play: two keys typed in one go, both cards land (P-151, P-154);
- each round's end and the scores between rounds, then the next round's count-in (R-54);
- the game over, a rematch offered and taken: round 1 again, scores back to 0 (R-49);
- and the node leaving cleanly on ``q``, exit 0, no traceback.

Every wait polls the screen with a deadline; nothing waits on a fixed sleep.
"""

from __future__ import annotations

import contextlib
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.client.test_tmux_e2e import REPO, child_env, free_port, needs_node, text, tmux
from tests.client.tmux import Screen, Tmux, centre, have_tmux, own_tops, value_colour

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.timeout(240),
    pytest.mark.skipif(not have_tmux(), reason="tmux is not installed"),
]
__all__ = ["tmux"]  # the fixture

PANE = "ada"
TARGET = 41  # one round scores at most +40: the game needs two rounds or more
GAME_S = 150.0  # of play, for the whole game and the rematch's double play if still due
PLAYERS = ("Ada (you)", "flat-out bot")
PAIR_S = 5.0  # for a double play to be final, or to come to nothing
# "no centre pile takes": a bot filled the pile between the screen read and the keys.
FAILED_PAIR = ("beat you to", "came back", "RACE LOST", "no centre pile takes")
NOT_FINAL = "not final yet"
ROUND_SCORE = re.compile(r"^ You  .*Total (-?\d+)\s+Round ([-+]?\d+)")
SCORE_ROW = re.compile(r"^  (\S.{21})((?:[-+]\d+\s+)+?)\s*(-?\d+)$")
# What one play does to the person's round score: +1 for the card in the centre,
# and +2 more when it takes a card off the Blitz pile: the Blitz top itself, or the
# refill of a Post stack that it empties (R-17; this person never stacks on a Post).
GAIN = {"e": 3, "a": 3, "s": 3, "d": 3, "f": 3, "g": 3, "w": 1}


@dataclass
class Evening:
    """What the person has seen so far, step by step."""

    count_ins: list[int] = field(default_factory=list)  # the rounds seen counting in
    score_screens: list[int] = field(default_factory=list)  # "Scores after round N"
    round_ends: list[int] = field(default_factory=list)  # a Blitz (or no Blitz) notice
    double_plays: list[str] = field(default_factory=list)  # "a+w: 3G♀ 5R♂"
    tries: list[str] = field(default_factory=list)  # pairs that did not both land, and why
    flips: int = 0

    def __str__(self) -> str:
        return (
            f"count-ins {self.count_ins}, scores {self.score_screens}, "
            f"round ends {self.round_ends}, double plays {self.double_plays}, "
            f"tries {self.tries[-6:]}"
        )


# -- reading the screen ---------------------------------------------------------------------


def round_of(shown: Screen) -> int | None:
    found = re.search(r"·  round (\d+)  ·", shown[0])
    return int(found.group(1)) if found else None


def counting_in(shown: Screen) -> int | None:
    """The round whose count-in shows, if one does."""
    found = re.search(r"Round (\d+) begins in [123]\.\.\.", text(shown))
    return int(found.group(1)) if found else None


def my_round_score(shown: Screen) -> int | None:
    for line in shown:
        found = ROUND_SCORE.match(line)
        if found:
            return int(found.group(2))
    return None


def blitz_left(shown: Screen) -> int:
    """How many cards the person's Blitz pile holds (the "x7" beside its top)."""
    for index, line in enumerate(shown):
        if ROUND_SCORE.match(line) and index + 2 < len(shown):
            found = re.search(r"x(\d+)", shown[index + 2][:14])
            return int(found.group(1)) if found else 0
    return 0


def score_sheet(shown: Screen) -> dict[str, tuple[list[int], int]]:
    """The scores screen: each player's round scores and total, by the name shown."""
    rows = {}
    for line in shown:
        found = SCORE_ROW.match(line)
        if found:
            rounds = [int(n) for n in found.group(2).split()]
            rows[found.group(1).strip()] = (rounds, int(found.group(3)))
    return rows


def notices(shown: Screen) -> list[str]:
    """The notice lines at the foot of the screen: the two above the key bar."""
    lines = list(shown)
    while lines and not lines[-1].strip():
        lines.pop()
    return [line for line in lines[-3:-1] if line.strip()]


# -- the person's hands ---------------------------------------------------------------------


def after(label: str, tops: list[str]) -> list[str] | None:
    """The centre's tops once ``label`` has gone onto one of them, or None if none takes it."""
    value, colour = value_colour(label)
    if value == 1:
        return [*tops, label]  # a 1 always starts a pile of its own
    for index, top in enumerate(tops):
        if value_colour(top) == (value - 1, colour):
            return [*tops[:index], label, *tops[index + 1 :]]
    return None


def double_play(shown: Screen) -> tuple[str, str] | None:
    """Two keys whose cards both go to the centre, the second maybe onto the first.

    Any two of the Blitz top, the Post cards and the Wood top, but never a Post card then
    the Blitz top: the Post's refill takes the Blitz top. Never near Blitz either: a refill
    could end the round between the two.
    """
    if blitz_left(shown) < 3:
        return None
    tops = own_tops(shown)
    piles = [top for pile in centre(shown).values() for top in pile]
    for first in tops:
        then = after(tops[first], piles)
        if then is None:
            continue
        for second in tops:
            posts_then_blitz = first not in "ew" and second == "e"
            if second != first and not posts_then_blitz and after(tops[second], then):
                return first, second
    return None


def plain_play(shown: Screen) -> str | None:
    piles = [top for pile in centre(shown).values() for top in pile]
    return next((key for key, label in own_tops(shown).items() if after(label, piles)), None)


def try_double_play(server: Tmux, shown: Screen, pair: tuple[str, str], evening: Evening) -> None:
    """Type two plays in one go; note it once both are final and both counted."""
    before = my_round_score(shown)
    assert before is not None, text(shown)
    tops, shown_notices = own_tops(shown), set(notices(shown))
    cards = f"{tops[pair[0]]} {tops[pair[1]]}"
    server.keys(PANE, *pair)  # one tmux command: the two keys back to back
    expected = before + GAIN[pair[0]] + GAIN[pair[1]]

    def settled(now: Screen) -> bool:
        fresh = [n for n in notices(now) if n not in shown_notices]
        if any(mark in n for n in fresh for mark in FAILED_PAIR) or not own_tops(now):
            return True  # a bot got there first, or the round ended: no double play
        refused = [n for n in fresh if n.startswith(" NO ")]
        assert not refused, f"{'+'.join(pair)} ({cards}): the second key was refused: {refused}"
        return NOT_FINAL not in text(now) and my_round_score(now) == expected

    now = server.wait(PANE, settled, f"{'+'.join(pair)} ({cards}) to land", timeout=PAIR_S)
    if my_round_score(now) == expected and NOT_FINAL not in text(now):
        evening.double_plays.append(f"{'+'.join(pair)}: {cards}")
    else:
        evening.tries.append(f"{'+'.join(pair)}: {cards}: {notices(now)[-1:]}")


def one_key(server: Tmux, shown: Screen, evening: Evening) -> None:
    """A plain person's move: a card the centre takes, else flip, else call stuck."""
    key = plain_play(shown)
    if key is not None:
        evening.flips = 0
        server.keys(PANE, key)
    elif evening.flips > 12:
        evening.flips = 0
        server.keys(PANE, "x")
    else:
        evening.flips += 1
        server.keys(PANE, "Space")


# -- the evening ----------------------------------------------------------------------------


def bots_seated(count: int) -> Callable[[Screen], bool]:
    """``count`` bots in the lobby's rows ("  2  flat-out bot 3f9"), not in its notices."""
    row = re.compile(r"^\s+\d+\s+flat-out bot ")
    return lambda shown: sum(1 for line in shown if row.match(line)) >= count


def changed_from(before: Screen) -> Callable[[Screen], bool]:
    return lambda shown: shown != before


def start_node(server: Tmux, tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "dutchblitz.client.main", "--join", "--no-discovery",
            "--interface", "127.0.0.1", "--port", str(free_port()), "--name", "Ada",
            "--target", str(TARGET), "--state-dir", str(tmp_path / "ada")]  # fmt: skip
    server.start(PANE, argv, REPO, child_env())
    server.wait_text(PANE, "Ada (you)")
    server.keys(PANE, "l", "l")  # normal -> fast -> flat-out
    server.wait_text(PANE, "Next bot: flat-out")
    for seated in (2, 3):
        server.keys(PANE, "+")
        server.wait(PANE, bots_seated(seated - 1), f"bot {seated - 1} seated")
    server.keys(PANE, "r")
    server.wait_text(PANE, "Everyone is ready", timeout=30)
    server.keys(PANE, "s")


def see_count_in(server: Tmux, number: int, evening: Evening) -> None:
    """The round's count-in shows, with no centre yet; then the centre comes."""
    shown = server.wait(
        PANE, lambda s: counting_in(s) == number, f"round {number}'s count-in", timeout=30
    )
    assert "Centre" not in text(shown) and "█" in text(shown), text(shown)
    if number == 1:  # a game starts from 0, a rematch too
        assert "game over" not in shown[0] and "Total 0 " in text(shown), text(shown)
    evening.count_ins.append(number)
    server.wait(PANE, lambda s: "Centre" in text(s), f"round {number} to begin", timeout=10)


def play_round(server: Tmux, number: int, evening: Evening, deadline: float) -> Screen:
    """Play until this round's scores are up; return that screen."""
    while time.monotonic() < deadline:
        shown = server.screen(PANE)
        if f"Scores after round {number}" in text(shown):
            return shown
        later = round_of(shown)
        assert later is None or later <= number, f"round {number}'s scores never showed: {evening}"
        if own_tops(shown) and counting_in(shown) is None and round_of(shown) == number:
            pair = None if evening.double_plays else double_play(shown)
            if pair is None:
                one_key(server, shown, evening)
            elif NOT_FINAL in text(shown):  # a pair shows: once our last moves are final
                with contextlib.suppress(AssertionError):
                    server.wait(PANE, lambda s: NOT_FINAL not in text(s), "final", timeout=2.0)
                continue
            else:
                try_double_play(server, shown, pair, evening)
                continue
        with contextlib.suppress(AssertionError):  # a key refused may change nothing
            server.wait(PANE, changed_from(shown), "a change", timeout=2.0)
    raise AssertionError(f"round {number} did not end: {evening}\n{text(server.screen(PANE))}")


def see_scores(shown: Screen, number: int, evening: Evening) -> dict[str, int]:
    """The scores after a round: every player, one column a round, totals that add up."""
    said = text(shown)
    assert f"Round {number}: " in said and ("called Blitz!" in said or "no Blitz" in said), said
    evening.round_ends.append(number)
    sheet = score_sheet(shown)
    assert len(sheet) == 3 and any(PLAYERS[0] == name for name in sheet), text(shown)
    assert sum(PLAYERS[1] in name for name in sheet) == 2, text(shown)
    for name, (rounds, total) in sheet.items():
        assert len(rounds) == number and sum(rounds) == total, (name, rounds, total)
        assert all(-20 <= score <= 40 for score in rounds), (name, rounds)
    evening.score_screens.append(number)
    return {name: total for name, (rounds, total) in sheet.items()}


def play_game(
    server: Tmux, evening: Evening, deadline: float, *, until_double_play: bool = False
) -> tuple[int, dict[str, int], Screen]:
    """Play rounds from round 1's count-in to the game over (or to a double play, if asked).

    Returns the last round played, the totals after it, and its scores screen.
    """
    number, totals, shown = 0, dict[str, int](), server.screen(PANE)
    while True:
        see_count_in(server, number + 1, evening)
        if until_double_play and evening.double_plays:
            return number, totals, shown
        number += 1
        shown = play_round(server, number, evening, deadline)
        totals = see_scores(shown, number, evening)
        if "GAME OVER" in text(shown):
            return number, totals, shown
        assert max(totals.values()) < TARGET, f"the target is reached: game over\n{text(shown)}"
        server.wait_text(PANE, "Press any key when ready")  # a second after the round's end
        server.keys(PANE, "Space")  # seen: ready for the next round


@needs_node
def test_a_whole_game_night_against_bots_with_a_double_play_and_a_rematch(
    tmux: Tmux, tmp_path: Path
) -> None:
    evening = Evening()
    deadline = time.monotonic() + GAME_S
    start_node(tmux, tmp_path)
    rounds, totals, shown = play_game(tmux, evening, deadline)
    assert rounds >= 2, f"no round can reach {TARGET}: {evening}"

    shown = tmux.wait_text(PANE, "r: rematch", timeout=20)  # once the audit is done
    winner = max(totals, key=lambda name: totals[name])
    assert totals[winner] >= TARGET, totals
    said = "You win" if winner == PLAYERS[0] else f"{winner} wins"
    assert f"GAME OVER: {said} with {totals[winner]} points!" in text(shown), text(shown)
    assert "game over" in shown[0], shown[0]
    games = 1
    while not evening.double_plays:  # the deals decide when one comes: rematch till it does
        tmux.keys(PANE, "r")
        tmux.wait_text(PANE, "Rematch!")
        _, _, shown = play_game(tmux, evening, deadline, until_double_play=True)
        if not evening.double_plays:
            assert "GAME OVER" in text(shown) and time.monotonic() < deadline, evening
            games += 1
            tmux.wait_text(PANE, "r: rematch", timeout=20)
    kept = list((tmp_path / "ada" / "results").glob("*.json"))
    assert len(kept) == games, "each finished game is kept"

    tmux.keys(PANE, "q")  # asks during a game; the rematch may just have ended: then it leaves
    shown = tmux.wait(
        PANE, lambda s: "Leave the game?" in text(s) or "EXITED" in text(s), "the leaving"
    )
    if "Leave the game?" in text(shown):
        tmux.keys(PANE, "y")
    shown = tmux.wait_text(PANE, "EXITED")
    assert "Traceback" not in text(shown) and "EXITED 0" in text(shown), text(shown)
    print(evening)
