"""spec/faceoff.md F-30 to F-32: answers as keys, and what the shipped list says of them."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.games.faceoff.normalise import Verdict, check, normalise
from hypothesis import given
from hypothesis import strategies as st

from tests.games.faceoff.table import EN, FR

# Each row: the texts that MUST meet (one key), in that language.
MEET = [
    ("en", ["The Beatles", "beatles", "Beatle", "  THE   beatles!! "], "beatle"),
    ("en", ["hip-hop", "Hip Hop", "hip_hop"], "hip hop"),
    ("en", ["cherries", "Cherry"], "cherry"),
    ("en", ["movies", "movie"], "movy"),
    ("en", ["boxes", "box"], "box"),
    ("en", ["glasses", "glass"], "glass"),
    ("en", ["tomatoes", "tomato"], "tomato"),
    ("en", ["peaches", "peach", "a peach"], "peach"),
    ("en", ["horses", "horse", "an horse"], "hors"),
    ("en", ["buses", "bus"], "bus"),
    ("en", ["Crème Brûlée", "creme brulee"], "creme brulee"),
    ("en", ["Œuvre", "oeuvre"], "oeuvre"),
    ("en", ["Straße", "strasse"], "strass"),
    ("fr", ["les Beatles", "The Beatles", "beatle"], "beatle"),
    ("fr", ["l\u2019Orange", "l'orange", "Oranges", "une orange"], "orange"),
    ("fr", ["gâteaux", "le gateau"], "gateau"),
    ("fr", ["jeux", "jeu"], "jeu"),
    ("fr", ["de la musique", "musiques"], "musique"),
    ("fr", ["Échecs", "echec"], "echec"),
]

# Each row: texts that keep apart, or keep a word whole.
KEEP = [
    ("en", "tennis", "tennis"),
    ("en", "cactus", "cactus"),
    ("en", "chess", "chess"),
    ("en", "news", "news"),
    ("en", "gas", "gas"),
    ("en", "The", "the"),  # an article alone is the answer
    ("en", "A", "a"),
    ("fr", "la", "la"),
    ("fr", "bus", "bus"),
    ("fr", "express", "express"),
    ("en", "La Bamba", "la bamba"),  # "la" is an article in French only
    ("en", "!!!", ""),
    ("en", "R2-D2", "r2 d2"),
    ("en", "Paul's bagpipes", "paul bagpipe"),
    ("en", "rock'n'roll", "rocknroll"),
    ("fr", "aujourd'hui", "aujourdhui"),
]


@pytest.mark.parametrize(("language", "texts", "key"), MEET)
def test_F30_forms_of_one_answer_meet(language: str, texts: list[str], key: str) -> None:
    assert {normalise(t, language) for t in texts} == {key}


@pytest.mark.parametrize(("language", "text", "key"), KEEP)
def test_F30_keys_that_stay(language: str, text: str, key: str) -> None:
    assert normalise(text, language) == key


def test_F30_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="no answer rules"):
        normalise("x", "de")


@given(st.text(max_size=40), st.sampled_from(["en", "fr"]))
def test_F30_a_key_is_its_own_key_and_plain(text: str, language: str) -> None:
    key = normalise(text, language)
    assert key == key.strip() and "  " not in key
    assert all(c == " " or (c.isascii() and c.isalnum()) for c in key)
    assert normalise(text, language) == key  # deterministic


@pytest.mark.parametrize(
    ("answer", "card", "said", "verdict"),
    [
        ("Bananas", 0, set(), Verdict.LISTED),
        ("mango", 0, set(), Verdict.UNKNOWN),
        ("the beatles", 1, set(), Verdict.LISTED),
        ("Beatle", 1, {"beatle"}, Verdict.REPEAT),  # F-32: a repeat, listed or not
        ("mango", 0, {"mango"}, Verdict.REPEAT),
    ],
)
def test_F31_F32_the_verdict_of_the_list_and_the_game(
    answer: str, card: int, said: set[str], verdict: Verdict
) -> None:
    assert check(answer, EN.category_of(card), said) is verdict


def test_F31_the_french_list_checks_french_keys() -> None:
    assert check("Les Beatles", FR.category_of(1), set()) is Verdict.LISTED
    assert check("chevaux", FR.category_of(5), set()) is Verdict.LISTED
