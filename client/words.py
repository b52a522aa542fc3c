"""The words a player reads in half a second: the one table of them.

The node answers an action with a ``Refused`` and tells news with a ``Told`` (node/api.py):
a code and the few facts its words need. Only this module turns them into words.
"""

from __future__ import annotations

from collections.abc import Callable

from dutchblitz.node.api import GameOn, News, Notice, Refused, Told, TvLink, Why

WORDS: dict[Why, str] = {
    # moves (spec/rules.md, section 9)
    Why.ROUND_OVER: "the round is over",
    Why.UNKNOWN_SEAT: "you are not seated at this round",
    Why.NOT_ACTIVE: "you are out of this round",
    Why.NOT_YOUR_CARD: "that card is not yours",
    Why.EMPTY_SOURCE: "there is no card there",
    Why.NOT_ON_TOP: "that card is no longer on top",
    Why.BAD_SOURCE: "that card cannot go there",
    Why.BAD_SLOT: "there is no such Post stack",
    Why.NEEDS_A_ONE: "only a 1 starts a new centre pile",
    Why.WRONG_COLOUR: "no centre pile of that colour takes it",
    Why.WRONG_VALUE: "that pile needs another value",
    Why.NO_PILE: "no centre pile takes that card now",
    Why.PILE_TAKEN: "another player got to that pile first",
    Why.STACKING_OFF: "Post stacking is off at this table",
    Why.SAME_GENDER: "a Post stack alternates boys and girls",
    Why.HAND_EMPTY: "your hand is empty",
    Why.HAND_NOT_EMPTY: "turn the Wood pile over only when the hand is empty",
    Why.WOOD_EMPTY: "your Wood pile is empty",
    Why.HAS_PLAY: "you still have a card for the centre",
    Why.STUCK: "you called stuck: wait for a centre play or the stalemate",
    Why.SHOWS_MISMATCH: "the table disagrees about a card",
    # the lobby and the game
    Why.NOT_ALL_READY: "not everyone is ready",
    Why.BAD_BACKS: "every player needs a different deck back",
    Why.BAD_NAME: "a name is 1 to 32 bytes",
    Why.BACK_TAKEN: "another player has that back",
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
    Why.SLOW_DOWN: "slow down: {count} plays are already waiting their turn",
    Why.COUNT_IN: "wait for the count-in: the round begins in {count} s",
    Why.BLITZ_EMPTY: "your Blitz pile is empty",
    Why.NO_POST: "there is no Post stack {count}",
    Why.POST_EMPTY: "that stack is empty",
    Why.NO_PILE_FOR: "no centre pile takes {what} now",
    Why.NOTHING_TO_FLIP: "your hand and Wood pile are empty",
    Why.ALREADY_STUCK: "you have already called stuck",
    Why.CAN_PLAY: "{what} can go to the centre",
    Why.CANNOT_STACK: "{what} cannot go on {other}: one lower, and boy on girl or girl on boy",
    Why.NOT_SENT: "not sent",
    Why.NOT_STORED: "{what}",
    Why.NO_SCORES: "no scores are waiting to be seen",
    Why.LOBBY_ONLY: "you can {what} only in the lobby",
    Why.NO_BACK: "no back {what!r}: choose one of {other}",
    Why.BACK_HELD: "{other} has the {what} back",
    Why.LEFT_TABLE: "you have left this table",
    Why.STEP_ON_ITS_WAY: "wait: your last step is still on its way",
    Why.STARTED: "the game has already started",
    Why.WAITING_READY: "waiting for {what} to be ready",
    Why.BACKS_CHOICE: "{what}",
    Why.NO_BOT_LEVEL: "no bot level {what!r}: choose one of {other}",
    Why.TABLE_FULL: "the table is full ({count} seats)",
    Why.NO_LOCAL_BOT: "there is no local bot to remove",
    Why.PLAY_BEFORE: "the play before it did not go",
    Why.WATCHING: "you are watching: a spectator plays nothing",
    Why.NO_GAME_ON: "no game is on to watch",
    Why.OTHER: "{other}",
}

