"""What a TV shows of a game of Blitz!: the public view as JSON-ready plain values.

A TV is seen by the whole room, and nothing in Blitz! is private (F-43), so the view any
seat gets serves it whole. The face-off is the headline: who against whom, the category
each must answer on whose card, the answer that waits and the vote on it, live. The page's
generic hook (which game's data to draw) is the table's; this is the game's half.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import TAG, TITLE
from .pack import SYMBOLS, is_duel, symbol_of
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
