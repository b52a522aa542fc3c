"""What a TV shows of a game of Blitz!: the public view as JSON-ready plain values.

A TV is seen by the whole room, and nothing in Blitz! is private (F-43), so the view any
seat gets serves it whole. The face-off is the headline: who against whom, the category
each must answer on whose card, the answer that waits and the vote on it, live. The page's
generic hook (which game's data to draw) is the table's; this is the game's half.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import TAG, TITLE
from .pack import SYMBOLS, is_duel, symbol_of
from .state import Phase
from .views import CardFace, FaceoffView, TableView

Json = dict[str, Any]


def card_json(face: CardFace | None) -> Json | None:
    """A turned card: its number, symbol (letter and shape) and category."""
    if face is None:
        return None
    if is_duel(face.card):
        return {"card": face.card, "duel": True}
    symbol = SYMBOLS[symbol_of(face.card)]
    return {"card": face.card, "letter": symbol.letter, "shape": symbol.shape,
            "category": face.category}  # fmt: skip


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"


def _waiting(duel: FaceoffView, names: Sequence[str]) -> Json | None:
    """The claim or unlisted answer that waits, and its vote (F-27 to F-29)."""
    if duel.claimant is None:
        return None
    return {
        "seat": duel.claimant,
        "name": _name(names, duel.claimant),
        "text": duel.text,
        "key": duel.answer,
        "voting": duel.voting,
        "yes": duel.yes,
        "no": duel.no,
        "voted": sorted(duel.voters),
    }


def _faceoff(duel: FaceoffView | None, names: Sequence[str], cascade: int) -> Json | None:
    if duel is None:
        return None
    tie = duel.tie_card is not None
    sides = []
    for seat, other, face in ((duel.a, duel.b, duel.a_answers), (duel.b, duel.a, duel.b_answers)):
        sides.append({"seat": seat, "name": _name(names, seat), "answers": card_json(face),
                      "card_of": None if tie else other})  # fmt: skip
    return {
        "headline": f"{_name(names, duel.a)} vs {_name(names, duel.b)}",
        "players": sides,
        "tie_card": card_json(duel.tie_card),
        "cascade": cascade,
        "waiting": _waiting(duel, names),
    }


def _players(view: TableView, names: Sequence[str]) -> list[Json]:
    duel = view.faceoff
    fighting = () if duel is None else (duel.a, duel.b)
    return [
        {
            "seat": seat,
            "name": _name(names, seat),
            "top": card_json(top),
            "play": view.play_left[seat],
            "won": view.won[seat],
            "active": seat in view.active,
            "in_faceoff": seat in fighting,
            "turn": view.phase.value == "turn" and seat == view.turn,
        }
        for seat, top in enumerate(view.tops)
    ]


def tv_view(view: TableView, names: Sequence[str] = (), cascade: int = 0) -> Json:
    """The page's data for the public ``view`` (``views.view(state)``); ``names`` by seat,
    ``cascade`` the face-offs in a row with no card turned (``views.cascade``)."""
    pair = None
    if view.duel_pair is not None:
        pair = [
            dict(zip(("letter", "shape"), s.split(" ", 1), strict=True)) for s in view.duel_pair
        ]
    return {
        "game": TAG,
        "title": TITLE,
        "pack": view.pack,
        "mode": view.mode.value,
        "phase": view.phase.value,
        "draw": list(view.draw_left),
        "duel_pair": pair,
        "duels": view.duels,
        "players": _players(view, names),
        "faceoff": _faceoff(view.faceoff, names, cascade),
        "tie_drawer": view.tie_drawer,
        "said": list(view.said),
        "ending": None if view.ending is None else view.ending.value,
        "winners": [_name(names, seat) for seat in view.winners],
        "last": _last(view, names),
        "dropped": None
        if view.dropped is None
        else {
            "seat": view.dropped[0],
            "name": _name(names, view.dropped[0]),
            "text": view.dropped[1],
        },
    }


def _last(view: TableView, names: Sequence[str]) -> Json | None:
    """The last face-off won at a hosted table: who won it, from whom, with what."""
    if view.last is None:
        return None
    winner, loser, text = view.last
    return {"winner": _name(names, winner), "loser": _name(names, loser), "text": text}


# -- the table's TV page (``TableGame.tv_board``) -----------------------------------------

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
        line = (
            f"FACE-OFF  {a} names {duel.a_answers.category}"
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
