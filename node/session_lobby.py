"""The lobby's half of the client's ``Session`` (node/api.py): what a player chooses before
a game (a name, a back, ready or a rematch, the game, its length and options, bots) and
starting it. Each is refused here, with the reason, when the table would refuse it; the
table's options are proposed into the log (P-261). ``NodeSession`` (session.py) is this
and the reading and playing half.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from dutchblitz.protocol.games.registry import game_for, tags
from dutchblitz.protocol.limits import MAX_GAME_ROUNDS, MAX_NAME, MAX_PLAYERS, MAX_TARGET
from dutchblitz.protocol.replica.core import Replica
from dutchblitz.protocol.seat.duties import can_start, our_start, started_game, table_options
from dutchblitz.protocol.table.state import Phase
from dutchblitz.protocol.wire.messages import Ready

from .api import News, NoticeKind, Refused, Told, Why
from .local_bots import relevel_bots
from .notices import SessionNotices
from .runtime import Node
from .seat.local import LocalSeat
from .store.state import StoreError

if TYPE_CHECKING:
    from .session import GameSide

log = logging.getLogger("dutchblitz.node")


class Background:
    """Work a session's command starts and does not wait for (seating a bot): a failure
    is told on screen."""

    def __init__(self, notices: SessionNotices, changed: Callable[[], None]) -> None:
        self.notices, self.changed = notices, changed
        self._tasks: set[asyncio.Future[object]] = set()

    def run(self, work: Coroutine[Any, Any, object]) -> asyncio.Future[object]:
        task: asyncio.Future[object] = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Future[object]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            failed = Told(News.FAILED, detail=str(task.exception()))
            self.notices.notice(NoticeKind.ALARM, failed)
            self.changed()


class LobbyChoices:
    """A player's choices in the lobby, and starting the game, for one running node."""

    def __init__(
        self, node: Node, side: GameSide, notices: SessionNotices, told: Callable[[], None]
    ) -> None:
        assert node.main is not None, "start the node first"
        self.node = node
        self.seat: LocalSeat = node.main
        self.side = side
        self._told = told  # the screens hear of a change
        self._work = Background(notices, told)
        self._adding: set[asyncio.Future[object]] = set()  # bots on their way to a seat
        self._held: list[Callable[[], Refused | None]] = []  # choices made before a seat

    def set_name(self, name: str) -> Refused | None:
        name = name.strip()
        if not name or len(name.encode()) > MAX_NAME:
            return Refused(Why.BAD_NAME)
        if self._hold(lambda: self.set_name(name)):
            return None
        if (why := self._lobby_only("set_name")) is not None:
            return why
        self.seat.config.wishes.name = name
        self.seat.label = name
        try:
            self.seat.store.save_name(name)  # the next start without --name takes it
        except StoreError as error:
            log.warning("%s: the name is not kept for next time: %s", name, error)
        if self.seat.replica is not None:
            self.seat.replica.me.name = name
        self.seat.poke()
        return None

    def set_back(self, back: str) -> Refused | None:
        backs = game_for(self.side.shown()).backs
        if back not in backs:
            return Refused(Why.NO_BACK, what=back, other=", ".join(backs))
        if self._hold(lambda: self.set_back(back)):
            return None
        if (why := self._lobby_only("set_back")) is not None:
            return why
        replica = self.seat.replica
        assert replica is not None
        for member in replica.optimistic().members.values():
            if member.present and member.back == back and member.node != self.seat.node_id:
                return Refused(Why.BACK_HELD, what=back, other=member.name)
        self.seat.config.wishes.back = back
        replica.me.back = back
        self.seat.poke()
        return None

    def set_ready(self, ready: bool) -> Refused | None:
        """Ready to start; once a game is over, wanting a rematch (spec/rules.md R-49)."""
        replica = self.seat.replica
        if replica is not None and replica.can_play() and replica.stable.phase == Phase.OVER:
            return self._want_rematch(ready)
        if self._hold(lambda: self.set_ready(ready)):
            return None
        if (why := self._lobby_only("set_ready")) is not None:
            return why
        replica = self.seat.replica
        assert replica is not None
        self.seat.config.wishes.ready = ready
        self.seat.config.wishes.ready_for = replica.optimistic().game_number
        me = replica.optimistic().members.get(self.seat.node_id)
        if me is not None and me.ready != ready and not replica.pending_own():
            if not self.seat.submit(Ready(ready)):
                return not_sent(self.seat)
        else:
            self.seat.poke()
        return None

    def _want_rematch(self, want: bool) -> Refused | None:
        replica = self.seat.replica
        assert replica is not None
        me = replica.optimistic().members.get(self.seat.node_id)
        if me is None or not me.present:
            return Refused(Why.LEFT_TABLE)
        if not replica.stable.audit_complete():
            return Refused(Why.AUDIT_OPEN)
        if replica.pending_own():
            return Refused(Why.STEP_ON_ITS_WAY)
        if me.ready != want and not self.seat.submit(Ready(want)):
            return not_sent(self.seat)
        return None

    def start(self) -> Refused | None:
        if self._hold(self.start):
            return None
        why = self._why_not_start()
        if why is not None:
            return why
        replica = self.seat.replica
        assert replica is not None
        if not self.seat.submit(our_start(self.seat.config.wishes, replica.stable)):
            return not_sent(self.seat)
        return None

    def _why_not_start(self) -> Refused | None:
        replica = self.seat.replica
        if replica is None or not replica.can_play():
            return self._not_seated()
        stable = replica.stable
        if stable.phase != Phase.LOBBY:
            return Refused(Why.STARTED)
        named = started_game(self.seat.config.wishes, stable)
        if can_start(stable, self.seat.node_id, named=named):
            return None
        seated = stable.seated()
        if len(seated) < 2:
            return Refused(Why.TOO_FEW_PLAYERS)
        waiting = [m.name for m in seated if not m.ready]
        if waiting:
            return Refused(Why.WAITING_READY, what=", ".join(waiting))
        rules = stable.rules if named is None else game_for(named)
        backs = rules.check_backs([m.back for m in seated])
        return Refused(Why.BACKS_CHOICE, what=backs) if backs else Refused(Why.NO_SEAT)

    def set_option(self, on: bool) -> Refused | None:
        if self._hold(lambda: self.set_option(on)):
            return None
        if (why := self._lobby_only("set_option")) is not None:
            return why
        self.seat.config.wishes.post_stacking = on
        return _propose(self.seat, self._told)

    def set_length(self, target: int, rounds: int | None = None) -> Refused | None:
        wishes = self.seat.config.wishes
        length = length_wish(target, rounds, wishes.target)
        if length is None:
            return Refused(Why.BAD_LENGTH, what=str(MAX_TARGET), other=str(MAX_GAME_ROUNDS))
        if rounds is not None and not game_for(self.side.shown()).rounds_option:
            return Refused(Why.NO_ROUNDS)
        if self._hold(lambda: self.set_length(target, rounds)):
            return None
        if (why := self._lobby_only("set_length")) is not None:
            return why
        wishes.target, wishes.rounds = length
        return _propose(self.seat, self._told)

    def set_game(self, tag: str) -> Refused | None:
        if tag not in tags():
            return Refused(Why.NO_GAME, what=tag, other=", ".join(tags()))
        if self._hold(lambda: self.set_game(tag)):
            return None
        if (why := self._lobby_only("set_game")) is not None:
            return why
        self.seat.config.wishes.game = tag
        relevel_bots(self.node, tag)
        return _propose(self.seat, self._told)

    def add_bot(self, level: str) -> Refused | None:
        levels = game_for(self.side.shown()).levels
        if level not in levels:
            return Refused(Why.NO_BOT_LEVEL, what=level, other=", ".join(levels))
        if self._hold(lambda: self.add_bot(level)):
            return None
        if (why := self._lobby_only("add_bot")) is not None:
            return why
        replica = self.seat.replica
        assert replica is not None
        if len(replica.optimistic().seated()) + _bots_on_the_way(self.node, replica) >= MAX_PLAYERS:
            return Refused(Why.TABLE_FULL, count=MAX_PLAYERS)
        adding = self._work.run(self.node.bots.add(level))
        self._adding.add(adding)
        adding.add_done_callback(self._adding.discard)
        return None

    def remove_bot(self) -> Refused | None:
        if self._hold(self.remove_bot):
            return None
        if not self.node.bots.seats and not self._adding:
            return Refused(Why.NO_LOCAL_BOT)
        self._work.run(_remove_bot(self.node, set(self._adding)))
        return None

    def _hold(self, choice: Callable[[], Refused | None]) -> bool:
        """While the seat is still arriving at its table (the lobby shows at once, before
        it has founded one or been let in), a choice waits for it and is made once it can
        play (``make_held``); a refusal then is told on screen. Choices keep their order."""
        if not self._arriving():
            self.make_held()  # those before it first
            return False
        if not self._held:
            seating = self.node.seating
            if seating is not None and not seating.done():
                seating.add_done_callback(lambda _: self.make_held())
        self._held.append(choice)
        return True

    def _arriving(self) -> bool:
        """The seat has no table it can play at yet, and nothing says it will not: it is
        still finding one, or asked to sit down and waits to be let in."""
        seating = self.node.seating
        if seating is not None and seating.done():
            if seating.cancelled() or seating.exception() is not None:
                return False  # no table: the node says why and stops
        elif seating is not None:
            return True
        replica = self.seat.replica
        if replica is not None and replica.can_play():
            return False
        return self.seat.game_on() is None and not self.seat.failure

    def make_held(self) -> None:
        """Make the choices held while the seat arrived, once it can play (or never will)."""
        if not self._held or self._arriving():
            return
        held, self._held = self._held, []
        for choice in held:
            refused = choice()
            if refused is not None:
                self._work.notices.refused(refused)
        self._told()

    def _lobby_only(self, action: str) -> Refused | None:
        replica = self.seat.replica
        if replica is None or not replica.can_play():
            return self._not_seated()
        if replica.optimistic().phase != Phase.LOBBY:
            return Refused(Why.LOBBY_ONLY, what=action)
        return None

    def _not_seated(self) -> Refused:
        game = self.seat.game_on()
        if game is None:
            return Refused(Why.NOT_SEATED)
        return Refused(Why.GAME_ON, what=self.node.options.table, game_on=game)


