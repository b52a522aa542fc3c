"""A Dutch seat's player and bots as the node knows them: ``DutchPlayer``, the
``SeatPlayer`` part of Dutch's ``TableGame`` (table/player.py, game.py).

Every seat owes the round its key, its shuffle and its shares, a person's as a bot's
(``owes_bodies``): the table's duties ask ``seat_duties`` with the seat's own secrets
(mind.py), and before a goodbye ``seat_farewell``. Dutch's bots play through the same
duties (``seat_bot``); here are their levels and pace. A person's seat sees the round
through ``seat_view`` (views.py ``SeatView``: the faces opened to it added, worked out
from the sealed shares with its secrets, mind.py; a spectator sees through it the faces
open to all), and its face's moves (moves.py) become GAME bodies in ``body``, checked
first against the round as that seat knows it. Dutch has no ``Action`` of Dutch Blitz's:
the defaults refuse them ``not_carried``, and no play is held.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ...table.player import ActRefusal, Rng, SeatPlayer
from ...table.rules import SeatSecrets
from ...wire.messages import Body, GameBody
from . import mind
from . import rules as dutch_rules
from .bots import BotLevel
from .cards import DutchCard
from .moves import (
    CallDutch,
    Discard,
    Draw,
    Give,
    InitialPeek,
    Look,
    Outcome,
    Reason,
    Replace,
    Skip,
    Swap,
    Throw,
)
from .state import Phase
from .table import DutchMove, DutchTable, Stage
from .views import SeatView, happened, round_view
from .wire import GAME_ID, Payload, encode

THINK: Final = {BotLevel.FORGETFUL: (0.3, 0.9), BotLevel.CAREFUL: (0.2, 0.6)}  # seconds
# A bot to draw waits this long while the race is open (D-20: its draw closes it), so that
# a person can throw a match, or call Dutch just after their turn (D-28).
RACE_HOLD_S: Final = 2.0
# The moves a person may make (a Leave is the table's to say, M-35).
PERSON_MOVES: Final = (
    InitialPeek,
    Draw,
    Discard,
    Replace,
    Swap,
    Look,
    Give,
    Skip,
    Throw,
    CallDutch,
)


class DutchPlayer(SeatPlayer[DutchTable, DutchMove, SeatView, BotLevel]):
    """Dutch's ``SeatPlayer``: its bots, its seats' duties and a seat's view."""

    owes_bodies: bool = True

    @property
    def levels(self) -> Mapping[str, BotLevel]:
        return {level.value: level for level in BotLevel}

    def think_time(self, level: BotLevel, rng: Rng) -> float:
        low, high = THINK.get(level, THINK[BotLevel.CAREFUL])
        return float(rng.uniform(low, high))

    def seat_view(
        self, state: DutchTable, seat: int | None, secrets: SeatSecrets | None
    ) -> SeatView | None:
        return seat_view(state, seat, secrets)

    def body(
        self,
        state: DutchTable,
        seat: int,
        move: object,
        round_number: int,
        secrets: SeatSecrets | None,
    ) -> Body | ActRefusal:
        return body(state, seat, move, round_number, secrets)

    def seat_duties(self, state: DutchTable, seat: int, secrets: SeatSecrets) -> list[GameBody]:
        if seat not in state.seats:
            return []
        return mind.duties(state, state.seats.index(seat), secrets)

    def seat_bot(
        self, state: DutchTable, seat: int, secrets: SeatSecrets, level: BotLevel
    ) -> GameBody | None:
        if seat not in state.seats:
            return None
        return mind.bot(state, state.seats.index(seat), secrets, level)

    def seat_farewell(self, state: DutchTable, seat: int, secrets: SeatSecrets) -> list[GameBody]:
        if seat not in state.seats:
            return []
        return mind.farewell(state, state.seats.index(seat), secrets)

    def race_hold(self, state: DutchTable, seat: int, level: BotLevel | None = None) -> float:
        played = state.round
        if played is None or seat not in state.seats or not played.window:
            return 0.0
        to_draw = played.phase is Phase.DRAW and played.turn == state.seats.index(seat)
        return RACE_HOLD_S if to_draw else 0.0


def _faces(table: DutchTable, me: int, secrets: SeatSecrets | None) -> dict[int, DutchCard]:
    return {} if secrets is None else mind.faces(table, me, secrets)


def seat_view(state: object, seat: int | None, secrets: SeatSecrets | None) -> SeatView | None:
    """What table seat ``seat`` may see of the round ``state``. Without the seat's secrets
    (a round before this one) only public faces show. A seat not dealt in (a spectator, or
    a person who sat down after the deal), or ``seat`` None, sees what anyone in the room
    may: the faces open to all (D-42). None for a state that is not Dutch's."""
    if not isinstance(state, DutchTable):
        return None
    me = state.seats.index(seat) if seat in state.seats else None
    mine = _faces(state, me, secrets) if me is not None else {}
    shown = None if state.round is None else round_view(mind.known(state.round, mine), me)
    news = tuple(
        happened(mind.known(p.before, mine), p.seat, p.move, Outcome(mind.known(p.after, mine)), me)
        for p in state.played
    )
    waiting = me is not None and any(queued == me for queued, _ in state.queue)
    return SeatView(state.seats, state.stage.value, shown, news, waiting)


def body(
    state: object, seat: int, move: object, round_number: int, secrets: SeatSecrets | None
) -> Body | ActRefusal:
    """A person's move as a GAME body, refused here with the rules' reason when the round
    as this seat knows it refuses it. While a move waits in the order for a card, the
    rules cannot yet say: the move goes, and the table takes or drops it in its turn."""
    if not isinstance(move, PERSON_MOVES):
        return ActRefusal("bad_move")
    if not isinstance(state, DutchTable) or seat not in state.seats:
        return ActRefusal("not_playing")
    if state.stage is not Stage.PLAY or state.round is None:
        return ActRefusal("not_play_time")
    me = state.seats.index(seat)
    known = mind.known(state.round, _faces(state, me, secrets))
    if isinstance(move, Discard | Replace) and known.drawn_unseen(me):
        return ActRefusal(Reason.FACE_NOT_OPEN.value)  # D-41: not seen yet
    if not state.queue:
        refusal = dutch_rules.apply(known, me, move).refusal
        if refusal is not None and refusal.reason is not Reason.FACE_NOT_OPEN:
            return ActRefusal(refusal.reason.value)
    return GameBody(GAME_ID, encode(Payload(round_number, move)))
