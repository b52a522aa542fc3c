"""The TV's data for Blitz! (protocol/games/faceoff/tv.py): the public view as plain JSON
values, the face-off first, live answers and votes (spec/faceoff.md F-4, F-18, F-28,
F-43)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from dutchblitz.protocol.games.faceoff.state import Faceoff, Phase
from dutchblitz.protocol.games.faceoff.tv import board, tv_view
from dutchblitz.protocol.games.faceoff.views import view

from .table import EN, card, laid, random_game

NAMES = ("Ann", "Bob", "Cy", "Dee")


def test_F18_F28_the_faceoff_headline_with_its_answer_and_vote_live() -> None:
    state = laid(4, {0: [card(3)], 1: [card(3, 1)], 2: [card(6)]}, die=3)
    duel = Faceoff(0, 1, claimant=1, answer="zz top", text="ZZ Top", voting=True,
                   yes=frozenset({2}), no=frozenset({0}))  # fmt: skip
    state = replace(state, phase=Phase.FACEOFF, faceoff=duel)
    data = tv_view(view(state), NAMES, cascade=2)
    shown = data["faceoff"]
    assert shown["headline"] == "Ann vs Bob"
    assert shown["cascade"] == 2
    ann, bob = shown["players"]
    assert ann["answers"]["category"] == EN.category_of(card(3, 1)).title
    assert ann["card_of"] == 1 and bob["card_of"] == 0
    assert shown["waiting"] == {"seat": 1, "name": "Bob", "text": "ZZ Top", "key": "zz top",
                                "voting": True, "yes": 1, "no": 1, "voted": [0, 2]}  # fmt: skip
    assert data["duel_pair"] == [{"letter": "A", "shape": "circle"},
                                 {"letter": "D", "shape": "star"}]  # fmt: skip
    assert [p["in_faceoff"] for p in data["players"]] == [True, True, False, False]
    assert data["players"][2]["top"] == {"card": card(6), "letter": "G", "shape": "heart",
                                         "category": EN.category_of(card(6)).title}  # fmt: skip
    assert data["players"][3]["top"] is None


@pytest.mark.parametrize("seed", range(3))
def test_F43_every_state_of_a_game_is_plain_json(seed: int) -> None:
    for state in random_game(5, seed)[::7]:
        data = tv_view(view(state))
        assert json.loads(json.dumps(data)) == data
        assert len(data["players"]) == 5
        assert data["game"] == "faceoff"


def test_F50_F52_the_last_face_off_won_and_a_refused_answer_show_on_the_tv() -> None:
    """A hosted table's view (host.py) adds who won the last face-off, and what a vote refused."""
    from dutchblitz.protocol.games.faceoff.state import new_game

    shown = replace(view(new_game(EN, 3)), last=(1, 0, "ZZ Top"), dropped=(2, "zzz"))
    data = tv_view(shown, NAMES)
    assert data["last"] == {"winner": "Bob", "loser": NAMES[0], "text": "ZZ Top"}
    assert data["dropped"] == {"seat": 2, "name": NAMES[2], "text": "zzz"}
    assert tv_view(view(new_game(EN, 3)), NAMES)["last"] is None


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
