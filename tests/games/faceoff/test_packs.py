"""The word packs of Blitz! (protocol/games/faceoff/packs/*.json) stay playable: every pack has
the same 54 categories in the same order, each with enough accepted answers, and no answer
that normalises to another one of its own category or, unless chosen on purpose, of another
category of the same pack."""

from __future__ import annotations

import json
import re
import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
PACKS = ROOT / "protocol" / "games" / "faceoff" / "packs"
HEADERS = {
    "en": ("en-1", "English pack 1"),
    "fr": ("fr-1", "Paquet français 1"),
}
CATEGORY_COUNT = 54
MIN_ANSWERS = 30

# Categories allowed fewer than MIN_ANSWERS, as (language, id). Every category has 30 or more
# today; a category that cannot reach 30 is listed here with the reason.
SHORT_CATEGORIES: frozenset[tuple[str, str]] = frozenset()

# Homonyms that belong in two unrelated categories: the word is a common answer in both
# (the fruit and the computer maker, the bird and the country), so neither list drops it.
# Keyed by the plain word; the test compares after normalise().
SHARED_ON_PURPOSE: dict[str, dict[str, frozenset[str]]] = {
    "en": {
        "apple": frozenset({"fruit", "electronics_brand"}),
        "cricket": frozenset({"sport", "insect"}),
        "hermes": frozenset({"mythological_god", "fashion_brand"}),
        "jaguar": frozenset({"car_brand", "mammal"}),
        "kiwi": frozenset({"fruit", "bird"}),
        "mercury": frozenset({"mythological_god", "chemical_element"}),
        "thor": frozenset({"mythological_god", "superhero"}),
        "turkey": frozenset({"bird", "country"}),
    },
    "fr": {
        "hermes": frozenset({"mythological_god", "fashion_brand"}),
        "jaguar": frozenset({"car_brand", "mammal"}),
        "kiwi": frozenset({"fruit", "bird"}),
        "mercure": frozenset({"mythological_god", "chemical_element"}),
        "thor": frozenset({"mythological_god", "superhero"}),
    },
}

_ARTICLE = re.compile(r"^(?:(?:the|a|an|le|la|les|un|une|des)\s+|l')")
# NFKD keeps these ligatures whole; players type "coeur" for "cœur".
_LIGATURES = str.maketrans({"\u0153": "oe", "\u00e6": "ae", "\u2019": "'"})


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.casefold().translate(_LIGATURES))
    return "".join(c for c in text if not unicodedata.combining(c))


def normalise(answer: str) -> str:
    """The simple key two answers must not share: case, accents, a leading article, spaces
    and hyphens, and a plural s or x do not count."""
    text = _fold(answer)
    text = _ARTICLE.sub("", text.strip())
    text = " ".join(text.replace("-", " ").split())
    return text[:-1] if text.endswith(("s", "x")) else text


def _load(language: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((PACKS / f"{language}.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(
    ("answer", "key"),
    [
        ("Hip-hop", "hip hop"),
        ("hip  hop", "hip hop"),
        ("Les Échecs", "echec"),
        ("l'Olivier", "olivier"),
        ("The Sims", "sim"),
        ("Crème brûlée", "creme brulee"),
        ("Choux", "chou"),
        ("Œil-de-Faucon", "oeil de faucon"),
        ("rock'n'roll", "rock'n'roll"),
    ],
)
def test_normalise_folds_case_accents_articles_hyphens_and_plurals(answer: str, key: str) -> None:
    assert normalise(answer) == key


def test_the_folder_holds_exactly_the_known_packs() -> None:
    assert sorted(p.stem for p in PACKS.glob("*.json")) == sorted(HEADERS)


@pytest.mark.parametrize("language", HEADERS)
def test_pack_loads_as_json_with_its_header(language: str) -> None:
    pack = _load(language)
    assert (pack["pack"], pack["name"]) == HEADERS[language]
    assert pack["language"] == language
    assert pack["licence"].strip()
    assert isinstance(pack["categories"], list)


@pytest.mark.parametrize("language", HEADERS)
def test_pack_has_54_categories_with_unique_ids(language: str) -> None:
    ids = [c["id"] for c in _load(language)["categories"]]
    assert len(ids) == CATEGORY_COUNT
    assert len(set(ids)) == CATEGORY_COUNT
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", i) for i in ids)


def test_every_pack_has_the_same_ids_in_the_same_order() -> None:
    orders = {lang: [c["id"] for c in _load(lang)["categories"]] for lang in HEADERS}
    first = orders["en"]
    assert all(order == first for order in orders.values())


@pytest.mark.parametrize("language", HEADERS)
def test_every_category_has_at_least_30_answers_unless_listed_short(language: str) -> None:
    for category in _load(language)["categories"]:
        if (language, category["id"]) in SHORT_CATEGORIES:
            continue
        assert len(category["answers"]) >= MIN_ANSWERS, category["id"]


@pytest.mark.parametrize("language", HEADERS)
def test_no_empty_title_or_answer(language: str) -> None:
    for category in _load(language)["categories"]:
        assert category["title"].strip() == category["title"] != ""
        for answer in category["answers"]:
            assert isinstance(answer, str)
            assert answer.strip() == answer != "", category["id"]
            assert normalise(answer), (category["id"], answer)


@pytest.mark.parametrize("language", HEADERS)
def test_answers_are_sorted_within_each_category(language: str) -> None:
    for category in _load(language)["categories"]:
        answers = category["answers"]
        assert answers == sorted(answers, key=_fold), category["id"]


@pytest.mark.parametrize("language", HEADERS)
def test_no_two_answers_of_a_category_normalise_alike(language: str) -> None:
    for category in _load(language)["categories"]:
        seen: dict[str, str] = {}
        for answer in category["answers"]:
            key = normalise(answer)
            assert key not in seen, (category["id"], seen.get(key), answer)
            seen[key] = answer


@pytest.mark.parametrize("language", HEADERS)
def test_no_answer_is_shared_by_two_categories_unless_on_purpose(language: str) -> None:
    owners: dict[str, set[str]] = defaultdict(set)
    for category in _load(language)["categories"]:
        for answer in category["answers"]:
            owners[normalise(answer)].add(category["id"])
    shared = {key: frozenset(ids) for key, ids in owners.items() if len(ids) > 1}
    # Equality both ways: an exception that no longer applies must be removed too.
    expected = {normalise(word): ids for word, ids in SHARED_ON_PURPOSE[language].items()}
    assert shared == expected
