"""The page's data: the public table of a ``Snapshot``, as JSON-ready plain values.

A TV is seen by the whole room, so this reads only what every player at the table
sees: the final game (``Snapshot.stable``, never our own moves in flight), each
player's Blitz top and count, Post tops, Wood top and count, the hand's size, the
centre piles, the scores. Never a face-down card, and never the cards the serving
node knows of its own seat (its hand, the Blitz cards under the top, the Wood under
the top): what is read here is a top or a count, so a hidden card cannot slip in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dutchblitz.protocol.views import AreaView, Colour, GameView, Slot, TableView

from ..api import Snapshot

Json = dict[str, Any]


def card_json(card: Slot) -> Json | None:
    """A face-up card as the page draws it (None: no card, or one face down).

    The label is the terminal's (``5R♂``, protocol/games/blitz/cards.py): one home for the
    letters and symbols."""
    if card is None:
        return None
    return {
        "label": card.label(),
        "value": card.value,
        "colour": card.colour.name.lower(),
        "letter": card.colour.letter,
        "boy": card.is_boy,
    }


def _top(pile: Sequence[Slot]) -> Json | None:
    return card_json(pile[-1]) if pile else None


def _names(game: GameView) -> dict[int, str]:
    return {member.seat: member.name for member in game.members.values()}


def _area(area: AreaView) -> Json:
    return {
        "blitz": {"top": _top(area.blitz), "count": len(area.blitz)},
        "posts": [{"top": _top(stack), "count": len(stack)} for stack in area.post],
        "wood": {"top": _top(area.wood), "count": len(area.wood)},
        "hand": area.hand,
        "stuck": area.stuck,
        "active": area.active,
    }


def _centre(table: TableView) -> list[Json]:
    """The centre piles by colour, each pile's top and size; full piles counted, not drawn."""
    centre = []
    for colour in Colour:  # every colour, a pile or not: the page keeps its places
        piles = [pile for pile in table.piles if pile.colour == colour]
        open_piles = [pile.cards for pile in piles if not pile.full]
        centre.append(
            {
                "colour": colour.name.lower(),
                "letter": colour.letter,
                "piles": [{"top": _top(cards), "count": len(cards)} for cards in open_piles],
                "done": len(piles) - len(open_piles),
            }
        )
    return centre


def _players(game: GameView) -> list[Json]:
    """Every player: in the lobby those seated, from the start those dealt in."""
    table = game.table
    players = []
    for member in game.seated():
        seat = member.seat
        player: Json = {
            "seat": seat,
            "name": member.name,
            "back": member.back,
            "ready": member.ready,
            "present": member.present,
            "away": seat in game.away,
            "total": game.totals.get(seat, 0),
            "live": 0 if table is None else table.live.get(seat, 0),
            "area": None,
        }
        if table is not None and seat in table.areas:
            player["area"] = _area(table.areas[seat])
        players.append(player)
    return players


def _results(game: GameView) -> list[Json]:
    names = _names(game)
    return [
        {
            "round": result.round,
            "scores": {str(seat): points for seat, points in sorted(result.scores.items())},
            "blitz_by": None if result.blitz_by is None else names.get(result.blitz_by, ""),
        }
        for result in game.results
    ]


def public_view(snap: Snapshot) -> Json:
    """What the TV page shows of ``snap``: the table as every player sees it."""
    game = snap.stable
    table = game.table
    names = _names(game)
    return {
        "table": snap.table,
        "phase": game.phase.value,
        "game": game.game_number,
        "round": game.round,
        "target": game.target,
        "post_stacking": snap.post_stacking,
        "players": _players(game),
        "centre": [] if table is None else _centre(table),
        "stalemates": 0 if table is None else table.stalemates,
        "results": _results(game),
        "winner": None if game.winner is None else names.get(game.winner, ""),
    }
