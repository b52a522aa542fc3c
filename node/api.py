"""The small API the terminal client (and anything else) uses to talk to a node.

The client never touches a socket: it reads ``Snapshot``s, subscribes to
changes, and calls the actions below. A ``Session`` is what a running node
offers; tests can offer their own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, TypeAlias

from dutchblitz.protocol.limits import DEFAULT_TARGET
from dutchblitz.protocol.table.player import GameMove, GameSeatView
from dutchblitz.protocol.table.rules import Card, SeatCards
from dutchblitz.protocol.views import GameView

MAX_NOTICES = 200  # notices a session keeps for its client to take


@dataclass(frozen=True, slots=True)
class GameOn:
    """The game under way at a table that has not seated us: we sit down after it."""

    players: int  # nodes at the table, as its members' heartbeats show (0: not known yet)
    round: int  # the latest round seen (0: not known yet)


class Why(StrEnum):
    """Why an action was not taken: a code of the table's or of the node's own, worded for
    the player in client/words.py.

    A game's own code (its rules' reasons, or why its keys found no move) is no member
    here: it comes as ``OTHER``, the code in ``Refused.game_code``, worded by that game's
    face (client/games/<game>/words.py).
    """

    # every game's rules open with these (spec/rules.md section 9, and each game's spec)
    ROUND_OVER = "round_over"
    UNKNOWN_SEAT = "unknown_seat"
    NOT_ACTIVE = "not_active"
    # the table's refusals (protocol/table/) a player's own step can meet
    NOT_ALL_READY = "not_all_ready"
    BAD_BACKS = "bad_backs"
    BAD_NAME = "bad_name"
    BACK_TAKEN = "back_taken"
    BAD_TARGET = "bad_target"
    TOO_FEW_PLAYERS = "too_few_players"
    AUDIT_OPEN = "audit_open"
    NOT_IN_LOBBY = "not_in_lobby"
    NOT_IN_PLAYING = "not_in_playing"
    NOT_IN_DEALING = "not_in_dealing"
    NOT_IN_OVER = "not_in_over"
    NOT_MEMBER = "not_member"
    NOT_PRESENT = "not_present"
    REMOVED_FROM_TABLE = "removed_from_table"
    # the node's own: checked before anything is sent
    NOT_SEATED = "not_seated"
    GAME_ON = "game_on"  # seated after the game on (``Refused.game_on``)
    NO_SEAT = "no_seat"
    NO_ROUND = "no_round"
    NOT_PLAYING = "not_playing"
    SLOW_DOWN = "slow_down"  # count: the plays already waiting
    COUNT_IN = "count_in"  # count: seconds left
    NOT_SENT = "not_sent"
    NOT_STORED = "not_stored"  # what: why the node could not write it down
    NO_SCORES = "no_scores"
    LOBBY_ONLY = "lobby_only"  # what: the action (a ``Session`` method's name, see words)
    NO_BACK = "no_back"  # what: the back asked for; other: the backs there are
    BACK_HELD = "back_held"  # what: the back; other: the player who has it
    LEFT_TABLE = "left_table"
    STEP_ON_ITS_WAY = "step_on_its_way"
    STARTED = "started"
    WAITING_READY = "waiting_ready"  # what: the players not ready
    BACKS_CHOICE = "backs_choice"  # what: why the deck backs chosen will not do
    NO_BOT_LEVEL = "no_bot_level"  # what: the level asked for; other: the levels there are
    NO_GAME = "no_game"  # what: the game asked for; other: the games there are
    BAD_LENGTH = "bad_length"  # a target or a number of rounds out of bounds
    NO_ROUNDS = "no_rounds"  # this game is played to a target, not for a number of rounds
    TABLE_FULL = "table_full"  # count: the seats
    NO_LOCAL_BOT = "no_local_bot"
    PLAY_BEFORE = "play_before"  # a held play: the one it built on did not go
    WATCHING = "watching"  # a spectator plays nothing
    NO_GAME_ON = "no_game_on"  # nothing to watch: no game keeps us waiting
    OTHER = "other"  # game_code: a code of the game's own, or one this node has no name for


@dataclass(frozen=True, slots=True)
class Refused:
    """An action not taken, and why; ``None`` is the answer when it was taken.

    ``game_code``: with ``Why.OTHER``, the game's own code ("pile_taken"), whose words are
    its face's. ``held`` names a play that was held back to go in its turn and came back
    ("5R♂", or "flip", "stuck", "turn"). The words are the client's (client/words.py)."""

    why: Why
    what: str = ""
    other: str = ""
    count: int = 0
    held: str = ""
    game_on: GameOn | None = None
    game_code: str = ""

    @classmethod
    def of(
        cls, code: str, held: str = "", what: str = "", other: str = "", count: int = 0
    ) -> Refused:
        """A refusal from a code of the table, the node or a game, with its facts."""
        try:
            return cls(Why(code), what, other, count, held)
        except ValueError:
            return cls(Why.OTHER, what, other, count, held, game_code=code)

    @property
    def code(self) -> str:
        """The code itself: the game's own, or the table's."""
        return self.game_code if self.why == Why.OTHER else self.why.value


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    seat: int
    node: bytes
    name: str
    back: str
    ready: bool
    present: bool
    is_me: bool
    is_local_bot: bool
    fingerprint: str = ""  # the player's key fingerprint ("3F9A-C21B-77D0-5E4B"); "" if unknown


