"""What a seat's player and bots do in a game: ``PlayerRules``, the sibling of ``GameRules``.

The node turns a key press into a move, keeps the plays made while earlier ones are on
their way, and paces its bots, without knowing the game: it asks the game's
``PlayerRules`` (games/registry.py, ``player_for``). A refusal is an ``ActRefusal``: a
code and the facts its words need, worded by the client.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..core import Replica
    from ..messages import Body
    from .game import Game
    from .rules import SeatSecrets


@dataclass(frozen=True, slots=True)
class ActRefusal:
    """An action not taken, and why: a code and the facts its words need."""

    code: str
    what: str = ""
    other: str = ""
    count: int = 0
    held: str = ""  # a held play that came back: how the player names it


class CameBack(Protocol):
    """A held play that could not go when its turn came."""

    @property
    def move(self) -> Any: ...

    @property
    def reason(self) -> str: ...


class HeldPlays(Protocol):
    """One seat's plays made while earlier ones are on their way, sent in order."""

    @property
    def held(self) -> Sequence[object]: ...

    @property
    def full(self) -> bool: ...

    def view(self, replica: Replica) -> Game:
        """The game as this seat sees it: its plays in flight and held applied."""
        ...

    def offer(self, replica: Replica, move: Any, round_number: int) -> bool:
        """Send a move now or hold it; False if it could not be sent."""
        ...

    def pump(self, replica: Replica) -> Sequence[CameBack]:
        """Send the held plays whose turn has come; those that cannot go come back."""
        ...


class PlayerRules(Protocol):
    """A seat's player and bots, as the node knows them. Every method is pure."""

    @property
    def levels(self) -> Mapping[str, Any]:
        """The bot levels, by the name a player gives."""
        ...

    @property
    def max_held(self) -> int:
        """Plays held at most while earlier ones are on their way."""
        ...

    def think_time(self, level: Any, rng: Any) -> float:
        """How long a bot of ``level`` waits before it looks at the table again."""
        ...

    def check(self, state: Any, seat: int, action: str) -> ActRefusal | None:
        """Why ``seat`` may take no action like this one now, whatever its target."""
        ...

    def build(self, state: Any, seat: int, action: str, slot: int) -> Any | ActRefusal:
        """The move an action names on the round's state, checked against the rules."""
        ...

    def seat_view(self, state: Any, seat: int | None, secrets: SeatSecrets | None) -> Any:
        """What ``seat`` may see of the round ``state``, for its screen: the game's own
        read-only view, opaque to the node, or None for a game whose screens read the
        table's views (protocol/views.py). ``secrets``: the seat's, for this round
        (SeatDuties), else None. ``seat`` None (a spectator), or a seat not dealt in:
        what anyone in the room may see."""
        ...

    def body(
        self, state: Any, seat: int, move: object, round_number: int, secrets: SeatSecrets | None
    ) -> Body | ActRefusal:
        """A person's move, as the game's face built it (its own type), as the body that
        carries it; or why the rules refuse it now."""
        ...

    def plays(self, node_id: bytes, submit: Callable[[Body], bool]) -> HeldPlays:
        """A seat's queue of plays made while earlier ones are on their way."""
        ...

    def came_back(self, returned: CameBack) -> ActRefusal:
        """One notice for a held play that could not go: what it was, and why."""
        ...

    def moved_card(self, move: Any) -> str:
        """The card a move plays, as players name it ("" if it plays none)."""
        ...

    def lost_race(self, code: str) -> bool:
        """Whether a refusal code means another seat got there first."""
        ...

    def stalemates(self, state: Any) -> int:
        """How many times the round's state was turned for a stalemate."""
        ...
