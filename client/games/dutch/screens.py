"""Dutch's screens, as styled text: pure functions of what one seat may see.

Every player sits on a row, a letter before the name (``b Bea``), each card under its
number: ``##`` face down, ``(7d)`` a card you remember (only you see it), ``7d`` a card
face up to all. The piles and the race window sit in the middle, your own row at the
foot, then what just happened and the keys. A spectator's table (nobody at it, D-42) has
every row above the piles, and the prompt tells whose turn it is. It reads without colour,
and fits 80 x 24; a smaller terminal drops the blank lines and the older news first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dutchblitz.protocol.games.dutch.views import (
    CardView,
    Did,
    Happening,
    Phase,
    PlayerView,
    RoundView,
)
from prompt_toolkit.formatted_text import StyleAndTextTuples

from ... import gamescreen
from ...gamescreen import Line, fit, joined, stack
from . import words
from .keys import CARD_KEYS, PLAYER_KEYS, bar
from .words import Seats, card_words

FACE_DOWN = "##"
CELL = 8  # "1 (10h) "
ROW_TAIL = 17  # "4 cards  <- turn" after the cards
MIN_NAME_COLUMN = 6
MAX_NAME_COLUMN = 16


@dataclass(frozen=True, slots=True)
class DutchTable:
    """What a Dutch screen shows: one seat's view of the round, and the game around it."""

    view: RoundView
    names: tuple[str, ...]
    totals: tuple[int, ...]  # the game's scores before this round
    bots: frozenset[int] = frozenset()
    round_number: int = 1
    target: int | None = None
    rounds: int | None = None
    news: tuple[Happening, ...] = ()  # the latest last
    typed: str = ""  # a half-typed command
    notice: str = ""  # why the last key did nothing
    game_over: bool = False
    winners: tuple[int, ...] = ()
    sits_later: bool = False  # this node's person is not dealt in: they play the next game


def cell(card: CardView | None) -> tuple[str, str]:
    """A card's text and style: face down, remembered (in brackets) or face up."""
    if card is None:
        return "--", "class:gap"
    if card.face is None:
        return FACE_DOWN, "class:facedown"
    label = card_words(card.face)
    style = "class:card.red" if card.face.is_red else "class:card.black"
    return (label, style) if card.face_up else (f"({label})", f"{style} class:remembered")


def said(text: str, width: int, style: str = "", indent: int = 3) -> list[Line]:
    """A sentence in lines of ``width``, wrapped at words, never cut; one column spare."""
    return gamescreen.said(text, width, style, indent, spare=1)


def _name_width(table: DutchTable, width: int) -> int:
    cards = max(len(p.hand) for p in table.view.players)
    room = width - 2 - cards * _cell_width(table, width) - ROW_TAIL
    return max(MIN_NAME_COLUMN, min(MAX_NAME_COLUMN, room))


def _cell_width(table: DutchTable, width: int) -> int:
    cards = max(len(p.hand) for p in table.view.players)
    return CELL if 2 + MIN_NAME_COLUMN + cards * CELL + ROW_TAIL <= width else CELL - 1


def _tag(table: DutchTable, player: PlayerView) -> str:
    view = table.view
    tags = []
    if player.seat == view.caller:
        tags.append("DUTCH")
    if not player.at_table:
        tags.append("left")
    elif view.phase is Phase.PEEK and not player.peeked:
        tags.append("peeking")
    elif player.seat == view.turn and view.phase not in (Phase.PEEK, Phase.OVER):
        tags.append("<- turn")
    return " ".join(tags)


def _cut(name: str, room: int) -> str:
    """``name`` in ``room`` columns, the last a space. A name too long loses its middle,
    not its last word, which tells two bots of one level apart ("forgetful… 164")."""
    if len(name) <= room - 1:
        return name.ljust(room)
    head, _, last = name.rpartition(" ")
    if head and len(last) + 3 <= room - 1:
        keep = room - 1 - len(last) - 2
        return f"{head[:keep].rstrip()}… {last}".ljust(room)
    return (name[: room - 2] + "…").ljust(room)


def player_line(table: DutchTable, player: PlayerView, width: int) -> Line:
    mine = player.seat == table.view.me
    own = table.names[player.seat]
    room = _name_width(table, width)
    bot = " (bot)" if player.seat in table.bots and len(own) + 7 <= room else ""
    name = own + bot
    if mine:
        fits = own != "you" and len(own) + 7 <= _name_width(table, width)
        name = f"you ({own})" if fits else "you"
    line: Line = [("class:key", f"{PLAYER_KEYS[player.seat]} "), ("class:name", _cut(name, room))]
    step = _cell_width(table, width)
    for slot, card in enumerate(player.hand):
        text, style = cell(card)
        key = CARD_KEYS[slot] if slot < len(CARD_KEYS) else " "
        line += [("class:key", f"{key} "), (style, text), ("", " " * (step - 2 - len(text)))]
    count = f"{player.cards} card{'s' if player.cards != 1 else ''}"
    line.append(("class:count", f"{count}  "))
    tag = _tag(table, player)
    if tag:
        line.append(("class:strong", tag))
    return line


def _others(view: RoundView) -> list[PlayerView]:
    """The rows above the piles: the players after you, in turn; for nobody at the table
    (a spectator), every player in seat order."""
    if view.me is None:
        return list(view.players)
    seats = len(view.players)
    return [view.players[(view.me + step) % seats] for step in range(1, seats)]


