"""The games a table can host: tag -> the game's one object, its ``TableGame``
(table/rules.py). Dutch Blitz is always here, and is the default.

A game outside this package registers itself (``register``) before the node starts;
every node at a table must host the same game. ``unregister`` forgets it again, and
``registered`` holds it for a ``with`` block only (a test's).
"""

from __future__ import annotations

from ..table.rules import AnyGame
from .blitz.game import GAME as BLITZ
from .dutch.game import GAME as DUTCH
from .faceoff.host import GAME as FACEOFF
from .tagged import Registry

DEFAULT_GAME = BLITZ.tag


class UnknownGame(KeyError):
    """No game of that tag is registered."""


_GAMES: Registry[AnyGame] = Registry((BLITZ, DUTCH, FACEOFF), DEFAULT_GAME, "games", UnknownGame)
register = _GAMES.register
unregister = _GAMES.unregister
registered = _GAMES.registered
tags = _GAMES.tags


def game_for(tag: str) -> AnyGame:
    return _GAMES[tag]


def level_in(tag: str, level: object) -> object:
    """The bot level of game ``tag`` that stands for ``level``, a level (or its name) of
    this game or of another: the same name, else the level at the same place in its own
    game's list (its first, second...), the last when the list is shorter. A table that
    starts another game (P-241) keeps its bots, each at the level that matches."""
    return level_for(game_for(tag), level)


def level_for(game: AnyGame, level: object) -> object:
    """``level_in`` for a game in hand, registered or not: the level of ``game``'s own
    type (``TableGame.levels``' value) that ``level`` stands for, as the game's
    ``seat_bot`` and ``race_hold`` take it."""
    levels = game.levels
    name = level_name(level)
    if name in levels:
        return levels[name]
    chosen = list(levels.values())
    for other in _GAMES.values():
        names = list(other.levels)
        if name in names:
            return chosen[min(names.index(name), len(chosen) - 1)]
    return chosen[0]


def level_name(level: object) -> str:
    """The name a player gives a bot level (``TableGame.levels``' key)."""
    return level if isinstance(level, str) else str(getattr(level, "name", level))


def all_levels() -> set[str]:
    """The names of every registered game's bot levels."""
    return {name for game in _GAMES.values() for name in game.levels}
