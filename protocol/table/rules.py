"""What the table asks of a game: ``GameRules``. A game is a folder that implements it.

The table deals, orders, audits and keeps scores across rounds; the game says what a
seat's deck is, what a DEAL shows of it, how a round is laid out, what a move is and
does, when a round is over and what it scores. A round's state is the game's own
object, opaque to the table. Moves travel in the wire's PLAY body as it is: a game maps
its moves onto that body's int fields (``move_from_play``), and may carry moves of its
own in GAME bodies, tagged with its ``game_id`` (``move_from_body``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeGuard, runtime_checkable

if TYPE_CHECKING:
    from ..fairdeal import RoundRecord
    from ..messages import GameBody, Play, Start


class MoveRefusal(Protocol):
    """Why the game refused a move; ``by`` names the seat that won a race for it."""

    @property
    def reason(self) -> str: ...

    @property
    def by(self) -> int | None: ...


class Card(Protocol):
    """A card as the fair deal handles it: its code on the wire."""

    @property
    def code(self) -> int: ...


class GameRules(Protocol):
    """A game as the table knows it. Every method is pure."""

    tag: str  # the registry's key (games/registry.py)
    game_id: int  # its id in a GAME body, 1 to 255 (spec/protocol.md P-223)
    name: str  # as players read it
    backs: tuple[str, ...]  # the card backs a player may choose
    worst_round: int  # the score of a round lost to a penalised flag
    min_seats: int  # the fewest seats a round can be dealt to (P-239)

    def check_backs(self, backs: Sequence[str]) -> str | None:
        """Why these players' backs cannot start a game, or None."""
        ...

    def deck(self, seat: int) -> Sequence[Card]:
        """A seat's deck in its canonical order: what the fair deal shuffles."""
        ...

    def owner(self, order: Sequence[Any]) -> int:
        """The seat whose deck a full order is."""
        ...

    def shown(self, order: Sequence[Any], players: int) -> tuple[int, ...]:
        """The codes of the cards a DEAL shows of a seat's shuffled deck."""
        ...

    def known_order(self, seat: int, shown: Sequence[int], players: int) -> list[Any] | None:
        """A seat's deck as others know it from its DEAL (None: a malformed DEAL)."""
        ...

    def fits(self, order: Sequence[Any], shown: Sequence[int], players: int) -> bool:
        """Whether a full order is the one a DEAL showed."""
        ...

    def deal(
        self,
        seats: Sequence[int],
        orders: Mapping[int, Any],
        options: Start,
        players: int,
        active: frozenset[int],
    ) -> Any:
        """A round's state, laid out from each dealt seat's known order; ``players`` is
        the game's count, ``active`` the seats present, ``options`` the game's START."""
        ...

    def seats(self, state: Any) -> tuple[int, ...]:
        """The seats dealt into the round, in seat order."""
        ...

    def set_active(self, state: Any, seat: int, active: bool) -> None:
        """A player left or came back during the round."""
        ...

    def move_from_play(self, play: Play, seat: int) -> Any:
        """The move a PLAY body describes; ValueError if it describes none."""
        ...

    def move_from_body(self, payload: bytes, seat: int) -> tuple[int, Any]:
        """The round a GAME body's payload names and the move it describes, as
        ``apply`` takes it; ValueError if the payload describes none (a game with no
        bodies of its own refuses every payload)."""
        ...

    def apply(self, state: Any, move: Any) -> MoveRefusal | None:
        """Apply a move, or say why not (and change nothing)."""
        ...

    def round_over(self, state: Any) -> bool: ...

    def round_scores(self, state: Any) -> dict[int, int]: ...

    def ended_by(self, state: Any) -> int | None:
        """The seat that ended the round, if one did."""
        ...

    def game_winner(self, totals: Mapping[int, int], target: int) -> int | None:
        """The winner of the game on these totals, or None while it goes on."""
        ...

    def public_form(self, state: Any) -> list[Any]:
        """The round's state every node agrees on, for digests."""
        ...

    def copy(self, state: Any) -> Any: ...

    def replay(self, record: RoundRecord, seat: int, deck: Sequence[Any]) -> str | None:
        """The round replayed with ``seat``'s whole deck known: why a move of its did not
        fit, or None (the audit, R-45)."""
        ...


@runtime_checkable
class BodyBots(Protocol):
    """A game whose bots play by GAME bodies: what a bot seat sends next, or None."""

    def bot_body(self, state: Any, seat: int, round_number: int) -> GameBody | None: ...


