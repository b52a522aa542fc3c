"""The table's key map as data (the lobby, after a game, everywhere, a replay): ``keys.py``
binds it, the help screens and the README list it. A game's own keys, at its table, are
in its folder (``games/blitz/keymap.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

# -- in the lobby -----------------------------------------------------------------------
NAME = "n"
BACK = "b"
READY = "r"
START = "s"
ADD_BOT = "+"
REMOVE_BOT = "-"
BOT_LEVEL = "l"
POST_STACKING = "p"  # the table option a START from this node carries
GAME = "g"  # the game a START from this node starts
LENGTH = "t"  # how long that game lasts: a target score, or a number of rounds
WATCH = "w"  # a game keeps us waiting: watch it meanwhile (as a spectator)

# -- after a game ----------------------------------------------------------------------
REMATCH = "r"

# -- everywhere -------------------------------------------------------------------------
HELP = "?"
QUIT = "q"


@dataclass(frozen=True, slots=True)
class KeyHelp:
    keys: str
    what: str


OVER_HELP: tuple[KeyHelp, ...] = (KeyHelp(REMATCH, "rematch (play again)"),)

GLOBAL_HELP: tuple[KeyHelp, ...] = (
    KeyHelp(HELP, "show / hide this help"),
    KeyHelp(QUIT, "leave (asks in a game)"),
    KeyHelp("Ctrl-C", "leave (asks in a game)"),
)

# -- in a replay (blitz-node replay) ----------------------------------------------------
REPLAY_FORWARD = ("right", "l")  # one move on
REPLAY_BACK = ("left", "h")  # one move back
REPLAY_NEXT_ROUND = ("down", "]")
REPLAY_PREVIOUS_ROUND = ("up", "[")
REPLAY_PLAY = ("space", "p")  # play / pause
REPLAY_FASTER = ("+", "=")
REPLAY_SLOWER = ("-",)
REPLAY_VIEW = ("v", "tab")  # the public view, then each seat's own
REPLAY_SCORES = "s"
REPLAY_FIRST = "home"
REPLAY_LAST = "end"

REPLAY_HELP: tuple[KeyHelp, ...] = (
    KeyHelp("→ / l   ← / h", "one move on / back"),
    KeyHelp("↓ / ]   ↑ / [", "next / previous round"),
    KeyHelp("1-9", "jump to that round (two digits: 1, 2 for round 12)"),
    KeyHelp("Home / End", "the game's start / end"),
    KeyHelp("Space / p", "play / pause"),
    KeyHelp("+ / -", "faster / slower"),
    KeyHelp("v / Tab", "view: public, then each player's own (their hidden cards)"),
    KeyHelp(REPLAY_SCORES, "show / hide the scores"),
    KeyHelp(HELP, "show / hide this help"),
    KeyHelp(f"{QUIT} / Ctrl-C", "quit the replay"),
)
