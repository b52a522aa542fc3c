"""What a TV shows of a game of Blitz! (``TableGame.tv_board``): the public view in the
page's own vocabulary, as JSON-ready plain values.

A TV is seen by the whole room, and nothing in Blitz! is private (F-43), so the view any
seat gets serves it whole. The face-off is the headline: a cascade's length, who against
whom, the category each must answer, the answer that waits and the vote on it, live. The
page knows no game; this is the game's half.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .pack import SYMBOLS, is_duel, symbol_of
from .state import Phase
from .views import CardFace, TableView

Json = dict[str, Any]


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"


LEGEND = (
    "Each card: its symbol's letter, big, and its shape; under it, its category. "
    "Two tops of one symbol face off: each names an example of the other's category."
)


def board_card(face: CardFace | None) -> Json | None:
    """A turned card in the page's vocabulary: the symbol's letter big, its shape small."""
    if face is None:
        return None
    if is_duel(face.card):
        return {"label": "Duel", "value": "⚔", "mark": "Duel", "colour": "yellow"}
    symbol = SYMBOLS[symbol_of(face.card)]
    return {"label": f"{symbol} {face.category}", "value": symbol.letter,
            "mark": symbol.shape, "colour": ""}  # fmt: skip


def _area(view: TableView, index: int) -> Json:
    face = view.tops[index]
    duel = view.faceoff
    fighting = duel is not None and index in (duel.a, duel.b)
    status = (
        "FACE-OFF" if fighting
        else "out" if index not in view.active
        else "turns a card" if view.phase is Phase.TURN and view.turn == index
        else ""
    )  # fmt: skip
    return {
        "status": status,
        "places": [
            {"key": "top", "caption": face.category if face is not None else "no card yet",
             "top": board_card(face), "count": view.play_left[index]},
            {"key": "won", "caption": f"won {view.won[index]}", "top": None,
             "count": view.won[index]},
        ],
    }  # fmt: skip


def _board_headline(view: TableView, names: Sequence[str]) -> str:
    duel = view.faceoff
    if view.phase is Phase.OVER:
        won = " and ".join(_name(names, seat) for seat in view.winners)
        return f"Game over: {won} won" if won else "Game over"
    if duel is not None:
        a, b = _name(names, duel.a), _name(names, duel.b)
        chain = (
            ""
            if view.cascade == 0
            else "CASCADE  "
            if view.cascade == 1
            else (f"CASCADE x{view.cascade}  ")
        )
        line = (
            f"{chain}FACE-OFF  {a} names {duel.a_answers.category}"
            f"  vs  {b} names {duel.b_answers.category}"
        )
        if duel.claimant is not None:
            said = f'"{duel.text}"' if duel.text else "I answered first!"
            vote = f"  (vote: {duel.yes} yes, {duel.no} no)" if duel.voting else ""
            line += f"  ·  {_name(names, duel.claimant)}: {said}{vote}"
        return line
    if view.last is not None:
        winner, loser, text = view.last
        how = f' with "{text}"' if text else ""
        return f"{_name(names, winner)} beat {_name(names, loser)}{how}"
    if view.phase is Phase.TURN:
        return f"{_name(names, view.turn)} turns a card"
    return ""


def board(view: TableView, seats: Sequence[int], names: Mapping[int, str]) -> Json:
    """The page's data for a hosted game of Blitz!: the draw piles and the active Duel in
    the centre, each player's top card and cards won, the face-off as the headline.
    ``seats`` maps the game's seat index to the table's seat, ``names`` is by table seat."""
    by_index = [names.get(seat, f"seat {seat + 1}") for seat in seats]
    duel = "none yet"
    if view.duel_pair is not None:
        duel = " and ".join(view.duel_pair)
    return {
        "centre": [
            {"key": "draw", "caption": "Draw piles",
             "piles": [{"top": None, "count": left} for left in view.draw_left], "done": 0},
            {"key": "duel", "caption": f"Duel: {duel}", "piles": [], "done": view.duels},
        ],
        "areas": {str(seats[i]): _area(view, i) for i in range(len(seats))},
        "headline": _board_headline(view, by_index),
        "progress": f"One game · {sum(view.draw_left)} cards left to turn",
        "legend": LEGEND,
        "unit": "cards",  # a score is the cards won (F-42)
    }  # fmt: skip
