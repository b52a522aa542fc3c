"""The small API the terminal client (and anything else) uses to talk to a node.

The client never touches a socket: it reads ``Snapshot``s, subscribes to
changes, and calls the actions below. A ``Session`` is what a running node
offers; tests can offer their own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from dutchblitz.protocol.game import Flag, FlagKind, Game


class Action(StrEnum):
    """One keystroke's worth of play; the node picks the legal target."""

    BLITZ_TO_CENTRE = "blitz_to_centre"
    POST_TO_CENTRE = "post_to_centre"  # with slot
    WOOD_TO_CENTRE = "wood_to_centre"
    FLIP = "flip"  # flip three, or turn the Wood pile over when the hand is empty
    STUCK = "stuck"
    BLITZ_TO_POST = "blitz_to_post"  # with slot
    WOOD_TO_POST = "wood_to_post"  # with slot


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


@dataclass(frozen=True, slots=True)
class Notice:
    """Something to flash on screen: a lost race, a refusal, a Blitz, a player leaving."""

    kind: NoticeKind
    text: str


@dataclass(frozen=True, slots=True)
class Missing:
    """A seated player whose node this node has not heard for a while."""

    seat: int
    name: str
    silent: float  # seconds since this node last heard it, as of the snapshot
    away: bool = False  # removed, and the deal under way waits for it (spec/rules.md R-49)
    grace: float = 0.0  # for one away: how long, counted like ``silent``, the deal waits


@dataclass(frozen=True, slots=True)
class GameOn:
    """The game under way at a table that has not seated us: we sit down after it."""

    players: int  # nodes at the table, as its members' heartbeats show (0: not known yet)
    round: int  # the latest round seen (0: not known yet)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything a screen needs, as of one moment."""

    table: str
    interface: str  # "eth0 192.0.2.2 (interface of the default route)"
    endpoint: str  # the table socket's endpoint
    my_node: bytes
    my_seat: int | None
    players: tuple[PlayerInfo, ...]
    game: Game  # optimistic: our own pending moves shown; do not mutate
    stable: Game  # final events only; do not mutate
    pending_moves: int  # our own moves not final yet, those held back to go in turn included
    peers_seen: int  # other nodes found on the network so far
    seconds_running: float
    can_start: bool
    bot_levels: tuple[str, ...]
    door: str = ""  # where others knock (what their --peer names): "tcp://192.0.2.2:5555"
    private: bool = False  # a passphrase guards the table
    # Post stacking: in the lobby, what a START from this node would carry (the
    # player who starts the game decides); from the START on, what the game agreed.
    post_stacking: bool = True
    state_dir: str = ""  # where this node keeps its state
    profile: int = 1  # 2, 3...: the default state directory was in use, so this is another one
    # Between rounds (spec/rules.md ), in seconds as of this snapshot:
    scores_left: float = 0.0  # until this node says by itself that you saw the scores
    count_in: float = 0.0  # of your count-in: you may play when it is 0
    missing: tuple[Missing, ...] = ()  # players not heard from lately, in seat order
    game_on: GameOn | None = None  # we arrived while this game was on: seated after it


def game_on_text(table: str, game: GameOn) -> str:
    """ "a game is on at kitchen: 4 players, round 3", as far as it is known."""
    known = []
    if game.players:
        known.append(f"{game.players} player{'s' if game.players != 1 else ''}")
    if game.round:
        known.append(f"round {game.round}")
    where = f" at {table}" if table else ""
    return f"a game is on{where}" + (f": {', '.join(known)}" if known else "")


def flag_banner(flags: Sequence[Flag], name_of: Callable[[int], str], width: int = 80) -> str:
    """One line naming what the audit flagged (spec/rules.md R-44 to R-48); "" if nothing.

    Every node holds the same flags (``Snapshot.stable.flags``), so every screen agrees.
    """
    if not flags:
        return ""
    cheats = [f for f in flags if f.kind != FlagKind.UNAUDITED]
    head = "FLAGGED: " if cheats else "unaudited: "
    words = [f"{name_of(f.seat)} {f.kind.value} r{f.round}" for f in (cheats or list(flags))]
    line = head + ", ".join(words)
    if len(line) <= width:
        return line
    for count in range(len(words) - 1, 0, -1):
        line = f"{head}{', '.join(words[:count])} +{len(words) - count} more"
        if len(line) <= width:
            return line
    return (head + words[0])[:width]


class Session(Protocol):
    def snapshot(self) -> Snapshot: ...

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback`` on the event loop whenever the snapshot changes.

        Returns a function that unsubscribes."""
        ...

    def take_notices(self) -> list[Notice]:
        """Notices since the last call, oldest first."""
        ...

    def act(self, action: Action, slot: int = 0) -> str | None:
        """Play at once (optimistically); returns why not, or None if the move was taken.

        A taken move is sent, or, when it builds on a play of ours still in flight, held
        and sent in its turn (it may then come back, with one notice)."""
        ...

    def seen_scores(self) -> str | None:
        """The person has seen the scores: the next round need not wait for them."""
        ...

    def set_name(self, name: str) -> str | None: ...

    def set_back(self, back: str) -> str | None: ...

    def set_ready(self, ready: bool) -> str | None: ...

    def start(self) -> str | None: ...

    def set_post_stacking(self, on: bool) -> str | None:
        """Whether a game this node starts allows Post stacking (lobby only)."""
        ...

    def add_bot(self, level: str) -> str | None: ...

    def remove_bot(self) -> str | None: ...

    async def leave(self) -> None: ...
