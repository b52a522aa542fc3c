"""A round in play: a move comes as a PLAY (Dutch Blitz's) or as a GAME body in the game's
own encoding (spec/protocol.md section 24.6); the table checks whose game and round it is,
the game (``TableGame``) reads it and applies it, and the round ends when the game says so."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..wire.messages import GameBody, Play
from . import audit
from .records import Outcome

if TYPE_CHECKING:
    from .state import Game


def play(game: Game, sender: bytes, body: Play) -> Outcome:
    seat = game.members[sender].seat
    if body.round != game.round:
        return game.refuse("wrong_round")
    try:
        move = game.rules.move_from_play(body, seat)
    except ValueError:
        return game.refuse("bad_move")
    return _move(game, seat, move)


def game_body(game: Game, sender: bytes, body: GameBody) -> Outcome:
    """A move in the game's own encoding: the table checks whose game and round it
    is, and the game reads the payload (spec/protocol.md section 24.6)."""
    if body.game != game.rules.game_id:
        return game.refuse("wrong_game")
    seat = game.members[sender].seat
    try:
        round_number, move = game.rules.move_from_body(body.payload, seat)
    except ValueError as unread:
        if game.table is not None:
            game.rules.refused_body(game.table, seat, str(unread))
            audit.game_findings(game)
        return game.refuse("bad_body")
    if round_number != game.round:
        return game.refuse("wrong_round")
    return _move(game, seat, move)


def _move(game: Game, seat: int, move: object) -> Outcome:
    refusal = game.rules.apply(game.table, move)
    audit.game_findings(game)
    if refusal is not None:
        return game.refuse(str(refusal.reason), refusal.by, move)
    game.steps.append((seat, move))
    if game.rules.round_over(game.table):
        game.end_round()
    return Outcome(move=move)
