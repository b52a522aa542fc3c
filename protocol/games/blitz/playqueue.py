"""A player's plays made while earlier ones are still on their way: taken, shown, sent in order.

A key press is never refused only because an earlier play is in flight. A play that
shares no pile with the plays in flight goes at once; one that does (a second Blitz
card while the first is on its way to the centre) is held here, shown on top of the
others, and goes when the plays it builds on are final: built again on the table as
it is then, so that what it turns face up is right wherever it lands in the order
(protocol/games/blitz/inflight.py, spec/protocol.md section 23). If an earlier play lost its race,
a held play that still can goes anyway; one that cannot comes back, once, with why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...table.records import Phase
from ...wire.messages import Body, Play
from .inflight import again, shares_a_place
from .moves import Move
from .rules import Reason
from .wire_moves import WireMoveError, move_from_play, play_from_move

if TYPE_CHECKING:  # the replica and its game are handed in; the queue builds neither
    from ...replica.core import Replica
    from ...table.state import Game

MAX_HELD = 16  # more held than this is a key held down, not a plan


@dataclass(frozen=True, slots=True)
class HeldPlay:
    move: Move
    round: int


@dataclass(frozen=True, slots=True)
class CameBack:
    """A held play that could not go when its turn came, and the rule that stopped it."""

    move: Move
    reason: Reason


def stuck_call_stands(stable: Game, seat: int, round_number: int) -> bool:
    """Whether our stuck call of this round stands in the stable game (P-153).

    A centre play, or a stalemate, may lapse the call on the optimistic table, but a
    stalemate may yet turn our hand before the centre play that lapses the call is
    final (spec/rules.md R-23, R-24): persons and bots alike wait until it is.
    """
    table = stable.table
    area = table.areas.get(seat) if table is not None else None
    return stable.round == round_number and area is not None and area.stuck


class PlayQueue:
    """One seat's held plays, sent through ``submit`` in the order they were made."""

    def __init__(self, node_id: bytes, submit: Callable[[Body], bool]) -> None:
        self.node_id = node_id
        self.submit = submit
        self.held: list[HeldPlay] = []

    def view(self, replica: Replica) -> Game:
        """The optimistic game with the held plays applied on top: what the player sees."""
        game = replica.optimistic()
        if not self.held:
            return game
        game = game.copy()
        for held in self.held:
            game.apply(self.node_id, play_from_move(held.move, held.round))
        return game

    def offer(self, replica: Replica, move: Move, round_number: int) -> bool:
        """Take a move built and checked on ``view``: send it now if it may go, else hold it.

        False only when it had to go now and could not be written down.
        """
        if not self.held and self.may_go(replica, move, round_number):
            return self.submit(play_from_move(move, round_number))
        self.held.append(HeldPlay(move, round_number))
        return True

    @property
    def full(self) -> bool:
        """So many plays held that the player is far ahead of what the table can take."""
        return len(self.held) >= MAX_HELD

    def may_go(self, replica: Replica, move: Move, round_number: int) -> bool:
        """Whether ``move`` shares no pile with our plays in flight, and no stuck call stands."""
        stable = replica.stable
        seat = stable.seat_of(self.node_id)
        if seat is None:
            return False
        if stuck_call_stands(stable, seat, round_number):
            return False
        return not shares_a_place(move, self._in_flight(replica, seat))

    def _in_flight(self, replica: Replica, seat: int) -> list[Move]:
        moves: list[Move] = []
        for body in replica.pending_own():
            if isinstance(body, Play):
                try:
                    moves.append(move_from_play(body, seat))
                except WireMoveError:
                    continue  # never sent by this node; it changes nothing when applied
        return moves

    def pump(self, replica: Replica) -> list[CameBack]:
        """Send each held play whose turn has come, in order; return those that came back."""
        came_back: list[CameBack] = []
        while self.held:
            head = self.held[0]
            stable = replica.stable
            if stable.round != head.round or stable.phase in (Phase.OVER, Phase.LOBBY):
                self.held.clear()  # the round is over: the Blitz and the scores say so
                break
            game = replica.optimistic()
            table = game.table
            if game.round != head.round or game.phase != Phase.PLAYING or table is None:
                break  # a Blitz not final yet: wait and see
            if table.over or not self.may_go(replica, head.move, head.round):
                break
            self.held.pop(0)
            fresh, reason = again(table, head.move)
            if fresh is None:
                came_back.append(CameBack(head.move, reason or Reason.NOT_ON_TOP))
            elif not self.submit(play_from_move(fresh, game.round)):
                self.held.clear()
                break
        return came_back
