"""The table's words a player reads in half a second: the lobby's, the notices', the
door's, and the words a game's face adds to them (``GameWords``).

The node answers an action with a ``Refused`` and tells news with a ``Told`` (node/api.py):
a code and the few facts its words need. This module turns the table's codes into words;
a game's codes are worded by its own folder (``games/<game>/words.py``), whose words come
in as ``GameWords``: the frame reaches a game's words only through its face.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

from dutchblitz.node.api import GameOn, News, Notice, Refused, Told, TvLink, Why

from .gone_words import GONE_NEWS

Teller = Callable[[Told], str]


@dataclass(frozen=True, slots=True)
class GameWords:
    """What a game adds to the table's words; its face hands them to the frame."""

    call: str = ""  # what a player calls to end a round early ("Blitz", "Dutch")
    # the game's own codes (``Refused.game_code``), and the table's it words for itself
    refusals: Mapping[str, str] = field(default_factory=dict)
    news: Mapping[News, Teller] = field(default_factory=dict)  # the game's own news
    held: Mapping[str, str] = field(default_factory=dict)  # a held play that came back
    lobby_actions: Mapping[str, str] = field(default_factory=dict)  # "you can ... only in"
    bot_levels: Mapping[str, str] = field(default_factory=dict)  # what each bot level does
    data: str = ""  # the game's data as players call it ("Blitz! word data"); "": "<game> data"


NO_GAME = GameWords()


def all_of(games: Iterable[GameWords], first: GameWords) -> GameWords:
    """``first`` with every game's refusals, news and held plays under its own: a refusal
    of a game not on the table (an option of the lobby's) is worded too."""
    games = [*games, first]
    return replace(
        first,
        refusals={why: said for game in games for why, said in game.refusals.items()},
        news={code: tell for game in games for code, tell in game.news.items()},
        held={what: said for game in games for what, said in game.held.items()},
        lobby_actions={a: said for game in games for a, said in game.lobby_actions.items()},
    )


# -- the table: refusals, news, the lobby's lines ------------------------------------------

WORDS: dict[Why, str] = {
    # a move at the table
    Why.ROUND_OVER: "the round is over",
    Why.UNKNOWN_SEAT: "you are not seated at this round",
    Why.NOT_ACTIVE: "you are out of this round",
    # the lobby and the game
    Why.NOT_ALL_READY: "not everyone is ready",
    Why.BAD_NAME: "a name is 1 to 32 bytes",
    Why.BAD_TARGET: "the target score must be positive",
    Why.TOO_FEW_PLAYERS: "a game needs at least 2 players",
    Why.AUDIT_OPEN: "wait: the last round is still being checked (the audit)",
    Why.NOT_IN_LOBBY: "the game has started",
    Why.NOT_IN_PLAYING: "the round is not being played",
    Why.NOT_IN_DEALING: "the round is being dealt",
    Why.NOT_IN_OVER: "the game is over",
    Why.NOT_MEMBER: "you are not at this table yet",
    Why.NOT_PRESENT: "that player has left",
    Why.REMOVED_FROM_TABLE: "the table removed you (you were silent too long)",
    # what the node checks before it sends anything
    Why.NOT_SEATED: "you are not seated at the table yet",
    Why.GAME_ON: "{game_on}; you sit down for the next game",
    Why.NO_SEAT: "you are not seated",
    Why.NO_ROUND: "no round is being played",
    Why.NOT_PLAYING: "you are not playing this round",
    Why.COUNT_IN: "wait for the count-in: the round begins in {count} s",
    Why.NOT_SENT: "not sent",
    Why.NOT_STORED: "{what}",
    Why.NO_SCORES: "no scores are waiting to be seen",
    Why.LOBBY_ONLY: "you can {what} only in the lobby",
    Why.LEFT_TABLE: "you have left this table",
    Why.STEP_ON_ITS_WAY: "wait: your last step is still on its way",
    Why.STARTED: "the game has already started",
    Why.WAITING_READY: "waiting for {what} to be ready",
    Why.NO_BOT_LEVEL: "no bot level {what!r}: choose one of {other}",
    Why.NO_GAME: "no game {what!r} here: choose one of {other}",
    Why.BAD_LENGTH: "a game lasts 1 to {what} points, or 1 to {other} rounds",
    Why.NO_ROUNDS: "this game is played to a score, not for a number of rounds",
    Why.TABLE_FULL: "the table is full ({count} seats)",
    Why.NO_LOCAL_BOT: "there is no local bot to remove",
    Why.WATCHING: "you are watching: a spectator plays nothing",
    Why.NO_GAME_ON: "no game is on to watch",
}

# What a lobby-only action is, for "you can ... only in the lobby".
LOBBY_ACTIONS = {
    "set_name": "change your name",
    "set_ready": "say you are ready",
    "set_game": "change the game",
    "set_length": "change the game's length",
    "add_bot": "seat a bot",
    "set_option": "change the table's options",
}


def game_on_text(table: str, game: GameOn) -> str:
    """ "a game is on at kitchen: 4 players, round 3", as far as it is known."""
    known = []
    if game.players:
        known.append(f"{game.players} player{'s' if game.players != 1 else ''}")
    if game.round:
        known.append(f"round {game.round}")
    where = f" at {table}" if table else ""
    return f"a game is on{where}" + (f": {', '.join(known)}" if known else "")


def tv_text(tv: TvLink) -> str:
    """The lobby's line about the TV view (``--web``): its address, and who can open it."""
    if tv.shared:
        return f"{tv.url}  anyone on this network can open it"
    return f"{tv.url}  (this machine only)"


def unanswered_text(address: str) -> str:
    """A ``--peer`` door that never answers: most often not the address its node listens on."""
    return f"No answer at {address}: --peer takes the Address their lobby shows"


