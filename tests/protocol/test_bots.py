"""Bots: no wasted rotations, and levels that differ in how well they play, not only how fast.

Each case lays out a small table by hand and asks one bot for its move.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from dutchblitz.protocol.games.blitz import rules
from dutchblitz.protocol.games.blitz.bots import LEVELS, Bot, Level
from dutchblitz.protocol.games.blitz.moves import (
    CentrePlay,
    Move,
    PostPlay,
    Source,
    StuckCall,
    WoodFlip,
)
from dutchblitz.protocol.games.blitz.state import Area, Pile, Table

from tests.protocol.scenario_language import Scenario, c


def _bot(name: str, **change: object) -> Bot:
    level: Level = replace(LEVELS[name], misses=0.0, **change)  # type: ignore[arg-type]
    return Bot(level, random.Random(1))


def _area(seat: int, post: str, blitz: str, wood: str, hand: str = "10Y 10G 10B") -> Area:
    """Piles in labels, bottom first (the top is the last label); "|" between Post stacks."""

    def cards(text: str) -> list:
        return [c(label, seat) for label in text.split()]

    stacks = [cards(stack) for stack in post.split("|")]
    return Area(seat, stacks, cards(blitz), cards(wood), cards(hand))


def _table(mine: Area, theirs: Area, piles: str = "") -> Table:
    """``piles``: "2R 3G" is a red pile up to 2 and a green pile up to 3, of deck 1."""
    found = []
    for number, top in enumerate(piles.split()):
        colour = c(top).colour
        cards = [c(f"{value}{top[-1]}", 1) for value in range(1, c(top).value + 1)]
        found.append(Pile(number, colour, cards))
    return Table((0, 1), {0: mine, 1: theirs}, found)


THEIRS = _area(1, "10R|10B|10G|10Y|9R", "9B 8G", "")


# -- no wasted rotations ------------------------------------------------------------------------


def _until_stuck(bot: Bot, table: Table, seat: int) -> int:
    """Let the bot play until its stuck call is applied; how many flips it made first."""
    flips = 0
    for _ in range(200):
        move = bot.choose(table, seat)
        assert move is not None
        assert rules.apply(table, move) is None, move
        if isinstance(move, StuckCall):
            return flips
        flips += isinstance(move, WoodFlip)
    raise AssertionError("the bot never called stuck")


@pytest.mark.parametrize("name", list(LEVELS))
def test_after_a_stalemate_a_bot_flips_through_its_whole_hand_again(name: str) -> None:
    table = Scenario("bots", "a quiet deal", 2).table()  # no card can go to the centre
    bot = _bot(name, style=LEVELS["fast"].style)
    first = _until_stuck(bot, table, 0)
    assert rules.apply(table, StuckCall(1)) is None
    assert table.stalemates == 1
    area = table.areas[0]
    whole_pass = (len(area.hand) + len(area.wood)) // 3 + 2
    again = _until_stuck(bot, table, 0)
    assert first >= whole_pass and again >= whole_pass


# -- skill --------------------------------------------------------------------------------------


def test_an_easy_bot_overlooks_plays() -> None:
    table = _table(_area(0, "10R|10B|10G|10Y|9R", "9B 1R", ""), THEIRS)
    easy = Bot(LEVELS["easy"], random.Random(5))
    chosen = [easy.choose(table, 0) for _ in range(200)]
    centre = sum(isinstance(m, CentrePlay) for m in chosen)
    assert 0 < centre < 200
    assert all(isinstance(_bot(n).choose(table, 0), CentrePlay) for n in ("normal", "fast"))


def _choices(table: Table) -> dict[str, Move | None]:
    return {name: _bot(name).choose(table, 0) for name in ("normal", "fast", "flat-out")}


def test_a_planning_bot_never_buries_a_post_card_under_a_wood_card() -> None:
    # 4G from the Wood fits on the 5R Post; nothing goes to the centre.
    table = _table(_area(0, "5R|10B|10G|10Y|9R", "9B 8R", "7Y 4G"), THEIRS)
    moves = _choices(table)
    assert moves["normal"] == PostPlay(0, Source.WOOD, c("4G"), 0, c("7Y"))
    assert isinstance(moves["fast"], WoodFlip)


def test_the_top_level_lays_a_step_for_its_blitz_top() -> None:
    # As above, and the Blitz top 3B can then go on the 4G: only flat-out plans for it.
    table = _table(_area(0, "5R|10B|10G|10Y|9R", "9B 3B", "7Y 4G"), THEIRS)
    moves = _choices(table)
    assert moves["flat-out"] == PostPlay(0, Source.WOOD, c("4G"), 0, c("7Y"))
    assert isinstance(moves["fast"], WoodFlip)


def test_the_top_level_frees_blitz_cards_to_its_posts_first() -> None:
    # 3R from the Wood goes on the red pile; the Blitz top 4G fits on the 5R Post.
    table = _table(_area(0, "5R|10B|10G|10Y|9R", "9B 4G", "7Y 3R"), THEIRS, "2R")
    moves = _choices(table)
    assert moves["flat-out"] == PostPlay(0, Source.BLITZ, c("4G"), 0, c("9B"))
    assert isinstance(moves["fast"], CentrePlay) and moves["fast"].source == Source.WOOD


def test_the_top_level_watches_the_centre_for_its_next_blitz_card() -> None:
    # Two Post 3G over a 10B, or Wood 3R: the red one lets the Blitz top 4R go next.
    table = _table(_area(0, "10B 3G|10R|10G|10Y|9R", "9B 4R", "7Y 3R"), THEIRS, "2R 2G")
    moves = _choices(table)
    assert isinstance(moves["fast"], CentrePlay) and moves["fast"].source == Source.POST
    assert isinstance(moves["flat-out"], CentrePlay)
    assert moves["flat-out"].card == c("3R")


def test_the_top_level_keeps_back_a_card_that_frees_another_players_blitz_card() -> None:
    theirs = _area(1, "10R|10B|10G|10Y|9R", "9B 4R", "")
    table = _table(_area(0, "10B|10R|10G|10Y|9R", "9B 6Y", "7Y 3R", "8Y 8G 8B 9G"), theirs)
    table.piles.append(Pile(0, c("1R").colour, [c("1R", 1), c("2R", 1)]))
    assert isinstance(_bot("fast").choose(table, 0), CentrePlay)
    top = _bot("flat-out")
    held = [top.choose(table, 0) for _ in range(4)]
    assert all(isinstance(move, WoodFlip) for move in held)  # it looks, and keeps the 3R
    # After a whole pass through the hand (nothing else changing), it plays it after all.
    later = [top.choose(table, 0) for _ in range(6)]
    assert any(isinstance(move, CentrePlay) and move.card == c("3R") for move in later)
