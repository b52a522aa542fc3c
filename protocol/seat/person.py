"""A person's keys at a seat: the move an action names, checked and built on the table the
person sees, then sent or held behind the plays on their way (the game's play queue).
Part of ``SeatMachine`` (machine.py), whose ``press`` and ``pump`` are the inputs."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..replica.core import Replica
from ..table.player import ActRefusal, CameBack, HeldPlays, NoPlays, SeatPlayer
from ..table.state import Phase
from ..wire.messages import Body
from .pace import Pace

AnyPlayer = SeatPlayer[Any, Any, Any, Any]


class PersonsPlays:
    """The game a person plays at this seat, its queue of held plays, and the answer to
    the last key (``refused``) and the last pump (``came_back``)."""

    def __init__(self, node_id: bytes, submit: Callable[[Body], bool]) -> None:
        self.node_id = node_id
        self.submit = submit
        self.player: AnyPlayer | None = None
        self.queue: HeldPlays[Any] = NoPlays(submit)
        self.refused: ActRefusal | None = None  # why the last key press took no move
        self.came_back: list[CameBack[Any]] = []  # held plays that could not go

    def take(self, player: AnyPlayer) -> HeldPlays[Any]:
        """A fresh queue for the game ``player`` plays (``SeatPlayer.plays``)."""
        self.player = player
        self.queue = player.plays(self.node_id, self.submit)
        return self.queue

    def press(self, replica: Replica | None, pace: Pace, action: str, slot: int, at: float) -> None:
        """The key's action on the view the queue shows: checked, built, then sent or held."""
        self.refused = self._press(replica, pace, action, slot, at)

    def _press(
        self, replica: Replica | None, pace: Pace, action: str, slot: int, at: float
    ) -> ActRefusal | None:
        player = self.player
        if replica is None or player is None or not replica.can_play():
            return ActRefusal("not_seated")
        game = self.queue.view(replica)
        me = game.seat_of(self.node_id)
        if game.phase != Phase.PLAYING or game.table is None:
            return ActRefusal("no_round")
        if me is None:
            return ActRefusal("not_playing")
        if (not_now := player.check(game.table, me, action)) is not None:
            return not_now
        if self.queue.full:
            return ActRefusal("slow_down", count=player.max_held)
        move = player.build(game.table, me, action, slot)
        if isinstance(move, ActRefusal):
            return move
        count_in = pace.count_in_left(game, at)
        if count_in > 0:  # a legal move, but nobody plays before their count-in ends
            return ActRefusal("count_in", count=math.ceil(count_in))
        if not self.queue.offer(replica, move, game.round):
            return ActRefusal("not_sent")
        return None

    def pump(self, replica: Replica | None) -> None:
        """Send the held plays whose turn has come; keep those that came back."""
        self.came_back = list(self.queue.pump(replica)) if replica is not None else []
