"""A round that waits for a player removed without a goodbye (spec/rules.md R-59 to R-61).

Most games play a round on without a player who is gone (Dutch Blitz passes over them). A
game whose cards open only with every player's key (Dutch's masked deck, spec/dutch-deal.md)
cannot: its round waits for the player, within the same grace as a deal (R-56, R-57),
and is void once the grace is over without them. Such a round's state is ``AwaitsAbsent``;
the table asks it who it waits for, tells it who is back and who is gone for good, and
counts no void round among the game's rounds (``RoundResult.void``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..wire.messages import Start
from .records import ACCEPTED, Outcome, Phase

if TYPE_CHECKING:
    from .state import Game


class AwaitsAbsent(Protocol):
    """Who a round waits for among its players removed without a goodbye (R-59)."""

    def awaited_seats(self) -> tuple[int, ...]:
        """The table seats the round waits for: removed, neither back nor gone."""
        ...

    def seat_back(self, seat: int) -> None:
        """The player at ``seat`` is back (its ADMIT): the round goes on with it."""
        ...

    def seat_gone(self, seat: int) -> None:
        """The wait for ``seat`` is over (a goodbye, or the grace): it will not be back."""
        ...

    def void(self) -> bool:
        """Whether the round ended unscored (R-61): not one of the game's rounds."""
        ...


@runtime_checkable
class HasAbsence(Protocol):
    """A round's state whose round waits for its absent players (``AwaitsAbsent``)."""

    def absence(self) -> AwaitsAbsent: ...


def _of(game: Game) -> AwaitsAbsent | None:
    # What ``isinstance(game.table, HasAbsence)`` decides, without a runtime Protocol's
    # check (a walk over the protocol's members on every call): this runs for every move.
    absence = getattr(game.table, "absence", None)
    if absence is None:
        return None
    found: AwaitsAbsent = absence()
    return found


def counted_rounds(game: Game) -> int:
    """This game's rounds played and scored: a void one is not counted (R-61)."""
    return sum(1 for result in game.results if not result.void)


def waiting(game: Game) -> list[int]:
    """The players away whom the round in play waits for (R-59); [] for any other game."""
    table = _of(game)
    if game.phase != Phase.PLAYING or table is None:
        return []
    held = set(table.awaited_seats())
    return [seat for seat in game.players if seat in game.away and seat in held]


def back(game: Game, seat: int) -> None:
    table = _of(game)
    if table is not None:
        table.seat_back(seat)


def gone(game: Game, seats: tuple[int, ...] | list[int]) -> None:
    """R-60: the round stops waiting for ``seats``; the caller ends a round now over."""
    table = _of(game)
    if table is not None:
        for seat in seats:
            table.seat_gone(seat)


def settle(game: Game) -> None:
    """R-59 at the deal: a dealt seat neither present nor away (it said goodbye after its
    DEAL) is not waited for."""
    table = _of(game)
    if table is None:
        return
    by_seat = game.by_seat()
    for seat in table.awaited_seats():
        if not by_seat[seat].present and seat not in game.away:
            table.seat_gone(seat)


def void(game: Game) -> bool:
    table = _of(game)
    return table is not None and table.void()


def go_without(game: Game, sender: bytes, body: Start) -> Outcome:
    """R-60: a START in play ends the round's wait for those away; the round is void."""
    if _of(game) is None:
        return game.refuse("not_in_playing")
    awaited = waiting(game)
    if not awaited:
        return game.refuse("nobody_away")
    if body.game is not None or (body.target, body.post_stacking, body.rounds) != (
        game.target,
        game.post_stacking,
        game.rounds,
    ):
        return game.refuse("not_this_game")
    game.away.clear()
    gone(game, awaited)
    if game.rules.round_over(game.table):
        game.end_round()
    return ACCEPTED
