"""The games a table can host, by tag. Dutch Blitz is always here, and is the default.

A game outside this package registers itself (``register``) before the node starts;
every node at a table must host the same game. A game's ``PlayerRules`` (what a seat's
player and bots do, table/player.py) are registered with it; a game registered without
them is played with Dutch Blitz's for now.
"""

from __future__ import annotations

from ..table.player import PlayerRules
from ..table.rules import GameRules
from .blitz.game import RULES as BLITZ
from .dutch.game import RULES as DUTCH
from .dutch.player import PLAYER as DUTCH_PLAYER

DEFAULT_GAME = BLITZ.tag
_GAMES: dict[str, GameRules] = {BLITZ.tag: BLITZ, DUTCH.tag: DUTCH}
_PLAYERS: dict[str, PlayerRules] = {DUTCH.tag: DUTCH_PLAYER}


class UnknownGame(KeyError):
    """No game of that tag is registered."""


def register(rules: GameRules, player: PlayerRules | None = None) -> None:
    """Make a game known by its tag; registering the same tag again replaces it."""
    _GAMES[rules.tag] = rules
    if player is not None:
        _PLAYERS[rules.tag] = player
    else:
        _PLAYERS.pop(rules.tag, None)


def rules_for(tag: str) -> GameRules:
    try:
        return _GAMES[tag]
    except KeyError:
        raise UnknownGame(tag) from None


def tags() -> list[str]:
    """Every registered game's tag, the default first."""
    return [DEFAULT_GAME, *sorted(tag for tag in _GAMES if tag != DEFAULT_GAME)]


def level_in(tag: str, level: object) -> object:
    """The bot level of game ``tag`` that stands for ``level``, a level (or its name) of
    this game or of another: the same name, else the level at the same place in its own
    game's list (its first, second...), the last when the list is shorter. A table that
    starts another game (P-241) keeps its bots, each at the level that matches."""
    levels = player_for(tag).levels
    name = level_name(level)
    if name in levels:
        return levels[name]
    chosen = list(levels.values())
    for other in _GAMES:
        names = list(player_for(other).levels)
        if name in names:
            return chosen[min(names.index(name), len(chosen) - 1)]
    return chosen[0]


def level_name(level: object) -> str:
    """The name a player gives a bot level (``PlayerRules.levels``' key)."""
    return level if isinstance(level, str) else str(getattr(level, "name", level))


def all_levels() -> set[str]:
    """The names of every registered game's bot levels."""
    return {name for tag in _GAMES for name in player_for(tag).levels}


def player_for(tag: str) -> PlayerRules:
    """The game's ``PlayerRules``: Dutch Blitz's for a game registered without its own."""
    # Imported here: a player's plays reach the replica, whose table reaches this registry.
    from .blitz.player import PLAYER as BLITZ_PLAYER

    rules_for(tag)  # an unknown tag is refused as for its rules
    return _PLAYERS.get(tag, BLITZ_PLAYER)
