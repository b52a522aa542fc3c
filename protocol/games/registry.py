"""The games a table can host: tag -> the game's one object, its ``TableGame``
(table/rules.py). Dutch Blitz is always here, and is the default.

A game outside this package registers itself (``register``) before the node starts;
every node at a table must host the same game. ``unregister`` forgets it again, and
``registered`` holds it for a ``with`` block only (a test's).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ..table.rules import AnyGame
from .blitz.game import GAME as BLITZ
from .dutch.game import GAME as DUTCH
from .faceoff.host import GAME as FACEOFF

DEFAULT_GAME = BLITZ.tag
_GAMES: dict[str, AnyGame] = {BLITZ.tag: BLITZ, DUTCH.tag: DUTCH, FACEOFF.tag: FACEOFF}


class UnknownGame(KeyError):
    """No game of that tag is registered."""


_BUILT_IN = frozenset(_GAMES)


def register(game: AnyGame) -> None:
    """Make a game known by its tag; registering the same tag again replaces it."""
    _GAMES[game.tag] = game


def unregister(tag: str) -> None:
    """Forget the game registered under ``tag`` (UnknownGame if none is); the games of this
    package stay (ValueError)."""
    if tag in _BUILT_IN:
        raise ValueError(f"{tag} is one of this package's games")
    if _GAMES.pop(tag, None) is None:
        raise UnknownGame(tag)


@contextmanager
def registered(game: AnyGame) -> Iterator[AnyGame]:
    """``game`` registered for the ``with`` block, and the registry as it was after it (a
    game it replaced comes back)."""
    before = _GAMES.get(game.tag)
    _GAMES[game.tag] = game
    try:
        yield game
    finally:
        if before is None:
            _GAMES.pop(game.tag, None)
        else:
            _GAMES[game.tag] = before


def game_for(tag: str) -> AnyGame:
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