class NoticeKind(StrEnum):
    """What a notice tells; the screen picks how long it shows and how it looks."""

    LOST_RACE = "lost_race"  # another player got to the pile first
    REFUSED = "refused"  # a move of ours did not count
    BLITZ = "blitz"
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"
    JOINED = "joined"  # a player sat down, is back, or wants a rematch
    LEFT = "left"  # a player left or was removed
    INFO = "info"
    ALARM = "alarm"  # the audit flagged a player, the logs disagree, a task failed


class News(StrEnum):
    """What a notice says, worded by the client (client/words.py) from ``Told``'s facts."""

    LOST_RACE = "lost_race"  # who won it ("": another player); what: the card ("": it)
    REMATCH = "rematch"
    WANTS_REMATCH = "wants_rematch"  # who
    LEFT = "left"  # names: those who left together
    REMOVED = "removed"  # names: those removed together, not heard from
    BACK_AT_TABLE = "back_at_table"  # we were away; count: our moves that did not count
    BACK = "back"  # who
    SAT_DOWN = "sat_down"  # who
    NEXT_GAME = "next_game"  # we sit down for the next game; what: the table
    GOES_ON_WITHOUT = "goes_on_without"  # count: the round; names: those away
    ENDS_WITHOUT = "ends_without"  # names: those away; too few are left to deal (P-239)
    ROUND_VOID = "round_void"  # count: the round; names: those gone with their key
    NO_WINNER = "no_winner"  # the game ended with every round it dealt void
    DRAWN = "drawn"  # the game ended with rounds played and nobody its winner: a draw
    TOO_FEW = "too_few"  # what: the game; count: its fewest seats; ended undealt (P-239)
    # what: the game; names: its data as the START gave it, then ours, short ("": none) (P-294)
    OTHER_DATA = "other_data"
    FLAGGED = "flagged"  # count: the round; who; what: the flag; detail
    STALEMATE = "stalemate"
    BLITZ = "blitz"  # who ("": you)
    ROUND_SCORES = "round_scores"  # count: the round; scores
    GAME_WON = "game_won"  # who ("": you); count: the points
    FAILED = "failed"  # detail: what went wrong
    DESYNC = "desync"  # detail: what the logs disagree on
    DOOR_WRONG_PHRASE = "door_wrong_phrase"  # count: knocks turned away since the last told;
    # what: where the last came from, if known
    DOOR_GUESSING = "door_guessing"  # count: knocks answered busy since the last told
    DOOR_OTHER_VERSION = "door_other_version"  # count: knocks turned away since the last told
    DOOR_REFUSED_US = "door_refused_us"  # what: the door's HOST:PORT; detail: why (door REASONS)


@dataclass(frozen=True, slots=True)
class Told:
    """A notice's news and the facts its words need."""

    news: News
    who: str = ""
    names: tuple[str, ...] = ()
    count: int = 0
    what: str = ""
    detail: str = ""
    scores: tuple[tuple[str, int], ...] = ()  # (name, points) in seat order; "": you


@dataclass(frozen=True, slots=True)
class Notice:
    """Something to flash on screen: a lost race, a refusal, a Blitz, a player leaving."""

    kind: NoticeKind
    text: str = ""  # words the client made itself
    refused: Refused | None = None  # a refusal, worded by the client
    told: Told | None = None  # news, worded by the client


@dataclass(frozen=True, slots=True)
class Missing:
    """A seated player whose node this node has not heard for a while."""

    seat: int
    name: str
    silent: float  # seconds since this node last heard it, as of the snapshot
    away: bool = False  # removed, and the deal under way waits for it (spec/rules.md R-49)
    grace: float = 0.0  # for one away: how long, counted like ``silent``, the deal waits


