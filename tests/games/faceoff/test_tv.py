"""The TV's data for Blitz! (protocol/games/faceoff/tv.py): the public view as plain JSON
values in the page's vocabulary, the face-off first with a cascade's length, live answers
and votes (spec/faceoff.md F-18, F-20, F-28, F-43, F-50)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from dutchblitz.protocol.games.faceoff.state import Faceoff, Phase, new_game
from dutchblitz.protocol.games.faceoff.tv import board
from dutchblitz.protocol.games.faceoff.views import view

from .table import EN, card, laid, random_game

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")


SEATS = (0, 1, 2, 3, 4)
BY_SEAT = dict(enumerate(NAMES))


@pytest.mark.parametrize("seed", range(3))
def test_F43_every_state_of_a_game_is_plain_json(seed: int) -> None:
    for state in random_game(5, seed)[::7]:
        data = board(view(state), SEATS, BY_SEAT)
        assert json.loads(json.dumps(data)) == data
        assert sorted(data["areas"]) == ["0", "1", "2", "3", "4"]


def test_F20_a_cascade_heads_the_face_off_on_the_tv() -> None:
    state = laid(4, {0: [card(3)], 1: [card(3, 1)]}, die=3)
    state = replace(state, phase=Phase.FACEOFF, faceoff=Faceoff(0, 1))
    headline = board(view(replace(state, since_turn=1)), SEATS[:4], BY_SEAT)["headline"]
    assert headline.startswith("FACE-OFF  Ann names ")
    headline = board(view(replace(state, since_turn=3)), SEATS[:4], BY_SEAT)["headline"]
    assert headline.startswith("CASCADE x2  FACE-OFF  Ann names ")


def test_F50_the_last_face_off_won_heads_the_tv_between_face_offs() -> None:
    """A hosted table's view (host.py) adds who won the last face-off."""
    shown = replace(view(new_game(EN, 3)), last=(1, 0, "ZZ Top"))
    assert board(shown, SEATS[:3], BY_SEAT)["headline"] == 'Bob beat Ann with "ZZ Top"'


def test_F43_the_table_s_tv_page_draws_the_face_off_big_in_its_own_vocabulary() -> None:
    """At a hosted table the page knows no game (``TableGame.tv_board``): the draw piles
    and the Duel in the centre, each top card by letter and shape with its category under
    it, the cards won, and the face-off as the headline, live with its answer and vote."""
    state = laid(4, {0: [card(3)], 1: [card(3, 1)], 2: [card(6)]}, die=3)
    duel = Faceoff(0, 1, claimant=1, answer="zz top", text="ZZ Top", voting=True,
                   yes=frozenset({2}), no=frozenset({0}))  # fmt: skip
    state = replace(state, phase=Phase.FACEOFF, faceoff=duel)
    seats = (4, 5, 6, 7)  # the game's seat i is the table's seat 4 + i
    data = board(view(state), seats, {4 + i: name for i, name in enumerate(NAMES)})
    assert json.loads(json.dumps(data)) == data
    ann_must = EN.category_of(card(3, 1)).title
    assert data["headline"].startswith(f"FACE-OFF  Ann names {ann_must}  vs  Bob names ")
    assert '"ZZ Top"' in data["headline"] and "1 yes, 1 no" in data["headline"]
    assert sorted(data["areas"]) == ["4", "5", "6", "7"]
    assert [data["areas"][s]["status"] for s in ("4", "5", "6")] == ["FACE-OFF", "FACE-OFF", ""]
    top = data["areas"]["6"]["places"][0]
    assert top["top"] == {"label": f"G heart {EN.category_of(card(6)).title}", "value": "G",
                          "mark": "heart", "colour": ""}  # fmt: skip
    assert top["caption"] == EN.category_of(card(6)).title
    assert data["areas"]["7"]["places"][0]["top"] is None
    assert [group["key"] for group in data["centre"]] == ["draw", "duel"]
    assert data["centre"][1]["caption"] == "Duel: A circle and D star"
    assert data["progress"].startswith("One game · ")
    assert data["unit"] == "cards"  # the page says "wins with 9 cards!" (F-42)
