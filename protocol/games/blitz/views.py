"""Dutch Blitz's round as its screens read it: what every player sees of the table, frozen.

``table_view`` is the game's public view (``TableGame.table_view``): every area, the
centre, the round's scores so far, built once per snapshot, so nothing a screen does can
touch the round. ``seat_cards`` is what a replay of one seat's view adds: its hand and
the Blitz cards under the top, as that player knew them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ...table.rules import SeatCards
from .cards import VALUES, Card, Colour
from .moves import Source
from .rules import visible_centre_plays
from .scoring import round_scores
from .state import Area, Slot, Table

__all__ = [
    "AreaView",
    "Card",
    "Colour",
    "PileView",
    "Playable",
    "Slot",
    "Source",
    "TableView",
    "seat_cards",
    "table_view",
]


@dataclass(frozen=True, slots=True)
class Playable:
    """A face-up card of the player's that a centre pile takes now."""

    source: Source
    slot: int  # the Post stack, for a card on a Post
    card: Card


@dataclass(frozen=True, slots=True)
class AreaView:
    """One player's cards as every node sees them (``None``: a card face down)."""

    seat: int
    blitz: tuple[Slot, ...]
    post: tuple[tuple[Card, ...], ...]
    wood: tuple[Slot, ...]
    hand: int  # how many cards in the hand
    stuck: bool
    active: bool
    centre_plays: tuple[Playable, ...]  # what of this area could go to the centre now


@dataclass(frozen=True, slots=True)
class PileView:
    colour: Colour
    cards: tuple[Card, ...]

    @property
    def full(self) -> bool:
        """Built up to the last value: nothing more goes on it."""
        return len(self.cards) >= len(VALUES)


@dataclass(frozen=True, slots=True)
class TableView:
    """The round being played: every area, the centre, and the round's scores so far."""

    areas: Mapping[int, AreaView]
    piles: tuple[PileView, ...]
    live: Mapping[int, int]  # the round's score of each seat as the table stands
    post_stacking: bool
    stalemates: int


def table_view(table: Table) -> TableView:
    return TableView(
        areas=MappingProxyType({seat: _area(table, area) for seat, area in table.areas.items()}),
        piles=tuple(PileView(p.colour, tuple(p.cards)) for p in table.piles),
        live=MappingProxyType(round_scores(table)),
        post_stacking=table.post_stacking,
        stalemates=table.stalemates,
    )


def _area(table: Table, area: Area) -> AreaView:
    plays = visible_centre_plays(table, area.seat) if area.active else []
    return AreaView(
        seat=area.seat,
        blitz=tuple(area.blitz),
        post=tuple(tuple(stack) for stack in area.post),
        wood=tuple(area.wood),
        hand=len(area.hand),
        stuck=area.stuck,
        active=area.active,
        centre_plays=tuple(Playable(source, slot, card) for source, slot, card in plays),
    )


def seat_cards(table: Table, seat: int) -> SeatCards[Card] | None:
    """The hidden cards of ``seat`` as its own view knows them: its hand, top first, and
    its Blitz pile under the top, from the top down."""
    if seat not in table.areas:
        return None
    area = table.areas[seat]
    return SeatCards(tuple(reversed(area.hand)), tuple(reversed(area.blitz[:-1])))
