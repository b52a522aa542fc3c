"""Dutch's cards: one 54-card deck, each card's rank and its points (D-1, D-2)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

CARDS_IN_DECK: Final = 54  # 52 cards and two jokers (D-1)
JOKER_RANK: Final = 0  # ranks 1 (Ace) to 13 (King); 0 is the Joker


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


RANK_LETTERS: Final = {0: "*", 1: "A", 11: "J", 12: "Q", 13: "K"}
SUIT_LETTERS: Final = "cdhs"


@dataclass(frozen=True, slots=True, order=True)
class DutchCard:
    """A card by its code (D-1): ``suit * 13 + rank - 1`` for 0 to 51, 52 and 53 the jokers."""

    code: int

    def __post_init__(self) -> None:
        if not 0 <= self.code < CARDS_IN_DECK:
            raise ValueError(f"no Dutch card has code {self.code}")

    @property
    def is_joker(self) -> bool:
        return self.code >= 52

    @property
    def rank(self) -> int:
        """1 (Ace) to 13 (King), 0 for a Joker. Two cards match when their ranks are equal."""
        return JOKER_RANK if self.is_joker else self.code % 13 + 1

    @property
    def suit(self) -> Suit | None:
        return None if self.is_joker else Suit(self.code // 13)

    @property
    def points(self) -> int:
        """D-2: number cards their number, Ace 1, Jack 11, Queen 12, red King 0, black King
        13, Joker -1."""
        if self.is_joker:
            return -1
        if self.rank == 13:
            return 0 if self.is_red else 13
        return self.rank

    @property
    def is_red(self) -> bool:
        suit = self.suit
        return suit is not None and suit.is_red

    def label(self) -> str:
        """Rank and suit letter, readable without colour: ``10h``, ``Ks``, ``*`` for a Joker."""
        if self.is_joker:
            return "*"
        return f"{RANK_LETTERS.get(self.rank, str(self.rank))}{SUIT_LETTERS[self.code // 13]}"

    def __str__(self) -> str:
        return self.label()


FULL_DECK: Final = tuple(DutchCard(code) for code in range(CARDS_IN_DECK))
JACK, QUEEN, KING, ACE = 11, 12, 13, 1
