"""A Dutch seat's player and bots as the node knows them: ``DutchPlayer`` (table/player.py).

Dutch's bots play through the table's duties (``SeatDuties.seat_bot``, game.py), with the
seat's secrets; here are their levels and pace. A person's key presses are not carried to
the table yet: every action is refused ``not_carried``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ...messages import Body
from ...table.player import ActRefusal, CameBack
from .bots import BotLevel

if TYPE_CHECKING:
    from ...core import Replica
    from ...table.game import Game

THINK: Final = {BotLevel.FORGETFUL: (0.3, 0.9), BotLevel.CAREFUL: (0.2, 0.6)}  # seconds


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


PLAYER = DutchPlayer()
