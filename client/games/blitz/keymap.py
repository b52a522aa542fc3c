"""Dutch Blitz's keys at the table, as data: ``keys.py`` binds them, the help screen and
the README list them.

Play keys sit under a touch-typist's left hand (home row and the row above), so
the right hand stays free and the eyes stay on the centre piles.
"""

from __future__ import annotations

from ...keymap import (
    ADD_BOT,
    BACK,
    BOT_LEVEL,
    GAME,
    LENGTH,
    NAME,
    POST_STACKING,
    READY,
    REMOVE_BOT,
    START,
    WATCH,
    KeyHelp,
)

# -- at the table -----------------------------------------------------------------------
BLITZ_TO_CENTRE = "e"
WOOD_TO_CENTRE = "w"
POST_KEYS = ("a", "s", "d", "f", "g")  # Post stacks 1 to 5, left to right
FLIP_KEYS = ("space", "r")  # flip three, or turn the Wood over when the hand is empty
STUCK = "x"
BLITZ_ONTO_POST = "b"  # then a Post key
WOOD_ONTO_POST = "v"  # then a Post key
SCORES = "tab"


def _shown(key: str) -> str:
    return {"space": "Space", "tab": "Tab", "escape": "Esc"}.get(key, key)


TABLE_HELP: tuple[KeyHelp, ...] = (
    KeyHelp(BLITZ_TO_CENTRE, "Blitz top to the centre"),
    KeyHelp(" ".join(POST_KEYS), "Post stack 1-5 to the centre"),
    KeyHelp(WOOD_TO_CENTRE, "Wood top to the centre"),
    KeyHelp(" / ".join(_shown(k) for k in FLIP_KEYS), "flip 3 (empty hand: turn Wood)"),
    KeyHelp(STUCK, "stuck: I have no play"),
    KeyHelp(f"{BLITZ_ONTO_POST}, a-g", "Blitz top onto Post stack 1-5"),
    KeyHelp(f"{WOOD_ONTO_POST}, a-g", "Wood top onto Post stack 1-5"),
    KeyHelp("Esc", f"cancel a started {BLITZ_ONTO_POST} or {WOOD_ONTO_POST}"),
    KeyHelp(_shown(SCORES), "show / hide the scores"),
    KeyHelp("any key", "scores seen: next round"),
)

# -- in the lobby, as its help lists the table's keys with Dutch Blitz's options -----
LOBBY_HELP: tuple[KeyHelp, ...] = (
    KeyHelp(NAME, "set your name"),
    KeyHelp(BACK, "next deck back"),
    KeyHelp(READY, "ready / not ready"),
    KeyHelp(f"{START} / Enter", "start (all ready)"),
    KeyHelp(f"{ADD_BOT} {REMOVE_BOT}", "add a bot / take one"),
    KeyHelp(BOT_LEVEL, "level of the next bot"),
    KeyHelp(f"{GAME} {LENGTH}", "next game / its length"),
    KeyHelp(POST_STACKING, "Post stacking on / off"),
    KeyHelp(WATCH, "watch the game on"),
)
