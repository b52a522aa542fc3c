"""What a TV page draws of a round of Dutch Blitz (``TableGame.tv_board``).

A TV is seen by the whole room, so this reads only what every player sees: each player's
Blitz top and count, Post tops, Wood top and count, the hand's size, the centre piles.
Never a face-down card, and never the cards the serving node knows of its own seat (its
hand, the Blitz cards under the top, the Wood under the top): what is read here is a top
or a count of the public view, so a hidden card cannot slip in. The page draws it in the
vocabulary of ``RoundRules.tv_board`` and knows no game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...table.rules import Json
from .cards import Card, Colour
from .state import Slot
from .views import AreaView, TableView

TIMES = "\N{MULTIPLICATION SIGN}"  # a count after a label, as in "Hand, 5 cards"

COLOUR_NAMES = {
    Colour.RED: "Red",
    Colour.BLUE: "Blue",
    Colour.GREEN: "Green",
    Colour.YELLOW: "Yellow",
}


def card_json(card: Slot) -> Json:
    """A face-up card as the page draws it (None: no card, or one face down). The label is
    the terminal's (``5R♂``, cards.py): the big value, then the letter and the symbol."""
    if card is None:
        return None
    value = str(card.value)
    label = card.label()
    return {
        "label": label,
        "value": value,
        "mark": label[len(value) :],
        "colour": card.colour.name.lower(),
    }


def _pile(pile: Sequence[Slot], key: str, caption: str) -> Json:
    return {
        "key": key,
        "caption": caption,
        "top": card_json(pile[-1]) if pile else None,
        "count": len(pile),
    }


def _area(area: AreaView) -> Json:
    blitz = f"Blitz {TIMES}{len(area.blitz)}" if area.blitz else "Blitz!"
    posts = [
        {"top": card_json(stack[-1]) if stack else None, "count": len(stack)} for stack in area.post
    ]
    places: list[Json] = [
        _pile(area.blitz, "blitz", blitz),
        {"key": "posts", "caption": "Posts", "row": posts},
        _pile(area.wood, "wood", f"Wood {TIMES}{len(area.wood)}"),
        {"key": "hand", "caption": f"Hand {TIMES}{area.hand}", "top": None, "count": area.hand},
    ]
    status = "out" if not area.active else "stuck" if area.stuck else ""
    return {"status": status, "places": places}


def _centre(table: TableView) -> list[Json]:
    """The centre piles by colour, each pile's top and size; full piles counted, not drawn."""
    centre: list[Json] = []
    for colour in Colour:  # every colour, a pile or not: the page keeps its places
        piles = [pile for pile in table.piles if pile.colour == colour]
        open_piles: list[tuple[Card, ...]] = [pile.cards for pile in piles if not pile.full]
        tops: list[Json] = [
            {"top": card_json(cards[-1]), "count": len(cards)} for cards in open_piles
        ]
        centre.append(
            {
                "key": colour.name.lower(),
                "caption": f"{COLOUR_NAMES[colour]} ({colour.letter})",
                "piles": tops,
                "done": len(piles) - len(open_piles),
            }
        )
    return centre


def board(table: TableView) -> Mapping[str, Json]:
    """The page's data for Dutch Blitz's public ``table``."""
    return {
        "centre": _centre(table),
        "areas": {str(seat): _area(area) for seat, area in sorted(table.areas.items())},
        "headline": "",
        "legend": "Cards read 5R♂: value, colour (R B G Y), boy ♂ (red, blue), "
        "girl ♀ (green, yellow).",
    }