# What a lobby-only action is, for "you can ... only in the lobby".
LOBBY_ACTIONS = {
    "set_name": "change your name",
    "set_back": "change your deck back",
    "set_ready": "say you are ready",
    "set_post_stacking": "change the table's options",
    "add_bot": "seat a bot",
}

# A held play that came back: "5R♂ came back: ...", "your flip came back: ...".
HELD = {"flip": "your flip", "stuck": "your stuck call", "turn": "your turn of the Wood pile"}


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


def say(refused: Refused) -> str:
    """The words for a refusal."""
    what = refused.what
    if refused.why == Why.LOBBY_ONLY:
        what = LOBBY_ACTIONS.get(what, what)
    game_on = ""
    if refused.game_on is not None:
        game_on = game_on_text(refused.what, refused.game_on)
    said = WORDS[refused.why].format(
        what=what,
        other=refused.other if refused.why != Why.OTHER else what.replace("_", " "),
        count=refused.count,
        game_on=game_on,
    )
    if refused.held:
        return f"{HELD.get(refused.held, refused.held)} came back: {said}"
    return said


def said(refused: Refused | None) -> str:
    """The words for an action's answer: "" when it was taken."""
    return "" if refused is None else say(refused)


def listed(names: tuple[str, ...]) -> str:
    """ "Ada", "Ada and Bob", "Ada, Bob and Cy"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _lost_race(told: Told) -> str:
    return f"{told.who or 'another player'} beat you to {told.what or 'it'}"


def _gone(told: Told) -> str:
    said = listed(told.names)
    if told.news == News.REMOVED:
        return f"{said} {'was' if len(told.names) == 1 else 'were'} removed: not heard from"
    return f"{said} left the table"


def _back_at_table(told: Told) -> str:
    lost = f": {told.count} of your moves did not count" if told.count else ""
    return f"you were away, and are back at the table{lost}"


def _round_scores(told: Told) -> str:
    scores = ", ".join(f"{name or 'you'} {points:+d}" for name, points in told.scores)
    return f"round {told.count}: {scores}"


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


NEWS: dict[News, Callable[[Told], str]] = {
    News.LOST_RACE: _lost_race,
    News.REMATCH: lambda told: "Rematch! Same table, scores back to 0: round 1",
    News.WANTS_REMATCH: lambda told: f"{told.who} wants a rematch",
    News.LEFT: _gone,
    News.REMOVED: _gone,
    News.BACK_AT_TABLE: _back_at_table,
    News.BACK: lambda told: f"{told.who} is back",
    News.SAT_DOWN: lambda told: f"{told.who} sat down",
    News.NEXT_GAME: lambda told: f"you sit down at {told.what} for its next game: r when ready",
    News.GOES_ON_WITHOUT: lambda told: (
        f"round {told.count} goes on without {', '.join(told.names)}"
    ),
    News.FLAGGED: lambda told: f"round {told.count}: {told.who} {told.what}: {told.detail}",
    News.STALEMATE: lambda told: "stalemate: everyone's hand moved one card",
    News.BLITZ: lambda told: f"{told.who or 'You'} called Blitz!",
    News.ROUND_SCORES: _round_scores,
    News.GAME_WON: _game_won,
    News.FAILED: lambda told: f"could not do that: {told.detail}",
    News.DESYNC: lambda told: told.detail,
    News.DOOR_WRONG_PHRASE: lambda told: (
        f"your door turned away {_knocks(told)} with a wrong passphrase"
    ),
    News.DOOR_GUESSING: lambda told: (
        "someone keeps guessing this table's passphrase: your door slows them down"
    ),
    News.DOOR_OTHER_VERSION: lambda told: (
        f"your door turned away {_knocks(told)} from another version of the game"
    ),
    News.DOOR_REFUSED_US: _refused_us,
}


def tell(told: Told) -> str:
    """The words for a piece of news."""
    return NEWS[told.news](told)


def notice_text(notice: Notice) -> str:
    """What a notice says on screen."""
    if notice.refused is not None:
        return say(notice.refused)
    return tell(notice.told) if notice.told is not None else notice.text
