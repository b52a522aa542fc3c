"""A seat's part of the game's one interface: ``SeatPlayer``, what the node asks of a game
for a seat's player, its bots and its duties (``TableGame``, table/rules.py, is made of it
and the table's parts).

The node turns a key press into a move, keeps the plays made while earlier ones are on
their way, paces its bots and sends a seat's duties, without knowing the game: it asks
the game (games/registry.py, ``game_for``). A refusal is an ``ActRefusal``: a code and
the facts its words need, worded by the client. Every member but ``levels`` and
``think_time`` has its default here: a seat with no keys of Dutch Blitz's, no plays
held, no view of its own, no duties and no bot of its own to run.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence, Sized
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from ..replica.core import Replica
    from ..wire.messages import Body, GameBody
    from .rules import SeatSecrets
    from .state import Game

S = TypeVar("S")  # a round's state
M = TypeVar("M")  # a move
V = TypeVar("V")  # what a seat's screen shows of a round
L = TypeVar("L")  # a bot level
M_co = TypeVar("M_co", covariant=True)
T = TypeVar("T")


class GameMove(Protocol):
    """A person's move of a game's own, as its face builds it from keys (Dutch Blitz's
    ``Intent``, Dutch's moves, Blitz!'s actions). The table only hands it on: the game
    that the table plays reads it (``SeatPlayer.keyed``, ``body``), and refuses a move of
    another game's."""


class GameSeatView(Protocol):
    """A game's own read-only view of a round for one seat (``SeatPlayer.seat_view``):
    read by that game's face alone, which knows its type."""


@dataclass(frozen=True, slots=True)
class ActRefusal:
    """An action not taken, and why: a code and the facts its words need."""

    code: str
    what: str = ""
    other: str = ""
    count: int = 0
    held: str = ""  # a held play that came back: how the player names it


class CameBack(Protocol[M_co]):
    """A held play that could not go when its turn came."""

    @property
    def move(self) -> M_co: ...

    @property
    def reason(self) -> str: ...


class HeldPlays(Protocol[M]):
    """One seat's plays made while earlier ones are on their way, sent in order."""

    @property
    def held(self) -> Sized:
        """The plays held, for their count."""
        ...

    @property
    def full(self) -> bool: ...

    def view(self, replica: Replica) -> Game:
        """The game as this seat sees it: its plays in flight and held applied."""
        ...

    def offer(self, replica: Replica, move: M, round_number: int) -> bool:
        """Send a move now or hold it; False if it could not be sent."""
        ...

    def pump(self, replica: Replica) -> Sequence[CameBack[M]]:
        """Send the held plays whose turn has come; those that cannot go come back."""
        ...


class Rng(Protocol):
    """The randomness a bot draws from, given by its node (``random.Random`` fits): the
    protocol package reads none itself."""

    def random(self) -> float: ...

    def uniform(self, a: float, b: float) -> float: ...

    def choice(self, seq: Sequence[T]) -> T: ...

    def randbytes(self, n: int) -> bytes: ...


class PlayBot(Protocol):
    """A bot that plays a game's PLAY moves (a game with neither ``owes_bodies`` nor
    ``bots_send_bodies``): its level, its randomness, its memory of the round."""

    @property
    def level(self) -> object: ...

    @property
    def rng(self) -> Rng: ...

    @property
    def in_flight(self) -> int:
        """How many moves of its own cards alone it keeps on their way at once."""
        ...

    def may_follow(self, body: Body) -> bool:
        """Whether a move of ours on its way lets another go behind it before it is final."""
        ...

    def next_play(self, stable: Game, state: object, seat: int, round_number: int) -> Body | None:
        """Its next move on the optimistic round ``state``, or None to wait."""
        ...


@dataclass(slots=True)
class NoPlays(Generic[M]):
    """The plays of a seat that holds none: its moves wait for nothing of its own."""

    submit: Callable[[Body], bool]

    @property
    def held(self) -> Sized:
        return ()

    @property
    def full(self) -> bool:
        return False

    def view(self, replica: Replica) -> Game:
        return replica.optimistic()

    def offer(self, replica: Replica, move: M, round_number: int) -> bool:
        return False

    def pump(self, replica: Replica) -> Sequence[CameBack[M]]:
        return ()