def not_sent(seat: LocalSeat) -> Refused:
    """Why an event of ours did not go: not written down (the disk), or not sent."""
    failure = seat.failure
    return Refused(Why.NOT_STORED, what=str(failure)) if failure else Refused(Why.NOT_SENT)


async def _remove_bot(node: Node, adding: set[asyncio.Future[object]]) -> None:
    """A `-` just after a `+` takes away the bot that `+` is seating, once it has a seat."""
    if adding:
        await asyncio.wait(adding)
    await node.bots.remove()


def _bots_on_the_way(node: Node, replica: Replica) -> int:
    """Bots this node is seating that the table has not seated yet."""
    seated = set(replica.optimistic().members)
    return sum(1 for bot in node.bots.seats if bot.seat.node_id not in seated)


def _propose(seat: LocalSeat, changed: Callable[[], None]) -> Refused | None:
    """The lobby's options are the table's (P-261): a change of ours goes into the log."""
    replica = seat.replica
    assert replica is not None
    proposal = table_options(seat.config.wishes, replica.optimistic())
    if proposal is not None and not seat.submit(proposal):
        return not_sent(seat)
    changed()
    return None


def length_wish(target: int, rounds: int | None, kept: int) -> tuple[int, int | None] | None:
    """The target and rounds a player's choice of length makes, or None out of range. With
    rounds, a target of 0 keeps the one wished before (``kept``): it ends nothing (P-238)."""
    if rounds is not None and not 1 <= rounds <= MAX_GAME_ROUNDS:
        return None
    if rounds is not None and target == 0:
        return kept, rounds
    return (target, rounds) if 1 <= target <= MAX_TARGET else None
