"""Dutch's screens (client/games/dutch/screens.py) at 80 x 24 and on a small terminal:
every player's row with every card, the piles and the race, the prompt and the keys, the
news worded for the viewer, the reveal and the scores; nothing cut that matters, and it
reads without colour (the plain text carries every mark)."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest
from dutchblitz.client.games.dutch.keys import PLAYER_KEYS
from dutchblitz.client.games.dutch.screens import DutchTable, plain
from dutchblitz.protocol.games.dutch.bots import BotLevel, bot_move
from dutchblitz.protocol.games.dutch.cards import FULL_DECK
from dutchblitz.protocol.games.dutch.moves import (
    CallDutch,
    Discard,
    Draw,
    Look,
    Replace,
    Spot,
    Throw,
)
from dutchblitz.protocol.games.dutch.rules import apply
from dutchblitz.protocol.games.dutch.state import Phase, Round, deal
from dutchblitz.protocol.games.dutch.views import Happening, happened, round_view

from tests.games.dutch.table import peeked, play

NAMES = ("Ada", "Bea", "Carl", "Dana", "Eli", "Fay", "Gus", "Hal")
SIZES = [(80, 24), (60, 16)]
CELL = re.compile(r"(?<![0-9])([1-9]) (##|--|\(\S+\)|\S+)")


def shown(
    state: Round, me: int | None = 0, news: tuple[Happening, ...] = (), **more: object
) -> DutchTable:
    seats = state.seats
    given: dict[str, object] = {"totals": (0,) * seats, **more}
    return DutchTable(
        view=round_view(state, me),
        names=NAMES[:seats],
        bots=frozenset(range(1, seats)),
        news=news,
        **given,  # type: ignore[arg-type]
    )


def bot_round(
    seats: int, seed: int, moves: int, viewer: int | None = 0
) -> tuple[Round, tuple[Happening, ...]]:
    """A round after ``moves`` moves of careful bots at every seat (seat 1 dealt a fifth
    card), with the news ``viewer`` read (None: a spectator)."""
    rng = random.Random(seed)
    order = list(FULL_DECK)
    rng.shuffle(order)
    state = deal(seats, faces=order, penalised=[1])
    news: list[Happening] = []
    for _ in range(moves):
        found = [(s, m) for s in range(seats) if (m := bot_move(state, s, BotLevel.CAREFUL))]
        found = [(s, m) for s, m in found if not isinstance(m, CallDutch)]
        if not found or state.phase is Phase.OVER:
            break
        seat, move = rng.choice(found)
        outcome = apply(state, seat, move)
        news.append(happened(state, seat, move, outcome, viewer))
        state = outcome.state
    return state, tuple(news)


def check_fits(lines: list[str], table: DutchTable, width: int, height: int) -> None:
    assert len(lines) <= height and all(len(line) <= width for line in lines), "\n".join(lines)
    text = "\n".join(lines)
    for player in table.view.players:
        name = "you" if player.seat == table.view.me else table.names[player.seat]
        row = next(line for line in lines if line.startswith(f"{PLAYER_KEYS[player.seat]} {name}"))
        cells = CELL.findall(row)
        assert [int(key) for key, _ in cells][: len(player.hand)] == list(
            range(1, len(player.hand) + 1)
        ), row
        assert f"{player.cards} card" in row, row
    assert "Draw ##" in text and "Discard " in text and "Race:" in text
    assert lines[-1].strip(), "the key bar is the last line"


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize(("seats", "seed"), [(3, 1), (4, 2), (6, 3), (8, 4)])
def test_a_round_fits_with_every_card_shown(seats: int, seed: int, width: int, height: int) -> None:
    state, news = bot_round(seats, seed, 40)
    assert state.phase is not Phase.OVER
    table = shown(state, news=news, notice="it is not your turn")
    lines = list(plain(table, width, height))
    check_fits(lines, table, width, height)
    assert "it is not your turn" in "\n".join(lines)  # the notice is kept before the news


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize(("seats", "seed"), [(3, 1), (4, 2), (8, 4)])
def test_d42_a_spectator_s_table_fits_with_every_row_and_no_you(
    seats: int, seed: int, width: int, height: int
) -> None:
    """Nobody at the table: every row above the piles, face down but for the cards open to
    all, no "you" anywhere, whose turn it is in the third person, and no move to make."""
    state, news = bot_round(seats, seed, 40, viewer=None)
    table = shown(state, me=None, news=news)
    lines = list(plain(table, width, height))
    check_fits(lines, table, width, height)
    text = "\n".join(lines)
    assert not re.search(r"\b[Yy]our?\b", text), text
    assert not re.search(r"\([0-9JQKA][0-9]?[cdhs]\)|\(Jkr\)", text), text  # none remembered
    rows = [i for i, line in enumerate(lines) if re.match(r"[a-h] \S", line)]
    piles = next(i for i, line in enumerate(lines) if "Draw ##" in line)
    assert len(rows) == seats and max(rows) < piles  # every row above the piles
    turn = table.names[state.turn]
    assert re.search(rf"{turn} (is to draw|drew a card and is deciding|uses the)", text), text
    assert lines[-1].split() == ["?", "help", "q", "leave"]
    if height == 24:
        assert any(re.match(r"\s+[A-H][a-z]+ drew a card$", line) for line in lines), text


def test_my_remembered_cards_are_bracketed_and_others_face_down() -> None:
    state = peeked(["5h 9c Kd Qs", "2c 3c 4c 7d", "Ah Jd 8s 6h"], draw="9h 7s")
    lines = plain(shown(state), 80, 24)
    mine = next(line for line in lines if line.startswith("a you"))
    assert "1 (5h)" in mine and "2 (9c)" in mine and "3 ##" in mine and "<- turn" in mine
    bea = next(line for line in lines if line.startswith("b Bea (bot)"))
    assert "1 ##" in bea and "(" not in bea.split("Bea (bot)")[1]
    assert any("Your turn: d draws a card." in line for line in lines)
    assert " d draw " in lines[-1]


def test_the_race_line_names_the_rank_to_throw_and_the_call() -> None:
    state = play(peeked(["5h 9c Kd Qs", "2c 3c 4c 7d", "Ah Jd 8s 6h"], draw="Ks 7s"),
                 (0, Draw()), (0, Discard()))  # fmt: skip
    text = "\n".join(plain(shown(state), 80, 24))
    assert "Race: OPEN till the next draw: throw a matching King on the Ks." in text
    assert " c call Dutch " in text and " t 1-4 throw " in text
    called = play(state, (0, CallDutch()))
    text = "\n".join(plain(shown(called, me=1), 80, 24))
    assert "Ada called DUTCH: last turns for you and Carl; their hand is locked." in text
    assert re.search(r"^a Ada.*DUTCH", text, re.MULTILINE)


def test_a_queen_peek_is_news_to_all_and_its_face_to_the_peeker_alone() -> None:
    state = play(peeked(["5h 9c Kd Qs", "2c 3c 4c 7d", "Ah Jd 8s 6h"], draw="Qh 7s"),
                 (0, Draw()), (0, Discard()))  # fmt: skip
    outcome = apply(state, 0, Look(Spot(2, 3)))
    for viewer, said in [
        (0, "You peeked at Carl's card 4: 6h"),
        (1, "Ada peeked at Carl's card 4"),
        (2, "Ada peeked at your card 4"),
    ]:
        news = (happened(state, 0, Look(Spot(2, 3)), outcome, viewer),)
        lines = plain(shown(outcome.state, me=viewer, news=news), 80, 24)
        assert any(line.strip() == said for line in lines), (viewer, lines)


def test_a_throw_race_says_who_was_first_and_a_miss_its_penalty() -> None:
    hands = ["5h 9c Kd Qs", "9d 3c 4c 7d", "Ah 9s 8s 6h"]
    state = play(peeked(hands, draw="9h 7s 2c"), (0, Draw()), (0, Discard()))
    news: list[Happening] = []
    for seat, move in [(1, Throw(0)), (2, Throw(1)), (2, Throw(3))]:
        outcome = apply(state, seat, move)
        news.append(happened(state, seat, move, outcome, 0))
        state = outcome.state
    text = "\n".join(plain(shown(state, news=tuple(news)), 80, 24))
    assert "Bea threw first: 9d" in text
    assert "Carl threw 9s too: a match" in text
    assert "Carl threw 6h: no match, it stays face up, a penalty card" in text
    carl = next(line for line in text.split("\n") if line.startswith("c Carl"))
    assert "4 6h " in carl  # face up to all, not bracketed
    assert "2 ##" in carl and "4 cards" in carl  # the penalty card filled the gap (D-26)


def _ended(caller_wins: bool) -> Round:
    low, high = "Kd Kh Ac 2c", "9c 9d 9h 9s"
    hands = [low, high, high.replace("9", "10")] if caller_wins else [high, low, "Qs Qh Qc Qd"]
    state = play(peeked(hands, draw="5h 3d 7s 8s 2h 4d"), (0, Draw()), (0, Replace(3)))
    state = play(state, (0, CallDutch()))
    for seat in (1, 2):
        state = play(state, (seat, Draw()), (seat, Discard()))
    assert state.phase is Phase.OVER
    return state


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_reveal_shows_every_hand_the_call_and_the_scores(width: int, height: int) -> None:
    worked = plain(shown(_ended(True), totals=(3, 4, 5)), width, height)
    text = "\n".join(worked)
    assert "called Dutch, and it worked" in " ".join(text.split())
    you = next(line for line in worked if line.startswith("a you"))
    assert re.search(r"\s6\s+\+0\s+3\s", you), you  # Kd Kh Ac 5h: 6, and it worked
    assert all(len(line) <= width for line in worked) and len(worked) <= height
    assert "Space next round" in worked[-1]
    failed = " ".join(" ".join(plain(shown(_ended(False)), 80, 24)).split())
    assert "it failed" in failed and "You add two cards from the pile (8s 2h)" in failed
    over = plain(shown(_ended(True), game_over=True, winners=(0,)), 80, 24)
    assert any("Game over: You win with 0 points." in line for line in over)
    assert "next round" not in over[-1]


def test_every_move_kind_reads(move_kinds: None = None) -> None:
    """Every Did is worded (the table in client/words.py is complete)."""
    from dutchblitz.client.games.dutch.words import DUTCH_NEWS, DUTCH_WORDS, dutch_says
    from dutchblitz.protocol.games.dutch.moves import Reason
    from dutchblitz.protocol.games.dutch.views import Did

    assert set(DUTCH_NEWS) | {Did.MATCHED, Did.MISSED} == set(Did)
    assert set(DUTCH_WORDS) == set(Reason)
    assert all(dutch_says(reason, "draw") for reason in Reason)


def test_the_news_drops_whole_items_when_room_is_short() -> None:
    state, news = bot_round(4, 9, 60)
    for height in range(14, 25):
        lines = list(plain(shown(state, news=news), 80, height))
        prompt = next(i for i, line in enumerate(lines) if line.startswith("a you"))
        after = [line for line in lines[prompt + 2 :] if line.strip()][:-1]  # news, no keys
        assert not after or not after[0].startswith("     "), (height, lines)


def test_two_bots_of_one_level_stay_apart_when_their_names_are_cut() -> None:
    """At 80 columns "forgetful bot 164" is cut in its middle, never its last word."""
    state, _ = bot_round(3, 5, 0)
    table = replace(shown(state), names=("Ada", "forgetful bot 164", "forgetful bot 3bb"))
    text = "\n".join(plain(table, 80, 24))
    assert "forgetful… 164" in text and "forgetful… 3bb" in text, text
