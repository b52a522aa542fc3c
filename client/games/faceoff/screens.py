"""Blitz!'s screens, as styled text: pure functions of the game's view (one for everyone,
F-43) and what this seat's player has typed.

Every player sits on a row: a mark, the name, the cards won, the top card's symbol (its
letter and shape, told apart without colour, F-4) and its category. The mark says who is in
the face-off (``**``), whose turn it is (``>``) and who left (``x``). Under the rows, the
face-off stands out between ``***``: who against whom, which category each must answer,
what waits for a contest or a vote, and the line the player types the answer on. Then what
was said in the game. It reads without colour and fits 80 x 24 for 3 to 8 players.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from dutchblitz.protocol.games.faceoff.state import Mode, Phase
from dutchblitz.protocol.games.faceoff.views import FaceoffView, TableView
from prompt_toolkit.formatted_text import StyleAndTextTuples

from ... import gamescreen
from ...gamescreen import Line, fit, joined, said, stack
from . import keys, words

MARK = 3  # "** "
NARROWEST_NAME = 8
WIDEST_NAME = 16
WON = 4
SYMBOL = 11  # "F diamond  "
MIN_CATEGORY = 20


@dataclass(frozen=True, slots=True)
class FaceoffTable:
    """What a Blitz! screen shows: the game's view, the players' names, what is typed."""

    view: TableView
    names: tuple[str, ...]
    bots: frozenset[int] = frozenset()
    typed: str = ""  # the answer typed so far, not yet sent
    notice: str = ""  # why the last key did nothing


def _cut(name: str, room: int) -> str:
    """``name`` in ``room`` columns, the last a space; a long name loses its end."""
    return name.ljust(room) if len(name) <= room - 1 else (name[: room - 2] + "…").ljust(room)


def _mark(view: TableView, seat: int) -> str:
    duel = view.faceoff
    if duel is not None and seat in (duel.a, duel.b):
        return "** "
    if seat not in view.active:
        return " x "
    moving = view.tie_drawer if view.phase is Phase.TIE_DRAW else view.turn
    if view.phase in (Phase.TURN, Phase.TIE_DRAW, Phase.ROLL) and seat == moving:
        return " > "
    return "   "


def _tag(view: TableView, seat: int) -> str:
    mark = _mark(view, seat)
    if mark == "** ":
        return "FACE-OFF"
    if mark == " x ":
        return words.LEFT
    return "turns" if mark == " > " else ""


def _name(table: FaceoffTable, seat: int, room: int = WIDEST_NAME) -> str:
    own = table.names[seat]
    if seat == table.view.seat:
        return f"you ({own})" if len(own) + 7 <= room - 1 else "you"
    bot = " (bot)" if seat in table.bots and len(own) + 6 <= room - 1 else ""
    return own + bot


def name_width(table: FaceoffTable) -> int:
    """The name column: the longest name whole, from NARROWEST_NAME to WIDEST_NAME columns."""
    longest = max(len(_name(table, seat)) for seat in range(len(table.names)))
    return max(NARROWEST_NAME, min(WIDEST_NAME, longest + 1))


def player_lines(table: FaceoffTable, seat: int, width: int) -> list[Line]:
    """A player's row (and the rest of a long category under it)."""
    view = table.view
    top = view.tops[seat]
    mark = _mark(view, seat)
    room = name_width(table)
    style = "class:faceoff" if mark == "** " else ""
    head: Line = [
        ("class:strong", mark),
        ("class:name", _cut(_name(table, seat, room), room)),
        ("class:count", f"{view.won[seat]:>3} "),
        ("class:symbol", f"{words.symbol(top):<{SYMBOL - 1}} "),
    ]
    room = max(MIN_CATEGORY, width - MARK - room - WON - SYMBOL)
    category = words.NO_CARD if top is None else top.category
    tag = _tag(view, seat)
    if tag and len(category) + 2 + len(tag) <= room:
        category = f"{category:<{room - len(tag) - 1}} {tag}"
    rows = textwrap.wrap(category, room) or [""]
    lines = [[*head, (style or "class:category", rows[0])]]
    indent = " " * (width - room)
    lines += [[("", indent), ("class:category", row)] for row in rows[1:]]
    return lines


def header_line(table: FaceoffTable) -> Line:
    player, won, card, category = words.HEADER
    room = name_width(table)
    return [("class:header", f"{'':{MARK}}{player:<{room}}{won:>3} {card:<{SYMBOL}}{category}")]