class SeatPlayer(ABC, Generic[S, M, V, L]):
    """A seat's player, its bots and its duties, as the node knows them. Every method is
    pure. ``owes_bodies``: every seat, a person's or a bot's, owes the round GAME bodies of
    its own (Dutch: its keys, its shuffle, its decryption shares), worked out with the
    seat's ``SeatSecrets`` (``seat_duties``, ``seat_farewell``), and its bot plays by
    ``seat_bot``. ``bots_use_secrets``: its bot plays by ``seat_bot`` too, and nothing
    else is owed. ``bots_send_bodies``: a bot of this game plays by ``bot_body``. A game
    with none of them is played by the table's own bot for PLAY moves (Dutch Blitz's,
    protocol/seat/duties.py)."""

    owes_bodies: bool = False
    bots_send_bodies: bool = False
    # A bot of this game decides by ``seat_bot`` with its seat's ``SeatSecrets`` (a private
    # seed each round), paced by ``race_hold``, though its seats owe no bodies of their own
    # (``owes_bodies`` implies it). A ``timed_duty`` is asked of every game.
    bots_use_secrets: bool = False

    # -- bots ---------------------------------------------------------------------------

    @property
    @abstractmethod
    def levels(self) -> Mapping[str, L]:
        """The bot levels, by the name a player gives, easiest first."""

    @abstractmethod
    def think_time(self, level: L, rng: Rng) -> float:
        """How long a bot of ``level`` waits before it looks at the table again."""

    def bot_body(self, state: S, seat: int, round_number: int) -> GameBody | None:
        """A bot at ``seat``: the GAME body it sends next, or None (``bots_send_bodies``)."""
        return None

    def play_bot(self, level: object, rng: Rng) -> PlayBot | None:
        """A bot of ``level`` for PLAY moves (the table's own bot); None: this game has
        none for that level, and a bot seat keeps the one it had."""
        return None

    def seat_bot(self, state: S, seat: int, secrets: SeatSecrets, level: L) -> GameBody | None:
        """A bot of ``level`` at ``seat``: its next move, or None to wait (``owes_bodies``).
        ``level`` is one of this game's ``levels``, whatever level the seat was given (the
        node finds the one that stands for it, ``registry.level_for``)."""
        return None

    def race_hold(self, state: S, seat: int, level: L | None = None) -> float:
        """Seconds a bot at ``seat`` waits, from when it finds the table so, before a move
        that would close a race a person could still join (Dutch: the next player's draw
        closes the matching race, D-20); 0: no wait. ``level``: the bot's level, one of
        this game's ``levels`` as ``seat_bot`` gets it (None: not given)."""
        return 0.0

    # -- duties -------------------------------------------------------------------------

    def seat_duties(self, state: S, seat: int, secrets: SeatSecrets) -> list[GameBody]:
        """The bodies ``seat`` owes now, in order (the node leaves out those on their way)."""
        return []

    def timed_duty(self, state: S, seat: int, round_number: int) -> tuple[float, GameBody] | None:
        """A body ``seat`` sends once the table has stayed as it is for that many seconds (a
        window its game closes by silence, Blitz!'s F-29), or None. Several seats may send
        it: the game takes the first and refuses the rest. By default none."""
        return None

    def seat_farewell(self, state: S, seat: int, secrets: SeatSecrets) -> list[GameBody]:
        """What ``seat`` sends just before its goodbye (a BYE) so that the round can go on
        without it (Dutch: its share of every card); empty when nothing is owed."""
        return []

    # -- a person's seat ----------------------------------------------------------------

    @property
    def max_held(self) -> int:
        """Plays held at most while earlier ones are on their way."""
        return 0

    def keyed(self, move: GameMove) -> tuple[str, int] | None:
        """A person's move, as the game's face built it, when it names a key's action that
        ``check`` and ``build`` turn into a move here (held behind the plays on their way,
        ``plays``): that action and its slot. None, the default: the move goes as ``body``
        makes it."""
        return None

    def check(self, state: S, seat: int, action: str) -> ActRefusal | None:
        """Why ``seat`` may take no action like this one now, whatever its target. By
        default the game carries no key's ``Action``."""
        return ActRefusal("not_carried")

    def build(self, state: S, seat: int, action: str, slot: int) -> M | ActRefusal:
        """The move an action names on the round's state, checked against the rules."""
        return ActRefusal("not_carried")

    def seat_view(self, state: S, seat: int | None, secrets: SeatSecrets | None) -> V | None:
        """What ``seat`` may see of the round ``state``, for its screen: the game's own
        read-only view, or None for a game whose screens read the table's views
        (protocol/views.py). ``secrets``: the seat's, for this round (``owes_bodies``),
        else None. ``seat`` None (a spectator, the TV, a replay), or a seat not dealt in:
        what anyone in the room may see."""
        return None

    def body(
        self, state: S, seat: int, move: GameMove, round_number: int, secrets: SeatSecrets | None
    ) -> Body | ActRefusal:
        """A person's move, as the game's face built it (of the face's own type, which the
        node only hands on), as the body that carries it; or why the rules refuse it now.
        By default a key names an action, and ``build`` makes its move."""
        return ActRefusal("bad_move")

    def plays(self, node_id: bytes, submit: Callable[[Body], bool]) -> HeldPlays[M]:
        """A seat's queue of plays made while earlier ones are on their way."""
        return NoPlays(submit)

    def came_back(self, returned: CameBack[M]) -> ActRefusal:
        """One notice for a held play that could not go: what it was, and why."""
        return ActRefusal(returned.reason)

    def moved_card(self, move: M) -> str:
        """The card a move plays, as players name it ("" if it plays none)."""
        return ""

    def lost_race(self, code: str) -> bool:
        """Whether a refusal code means another seat got there first."""
        return False

    def stalemates(self, state: S | None) -> int:
        """How many times the round's state was turned for a stalemate."""
        return 0
