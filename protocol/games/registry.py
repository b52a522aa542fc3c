"""The games a table can host, by tag. Dutch Blitz is always here, and is the default.

A game outside this package registers itself (``register``) before the node starts;
every node at a table must host the same game.
"""

from __future__ import annotations

from ..table.rules import GameRules
from .blitz.game import RULES as BLITZ

DEFAULT_GAME = BLITZ.tag
_GAMES: dict[str, GameRules] = {BLITZ.tag: BLITZ}


class UnknownGame(KeyError):
    """No game of that tag is registered."""


def register(rules: GameRules) -> None:
    """Make a game known by its tag; registering the same tag again replaces it."""
    _GAMES[rules.tag] = rules


def rules_for(tag: str) -> GameRules:
    try:
        return _GAMES[tag]
    except KeyError:
        raise UnknownGame(tag) from None


def tags() -> list[str]:
    """Every registered game's tag, the default first."""
    return [DEFAULT_GAME, *sorted(tag for tag in _GAMES if tag != DEFAULT_GAME)]
