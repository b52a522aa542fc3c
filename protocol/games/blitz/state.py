"""The table state of one round, and how a round is dealt.

Every pile is a list with its top at the end. A ``None`` entry is a card whose
identity this replica does not know yet (another player's hidden card).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .cards import BLITZ_SIZE, DECK_SIZE, MAX_PLAYERS, MIN_PLAYERS, Card, Colour, post_count

Slot = Card | None


@dataclass(slots=True)
class Area:
    """One player's own cards in front of them."""

    seat: int
    post: list[list[Card]]
    blitz: list[Slot]
    wood: list[Slot]
    hand: list[Slot]
    stuck: bool = False
    active: bool = True

    def copy(self) -> Area:
        return Area(
            self.seat,
            [stack[:] for stack in self.post],
            self.blitz[:],
            self.wood[:],
            self.hand[:],
            self.stuck,
            self.active,
        )

    def located(self) -> list[Card]:
        """Every card of this area whose identity is known."""
        found: list[Card] = [c for stack in self.post for c in stack]
        for pile in (self.blitz, self.wood, self.hand):
            found.extend(c for c in pile if c is not None)
        return found

    def card_count(self) -> int:
        return sum(len(s) for s in self.post) + len(self.blitz) + len(self.wood) + len(self.hand)


@dataclass(slots=True)
class Pile:
    """A centre (Dutch) pile: one colour, values 1 upwards, in play order."""

    pile_id: int
    colour: Colour
    cards: list[Card]

    @property
    def top(self) -> int:
        return len(self.cards)

    def takes(self, played: Card) -> bool:
        return played.colour == self.colour and played.value == len(self.cards) + 1

    def copy(self) -> Pile:
        return Pile(self.pile_id, self.colour, self.cards[:])


@dataclass(slots=True)
class Table:
    """The whole state of one round as one node knows it."""

    seats: tuple[int, ...]
    areas: dict[int, Area]
    piles: list[Pile] = field(default_factory=list)
    post_stacking: bool = True
    over: bool = False
    blitz_by: int | None = None
    stalemates: int = 0
    idle_stalemates: int = 0  # stalemates since the last centre play

    def copy(self) -> Table:
        return Table(
            self.seats,
            {seat: area.copy() for seat, area in self.areas.items()},
            [pile.copy() for pile in self.piles],
            self.post_stacking,
            self.over,
            self.blitz_by,
            self.stalemates,
            self.idle_stalemates,
        )

    def active_seats(self) -> list[int]:
        return [seat for seat in self.seats if self.areas[seat].active]


class DealError(ValueError):
    """A deal that breaks the set-up rules (our input's fault, not a peer's)."""


def deal(
    seats: Sequence[int],
    orders: Mapping[int, Sequence[Slot]],
    *,
    post_stacking: bool = True,
    players: int | None = None,
) -> Table:
    """Lay out a round from each deck's card order, top of the deck first (R-6 to R-9).

    The order is an input: the core never shuffles. An order may hold ``None``
    for cards this replica does not know, except where the card is dealt face
    up (the Post row and the Blitz top), which must be known.
    """
    seats = tuple(seats)
    if len(set(seats)) != len(seats):
        raise DealError("a seat appears twice")
    # The Post row follows the game's player count, even if a player sits a round out.
    count = len(seats) if players is None else players
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise DealError(f"a table seats {MIN_PLAYERS} to {MAX_PLAYERS} players, not {count}")
    posts = post_count(count)
    areas: dict[int, Area] = {}
    for seat in seats:
        order = list(orders[seat])
        _check_order(seat, order, posts)
        post_cards = order[:posts]
        # The Blitz pile is built card by card, so the last of its ten is the top.
        blitz = order[posts : posts + BLITZ_SIZE]
        rest = order[posts + BLITZ_SIZE :]
        areas[seat] = Area(
            seat=seat,
            post=[[c] for c in post_cards if c is not None],
            blitz=blitz,
            wood=[],
            hand=rest[::-1],  # the top of the hand is the end of the list
        )
    return Table(seats, areas, post_stacking=post_stacking)


def _check_order(seat: int, order: list[Slot], posts: int) -> None:
    if len(order) != DECK_SIZE:
        raise DealError(f"seat {seat}: a deck has {DECK_SIZE} cards, not {len(order)}")
    known = [c for c in order if c is not None]
    if any(c.deck != seat for c in known):
        raise DealError(f"seat {seat}: the order holds another deck's card")
    if len(set(known)) != len(known):
        raise DealError(f"seat {seat}: a card appears twice")
    face_up = [*order[:posts], order[posts + BLITZ_SIZE - 1]]
    if any(c is None for c in face_up):
        raise DealError(f"seat {seat}: the Post row and Blitz top must be known")


def visible_order(seat_order: Sequence[Card], players: int) -> list[Slot]:
    """A deck order as another player sees it at the deal: only face-up cards known."""
    posts = post_count(players)
    blitz_top = posts + BLITZ_SIZE - 1
    return [c if i < posts or i == blitz_top else None for i, c in enumerate(seat_order)]


def visible_codes(order: Sequence[Card], players: int) -> tuple[int, ...]:
    """The card codes a Deal shows: the Post row in order, then the Blitz top."""
    posts = post_count(players)
    return (*tuple(c.code for c in order[:posts]), order[posts + BLITZ_SIZE - 1].code)


def redact(table: Table, viewer: int) -> Table:
    """The replica ``viewer``'s node would hold: other players' hidden cards unknown."""
    copy = table.copy()
    for seat, area in copy.areas.items():
        if seat == viewer:
            continue
        area.blitz = _covered(area.blitz)
        area.wood = _covered(area.wood)
        area.hand = [None for _ in area.hand]
    return copy


def _covered(pile: list[Slot]) -> list[Slot]:
    """A face-up-top pile as others see it: every card but the top unknown."""
    hidden: list[Slot] = [None] * (len(pile) - 1)
    return hidden + pile[-1:]
