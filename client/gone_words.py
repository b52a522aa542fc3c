"""The words for a game that goes on, or ends, without players who are gone (spec/rules.md
R-57, R-59 to R-61; spec/dutch.md D-46)."""

from __future__ import annotations

from collections.abc import Callable

from dutchblitz.node.api import News, Told


def _names(names: tuple[str, ...]) -> str:
    """ "Ada", "Ada and Cy", "Ada, Bo and Cy"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _void(told: Told) -> str:
    who = _names(told.names) or "a player"
    return (
        f"round {told.count} is void: {who} left holding cards only their key could open;"
        " it is not scored and not counted"
    )


GONE_NEWS: dict[News, Callable[[Told], str]] = {
    News.GOES_ON_WITHOUT: lambda told: (
        f"round {told.count} goes on without {', '.join(told.names)}"
    ),
    News.ENDS_WITHOUT: lambda told: (
        f"the game ends without {_names(told.names)}: too few players are left to deal"
    ),
    News.ROUND_VOID: _void,
    News.NO_WINNER: lambda told: "Game over: no round was played to its end, so nobody wins",
    News.DRAWN: lambda told: "Game over: a draw, nobody wins",
    News.TOO_FEW: lambda told: f"{told.what} needs {told.count} players: the game ends",
}
