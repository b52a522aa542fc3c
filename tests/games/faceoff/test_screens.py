"""Blitz!'s screens (client/games/faceoff/screens.py) at 80 x 24 without colour: every top
card with its symbol and category, the face-off standing out, votes on one key, nothing
cut, for 3 to 8 players (spec/faceoff.md F-4, F-18, F-20, F-28, F-43)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from dutchblitz.client.games.faceoff import keys, screens, words
from dutchblitz.client.games.faceoff.screens import FaceoffTable, plain
from dutchblitz.protocol.games.faceoff.pack import SYMBOLS, shipped
from dutchblitz.protocol.games.faceoff.state import Faceoff, Game, Mode, Phase
from dutchblitz.protocol.games.faceoff.views import view

from .table import card, laid

FR = shipped("fr")
NAMES = ("Ann", "Bartholomew-Jones", "Cy", "Dee", "Evangeline", "Fay", "Gus", "Hal")


def longest_tops(seats: int) -> dict[int, list[int]]:
    """Each seat's top: the longest French categories, one symbol per seat (no match)."""
    tops: dict[int, list[int]] = {}
    for seat in range(seats):
        symbol = seat % len(SYMBOLS)
        cards = [c for c in range(54) if c % 8 == symbol]
        tops[seat] = [max(cards, key=lambda c: len(FR.category_of(c).title))]
    return tops


def table_for(seats: int, **duel: object) -> Game:
    state = replace(laid(seats, longest_tops(seats)), pack=FR)
    if duel:
        state = replace(state, phase=Phase.FACEOFF, faceoff=Faceoff(**duel))  # type: ignore[arg-type]
    return state


def words_of(lines: list[str] | tuple[str, ...]) -> str:
    return re.sub(r"\s+", " ", " ".join(lines))


def screen(state: Game, seat: int | None = 0, **extra: object) -> list[str]:
    table = FaceoffTable(view(state, seat), NAMES[: state.seats], frozenset({2}), **extra)  # type: ignore[arg-type]
    return list(plain(table, 80, 24))


@pytest.mark.parametrize("seats", range(3, 9))
@pytest.mark.parametrize("duel", [False, True])
def test_F4_F43_every_top_card_whole_at_80x24(seats: int, duel: bool) -> None:
    state = (
        table_for(seats, a=0, b=1, claimant=1, answer="zz", text="zz") if duel else table_for(seats)
    )
    lines = screen(state)
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    text = words_of(lines)
    for seat in range(seats):
        top = state.top(seat)
        assert top is not None
        assert FR.category_of(top).title in text
        assert str(SYMBOLS[top % 8]) in text
    assert text.count("…") <= 1  # only the long name may be shortened
    assert "Said" in text


@pytest.mark.parametrize("seats", range(3, 9))
def test_F18_the_faceoff_stands_out_with_who_and_what_each_answers(seats: int) -> None:
    state = table_for(seats, a=seats - 1, b=0)
    lines = screen(state, seat=0, typed="camem")
    banner = [line for line in lines if "*** FACE-OFF" in line]
    assert banner == [f" *** FACE-OFF: {NAMES[seats - 1]} against you ***"]
    rows = [line for line in lines if line.startswith("** ")]
    assert len(rows) == 2
    text = words_of(lines)
    mine, theirs = FR.category_of(state.top(seats - 1) or 0), FR.category_of(state.top(0) or 0)
    assert f"you answer: {mine.title}" in text
    assert f"{NAMES[seats - 1]} answers: {theirs.title}" in text
    assert "> your answer: camem_" in text


def test_F4_symbols_are_told_apart_without_colour() -> None:
    shown = [str(s) for s in SYMBOLS]
    assert len({s.split()[0] for s in shown}) == len({s.split()[1] for s in shown}) == 8
    state = table_for(8)
    rows = [line for line in screen(state) if any(s in line for s in shown)]
    assert len(rows) == 8
    assert len({next(s for s in shown if s in row) for row in rows}) == 8


def test_F28_a_vote_answers_to_one_key_and_stops_asking_once_voted() -> None:
    state = table_for(4, a=0, b=1, claimant=1, answer="zz", text="zz", voting=True)
    text = words_of(screen(state, seat=2))
    assert 'Bartholomew-Jones said "zz". y accept, n refuse' in text
    assert ("y", "accept") in keys.live(view(state, 2))
    voted = replace(state, faceoff=replace(state.faceoff, yes=frozenset({2})))  # type: ignore[arg-type]
    assert ("y", "accept") not in keys.live(view(voted, 2))
    assert "1 accept, 0 refuse so far" in words_of(screen(voted, seat=2))


def test_F27_an_unlisted_answer_can_be_contested_with_one_key() -> None:
    state = table_for(4, a=0, b=1, claimant=1, answer="zz", text="zz")
    assert "c to contest" in words_of(screen(state, seat=3))
    assert ("c", "contest") in keys.live(view(state, 3))
    assert ("c", "contest") not in keys.live(view(state, 1))


def test_F25_spoken_answers_claim_with_one_key() -> None:
    state = replace(table_for(4, a=0, b=1), mode=Mode.SPOKEN)
    assert "Space: I answered first" in words_of(screen(state, seat=0))
    assert (keys.CLAIM, "I answered first") in keys.live(view(state, 0))


def test_F20_a_cascade_is_said_with_its_length() -> None:
    """The view counts the face-offs a won card made with no card turned (the rules'
    ``since_turn``); the banner says it."""
    first = table_for(4, a=0, b=1)
    chained = replace(first, faceoffs=first.faceoffs + 3, since_turn=3)
    assert view(replace(first, since_turn=1)).cascade == 0  # the turn's own face-off
    assert view(chained).cascade == 2
    assert view(replace(chained, faceoff=None)).cascade == 0
    assert "CASCADE" not in words_of(screen(replace(first, since_turn=1)))
    assert "CASCADE ***" in words_of(screen(replace(first, since_turn=2)))
    assert "CASCADE x3" in words_of(screen(replace(first, since_turn=4)))


def test_F36_a_tie_break_card_is_shown_to_both() -> None:
    state = table_for(4, a=0, b=1, tie_card=card(5, 1))
    text = words_of(screen(state, seat=2))
    assert f"both answer {FR.category_of(card(5, 1)).title}" in text


def test_F9_whose_turn_is_marked_and_the_piles_counted() -> None:
    state = replace(table_for(5), turn=3)
    lines = screen(state, seat=3)
    assert any(line.startswith(" > you (Dee)") for line in lines)
    assert "Your turn: 1 or 2 turns a card." in words_of(lines)
    assert f"pile 1: {state.pile_size(0)} left" in lines[1]


def test_F42_the_end_names_the_winners() -> None:
    state = table_for(4)
    won = (state.won[0], (card(1, 2), card(2, 2)), *state.won[2:])
    over = replace(state, won=won, phase=Phase.OVER)
    text = words_of(screen(over))
    assert "Won by Bartholomew-Jones, with 2 cards." in text


def test_the_help_fits_in_a_few_lines() -> None:
    lines = screens.help_lines(80)
    assert len(lines) <= 10 and all(len("".join(t for _, t in row)) <= 80 for row in lines)
    assert words.HELP