def say(refused: Refused, game: GameWords = NO_GAME) -> str:
    """The words for a refusal, the table's or ``game``'s (a code nobody words: its name)."""
    what = refused.what
    if refused.why == Why.LOBBY_ONLY:
        what = {**LOBBY_ACTIONS, **game.lobby_actions}.get(what, what)
    game_on = ""
    if refused.game_on is not None:
        game_on = game_on_text(refused.what, refused.game_on)
    words = WORDS.get(refused.why) or game.refusals.get(refused.code)
    if words is None:  # nobody words it: the code, or for one with none, what it says
        said = (refused.code or refused.what).replace("_", " ")
    else:
        said = words.format(what=what, other=refused.other, count=refused.count, game_on=game_on)
    if refused.held:
        return f"{game.held.get(refused.held, refused.held)} came back: {said}"
    return said


def said(refused: Refused | None, game: GameWords = NO_GAME) -> str:
    """The words for an action's answer: "" when it was taken."""
    return "" if refused is None else say(refused, game)


def listed(names: tuple[str, ...]) -> str:
    """ "Ada", "Ada and Bob", "Ada, Bob and Cy"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _gone(told: Told) -> str:
    said = listed(told.names)
    if told.news == News.REMOVED:
        return f"{said} {'was' if len(told.names) == 1 else 'were'} removed: not heard from"
    return f"{said} left the table"


def _back_at_table(told: Told) -> str:
    lost = f": {told.count} of your moves did not count" if told.count else ""
    return f"you were away, and are back at the table{lost}"


def round_scores(told: Told, head: bool = True) -> str:
    scores = ", ".join(f"{name or 'you'} {points:+d}" for name, points in told.scores)
    return f"round {told.count}: {scores}" if head else scores


def _game_won(told: Told) -> str:
    who = f"{told.who} wins" if told.who else "You win"
    return f"{who} with {told.count} points"


def _knocks(told: Told) -> str:
    return "a knock" if told.count <= 1 else f"{told.count} knocks"


# Why a door turned our knock away for good (the door's REASONS), and what to check.
REFUSED_US = {
    "wrong passphrase": "wrong passphrase",
    "other table": "another table (check --table)",
    "version": "another version of the game",
    "bad card": "your key card is damaged",
}


def _refused_us(told: Told) -> str:
    why = REFUSED_US.get(told.detail, told.detail or "refused")
    return f"{told.what} turned you away: {why}"


def other_data(told: Told, game: GameWords = NO_GAME) -> list[str]:
    """P-294: the table plays the game with other data than ours, the line said longest
    first and then shorter, for the screen to take the first that fits: whose data (the
    table's and ours, short), and what to do."""
    data = game.data or f"{told.what} data"
    table, ours = (*(name or "none" for name in told.names), "none", "none")[:2]
    return [
        f"this table plays other {data} than yours (table {table}, yours {ours}):"
        " you cannot play here; run the same version of the game on every laptop",
        f"this table plays other {data} (table {table}, yours {ours}):"
        " same version on every laptop",
        f"other {data} here ({table}, yours {ours}): same version on every laptop",
        f"other {data} here ({table}, yours {ours}): same version everywhere",
        f"other {data} ({table}, yours {ours}): one version for all",
    ]


NEWS: dict[News, Teller] = {
    News.REMATCH: lambda told: "Rematch! Same table, scores back to 0: round 1",
    News.WANTS_REMATCH: lambda told: f"{told.who} wants a rematch",
    News.LEFT: _gone,
    News.REMOVED: _gone,
    News.BACK_AT_TABLE: _back_at_table,
    News.BACK: lambda told: f"{told.who} is back",
    News.SAT_DOWN: lambda told: f"{told.who} sat down",
    News.NEXT_GAME: lambda told: f"you sit down at {told.what} for its next game: r when ready",
    **GONE_NEWS,
    News.FLAGGED: lambda told: f"round {told.count}: {told.who} {told.what}: {told.detail}",
    News.BLITZ: lambda told: f"{told.who or 'You'} called {told.what or 'the end'}!",
    News.ROUND_SCORES: round_scores,
    News.GAME_WON: _game_won,
    News.FAILED: lambda told: f"could not do that: {told.detail}",
    News.DESYNC: lambda told: told.detail,
    News.OTHER_DATA: lambda told: other_data(told)[0],
    News.DOOR_WRONG_PHRASE: lambda told: (
        f"your door turned away {_knocks(told)} with a wrong passphrase"
        + (f" from {told.what}" if told.what else "")
    ),
    News.DOOR_GUESSING: lambda told: (
        "someone keeps guessing this table's passphrase: your door slows them down"
    ),
    News.DOOR_OTHER_VERSION: lambda told: (
        f"your door turned away {_knocks(told)} from another version of the game"
    ),
    News.DOOR_REFUSED_US: _refused_us,
}


def tell(told: Told, game: GameWords = NO_GAME) -> str:
    """The words for a piece of news, the table's or ``game``'s."""
    if told.news == News.BLITZ and not told.what:
        told = replace(told, what=game.call)
    teller = NEWS.get(told.news) or game.news.get(told.news)
    return teller(told) if teller is not None else told.news.value.replace("_", " ")


def notice_text(notice: Notice, game: GameWords = NO_GAME) -> str:
    """What a notice says on screen at a table of ``game``: its ``call`` is what ends a
    round early there."""
    if notice.refused is not None:
        return say(notice.refused, game)
    if notice.told is not None and notice.told.news == News.BLITZ and game.call:
        return tell(replace(notice.told, what=game.call), game)
    if notice.told is not None and notice.told.news == News.OTHER_DATA:
        return other_data(notice.told, game)[0]
    return tell(notice.told, game) if notice.told is not None else notice.text