@dataclass(slots=True)
class SeatSecrets:
    """What one seat holds for a round that never goes on the table as it is, handed in
    by its node: the round's private seed (32 random bytes the node drew with its deal
    secret and keeps beside it, ``fairdeal.RoundSecret.private``), the node key's X25519
    pair (to open what was sealed to this seat), and each seat's Ed25519 node key (to seal
    to it). ``memo`` is the game's own cache of what follows from them; it is rebuilt from
    the log after a restart, so a node comes back knowing exactly what it knew."""

    round: int
    private: bytes
    curve_public: bytes
    curve_secret: bytes
    node_key: Callable[[int], bytes | None]  # a table seat's Ed25519 node key, if known
    memo: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class SeatDuties(Protocol):
    """A game whose every seat, a person's or a bot's, owes it GAME bodies of its own while a
    round is played (Dutch: its keys, its shuffle, its decryption shares), decided from the
    round's state and the seat's secrets. protocol/duties.py asks it for each seat; a bot
    seat also asks it for its next move. The node knows nothing of what the bodies mean."""

    def seat_duties(self, state: Any, seat: int, secrets: SeatSecrets) -> list[GameBody]:
        """The bodies ``seat`` owes now, in order (the node leaves out those on their way)."""
        ...

    def seat_bot(self, state: Any, seat: int, secrets: SeatSecrets, level: str) -> GameBody | None:
        """A bot of ``level`` at ``seat``: its next move, or None to wait."""
        ...

    def seat_farewell(self, state: Any, seat: int, secrets: SeatSecrets) -> list[GameBody]:
        """What ``seat`` sends just before its goodbye (a BYE) so that the round can go on
        without it (Dutch: its share of every card); empty when nothing is owed."""
        ...


@runtime_checkable
class RaceHold(Protocol):
    """A game with a race a bot would close before a person could join it (Dutch: the
    next player's draw closes the matching race, D-20): a bot about to close it waits."""

    def race_hold(self, state: Any, seat: int) -> float:
        """Seconds a bot at ``seat`` waits, from when it finds the table so, before its
        next move (0: no wait)."""
        ...


@runtime_checkable
class GameFindings(Protocol):
    """A game that finds cheats in its own bodies (Dutch: a false share, a dishonest shuffle):
    the table flags each as it flags a reveal that does not fit (table/audit.py)."""

    def findings(self, state: Any) -> Sequence[tuple[int, str]]:
        """Every cheat the round has found so far: the table seat, and what it did."""
        ...


@runtime_checkable
class BodyFindings(Protocol):
    """A game for which a GAME body of its own that does not read is a cheat by its sender
    (Dutch: spec/dutch-deal.md M-39). The table refuses the body ``bad_body`` as for every
    game, then tells the game, which adds the cheat to its ``findings``."""

    def refused_body(self, state: Any, seat: int, reason: str) -> None:
        """``seat`` sent a body of this game that does not read, for ``reason``."""
        ...


@runtime_checkable
class RoundsOption(Protocol):
    """A game that may be played for a number of rounds chosen at its START instead of to a
    target (Dutch: spec/dutch.md D-37; spec/protocol.md P-237, P-238)."""

    def final_winner(self, totals: Mapping[int, int]) -> int | None:
        """The winner once the rounds are played, on these totals."""
        ...


@runtime_checkable
class CarriesOver(Protocol):
    """A game whose round hands something to the next round of the same game (Dutch: who
    starts it, and who is dealt a fifth card). The table keeps it between the rounds."""

    def carry(self, state: Any) -> Any:
        """What a finished round hands on, the same on every node."""
        ...

    def carried(self, state: Any, carry: Any) -> None:
        """The next round, just laid out, takes what the last one handed on."""
        ...


@runtime_checkable
class MovesCounted(Protocol):
    """A game whose moves ride GAME bodies among bodies of its own machinery (Dutch: keys,
    shuffles, shares): it counts the players' moves, so that a replay stops after each."""

    def moves(self, state: Any) -> int:
        """How many players' moves the round ``state`` has taken."""
        ...


_IMPLEMENTS: dict[tuple[type, type], bool] = {}


def _implements(rules: object, protocol: Any) -> bool:
    """``isinstance(rules, protocol)`` for the method-only protocols above, worked out once
    per rules class: a runtime protocol's own check walks every member each time, and the
    table asks on every move."""
    key = (type(rules), protocol)
    found = _IMPLEMENTS.get(key)
    if found is None:
        found = _IMPLEMENTS[key] = isinstance(rules, protocol)
    return found


def has_seat_duties(rules: object) -> TypeGuard[SeatDuties]:
    return _implements(rules, SeatDuties)


def has_game_findings(rules: object) -> TypeGuard[GameFindings]:
    return _implements(rules, GameFindings)


def has_body_findings(rules: object) -> TypeGuard[BodyFindings]:
    return _implements(rules, BodyFindings)


def has_rounds_option(rules: object) -> TypeGuard[RoundsOption]:
    return _implements(rules, RoundsOption)


def has_moves_counted(rules: object) -> TypeGuard[MovesCounted]:
    return _implements(rules, MovesCounted)


def has_body_bots(rules: object) -> TypeGuard[BodyBots]:
    return _implements(rules, BodyBots)
