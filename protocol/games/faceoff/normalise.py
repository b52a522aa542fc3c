"""Answers as keys: two answers meet when their keys are equal (spec/faceoff.md F-30, F-31).

``normalise(text, language)`` is deterministic and depends on nothing but its arguments:

1. the curly apostrophes (U+2019, U+2018) become ``'``; the ligatures ``œ`` and ``æ``
   become ``oe`` and ``ae``;
2. Unicode NFKD, then every combining mark is dropped (``é`` -> ``e``) and the text is
   case-folded (``ß`` -> ``ss``);
3. one leading article is dropped, if a word is left after it: English ``the``, ``a``,
   ``an``; French ``le``, ``la``, ``les``, ``l'``, ``un``, ``une``, ``des``, ``du``,
   ``de la``, ``de l'``, and ``the`` (band and film names keep it in French talk);
4. apostrophes are dropped (``Paul's`` -> ``pauls``, ``rock'n'roll`` -> ``rocknroll``);
   every other character that is not a letter or a digit separates words; words are joined
   with one space (``hip-hop`` and ``Hip  Hop`` meet);
5. each word longer than three letters loses a simple plural ending (below), so that the
   singular and the plural meet (``The Beatles``, ``beatles`` and ``Beatle``: ``beatle``).

The plural rules are applied to every word, singular or plural, so a word and its simple
plural always reach the same key even where the key is not a real word:

- English: ``-ies`` -> ``-y`` (``cherries``); else ``-s`` dropped unless the word ends in
  ``ss``, ``us`` or ``is`` (``glass``, ``cactus``, ``tennis``) or is one of ``EN_KEEP``; then
  an ``e`` after ``s``, ``x``, ``z``, ``o``, ``ch`` or ``sh`` is dropped (``boxes`` and
  ``box``: ``box``; ``tomatoes`` and ``tomato``: ``tomato``), and a final ``ie`` becomes
  ``y`` (``movies`` and ``movie``: ``movy``).
- French: a final ``x`` or ``s`` is dropped unless the word ends in ``ss`` (``jeux`` and
  ``jeu``: ``jeu``; ``gateaux``: ``gateau``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Set
from enum import StrEnum
from functools import lru_cache
from typing import Final, Protocol

LIGATURES: Final = str.maketrans(
    {"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE", "\u2019": "'", "\u2018": "'"}
)
ARTICLES: Final[dict[str, tuple[str, ...]]] = {
    # Longest first: "de la" before "de", "l'" needs no space after it.
    "en": ("the ", "an ", "a "),
    "fr": ("de la ", "de l'", "les ", "des ", "une ", "the ", "le ", "la ", "un ", "du ", "l'"),
}
LANGUAGES: Final = tuple(ARTICLES)
EN_KEEP: Final = frozenset({"news", "series", "species", "always", "perhaps", "whereas"})
SHORTEST_PLURAL: Final = 4  # a word of three letters or fewer keeps its ending
_SEPARATORS: Final = re.compile(r"[^0-9a-z]+")


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.translate(LIGATURES))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def _drop_article(text: str, language: str) -> str:
    for article in ARTICLES[language]:
        rest = text[len(article) :]
        if text.startswith(article) and _SEPARATORS.sub("", rest):
            return rest
    return text


def _english_word(word: str) -> str:
    if len(word) < SHORTEST_PLURAL or word in EN_KEEP:
        return word
    if word.endswith("ies") and len(word) > SHORTEST_PLURAL:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if len(word) >= SHORTEST_PLURAL and word.endswith(("se", "xe", "ze", "oe", "che", "she")):
        word = word[:-1]
    if len(word) >= SHORTEST_PLURAL and word.endswith("ie"):
        word = word[:-2] + "y"
    return word


def _french_word(word: str) -> str:
    if len(word) < SHORTEST_PLURAL or word.endswith("ss"):
        return word
    return word[:-1] if word.endswith(("s", "x")) else word


@lru_cache(maxsize=8192)  # a pure function, asked the same keys again by every bot
def normalise(text: str, language: str) -> str:
    """The key of ``text`` in ``language`` ("en" or "fr"); "" when no letter or digit is left."""
    if language not in ARTICLES:
        raise ValueError(f"no answer rules for language {language!r}")
    words = _SEPARATORS.split(_drop_article(_fold(text), language).replace("'", ""))
    singular = _english_word if language == "en" else _french_word
    return " ".join(singular(w) for w in words if w)


class Verdict(StrEnum):
    """What the shipped list and the game so far say of an answer (F-31, F-32)."""

    LISTED = "listed"  # in the category's shipped list, not said before: accepted at once
    UNKNOWN = "unknown"  # not in the list, not said before: the table decides
    REPEAT = "repeat"  # said before in this game: it never wins


class Listed(Protocol):
    """A category as ``check`` needs it: its language and its answers' keys."""

    @property
    def language(self) -> str: ...

    @property
    def answers(self) -> Set[str]: ...


def check(answer: str, category: Listed, said: Set[str]) -> Verdict:
    """The verdict on ``answer`` for ``category``, given the keys ``said`` in the game."""
    key = normalise(answer, category.language)
    if key in said:
        return Verdict.REPEAT
    return Verdict.LISTED if key in category.answers else Verdict.UNKNOWN
