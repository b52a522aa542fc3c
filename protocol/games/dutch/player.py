"""A Dutch seat's player and bots as the node knows them: ``DutchPlayer`` (table/player.py).

Dutch's bots play through the table's duties (``SeatDuties.seat_bot``, game.py), with the
seat's secrets; here are their levels and pace. A person's seat sees the round through
``seat_view`` (views.py ``SeatView``: the faces opened to it added, worked out from the
sealed shares with its secrets, mind.py; a spectator sees through it the faces open to
all), and its face's moves (moves.py) become GAME bodies in ``body``, checked first
against the round as that seat knows it. Dutch has no ``Action`` of Dutch Blitz's:
``check`` and ``build`` refuse them ``not_carried``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ...messages import Body, GameBody
from ...table.player import ActRefusal, CameBack
from ...table.rules import SeatSecrets
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
from .table import DutchTable, Stage
from .views import SeatView, happened, round_view
from .wire import GAME_ID, Payload, encode

if TYPE_CHECKING:
    from ...core import Replica
    from ...table.game import Game

THINK: Final = {BotLevel.FORGETFUL: (0.3, 0.9), BotLevel.CAREFUL: (0.2, 0.6)}  # seconds
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


@dataclass(slots=True)
class NoPlays:
    """A Dutch seat holds no plays: its moves wait for nothing of its own."""

    submit: Callable[[Body], bool]

    @property
    def held(self) -> Sequence[object]:
        return ()

    @property
    def full(self) -> bool:
        return False

    def view(self, replica: Replica) -> Game:
        return replica.optimistic()

    def offer(self, replica: Replica, move: Any, round_number: int) -> bool:
        return False

    def pump(self, replica: Replica) -> Sequence[CameBack]:
        return ()


class DutchPlayer:
    """Dutch's ``PlayerRules``."""

    @property
    def levels(self) -> Mapping[str, BotLevel]:
        return {level.value: level for level in BotLevel}

    @property
    def max_held(self) -> int:
        return 0

    def think_time(self, level: Any, rng: Any) -> float:
        low, high = THINK.get(level, THINK[BotLevel.CAREFUL])
        return float(rng.uniform(low, high))

    def check(self, state: Any, seat: int, action: str) -> ActRefusal | None:
        return ActRefusal("not_carried")

    def build(self, state: Any, seat: int, action: str, slot: int) -> Any | ActRefusal:
        return ActRefusal("not_carried")

    def seat_view(
        self, state: Any, seat: int | None, secrets: SeatSecrets | None
    ) -> SeatView | None:
        return seat_view(state, seat, secrets)

    def body(
        self, state: Any, seat: int, move: object, round_number: int, secrets: SeatSecrets | None
    ) -> Body | ActRefusal:
        return body(state, seat, move, round_number, secrets)

    def plays(self, node_id: bytes, submit: Callable[[Body], bool]) -> NoPlays:
        return NoPlays(submit)

    def came_back(self, returned: CameBack) -> ActRefusal:
        return ActRefusal(returned.reason)

    def moved_card(self, move: Any) -> str:
        return ""

    def lost_race(self, code: str) -> bool:
        return False

    def stalemates(self, state: Any) -> int:
        return 0


def _faces(table: DutchTable, me: int, secrets: SeatSecrets | None) -> dict[int, DutchCard]:
    return {} if secrets is None else mind.faces(table, me, secrets)


def seat_view(state: Any, seat: int | None, secrets: SeatSecrets | None) -> SeatView | None:
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
    state: Any, seat: int, move: object, round_number: int, secrets: SeatSecrets | None
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


PLAYER = DutchPlayer()
