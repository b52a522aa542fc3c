"""Blitz!'s bots (protocol/games/faceoff/bots.py): not normative, but they only send moves a
person could, from the lists (spec/faceoff.md, "Bots"; F-9, F-18, F-26, F-28, F-32, F-36)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from dutchblitz.protocol.games.faceoff.bots import (
    LEVELS,
    Level,
    bot_move,
    delay,
    listed_answers,
    think_time,
)
from dutchblitz.protocol.games.faceoff.moves import (
    Answer,
    Claim,
    Concede,
    Contest,
    TurnFrom,
    Vote,
)
from dutchblitz.protocol.games.faceoff.normalise import normalise
from dutchblitz.protocol.games.faceoff.rules import apply, category_for
from dutchblitz.protocol.games.faceoff.state import Faceoff, Mode, Phase

from .table import EN, card, laid

SHARP = LEVELS["sharp"]
SURE = Level("sure", (0.0, 0.0), (0.0, 0.0), misses=0.0, slips=0.0, contests=1.0, abstains=0.0)
BLANK = replace(SURE, misses=1.0)


class Fixed:
    def __init__(self, value: float) -> None:
        self.value = value

    def random(self) -> float:
        return self.value


def faceoff(mode: Mode = Mode.TYPED, **duel: object):  # type: ignore[no-untyped-def]
    state = laid(4, {0: [card(0)], 1: [card(0, 1)], 2: [card(2)]}, mode=mode)
    return replace(state, phase=Phase.FACEOFF, faceoff=Faceoff(0, 1, **duel))  # type: ignore[arg-type]


def test_there_are_two_levels_at_least_and_sharp_is_quicker() -> None:
    assert {"easy", "sharp"} <= set(LEVELS)
    easy, sharp = LEVELS["easy"], LEVELS["sharp"]
    assert sharp.answer[1] <= easy.answer[1] and sharp.misses < easy.misses
    assert think_time(sharp, Fixed(0.0)) == sharp.think[0]


@pytest.mark.parametrize("seat", [0, 1])
def test_F18_F31_F32_a_typed_answer_is_listed_for_its_category_and_not_said(seat: int) -> None:
    state = faceoff()
    options = listed_answers(state, seat)
    state = replace(state, said=frozenset(options[:1]))
    move = bot_move(state, seat, SURE, Fixed(0.0))
    assert isinstance(move, Answer)
    assert move.text not in state.said
    assert normalise(move.text, "en") in EN.category_of(category_for(state, seat)).answers
    assert apply(state, seat, move).state.won[seat]  # the list accepts it at once


def test_F26_no_answer_left_concedes_and_a_miss_waits_typed_or_concedes_spoken() -> None:
    state = faceoff()
    everything = frozenset(listed_answers(state, 0))
    assert bot_move(replace(state, said=everything), 0, SURE, Fixed(0.0)) == Concede()
    assert bot_move(state, 0, BLANK, Fixed(0.5)) is None
    spoken = faceoff(Mode.SPOKEN)
    assert bot_move(spoken, 0, BLANK, Fixed(0.5)) == Concede()
    assert bot_move(spoken, 0, SURE, Fixed(0.5)) == Claim()


def test_F27_F28_an_unlisted_answer_is_contested_and_refused_a_listed_one_accepted() -> None:
    good = listed_answers(faceoff(), 1)[0]  # what seat 1 must answer
    unlisted = faceoff(claimant=1, answer="zzz nothing", text="zzz nothing")
    assert bot_move(unlisted, 2, SURE, Fixed(0.0)) == Contest()
    assert bot_move(unlisted, 1, SURE, Fixed(0.0)) is None  # never its own
    voting = replace(unlisted.faceoff, voting=True)
    assert bot_move(replace(unlisted, faceoff=voting), 2, SURE, Fixed(0.0)) == Vote(False)
    assert bot_move(replace(unlisted, faceoff=voting), 1, SURE, Fixed(0.0)) == Vote(True)
    listed = replace(voting, answer=good, text=good)
    assert bot_move(replace(unlisted, faceoff=listed), 3, SURE, Fixed(0.0)) == Vote(True)
    shy = replace(SURE, abstains=1.0)
    assert bot_move(replace(unlisted, faceoff=voting), 2, shy, Fixed(0.5)) is None


def test_F9_a_bot_turns_from_the_fuller_pile_on_its_turn_only() -> None:
    state = laid(4, {}, turn=2)
    assert bot_move(state, 1, SHARP, Fixed(0.5)) is None
    fuller = 0 if state.pile_size(0) >= state.pile_size(1) else 1
    assert bot_move(state, 2, SHARP, Fixed(0.5)) == TurnFrom(fuller)


def test_F35_the_tie_drawer_turns_the_tie_break_card() -> None:
    state = replace(faceoff(), phase=Phase.TIE_DRAW)
    assert isinstance(bot_move(state, 2, SHARP, Fixed(0.5)), TurnFrom)
    assert bot_move(state, 3, SHARP, Fixed(0.5)) is None


def test_an_answer_waits_longer_than_a_glance() -> None:
    state = faceoff()
    assert delay(state, 0, SHARP, Fixed(0.0)) == SHARP.answer[0]
    assert delay(state, 2, SHARP, Fixed(0.0)) == SHARP.think[0]