@dataclass(frozen=True, slots=True)
class TvLink:
    """Where this node serves the TV view in the browser (``--web``)."""

    url: str  # "http://192.0.2.2:8080/"
    shared: bool  # other machines on the network can open it, not only this one


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything a screen needs, as of one moment."""

    table: str
    interface: str  # "eth0 192.0.2.2 (interface of the default route)"
    endpoint: str  # the table socket's endpoint
    my_node: bytes
    my_seat: int | None
    players: tuple[PlayerInfo, ...]
    game: GameView  # optimistic: our own pending moves shown
    stable: GameView  # final events only
    pending_moves: int  # our own moves not final yet, those held back to go in turn included
    peers_seen: int  # other nodes found on the network so far
    seconds_running: float
    can_start: bool
    bot_levels: tuple[str, ...]
    door: str = ""  # where others knock (what their --peer names): "tcp://192.0.2.2:5555"
    private: bool = False  # a passphrase guards the table
    # The table's one boolean option (P-261), which each game names for itself (Dutch
    # Blitz: Post stacking, R-19; Blitz!: its answer mode, F-23): in the lobby, what a
    # START from this node would carry (the player who starts the game decides); from the
    # START on, what the game agreed.
    option: bool = True
    # The game's length, (target, rounds): in the lobby, what a START from this node would
    # carry; from the START on, the game's. With rounds, only they end it (P-238).
    length: tuple[int, int | None] = (DEFAULT_TARGET, None)
    state_dir: str = ""  # where this node keeps its state
    profile: int = 1  # 2, 3...: the default state directory was in use, so this is another one
    # Between rounds (spec/rules.md ), in seconds as of this snapshot:
    scores_left: float = 0.0  # until this node says by itself that you saw the scores
    count_in: float = 0.0  # of your count-in: you may play when it is 0
    missing: tuple[Missing, ...] = ()  # players not heard from lately, in seat order
    game_on: GameOn | None = None  # we arrived while this game was on: seated after it
    tv: TvLink | None = None  # the TV view this node serves (None: none)
    watchers: tuple[str, ...] = ()  # who watches the table, as this node knows (section 26)
    watching: bool = False  # this node is a spectator: it follows the game, and plays nothing
    # --peer doors ("tcp://127.0.0.1:5555") knocked at that have not answered for a while:
    # most often an address their node does not listen on (node/net/knocks.py)
    unanswered: tuple[str, ...] = ()
    # For a game whose screens read a view of their own (Dutch: its cards nobody else may
    # see), what this seat may see of the round being played (the optimistic one), or
    # between rounds of the last one: the game's read-only object, read by its face only.
    # A spectator, or a seat not dealt in, gets what anyone in the room may see.
    seat_view: GameSeatView | None = None
    # The tag of the game whose screens draw the table (protocol/games/registry.py): the
    # table's game; in the lobby, the one a START from this node would start (P-241).
    game_tag: str = ""


class Session(Protocol):
    def snapshot(self) -> Snapshot: ...

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback`` on the event loop whenever the snapshot changes.

        Returns a function that unsubscribes."""
        ...

    def take_notices(self) -> list[Notice]:
        """Notices since the last call, oldest first."""
        ...

    def play(self, move: GameMove) -> Refused | None:
        """A move of the game's own, as its face builds it from keys (Dutch Blitz's key
        intents, Dutch's moves, Blitz!'s): played at once (optimistically), or refused,
        a code of the game's own as ``Why.OTHER`` with the code in ``game_code``.

        A taken move is sent, or, for a game that holds plays, when it builds on a play
        of ours still in flight, held and sent in its turn (it may then come back, with
        one notice)."""
        ...

    def seen_scores(self) -> Refused | None:
        """The person has seen the scores: the next round need not wait for them."""
        ...

    def set_name(self, name: str) -> Refused | None: ...

    def set_back(self, back: str) -> Refused | None: ...

    def set_ready(self, ready: bool) -> Refused | None: ...

    def start(self) -> Refused | None: ...

    def set_option(self, on: bool) -> Refused | None:
        """The table's boolean option for a game this node starts (lobby only)."""
        ...

    def set_game(self, tag: str) -> Refused | None:
        """The game a START from this node starts (lobby only): its tag."""
        ...

    def set_length(self, target: int, rounds: int | None = None) -> Refused | None:
        """How long a game this node starts lasts (lobby only): to ``target`` points, or
        ``rounds`` rounds where the game offers it (then a ``target`` of 0 keeps the one
        the table has: it ends nothing, P-238)."""
        ...

    def add_bot(self, level: str) -> Refused | None: ...

    def remove_bot(self) -> Refused | None: ...

    def watch(self) -> Refused | None:
        """Watch the game that keeps us waiting, as a spectator, until it is over."""
        ...

    async def leave(self) -> None: ...


# In a seat's view of a replay: that seat's cards nobody else saw, from its reveal, as
# its game's rules give them (``RoundRules.seat_cards``; a game whose cards stay hidden,
# such as Dutch, gives none), of that game's cards.
HiddenCards: TypeAlias = SeatCards[Card]


class Replaying(Protocol):
    """A finished game played again (``blitz-node replay``): what its screens read and
    its keys move. A *stop* is a move worth showing (a play, a deal, a round's end)."""

    title: str  # "table kitchen, game 2, 2026-11-25"

    def snapshot(self) -> Snapshot: ...

    @property
    def stop(self) -> int: ...

    @property
    def stops(self) -> int: ...

    @property
    def round(self) -> int:
        """The round at this stop, as players count it (0 before the first deal)."""
        ...

    @property
    def rounds(self) -> int: ...

    @property
    def view(self) -> int | None:
        """The seat whose own view is shown; None: the public view."""
        ...

    def go(self, stop: int) -> None: ...

    def first_stop(self, number: int) -> int | None:
        """The stop of round ``number``'s deal; None if the game had no such round."""
        ...

    def next_view(self) -> None:
        """The public view, then each seat's own in turn."""
        ...

    def hidden(self) -> HiddenCards | None: ...
