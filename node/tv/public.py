"""The page's data: the public table of a ``Snapshot``, as JSON-ready plain values.

A TV is seen by the whole room, so this reads only what every player at the table
sees: the final game (``Snapshot.stable``, never our own moves in flight). The frame is
the table's and knows no game: the game's title, who sits, who is ready or away, the
totals, each round's scores, the winner. What a round looks like is the game's own
public drawing (``GameView.board()``, made by ``TableGame.tv_board`` in the game's folder,
e.g. protocol/games/dutch/tv.py): the shared places (``centre``), each player's places
(``areas``), a line over the table (``headline``) and how its cards read (``legend``).
Each game makes it of what every player sees, never a face-down card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dutchblitz.protocol.views import GameView

from ..api import Snapshot

Json = dict[str, Any]


def _names(game: GameView) -> dict[int, str]:
    return {member.seat: member.name for member in game.members.values()}


def _players(game: GameView, areas: Mapping[str, Any]) -> list[Json]:
    """Every player: in the lobby those seated, from the start those dealt in."""
    table = game.table
    players = []
    for member in game.seated():
        seat = member.seat
        players.append(
            {
                "seat": seat,
                "name": member.name,
                "back": member.back,
                "ready": member.ready,
                "present": member.present,
                "away": seat in game.away,
                "total": game.totals.get(seat, 0),
                # None: the game keeps no score within a round to show (Dutch, Blitz!)
                "live": None if table is None else table.live.get(seat, 0),
                "area": areas.get(str(seat)),
            }
        )
    return players


def _results(game: GameView) -> list[Json]:
    names = _names(game)
    return [
        {
            "round": result.round,
            "scores": {str(seat): points for seat, points in sorted(result.scores.items())},
            "ended_by": None if result.blitz_by is None else names.get(result.blitz_by, ""),
        }
        for result in game.results
    ]


def public_view(snap: Snapshot) -> Json:
    """What the TV page shows of ``snap``: the table as every player sees it; while the
    node has no table yet (its lobby shows before its seat has found one), only that."""
    if not snap.players:
        return {"phase": "starting"}
    game = snap.stable
    board = game.board()  # drawn now, in the turn the snapshot was taken
    areas, centre = board.get("areas"), board.get("centre")
    names = _names(game)
    return {
        "table": snap.table,
        "title": game.title,
        "phase": game.phase.value,
        "game": game.game_number,
        "round": game.round,
        "target": game.target,
        "rounds": game.rounds,
        "players": _players(game, areas if isinstance(areas, Mapping) else {}),
        "centre": list(centre)
        if isinstance(centre, Sequence) and not isinstance(centre, str)
        else [],
        "headline": board.get("headline", ""),
        "progress": board.get("progress", ""),
        "legend": board.get("legend", ""),
        "unit": board.get("unit", "points"),
        "results": _results(game),
        "winner": None if game.winner is None else names.get(game.winner, ""),
    }
