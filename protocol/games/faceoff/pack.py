"""A pack of categories and how it is laid out as cards (spec/faceoff.md F-1 to F-6, F-33).

The data (a pack file, ``packs/<lang>.json``) holds 54 categories in a fixed order, the same
ids in every language. The layout is ours and the same for every language: card ``i`` (0 to
53) is category ``i`` and shows symbol ``i % 8``; cards 54 to 57 are the four Duels. The die
has six faces of two symbols each; at three players the two symbols of face 5 are out of the
game (F-6).

``load(path)`` reads a pack, checks it, normalises every answer (normalise.py) and computes
its digest: SHA-256 over the pack's canonical bytes (F-33), so that every node can name the
data it plays and refuse a table whose data differs.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from .normalise import LANGUAGES, normalise

CATEGORIES: Final = 54  # F-1
DUEL_CARDS: Final = 4  # F-1
CARDS: Final = CATEGORIES + DUEL_CARDS
DUELS: Final = tuple(range(CATEGORIES, CARDS))


@dataclass(frozen=True, slots=True)
class Symbol:
    """A symbol, told apart in monochrome by its letter and its shape's name."""

    letter: str
    shape: str

    def __str__(self) -> str:
        return f"{self.letter} {self.shape}"


SYMBOLS: Final = (
    Symbol("A", "circle"),
    Symbol("B", "square"),
    Symbol("C", "triangle"),
    Symbol("D", "star"),
    Symbol("E", "cross"),
    Symbol("F", "diamond"),
    Symbol("G", "heart"),
    Symbol("H", "moon"),
)
# F-5: six faces of two symbols; face 5's symbols are on no other face, so that taking them
# out at three players (F-6) takes out one face and no other.
DIE: Final = ((0, 1), (2, 3), (4, 5), (0, 3), (1, 4), (6, 7))
THREE_PLAYER_FACE: Final = 5


def symbol_of(card: int) -> int:
    """F-4: the symbol (index into SYMBOLS) of category card ``card``."""
    if not 0 <= card < CATEGORIES:
        raise ValueError(f"card {card} is not a category card")
    return card % len(SYMBOLS)


def is_duel(card: int) -> bool:
    return card in DUELS


def cards_in_game(removed_face: int | None) -> tuple[int, ...]:
    """F-2, F-6: the cards the game is played with: every card, less the category cards
    whose symbol is on ``removed_face`` (three players)."""
    out = frozenset(DIE[removed_face]) if removed_face is not None else frozenset()
    return tuple(c for c in range(CARDS) if is_duel(c) or symbol_of(c) not in out)


@dataclass(frozen=True, slots=True)
class Category:
    """A category: its id, its title as printed on the card, and its answers' keys."""

    id: str
    title: str
    language: str
    answers: frozenset[str]


@dataclass(frozen=True, slots=True)
class Pack:
    """A loaded pack: what it is, its 54 categories in order, and its digest (hex)."""

    pack: str
    language: str
    name: str
    licence: str
    categories: tuple[Category, ...]
    digest: str

    def category_of(self, card: int) -> Category:
        return self.categories[card]


class PackError(ValueError):
    """A pack file that cannot be played: the message says what is wrong, in one line."""


def canonical_bytes(data: Any) -> bytes:
    """F-33: the canonical form of a pack's JSON value: UTF-8, keys sorted, no spaces."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text.encode("utf-8")


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise PackError(f"{where} must be a non-empty string")
    return value


def _category(entry: Any, language: str, index: int) -> Category:
    if not isinstance(entry, dict):
        raise PackError(f"category {index} is not an object")
    answers = entry.get("answers")
    if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
        raise PackError(f"category {index} answers must be a list of strings")
    keys = frozenset(k for k in (normalise(a, language) for a in answers) if k)
    return Category(
        id=_text(entry.get("id"), f"category {index} id"),
        title=_text(entry.get("title"), f"category {index} title"),
        language=language,
        answers=keys,
    )


def parse(raw: bytes) -> Pack:
    """A pack from the bytes of its file; ``PackError`` says what is wrong."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise PackError(f"not a JSON pack file: {error}") from None
    if not isinstance(data, dict):
        raise PackError("a pack file holds one JSON object")
    language = _text(data.get("language"), "language")
    if language not in LANGUAGES:
        raise PackError(f"language {language!r} is not one of {', '.join(LANGUAGES)}")
    entries = data.get("categories")
    if not isinstance(entries, list) or len(entries) != CATEGORIES:
        raise PackError(f"a pack has exactly {CATEGORIES} categories")
    categories = tuple(_category(e, language, i) for i, e in enumerate(entries))
    if len({c.id for c in categories}) != CATEGORIES:
        raise PackError("two categories share an id")
    return Pack(
        pack=_text(data.get("pack"), "pack"),
        language=language,
        name=_text(data.get("name"), "name"),
        licence=str(data.get("licence", "")),
        categories=categories,
        digest=hashlib.sha256(canonical_bytes(data)).hexdigest(),
    )


def load(path: str | Path) -> Pack:
    """The pack in the file at ``path``."""
    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        raise PackError(f"cannot read pack {path}: {error.strerror}") from None
    return parse(raw)


def shipped(language: str) -> Pack:
    """The pack shipped for ``language`` (``packs/<language>.json``)."""
    if language not in LANGUAGES:
        raise PackError(f"no pack for language {language!r}")
    source = Path(__file__).parent / "packs" / f"{language}.json"
    if not source.is_file():
        raise PackError(f"the {language} pack is not installed")
    return load(source)


def same_ids(first: Pack, second: Pack) -> bool:
    """F-3: two languages' packs have the same category ids in the same order."""
    return [c.id for c in first.categories] == [c.id for c in second.categories]


LANGUAGE: Final = "en"  # the pack a table plays (F-33: every node must hold the same)


@cache
def table_pack() -> Pack:
    """The pack every hosted table of this node plays."""
    return shipped(LANGUAGE)


def table_digest() -> bytes:
    """F-33: the digest of ``table_pack``, its answer lists with it."""
    return bytes.fromhex(table_pack().digest)