def faceoff_lines(table: FaceoffTable, duel: FaceoffView, width: int) -> list[Line]:
    """The face-off, standing out: who against whom, what each answers, what waits."""
    view, names = table.view, table.names
    lines = said(words.faceoff_head(view, names, duel, view.cascade), width, "class:faceoff")
    tie = duel.tie_card is not None
    for seat, card in ((duel.a, duel.a_answers), (duel.b, duel.b_answers)):
        owner = None if tie else (duel.b if seat == duel.a else duel.a)
        text = words.must_answer(view, names, seat, card, owner)
        lines += said(text, width, "class:strong", indent=3)
    if tie:
        lines += said(words.tie_line(duel), width, "class:strong", indent=3)
    if duel.claimant is not None:
        lines += said(words.waiting_line(view, names, duel), width, "class:vote", indent=3)
    return lines


def prompt_lines(table: FaceoffTable, width: int) -> list[Line]:
    view = table.view
    prompt = words.answer_prompt(view, table.typed)
    if prompt:
        return said(prompt, width, "class:input")
    if view.faceoff is None:
        return said(words.turn_line(view, table.names), width, "class:strong")
    return []


def key_lines(view: TableView, width: int) -> list[Line]:
    return gamescreen.key_lines(keys.live(view), width)


def table_screen(table: FaceoffTable, width: int, height: int, framed: bool = False) -> list[Line]:
    """The game on; ``framed``: inside the table's frame (its title, notices and key bar)."""
    view = table.view
    body: list[Line] = [] if framed else said(words.title_line(view), width, "class:title", 0)
    body += said(words.piles_line(view), width, indent=0)
    body.append(header_line(table))
    for seat in range(len(view.tops)):
        body += player_lines(table, seat, width)
    body.append([])
    if view.faceoff is not None:
        body += faceoff_lines(table, view.faceoff, width)
        if view.dropped is not None:
            body += said(words.dropped_line(view, table.names), width)
    if view.strangers:
        body += said(words.strangers_line(view, table.names), width, "class:strong")
    body += prompt_lines(table, width)
    if view.faceoff is None and view.last is not None:
        body += said(words.last_line(view, table.names), width)
    notice = [] if framed else said(table.notice, width, "class:notice")
    foot = [*notice, *([] if framed else key_lines(view, width))]
    room = height - len(body) - len(foot)
    if room > 0 and view.mode is Mode.TYPED:  # spoken answers are the room's: none is listed
        body += said(words.said_line(view.said, width - 2), width, "class:said")
    return stack(body, foot, height)


def over_screen(table: FaceoffTable, width: int, height: int, framed: bool = False) -> list[Line]:
    """The end: every player's cards won, most first, and the winners."""
    view = table.view
    body: list[Line] = [] if framed else said(words.title_line(view), width, "class:title", 0)
    body += said(words.ending_line(view, table.names), width, "class:strong")
    body.append([])
    ranked = sorted(range(len(view.won)), key=lambda s: (-view.won[s], s))
    for seat in ranked:
        best = "  winner" if seat in view.winners else ""
        name = _cut(_name(table, seat), name_width(table))
        body.append([("class:name", f"   {name}"),
                     ("class:count", f"{view.won[seat]:>3} won{best}")])  # fmt: skip
    return stack(body, [] if framed else key_lines(view, width), height)


def help_lines(width: int) -> list[Line]:
    """How to play and the keys, in a few lines of ``width``."""
    rows = textwrap.wrap(" ".join(words.HELP), width - 1)
    return [[("", " " + row)] for row in rows]


def render_lines(table: FaceoffTable, width: int, height: int, framed: bool = False) -> list[Line]:
    if table.view.phase is Phase.OVER:
        lines = over_screen(table, width, height, framed)
    else:
        lines = table_screen(table, width, height, framed)
    return [fit(line, width) for line in lines]


def render(
    table: FaceoffTable, width: int = 80, height: int = 24, framed: bool = False
) -> StyleAndTextTuples:
    """The whole screen: at most ``height`` lines of at most ``width`` columns."""
    return joined(render_lines(table, width, height, framed))


def plain(table: FaceoffTable, width: int = 80, height: int = 24) -> Sequence[str]:
    """The screen's text, line by line, as a terminal without colour shows it."""
    return gamescreen.plain(render_lines(table, width, height))
