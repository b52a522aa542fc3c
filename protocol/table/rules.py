"""The one interface of a game: ``TableGame``. A game is a folder with one object of it.

The table (lobby, fair deal, order, audit, scores across rounds) and the node (a seat's
player, its bots, its duties) know a game only through ``TableGame``, as OpenSpiel's
framework knows a game through its ``Game`` and ``State``. It is generic in the game's
types: ``S``, a round's state (the game's own object, opaque to the table); ``M``, a move
as ``apply`` takes it; ``V``, what a seat's screen shows of a round (None for a game
whose screens read the table's views, protocol/views.py); ``C``, a card of a seat's deck
as the fair deal shuffles it; and ``L``, a bot level. As boardgame.io's ``Game``, every
member a game may leave out has its default here, once; the table never asks whether a
game has one.

``TableGame`` is three parts, one class each: ``SeatDecks`` (what the fair deal deals:
a deck per seat, what a DEAL shows of it, the audit's replay), ``RoundRules`` (the round:
laid out, moved, ended, scored and made public) here, and ``SeatPlayer`` (a seat's
player, its bots and its duties, table/player.py). Moves travel in the wire's PLAY body
as it is (``move_from_play``), or in GAME bodies tagged with the game's ``game_id``
(``move_from_body``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeAlias, TypeVar

from ..limits import MAX_PLAYERS
from .player import SeatPlayer

if TYPE_CHECKING:
    from ..wire.messages import Play, Start
    from .fairdeal import RoundRecord


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


S = TypeVar("S")  # a round's state
M = TypeVar("M")  # a move, as ``apply`` takes it
V = TypeVar("V")  # what a seat's screen shows of a round
C = TypeVar("C", bound=Card)  # a card of a seat's deck
L = TypeVar("L")  # a bot level

# The public form of a round, for digests: plain values the digest encodes canonically.
Form: TypeAlias = "int | str | bytes | bool | Sequence[Form] | None"

# What a TV page draws of a round (``RoundRules.tv_board``): JSON-ready plain values.
Json: TypeAlias = "int | str | bool | Sequence[Json] | Mapping[str, Json] | None"


class PublicTable(Protocol):
    """A round as every player sees it, made for screens (``RoundRules.table_view``): the
    game's own frozen view; the frame reads only each seat's score as the table stands."""

    @property
    def live(self) -> Mapping[int, int]: ...


@dataclass(frozen=True, slots=True)
class SeatCards(Generic[C]):
    """In a replay of one seat's view, that seat's cards nobody else saw, from its reveal
    (``RoundRules.seat_cards``): its hand, top first, and the pile under the top of its
    face-down pile, from the top down; None where the reveal is missing."""

    hand: tuple[C | None, ...]
    blitz_below: tuple[C | None, ...]


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
    memo: dict[str, Any] = field(default_factory=dict)  # the game's own, of its own types


class SeatDecks(ABC, Generic[C]):
    """What the fair deal deals (spec/rules.md R-40 to R-45): a deck per seat, shuffled by
    the joint randomness; a DEAL shows some of it, a REVEAL lets every node check it. A
    game that deals its cards another way (Dutch's masked deck, dealt in its own GAME
    bodies) still deals a stand-in deck here, which starts its round and binds its proofs."""

    @abstractmethod
    def deck(self, seat: int) -> Sequence[C]:
        """A seat's deck in its canonical order: what the fair deal shuffles."""

    @abstractmethod
    def owner(self, order: Sequence[C]) -> int:
        """The seat whose deck a full order is."""

    @abstractmethod
    def shown(self, order: Sequence[C], players: int) -> tuple[int, ...]:
        """The codes of the cards a DEAL shows of a seat's shuffled deck."""

    @abstractmethod
    def known_order(self, seat: int, shown: Sequence[int], players: int) -> list[C | None] | None:
        """A seat's deck as others know it from its DEAL (None: a malformed DEAL)."""

    @abstractmethod
    def fits(self, order: Sequence[C], shown: Sequence[int], players: int) -> bool:
        """Whether a full order is the one a DEAL showed."""

    def card(self, code: int) -> C:
        """The card of some seat's deck that has this code (a REVEAL's order, read back in
        a replay); ValueError if none has. By default the decks are searched."""
        for seat in range(MAX_PLAYERS):
            for card in self.deck(seat):
                if card.code == code:
                    return card
        raise ValueError(f"no deck has a card of code {code}")

    def replay(self, record: RoundRecord, seat: int, deck: Sequence[C]) -> str | None:
        """The round replayed with ``seat``'s whole deck known: why a move of its did not
        fit, or None (the audit, R-45). By default no move names a card of the deck."""
        return None


