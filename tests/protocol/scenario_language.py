"""A small language for rule scenarios: cards as labels, decks as piles of labels.

Labels are short: "5R" is the red 5 of the mover's deck, "5R/1" the red 5 of deck 1.
A ``Deck`` lists each pile top first; every card it does not place is a filler.
Fillers go high cards first to the Post row and the hand, and the lowest cards to
the bottom of the Blitz pile, so no face-up filler is ever playable: a table does
only what its scenario sets up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from dutchblitz.protocol.games.blitz.cards import (
    BLITZ_SIZE,
    DECK_SIZE,
    Card,
    Colour,
    card,
    post_count,
)
from dutchblitz.protocol.games.blitz.moves import (
    CentrePlay,
    Move,
    PostPlay,
    Source,
    StuckCall,
    WoodFlip,
    WoodTurn,
)
from dutchblitz.protocol.games.blitz.rules import Reason, Refusal
from dutchblitz.protocol.games.blitz.state import Slot, Table, deal, visible_order

BLITZ, WOOD, POST = Source.BLITZ, Source.WOOD, Source.POST
OK = "ok"
Expect = str | Reason | Refusal
Step = tuple[Move, Expect]
COLOURS = {"R": Colour.RED, "B": Colour.BLUE, "G": Colour.GREEN, "Y": Colour.YELLOW}


# -- labels, decks and moves ---------------------------------------------------------------


def c(label: str, seat: int = 0) -> Card:
    """The card a label names: "5R" of ``seat``'s deck, "5R/1" of deck 1."""
    face, _, deck = label.partition("/")
    return card(int(deck) if deck else seat, COLOURS[face[-1]], int(face[:-1]))


def maybe(label: str | None, seat: int) -> Card | None:
    return None if label is None else c(label, seat)


@dataclass(frozen=True)
class Deck:
    """One seat's deal in labels, each pile top first; "*" marks a filler."""

    post: str = ""
    blitz: str = ""
    hand: str = ""

    def order(self, seat: int, players: int) -> list[Card]:
        posts = post_count(players)
        post = _padded(self.post, posts)
        blitz = _padded(self.blitz, BLITZ_SIZE)
        hand = _padded(self.hand, DECK_SIZE - posts - BLITZ_SIZE)
        named = {c(label, seat) for label in post + blitz + hand if label != "*"}
        fillers = iter([spare for spare in _by_value(seat) if spare not in named])

        def place(labels: list[str]) -> list[Card]:
            return [next(fillers) if label == "*" else c(label, seat) for label in labels]

        # Filled in this order, the lowest fillers sink to the bottom of the Blitz pile.
        post_cards, hand_cards, blitz_cards = place(post), place(hand), place(blitz)
        # Dealt top first: the Post row, the Blitz pile from its bottom card up, the hand.
        return post_cards + blitz_cards[::-1] + hand_cards


def _padded(text: str, size: int) -> list[str]:
    labels = text.split()
    assert len(labels) <= size, f"{text!r} holds more than {size} cards"
    return labels + ["*"] * (size - len(labels))


def _by_value(seat: int) -> list[Card]:
    return [card(seat, colour, value) for value in range(10, 0, -1) for colour in Colour]


def centre(
    seat: int,
    source: Source,
    label: str,
    pile: int | None = None,
    shows: str | None = None,
    slot: int = 0,
) -> CentrePlay:
    return CentrePlay(seat, source, slot, c(label, seat), pile, maybe(shows, seat))


def post(seat: int, source: Source, label: str, slot: int, shows: str | None = None) -> PostPlay:
    return PostPlay(seat, source, c(label, seat), slot, maybe(shows, seat))


def flip(seat: int, shows: str | None) -> WoodFlip:
    return WoodFlip(seat, maybe(shows, seat))  # type: ignore[arg-type]


def flips(seat: int, shown: str) -> list[Step]:
    return [(flip(seat, label), OK) for label in shown.split()]


def turn(seat: int) -> WoodTurn:
    return WoodTurn(seat)


def stuck(seat: int) -> StuckCall:
    return StuckCall(seat)


def stalemates(seats: Sequence[int], count: int) -> list[Step]:
    """``count`` stalemates in a row: every seat calls stuck, ``count`` times over."""
    return [(stuck(seat), OK) for _ in range(count) for seat in seats]


def taken(by: int) -> Refusal:
    return Refusal(Reason.PILE_TAKEN, by)


# The fillers alone, as the hand of a quiet deck shows them three by three.
QUIET_2P_FLIPS = "9Y 8G 7B 6R 6Y 5G 4B 3R 3B"  # 25 cards: the ninth flip turns 1
QUIET_3P_FLIPS = "9G 8B 7R 7Y 6G 5B 4R 4Y 3B"  # 26 cards: the ninth flip turns 2


# -- scenarios ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    rule: str
    name: str
    players: int
    decks: dict[int, Deck] = field(default_factory=dict)
    steps: Sequence[Step] = ()
    post_stacking: bool = True
    inactive: tuple[int, ...] = ()
    viewer: int | None = None  # play on this seat's replica rather than the full table
    scores: tuple[int, ...] | None = None
    full_digest: bool = False  # the vector also pins the full digest
    check: Callable[[Table], None] | None = None

    @property
    def id(self) -> str:
        return f"{self.rule} {self.name}"

    def orders(self) -> dict[int, list[Slot]]:
        orders: dict[int, list[Slot]] = {}
        for seat in range(self.players):
            order = self.decks.get(seat, Deck()).order(seat, self.players)
            seen = self.viewer is None or seat == self.viewer
            orders[seat] = list(order) if seen else visible_order(order, self.players)
        return orders

    def table(self) -> Table:
        table = deal(range(self.players), self.orders(), post_stacking=self.post_stacking)
        for seat in self.inactive:
            table.areas[seat].active = False
        return table


def area_check(seat: int, **expected: object) -> Callable[[Table], None]:
    """A check on one seat's area; values are labels, lists of labels, or plain values."""

    def check(table: Table) -> None:
        area = table.areas[seat]
        for name, want in expected.items():
            got = _readable(getattr(area, name) if hasattr(area, name) else _derived(area, name))
            assert got == want, f"seat {seat} {name}: {got!r} != {want!r}"

    return check


def _derived(area: object, name: str) -> object:
    pile, _, end = name.partition("_")
    stack = getattr(area, pile)
    return (stack[-1] if stack else None) if end == "top" else stack


def _readable(value: object) -> object:
    if isinstance(value, Card):
        return f"{value.value}{value.colour.letter}"
    if isinstance(value, list):
        return [_readable(item) for item in value]
    return value


def table_check(**expected: object) -> Callable[[Table], None]:
    def check(table: Table) -> None:
        for name, want in expected.items():
            got = getattr(table, name)
            if name == "piles":
                got = [_readable(pile.cards) for pile in table.piles]
            assert got == want, f"table {name}: {got!r} != {want!r}"

    return check


def checks(*each: Callable[[Table], None]) -> Callable[[Table], None]:
    def check(table: Table) -> None:
        for one in each:
            one(table)

    return check


def holds(condition: bool, message: str) -> None:
    assert condition, message
