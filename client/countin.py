"""Between rounds: the scores' countdown, and the big 3, 2, 1 before play.

After a round, the scores stay up until you press a key or their time runs out,
and the next round is dealt only once every player has seen them (spec/rules.md
R-54). Then every screen counts in, 3, 2, 1, in place of the (still empty)
centre, and no key plays before it ends (R-55). The seconds come from the node
(``Snapshot.scores_left``, ``Snapshot.count_in``); the state ticks them down.
"""

from __future__ import annotations

import math

from prompt_toolkit.formatted_text import StyleAndTextTuples

from .state import ClientState

BIG_DIGITS = {
    3: ("█████", "    █", " ████", "    █", "█████"),
    2: ("█████", "    █", "█████", "█    ", "█████"),
    1: ("  ██ ", " ███ ", "  ██ ", "  ██ ", " ████"),
}
BLANK_DIGIT = ("     ",) * 5


def count_in_lines(state: ClientState) -> list[StyleAndTextTuples]:
    """Five lines: the big digit of the count-in, and what it means."""
    left = math.ceil(state.count_in_left())
    digit = BIG_DIGITS.get(left, BLANK_DIGIT) if left > 0 else BLANK_DIGIT
    beside = [
        ("class:strong", f"Round {state.snap.game.round} begins in {left}..."),
        ("", ""),
        ("class:hint", "Look at your cards: nobody can play"),
        ("class:hint", "before the count-in ends."),
        ("", ""),
    ]
    return [
        [("", "        "), ("class:countin", row), ("", "      "), said]
        for row, said in zip(digit, beside, strict=True)
    ]


def looking_lines(state: ClientState) -> list[tuple[str, str]]:
    """The foot of the scores while the next round waits: (text, style) per line."""
    game = state.snap.game
    looking = game.still_looking
    mine = state.snap.my_seat
    lines: list[tuple[str, str]] = []
    if mine in looking and not state.late_key():  # a key any sooner was meant for the table
        left = math.ceil(state.scores_left())
        lines.append((f" Press any key when ready: next round in {left} s", "class:strong"))
    others = [state.name_of(seat) for seat in looking if seat != mine]
    if others:
        lines.append((f" Still looking at the scores: {', '.join(others)}", "class:hint"))
    elif mine not in looking:
        lines.append((f" Round {game.round} is being dealt...", "class:hint"))
    return lines