class RoundRules(ABC, Generic[S, M, C]):
    """A round of the game: laid out from the deal, moved, ended, scored, made public.
    Every method is pure but ``apply``, ``set_active``, ``carried`` and ``refused_body``,
    which change the state they are handed."""

    @abstractmethod
    def check_backs(self, backs: Sequence[str]) -> str | None:
        """Why these players' backs cannot start a game (too few, too many, a back
        twice), or None."""

    @abstractmethod
    def deal(
        self,
        seats: Sequence[int],
        orders: Mapping[int, Sequence[C | None]],
        options: Start,
        players: int,
        active: frozenset[int],
    ) -> S:
        """A round's state, laid out from each dealt seat's known order; ``players`` is
        the game's count, ``active`` the seats present, ``options`` the game's START."""

    @abstractmethod
    def seats(self, state: S) -> tuple[int, ...]:
        """The seats dealt into the round, in seat order."""

    def set_active(self, state: S, seat: int, active: bool) -> None:
        """A player left or came back during the round. By default the round goes on."""

    def move_from_play(self, play: Play, seat: int) -> M:
        """The move a PLAY body describes; ValueError if it describes none. By default a
        game's moves travel in GAME bodies."""
        raise ValueError("this game's moves travel in GAME bodies")

    def play_from_move(self, move: M, round: int) -> Play:
        """The PLAY body of a move in round ``round`` (the inverse of ``move_from_play``);
        ValueError if it has none. By default a game's moves travel in GAME bodies."""
        raise ValueError("this game's moves travel in GAME bodies")

    def move_from_body(self, payload: bytes, seat: int) -> tuple[int, M]:
        """The round a GAME body's payload names and the move it describes, as ``apply``
        takes it; ValueError if the payload describes none. By default a game's moves
        travel in PLAY bodies, and every payload is refused."""
        raise ValueError("this game's moves travel in PLAY bodies")

    @abstractmethod
    def apply(self, state: S, move: M) -> MoveRefusal | None:
        """Apply a move, or say why not (and change nothing)."""

    @abstractmethod
    def round_over(self, state: S) -> bool:
        """Whether the round is over (a round decided by its deal is over at once)."""

    @abstractmethod
    def round_scores(self, state: S) -> dict[int, int]:
        """Each dealt seat's score for the round (a shared best may score for each)."""

    @abstractmethod
    def ended_by(self, state: S) -> int | None:
        """The seat that ended the round, if one did."""

    @abstractmethod
    def game_winner(self, totals: Mapping[int, int], target: int) -> int | None:
        """The winner of the game on these totals once one reaches ``target`` (the
        highest, or the lowest in a game where the lowest wins), or None while it goes
        on or no one seat wins."""

    def final_winner(self, totals: Mapping[int, int]) -> int | None:
        """The winner once the rounds a START chose are played (``rounds_option``), or None:
        the game is a draw. The game ends then whatever this names (P-238)."""
        return None

    @abstractmethod
    def public_form(self, state: S) -> list[Form]:
        """The round's state every node agrees on, for digests: never a card that only
        one seat may see."""

    @abstractmethod
    def copy(self, state: S) -> S:
        """A copy that ``apply`` may change without changing this one."""

    def carry(self, state: S) -> S | None:
        """A finished round that the next round of the same game takes something from
        (Dutch: who starts it, who is dealt a fifth card), or None: by default nothing."""
        return None

    def carried(self, state: S, last: S) -> None:
        """The next round, just laid out, takes what the ``last`` one handed on."""

    def findings(self, state: S) -> Sequence[tuple[int, str]]:
        """Every cheat the round has found in the game's own bodies so far (Dutch: a false
        share, a dishonest shuffle): the table seat, and what it did. The table flags each
        as it flags a reveal that does not fit (table/audit.py)."""
        return ()

    def refused_body(self, state: S, seat: int, reason: str) -> None:
        """``seat`` sent a GAME body of this game that does not read, for ``reason``. The
        table refuses it ``bad_body`` for every game; a game for which that is a cheat
        (Dutch: M-39) adds it to its ``findings``."""

    def table_view(self, state: S) -> PublicTable | None:
        """The round as every player sees it, for the screens that read the table's views
        (protocol/views.py ``GameView.table``); None for a game whose screens read a seat's
        view (``SeatPlayer.view``). By default None."""
        return None

    def seat_cards(self, state: S, seat: int) -> SeatCards[C] | None:
        """What a replay of ``seat``'s view adds to the public one: its cards nobody else
        saw, as the seat knew them. By default None: a game's hidden cards stay hidden."""
        return None

    def tv_board(self, state: S, names: Mapping[int, str]) -> Mapping[str, Json]:
        """What a TV page draws of the round (node/tv), as every player sees it, never a
        card that only one seat may see; ``names`` by table seat. The page draws it
        without knowing the game, from these keys: ``centre``, a list of groups (``key``,
        ``caption``, ``piles``: each a ``top`` card or None and a ``count``, ``done``: how
        many piles are finished); ``areas``, table seat (as a string) -> ``status`` (a
        word, "out" greys the player) and ``places`` (each a ``key``, a ``caption``, and a
        ``top`` card or None with a ``count``, or a ``row`` of them); ``headline``, a line
        over the table; ``legend``, how the cards read; ``progress``, a line saying how far the
        game has come, in place of the round and the target; ``unit``, what a score counts
        ("cards"; "points" when absent). A card is ``label`` (as the
        terminal writes it), ``value`` (the big text), ``mark`` (the small text) and
        ``colour`` (red, blue, green, yellow, black, or "" for plain). A card face down is
        None with a count. By default nothing but the frame (names and scores) is drawn."""
        return {}

    def moves(self, state: S) -> int:
        """How many players' moves the round has taken, for a game whose moves ride GAME
        bodies among bodies of its own machinery, so that a replay stops after each
        (0: every event of the round is a stop)."""
        return 0


