"""What a TV page draws of a round of Dutch (``TableGame.tv_board``): its public table.

A TV is seen by the whole room, so it shows the round as nobody at the table sees it
(D-42, ``round_view(round, None)``): each player's row of cards, face down but for those
opened to all, the draw pile's size, the discard pile's top, whose turn it is, who called
Dutch, and at the round's end each hand's total. Never a face that only a seat may see.
The page draws it in the vocabulary of ``RoundRules.tv_board`` and knows no game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...table.rules import Json
from .cards import DutchCard
from .state import Phase
from .table import DutchTable
from .views import CardView, PlayerView, RoundView, round_view

TIMES = "\N{MULTIPLICATION SIGN}"  # a count after a label, as in "Hand, 5 cards"

_DOING = {
    Phase.PEEK: "everyone peeks at two of their cards",
    Phase.DRAW: "{name} draws",
    Phase.DECIDE: "{name} keeps or discards the card drawn",
    Phase.ACTION: "{name} uses the card's action",
}


def card_json(face: DutchCard | None) -> Json:
    """A face open to all (None: a card face down). The label is the terminal's (``10h``,
    ``Ks``, ``*``): the big rank, then the suit letter."""
    if face is None:
        return None
    label = face.label()
    rank = label if face.is_joker else label[:-1]
    return {
        "label": label,
        "value": rank,
        "mark": label[len(rank) :],
        "colour": "red" if face.is_red else "black",
    }


def _shown(card: CardView | None) -> dict[str, Json]:
    """A place in a row: a card face up or down, or the gap a thrown card left."""
    if card is None:
        return {"top": None, "count": 0}
    return {"top": card_json(card.face if card.face_up else None), "count": 1}


def _name(names: Mapping[int, str], seat: int) -> str:
    return names.get(seat, f"seat {seat + 1}")


def _area(view: RoundView, player: PlayerView, index: int) -> Json:
    places: list[Json] = [
        {
            "key": "row",
            "caption": f"Cards {TIMES}{player.cards}",
            "row": [_shown(c) for c in player.hand],
        }
    ]
    if view.drawn is not None and view.turn == index and view.phase is not Phase.OVER:
        drawn = _shown(view.drawn)
        places.append({"key": "drawn", "caption": "Drawn", "top": drawn["top"], "count": 1})
    if view.score is not None:
        total = view.score.hand_totals[index]
        places.append({"key": "total", "caption": f"{total} in hand", "top": None, "count": 0})
    status = "out" if not player.at_table else "Dutch!" if view.caller == index else ""
    return {"status": status, "places": places}


def _headline(view: RoundView, seats: Sequence[int], names: Mapping[int, str]) -> str:
    if view.phase is Phase.OVER:
        return "The round is over: every hand is shown"
    doing = _DOING[view.phase].format(name=_name(names, seats[view.turn]))
    if view.caller is None:
        return doing[0].upper() + doing[1:]
    caller = _name(names, seats[view.caller])
    return f"{caller} called Dutch; {doing}"


def board(table: DutchTable, names: Mapping[int, str]) -> Mapping[str, Json]:
    """The page's data for Dutch's public round; ``names`` by table seat."""
    if table.round is None:
        return {"centre": [], "areas": {}, "headline": "Shuffling the deck"}
    view = round_view(table.round, None)
    top = {"top": card_json(view.discard_top), "count": view.discarded}
    return {
        "centre": [
            {
                "key": "draw",
                "caption": "Draw pile",
                "piles": [{"top": None, "count": view.draw_left}],
                "done": 0,
            },
            {"key": "discard", "caption": "Discard pile", "piles": [top], "done": 0},
        ],
        "areas": {str(table.seats[p.seat]): _area(view, p, p.seat) for p in view.players},
        "headline": _headline(view, table.seats, names),
        "legend": "Cards read 10h: rank, then suit (c d h s); * is a Joker.",
    }