def centre_lines(table: DutchTable, width: int) -> list[Line]:
    view = table.view
    top: CardView | None = None if view.discard_top is None else CardView(view.discard_top, True)
    top_text, top_style = cell(top) if top is not None else ("empty", "class:hint")
    piles: Line = [
        ("class:header", "   Draw "),
        ("class:facedown", FACE_DOWN),
        ("class:count", f" {view.draw_left} left   "),
        ("class:header", "Discard "),
        (top_style, top_text),
    ]
    if view.discarded:
        piles.append(
            ("class:count", f" ({view.discarded} card{'s' if view.discarded != 1 else ''})")
        )
    if view.drawn is not None:
        held, style = cell(view.drawn)
        holder = "you hold" if view.turn == view.me else f"{table.names[view.turn]} holds"
        piles += [("class:header", f"   {holder} "), (style, held)]
    race = said(words.dutch_race(view), width, "class:strong")
    return [piles, *race, *said(words.dutch_called(view, table.names), width, "class:strong")]


def my_lines(table: DutchTable, width: int) -> list[Line]:
    """The prompt under your row: what you hold, what to press."""
    view = table.view
    prompt = words.dutch_prompt(view, table.names, table.typed)
    later = words.DUTCH_SITS_LATER if table.sits_later else ""
    return said(" ".join(filter(None, (prompt, later))), width, "class:strong")


def news_lines(table: DutchTable, width: int, room: int) -> list[Line]:
    """The latest news that fits in ``room`` lines, each item whole."""
    seats = Seats(table.names, table.view.me)
    items: list[list[Line]] = []
    raced = False
    for did in table.news:
        first = did.did is Did.MATCHED and not raced
        raced = raced or did.did is Did.MATCHED
        if did.did not in (Did.MATCHED, Did.MISSED, Did.CALLED):
            raced = False  # a new turn: the next matching throw is first again
        news = words.dutch_news(did, seats, first)
        items.append(said(f"{news[:1].upper()}{news[1:]}", width))
    kept: list[Line] = []
    for item in reversed(items):
        if len(kept) + len(item) > room:
            break
        kept = item + kept
    return kept


def key_lines(table: DutchTable, width: int) -> list[Line]:
    return gamescreen.key_lines(bar(table.view, table.game_over), width)


def title_line(table: DutchTable) -> Line:
    length = words.dutch_length(table.target, table.rounds)
    return [("class:title", f" Dutch  round {table.round_number}  {length}")]


def round_screen(table: DutchTable, width: int, height: int, framed: bool = False) -> list[Line]:
    """The round; ``framed``: inside the table's frame, whose title bar, notices and key
    bar say the rest."""
    view = table.view
    others = [player_line(table, p, width) for p in _others(view)]
    own = [] if view.mine is None else [player_line(table, view.mine, width)]
    mine = [*own, *my_lines(table, width)]
    centre = centre_lines(table, width)
    notice = [] if framed else said(table.notice, width, "class:notice", indent=1)
    keys = [] if framed else key_lines(table, width)
    title = [] if framed else [title_line(table)]
    fixed = len(title) + len(others) + len(centre) + len(mine) + len(notice) + len(keys)
    spare = height - fixed
    blanks = min(max(spare - 2, 0), 3)  # blank lines around the piles, and before the news
    news = news_lines(table, width, spare - blanks)
    blank: list[Line] = [[]]
    body = [*title, *(blank if blanks >= 3 else []), *others]
    body += [*(blank if blanks >= 1 else []), *centre]
    body += [*(blank if blanks >= 2 else []), *mine, *news]
    return stack(body, [*notice, *keys], height)


def scores_screen(table: DutchTable, width: int, height: int, framed: bool = False) -> list[Line]:
    """The reveal and the round's scores; at the end of the game, the winners."""
    view = table.view
    score = view.score
    body: list[Line] = [] if framed else [title_line(table), []]
    body += said(words.dutch_ending(view, table.names), width, "class:strong", indent=1)
    body.append([])
    head = f"   {'':{_name_width(table, width)}}"
    body.append([("class:header", f"{head}{'hand':>5}{'round':>7}{'game':>7}")])
    for player in view.players:
        row = player_line(table, player, width)[:2]
        total = "?" if score is None else str(score.hand_totals[player.seat])
        added = 0 if score is None else score.scores[player.seat]
        game = table.totals[player.seat] + added
        row += [("", f" {total:>5}{added:>+7}{game:>7}   ")]
        for card in player.hand:
            text, style = cell(card)
            row += [(style, text), ("", " ")]
        body.append(row)
    if score is not None and score.extra:
        extra = " ".join(card_words(c) for c in score.extra)
        body += said(words.dutch_extra(view, table.names, extra, table.game_over), width)
    body.append([])
    if table.game_over:
        this_round = score.scores if score is not None else (0,) * len(table.totals)
        best = min(t + a for t, a in zip(table.totals, this_round, strict=True))
        won = (
            words.dutch_winners(table.winners, table.names, view.me, best)
            if table.winners
            else words.no_winner()
        )
        body += said(won, width, "class:strong", indent=1)
    keys = [] if framed else key_lines(table, width)
    return stack(body, keys, height)


def render_lines(table: DutchTable, width: int, height: int, framed: bool = False) -> list[Line]:
    if table.view.phase is Phase.OVER:
        lines = scores_screen(table, width, height, framed)
    else:
        lines = round_screen(table, width, height, framed)
    return [fit(line, width) for line in lines]


def render(
    table: DutchTable, width: int = 80, height: int = 24, framed: bool = False
) -> StyleAndTextTuples:
    """The whole screen: at most ``height`` lines of at most ``width`` columns."""
    return joined(render_lines(table, width, height, framed))


def plain(table: DutchTable, width: int = 80, height: int = 24) -> Sequence[str]:
    """The screen's text, line by line, as a terminal without colour shows it."""
    return gamescreen.plain(render_lines(table, width, height))