class TableGame(SeatDecks[C], RoundRules[S, M, C], SeatPlayer[S, M, V, L], Generic[S, M, V, C, L]):
    """A game as the table and the node know it: the one object a game registers
    (games/registry.py). Its data, then its parts' members (``SeatDecks``,
    ``RoundRules``, ``SeatPlayer``)."""

    tag: str  # the registry's key (games/registry.py)
    game_id: int  # its id in a GAME body, 1 to 255 (spec/protocol.md P-223)
    name: str  # as players read it
    backs: tuple[str, ...]  # the card backs a player may choose
    worst_round: int  # the score of a round lost to a penalised flag
    min_seats: int = 1  # the fewest seats a round can be dealt to (P-239)
    # The game's conformance vectors: (file in spec/vectors, the module within the
    # protocol package whose ``cases(data)`` reads it); the runner runs each (conformance/).
    vectors: tuple[tuple[str, str], ...] = ()
    # Whether a START may choose a number of rounds instead of a target (P-237, P-238):
    # the game then names the winner once they are played (``final_winner``).
    rounds_option: bool = False
    # The game's usual length, where it is a number of rounds (``rounds_option``): a START
    # carries it when the player chose no rounds (None: the usual length is the target).
    # Such a game is played to a number of rounds only.
    default_rounds: int | None = None

    def data_digest(self) -> bytes | None:
        """The SHA-256 of the data every node must hold to play the game alike (Blitz!'s
        pack and answer lists), which a START carries (spec/protocol.md P-291 to P-294);
        None for a game whose rules are all its code: by default."""
        return None


# A game of whatever types, as the table holds it: the table hands a game's state, moves
# and cards back only to the same game, so it needs none of their types.
AnyGame: TypeAlias = "TableGame[Any, Any, Any, Any, Any]"
