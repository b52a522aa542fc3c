"""A checked game, played again: the view after each move, from any seat.

The events go, in their final order, through the same ``Game`` a node runs. A *stop* is
a place worth showing: the deal of a round, each play that counted, a round's end, a
player leaving. The public view knows what every player saw; a seat's view also knows
that seat's own cards, from its REVEAL (the audit, spec/rules.md R-44), as that player
knew them at the time. Stepping back replays from the start of the round.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..table.rules import Card as TableCard
from ..table.rules import SeatCards
from ..table.state import FlagKind, Game, Phase
from ..views import GameView, game_view
from ..wire.messages import Bye, Play, Reveal, Suspect
from .gamefile import CheckedGame, Entry


class Replay:
    """The stops of one game and the game at each; ``at(stop, seat)`` is a view."""

    def __init__(self, checked: CheckedGame) -> None:
        self.checked = checked
        self.entries = checked.entries
        self.stops: list[int] = []  # how many entries are applied at each stop
        self.round_starts: dict[int, int] = {}  # round as players count it -> its first stop
        self._checkpoints: list[tuple[int, Game]] = []  # before each round's deal
        self._orders = _revealed_orders(checked)
        self._cached: tuple[int | None, int, Game] | None = None
        self._find_stops()

    @property
    def players(self) -> tuple[int, ...]:
        return self.checked.final.players

    def _find_stops(self) -> None:
        game = Game()
        for index, entry in enumerate(self.entries):
            before = (game.phase, game.round, len(game.results))
            moves = _moves(game)
            game.apply(entry.sender, entry.body, entry.lamport)
            if index < self.checked.start:
                continue
            if game.phase == Phase.DEALING and game.round != before[1]:
                self._checkpoints.append((index + 1, game.copy()))
            moved = _moves(game) != moves
            if index == self.checked.start or moved or _worth_a_stop(entry, before, game):
                if game.phase == Phase.PLAYING and before[0] != Phase.PLAYING:
                    self.round_starts.setdefault(game.shown_round(), len(self.stops))
                self.stops.append(index + 1)
        if self.stops[-1] != len(self.entries):
            self.stops.append(len(self.entries))

    def game_at(self, stop: int, seat: int | None = None) -> Game:
        """The game at ``stop`` (0 to ``len(stops) - 1``), seen by ``seat`` (None: public)."""
        applied = self.stops[max(0, min(stop, len(self.stops) - 1))]
        cached = self._cached
        if cached is not None and cached[0] == seat and cached[1] <= applied:
            done, game = cached[1], cached[2]
        else:
            done, base = max((c for c in self._checkpoints if c[0] <= applied), key=lambda c: c[0])
            game = base.copy()
            game.own_orders = {} if seat is None else self._orders.get(seat, {})
        for entry in self.entries[done:applied]:
            game.apply(entry.sender, entry.body, entry.lamport)
        self._cached = (seat, applied, game)
        return game

    def at(self, stop: int, seat: int | None = None) -> GameView:
        return game_view(self.game_at(stop, seat))

    def seat_cards(self, stop: int, seat: int) -> SeatCards[TableCard] | None:
        """The hidden cards of ``seat`` at ``stop``, as its own view knows them; None for
        a game whose hidden cards stay hidden (``TableGame.seat_cards``)."""
        game = self.game_at(stop, seat)
        if game.table is None:
            return None
        cards: SeatCards[TableCard] | None = game.rules.seat_cards(game.table, seat)
        return cards

    def round_of(self, stop: int) -> int:
        """The round (as players count it) that ``stop`` shows or comes after."""
        found = 0
        for number, first in sorted(self.round_starts.items()):
            if first <= stop:
                found = number
        return found


def _moves(game: Game) -> int:
    """The players' moves a game that counts them (Dutch's GAME bodies) has taken this
    round; 0 for one whose moves are PLAYs (Dutch Blitz)."""
    rules, table = game.rules, game.table
    return rules.moves(table) if table is not None else 0


def _worth_a_stop(entry: Entry, before: tuple[Phase, int, int], game: Game) -> bool:
    if (game.phase, game.round, len(game.results)) != before:
        return True
    if not entry.outcome.accepted:
        return False
    return isinstance(entry.body, Play | Bye | Suspect)


def _revealed_orders(checked: CheckedGame) -> dict[int, dict[int, Sequence[TableCard]]]:
    """Seat -> round -> its deck order, from the REVEALs the audit found sound."""
    final = checked.final
    decks = final.rules
    seats = {m.node: m.seat for m in final.members.values()}
    unsound = {(f.round, f.seat) for f in final.flags if f.kind == FlagKind.MISMATCH}
    orders: dict[int, dict[int, Sequence[TableCard]]] = {}
    for entry in checked.entries:
        body = entry.body
        seat = seats.get(entry.sender)
        if not isinstance(body, Reveal) or not entry.outcome.accepted or seat is None:
            continue
        if (body.round, seat) in unsound:
            continue
        orders.setdefault(seat, {})[body.round] = [decks.card(code) for code in body.order]
    return orders
