"""Read-only views of a game, made for screens: what a player may see, frozen.

A ``Game`` is the replica's own working state, changed in place by every event. A screen
gets a ``GameView`` instead: tuples and read-only mappings built once per snapshot, so
nothing a screen does can touch the game, and a screen need not know how the rules keep
their books (the round as players count it, the live scores, the plays in sight).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .games.blitz.cards import VALUES, Card, Colour
from .games.blitz.moves import Source
from .games.blitz.rules import visible_centre_plays
from .games.blitz.scoring import round_scores
from .games.blitz.state import Area, Slot, Table
from .table.game import FlagKind, Game, Member, Phase

__all__ = [
    "AreaView",
    "Card",
    "Colour",
    "FlagKind",
    "FlagView",
    "GameView",
    "MemberView",
    "Phase",
    "PileView",
    "Playable",
    "ResultView",
    "Slot",
    "Source",
    "TableView",
    "game_view",
]


def _no_members() -> Mapping[bytes, MemberView]:
    return MappingProxyType({})


def _no_totals() -> Mapping[int, int]:
    return MappingProxyType({})


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


@dataclass(frozen=True, slots=True)
class ResultView:
    round: int  # as players count it: from 1 in each game
    scores: Mapping[int, int]
    blitz_by: int | None
    void: bool = False  # ended unscored, and not one of the game's rounds (spec/rules.md R-61)


@dataclass(frozen=True, slots=True)
class FlagView:
    round: int  # as players count it
    seat: int
    kind: FlagKind
    detail: str


@dataclass(frozen=True, slots=True)
class MemberView:
    node: bytes
    seat: int
    name: str
    back: str
    ready: bool
    present: bool


@dataclass(frozen=True, slots=True)
class GameView:
    """A game as its screens read it."""

    phase: Phase = Phase.LOBBY
    round: int = 0  # as players count it: from 1 in each game
    game_number: int = 1
    target: int = 0
    post_stacking: bool = True
    rounds: int | None = None  # a game played for a number of rounds (P-237), not to a target
    players: tuple[int, ...] = ()  # the seats dealt in, in order
    members: Mapping[bytes, MemberView] = field(default_factory=_no_members)
    totals: Mapping[int, int] = field(default_factory=_no_totals)
    results: tuple[ResultView, ...] = ()
    winner: int | None = None
    table: TableView | None = None
    still_looking: tuple[int, ...] = ()  # whose "seen" the next round waits for
    flags: tuple[FlagView, ...] = ()  # this game's
    audit_complete: bool = True
    away: frozenset[int] = frozenset()

    def seat_of(self, node: bytes) -> int | None:
        member = self.members.get(node)
        return None if member is None else member.seat

    def by_seat(self) -> dict[int, MemberView]:
        return {m.seat: m for m in self.members.values()}

    def seated(self) -> list[MemberView]:
        """Players in the lobby, or the game's players once it has started."""
        if self.phase == Phase.LOBBY:
            return sorted((m for m in self.members.values() if m.present), key=lambda m: m.seat)
        seats = self.by_seat()
        return [seats[seat] for seat in self.players if seat in seats]


def game_view(game: Game) -> GameView:
    """The screens' view of ``game``, as it stands now."""
    return GameView(
        phase=game.phase,
        round=game.shown_round(),
        game_number=game.game_number,
        target=game.target,
        post_stacking=game.post_stacking,
        rounds=game.rounds,
        players=game.players,
        members=MappingProxyType({node: _member(m) for node, m in game.members.items()}),
        totals=MappingProxyType(dict(game.totals)),
        results=tuple(
            ResultView(
                game.shown_round(r.round), MappingProxyType(dict(r.scores)), r.blitz_by, r.void
            )
            for r in game.results
        ),
        winner=game.winner,
        table=table_view(game.table) if isinstance(game.table, Table) else None,  # a Blitz round
        still_looking=tuple(game.still_looking()),
        flags=tuple(FlagView(f.round, f.seat, f.kind, f.detail) for f in game.game_flags()),
        audit_complete=game.audit_complete(),
        away=frozenset(game.away),
    )


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


def _member(member: Member) -> MemberView:
    return MemberView(
        member.node, member.seat, member.name, member.back, member.ready, member.present
    )
