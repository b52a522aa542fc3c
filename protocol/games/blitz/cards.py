"""Cards, colours, genders and deck backs."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ...limits import MAX_PLAYERS as MAX_PLAYERS
from ...limits import MIN_PLAYERS as MIN_PLAYERS


class Colour(IntEnum):
    RED = 0
    BLUE = 1
    GREEN = 2
    YELLOW = 3

    @property
    def letter(self) -> str:
        return "RBGY"[self]

    @property
    def is_boy(self) -> bool:
        # Red and blue cards show a boy, green and yellow a girl.
        return self in (Colour.RED, Colour.BLUE)


VALUES = range(1, 11)
DECK_SIZE = 40
BLITZ_SIZE = 10

STANDARD_BACKS = ("pump", "wagon", "bucket", "plow")
EXPANSION_BACKS = ("buggy", "lantern", "churn", "windmill")
ALL_BACKS = STANDARD_BACKS + EXPANSION_BACKS


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card: the seat whose deck it belongs to, its colour and its value."""

    deck: int
    colour: Colour
    value: int

    @property
    def is_boy(self) -> bool:
        return self.colour.is_boy

    @property
    def code(self) -> int:
        """A compact id, unique within a table: ``deck * 40 + colour * 10 + value - 1``."""
        return self.deck * DECK_SIZE + int(self.colour) * 10 + self.value - 1

    def label(self) -> str:
        """Value, colour letter and gender marker, readable without colour: ``5R♂``."""
        return f"{self.value}{self.colour.letter}{'♂' if self.is_boy else '♀'}"

    def __str__(self) -> str:
        return self.label()


_CARDS: dict[int, Card] = {}


def card(deck: int, colour: Colour, value: int) -> Card:
    """The interned card for (deck, colour, value)."""
    code = deck * DECK_SIZE + int(colour) * 10 + value - 1
    found = _CARDS.get(code)
    if found is None:
        found = _CARDS[code] = Card(deck, Colour(colour), value)
    return found


def card_from_code(code: int) -> Card:
    deck, rest = divmod(code, DECK_SIZE)
    colour, value_less_one = divmod(rest, 10)
    return card(deck, Colour(colour), value_less_one + 1)


def new_deck(deck: int) -> list[Card]:
    """The 40 cards of one deck in a fixed, canonical order (not shuffled)."""
    return [card(deck, colour, value) for colour in Colour for value in VALUES]


def post_count(players: int) -> int:
    """Post row size: 5 cards for 2 players, 4 for 3, 3 for 4 or more (R-7)."""
    if players <= 2:
        return 5
    if players == 3:
        return 4
    return 3


def check_backs(backs: list[str] | tuple[str, ...]) -> str | None:
    """Why this choice of deck backs is not allowed, or None if it is (R-5)."""
    count = len(backs)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        return f"a table seats {MIN_PLAYERS} to {MAX_PLAYERS} players, not {count}"
    if len(set(backs)) != count:
        return "each player needs a deck with a different back"
    allowed = STANDARD_BACKS if count <= len(STANDARD_BACKS) else ALL_BACKS
    for back in backs:
        if back not in allowed:
            return f"back {back!r} is not one of {', '.join(allowed)}"
    return None


def default_backs(players: int) -> tuple[str, ...]:
    return ALL_BACKS[:players]
