"""Read-only views of a game, made for screens: what a player may see, frozen.

A ``Game`` is the replica's own working state, changed in place by every event. A screen
gets a ``GameView`` instead: tuples and read-only mappings built once per snapshot, so
nothing a screen does can touch the game, and a screen need not know how the rules keep
their books (the round as players count it, the scores). What a round looks like is the
game's own view (``TableGame.table_view``, e.g. protocol/games/blitz/views.py); this frame
knows no game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType

from .table.rules import Json, PublicTable
from .table.state import FlagKind, Game, Member, Phase

__all__ = [
    "FlagKind",
    "FlagView",
    "GameView",
    "MemberView",
    "Phase",
    "PublicTable",
    "ResultView",
    "game_view",
]


def _no_members() -> Mapping[bytes, MemberView]:
    return MappingProxyType({})


def _no_totals() -> Mapping[int, int]:
    return MappingProxyType({})


def _no_board() -> Mapping[str, Json]:
    return MappingProxyType({})


def _no_drawing() -> Callable[[], Mapping[str, Json]]:
    return _no_board


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
    table: PublicTable | None = None  # the game's own view of the round (``table_view``)
    title: str = ""  # the game's name, as players read it
    # What a TV draws of the round (``TableGame.tv_board``), drawn only when asked: from
    # the game as it stands then, so a TV asks at once, in the turn it took the view.
    board: Callable[[], Mapping[str, Json]] = field(
        default_factory=_no_drawing, compare=False, repr=False
    )
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
        table=None if game.table is None else game.rules.table_view(game.table),
        title=game.rules.name,
        board=partial(_board, game),
        still_looking=tuple(game.still_looking()),
        flags=tuple(FlagView(f.round, f.seat, f.kind, f.detail) for f in game.game_flags()),
        audit_complete=game.audit_complete(),
        away=frozenset(game.away),
    )


def _board(game: Game) -> Mapping[str, Json]:
    if game.table is None:
        return {}
    names = {member.seat: member.name for member in game.members.values()}
    board: Mapping[str, Json] = game.rules.tv_board(game.table, names)
    return MappingProxyType(dict(board))


def _member(member: Member) -> MemberView:
    return MemberView(
        member.node, member.seat, member.name, member.back, member.ready, member.present
    )
