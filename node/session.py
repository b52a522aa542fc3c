"""``NodeSession``: the client's ``Session`` (node/api.py) over a running ``Node``.

Everything here runs on the node's event loop. ``act`` has the game (its ``TableGame``,
protocol/table/rules.py, whose seat's part is in table/player.py) build the move on the
optimistic table, the one with our own moves in flight (and those held back) already
applied, and refuses it here, with the reason, when the rules would refuse it: a fast key
press never sends a move that cannot count. A move that builds on a play still in flight
is held back and goes in its turn (the game's play queue). Notices come from what becomes
final (node/notices.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection, Coroutine
from typing import Any

from dutchblitz.protocol.games.registry import game_for, tags
from dutchblitz.protocol.limits import MAX_GAME_ROUNDS, MAX_NAME, MAX_PLAYERS, MAX_TARGET
from dutchblitz.protocol.replica.core import Replica
from dutchblitz.protocol.seat.duties import can_start, our_start, started_game, table_options
from dutchblitz.protocol.table.game import Game, Phase
from dutchblitz.protocol.table.player import ActRefusal
from dutchblitz.protocol.table.rules import AnyGame
from dutchblitz.protocol.views import game_view
from dutchblitz.protocol.wire.auth import fingerprint
from dutchblitz.protocol.wire.messages import Ready

from .api import (
    Action,
    News,
    Notice,
    NoticeKind,
    PlayerInfo,
    Refused,
    Snapshot,
    Told,
    Why,
)
from .local_bots import relevel_bots
from .net.doorbell import Doorbell
from .notices import SessionNotices
from .runtime import Node
from .seat.local import LocalSeat
from .seat.presence import missing_players
from .seat.spectator import spectator_snapshot
from .store.lock import shown
from .store.state import StoreError
from .subscribers import Subscribers
from .tv.address import tv_link

log = logging.getLogger("dutchblitz.node")


class GameSide:
    """The game's side of a seat (the game, whose ``SeatPlayer`` part it asks, and its play
    queue), of the game the table plays now: a START may start another game than the one
    before (P-241)."""

    def __init__(self, seat: LocalSeat) -> None:
        self.seat = seat
        self.tag = seat.game_tag()
        self.player = game_for(self.tag)
        self.queue = seat.machine.play_queue(self.player)
        self.notices: SessionNotices | None = None

    def follow(self) -> None:
        tag = self.seat.game_tag()
        if tag != self.tag:
            self.tag, self.player = tag, game_for(tag)
            self.queue = self.seat.machine.play_queue(self.player)
            if self.notices is not None:
                self.notices.player = self.player

    def length(self, stable: Game) -> tuple[int, int | None]:
        """The game's length, a target and maybe rounds: in the lobby, what a START of ours
        would carry (rounds only where the game offers them); then, the game's."""
        if stable.phase != Phase.LOBBY:
            return stable.target, stable.rounds
        start = our_start(self.seat.config.wishes, stable)
        return start.target, start.rounds

    def shown(self) -> str:
        """The game the screens show: in the lobby, the one a START of ours would start."""
        replica = self.seat.replica
        if replica is None or replica.stable.phase == Phase.LOBBY:
            return self.seat.config.wishes.game or self.seat.game_tag()
        return self.seat.game_tag()


class Background:
    """Work a session's command starts and does not wait for (seating a bot): a failure
    is told on screen."""

    def __init__(self, notices: SessionNotices, changed: Callable[[], None]) -> None:
        self.notices, self.changed = notices, changed
        self._tasks: set[asyncio.Future[object]] = set()

    def run(self, work: Coroutine[Any, Any, object]) -> None:
        task: asyncio.Future[object] = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Future[object]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            failed = Told(News.FAILED, detail=str(task.exception()))
            self.notices.notice(NoticeKind.ALARM, failed)
            self.changed()


class NodeSession:
    """The ``Session`` a running node offers its client."""

    def __init__(self, node: Node) -> None:
        assert node.main is not None, "start the node first"
        self.node = node
        self.seat: LocalSeat = node.main
        self._subscribers = Subscribers()
        self.side = GameSide(self.seat)
        self._pumping = False
        self.notices = SessionNotices(node.options.table, self.seat, self.side.player)
        self.side.notices = self.notices
        self._work = Background(self.notices, self._changed)
        self.seat.listeners.append(self.notices.on_effect)
        node.watchers.append(self._changed)
        if node.door is not None:  # who the door turned away, told on screen
            bell = Doorbell(self.notices.notice, self._changed, asyncio.get_running_loop().time)
            node.door.listeners.append(bell.rang)
            node.refused_us.listen(bell.refused_us)

    # -- reading --------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        seat, node = self.seat, self.node
        if seat.following.follower is not None:  # watching the game that keeps us waiting
            return spectator_snapshot(node, seat)
        self.side.follow()
        face_game = self.side.shown()
        replica = seat.replica
        game = self.side.queue.view(replica) if replica is not None else Game()
        stable = replica.stable if replica is not None else Game()
        optimistic, final = game_view(game), game_view(stable)
        players = _players(game, seat, node.bots.nodes())
        loop = asyncio.get_running_loop()
        return Snapshot(
            table=node.options.table,
            interface=node.interface.describe() if node.interface else "",
            endpoint=seat.endpoint,
            door=node.door.endpoint if node.door is not None else "",
            private=node.options.passphrase is not None,
            state_dir=shown(node.state_root) if node.state_root is not None else "",
            profile=node.lock.profile if node.lock is not None else 1,
            my_node=seat.node_id,
            my_seat=game.seat_of(seat.node_id),
            players=players,
            game=optimistic,
            stable=final,
            pending_moves=len(self.side.queue.held)
            + (len(replica.pending_own()) if replica else 0),
            peers_seen=seat.peers_seen,
            seconds_running=loop.time() - node.started_at,
            can_start=self._why_not_start() is None,
            bot_levels=tuple(game_for(face_game).levels),
            game_tag=face_game,
            post_stacking=(
                self.seat.config.wishes.post_stacking
                if stable.phase == Phase.LOBBY
                else stable.post_stacking
            ),
            length=self.side.length(stable),
            scores_left=seat.pace.scores_left(loop.time()),
            count_in=seat.pace.count_in_left(game, loop.time()),
            missing=()
            if replica is None
            else missing_players(replica, loop.time(), seat.steward.grace),
            game_on=seat.game_on(),
            tv=tv_link(node.options.web, node.interface.address if node.interface else ""),
            unanswered=node.unanswered_peers(),
            watchers=replica.spectators.names() if replica is not None else (),
            seat_view=None
            if replica is None
            else _seat_view(seat, self.side.player, replica, game),
        )

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        return self._subscribers.subscribe(callback)

    def take_notices(self) -> list[Notice]:
        return self.notices.take()

    def _changed(self) -> None:
        self._pump()
        self._subscribers.tell()

    def _pump(self) -> None:
        """Send the held plays whose turn has come (sending one calls back here: once is enough)."""
        replica = self.seat.replica
        if self._pumping or replica is None or not self.side.queue.held:
            return
        self._pumping = True
        try:
            self.seat.act(self.seat.machine.pump)
            for returned in self.seat.machine.person.came_back:
                self.notices.refused(_refused(self.side.player.came_back(returned)))
        finally:
            self._pumping = False

    # -- playing --------------------------------------------------------------------------

    def _in_round(self) -> tuple[Replica, Game, int] | Refused:
        """The replica, the game as our moves in flight leave it, and our seat, while a
        round is on at the table's game; else why no move can be made now."""
        self.side.follow()
        replica = self.seat.replica
        if replica is None or not replica.can_play():
            return self._not_seated()
        game = self.side.queue.view(replica)
        me = game.seat_of(self.seat.node_id)
        if game.phase != Phase.PLAYING or game.table is None:
            return Refused(Why.NO_ROUND)
        if me is None:
            return Refused(Why.NOT_PLAYING)
        return replica, game, me

    def act(self, action: Action, slot: int = 0) -> Refused | None:
        """A key's action: one call into the seat's machine (``SeatMachine.press``)."""
        self.side.follow()
        seat = self.seat
        if not seat.act(seat.machine.press, action, slot):
            return self._not_seated() if seat.replica is None else _not_sent(seat)
        refused = seat.machine.person.refused
        if refused is None:
            return None
        if refused.code == "not_seated":
            return self._not_seated()
        return _not_sent(seat) if refused.code == "not_sent" else _refused(refused)

    def play(self, move: object) -> Refused | None:
        found = self._in_round()
        if isinstance(found, Refused):
            return found
        replica, game, me = found
        secrets = self.seat.steward.game.secrets_for(replica, game)
        body = self.side.player.body(game.table, me, move, game.round, secrets)
        if isinstance(body, ActRefusal):
            return _refused(body)
        if not self.seat.submit(body):
            return _not_sent(self.seat)
        return None

    def seen_scores(self) -> Refused | None:
        if not self.seat.pace.look():
            return Refused(Why.NO_SCORES)
        self.seat.poke()  # the steward says so to the table (spec/rules.md R-54)
        self._changed()
        return None

    # -- the lobby --------------------------------------------------------------------------

    def set_name(self, name: str) -> Refused | None:
        name = name.strip()
        if not name or len(name.encode()) > MAX_NAME:
            return Refused(Why.BAD_NAME)
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
        if (why := self._lobby_only("set_ready")) is not None:
            return why
        self.seat.config.wishes.ready = ready
        replica = self.seat.replica
        assert replica is not None
        me = replica.optimistic().members.get(self.seat.node_id)
        if me is not None and me.ready != ready and not replica.pending_own():
            if not self.seat.submit(Ready(ready)):
                return _not_sent(self.seat)
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
            return _not_sent(self.seat)
        return None

    def start(self) -> Refused | None:
        why = self._why_not_start()
        if why is not None:
            return why
        replica = self.seat.replica
        assert replica is not None
        if not self.seat.submit(our_start(self.seat.config.wishes, replica.stable)):
            return _not_sent(self.seat)
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

    def set_post_stacking(self, on: bool) -> Refused | None:
        if (why := self._lobby_only("set_post_stacking")) is not None:
            return why
        self.seat.config.wishes.post_stacking = on
        return _propose(self.seat, self._changed)

    def set_length(self, target: int, rounds: int | None = None) -> Refused | None:
        if not 1 <= target <= MAX_TARGET or not (rounds is None or 1 <= rounds <= MAX_GAME_ROUNDS):
            return Refused(Why.BAD_LENGTH, what=str(MAX_TARGET), other=str(MAX_GAME_ROUNDS))
        if rounds is not None and not game_for(self.side.shown()).rounds_option:
            return Refused(Why.NO_ROUNDS)
        if (why := self._lobby_only("set_length")) is not None:
            return why
        wishes = self.seat.config.wishes
        wishes.target, wishes.rounds = target, rounds
        return _propose(self.seat, self._changed)

    def set_game(self, tag: str) -> Refused | None:
        if tag not in tags():
            return Refused(Why.NO_GAME, what=tag, other=", ".join(tags()))
        if (why := self._lobby_only("set_game")) is not None:
            return why
        self.seat.config.wishes.game = tag
        relevel_bots(self.node, tag)
        return _propose(self.seat, self._changed)

    def add_bot(self, level: str) -> Refused | None:
        levels = game_for(self.side.shown()).levels
        if level not in levels:
            return Refused(Why.NO_BOT_LEVEL, what=level, other=", ".join(levels))
        if (why := self._lobby_only("add_bot")) is not None:
            return why
        replica = self.seat.replica
        assert replica is not None
        if len(replica.optimistic().seated()) + _bots_on_the_way(self.node, replica) >= MAX_PLAYERS:
            return Refused(Why.TABLE_FULL, count=MAX_PLAYERS)
        self._work.run(self.node.bots.add(level))
        return None

    def remove_bot(self) -> Refused | None:
        if not self.node.bots.seats:
            return Refused(Why.NO_LOCAL_BOT)
        self._work.run(self.node.bots.remove())
        return None

    def watch(self) -> Refused | None:
        """Watch the game that keeps us waiting (section 26) until we sit down after it."""
        seat = self.seat
        if seat.game_on() is None:
            return Refused(Why.NO_GAME_ON)
        seat.watch()
        return None

    async def leave(self) -> None:
        await self.node.stop()

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


def _not_sent(seat: LocalSeat) -> Refused:
    """Why an event of ours did not go: not written down (the disk), or not sent."""
    failure = seat.failure
    return Refused(Why.NOT_STORED, what=str(failure)) if failure else Refused(Why.NOT_SENT)


def _refused(refusal: ActRefusal) -> Refused:
    """The client's refusal for the game's: a code it has no name for comes as ``OTHER``."""
    try:
        why = Why(refusal.code)
    except ValueError:
        return Refused(Why.OTHER, what=refusal.code, held=refusal.held)
    return Refused(why, refusal.what, refusal.other, refusal.count, refusal.held)


def _players(game: Game, seat: LocalSeat, bots: Collection[bytes]) -> tuple[PlayerInfo, ...]:
    """The table's members in seat order, as the client shows them: which is this seat,
    which a bot of this node, and each one's key fingerprint."""
    return tuple(
        PlayerInfo(
            m.seat,
            m.node,
            m.name,
            m.back,
            m.ready,
            m.present,
            m.node == seat.node_id,
            m.node in bots,
            _fingerprint(seat, m.node),
        )
        for m in sorted(game.members.values(), key=lambda m: m.seat)
    )


def _fingerprint(seat: LocalSeat, node: bytes) -> str:
    """The player's key fingerprint, if this seat has learnt the key ("" if not)."""
    key = seat.roster.key_of(node)
    return fingerprint(key) if key is not None else ""


def _seat_view(seat: LocalSeat, player: AnyGame, replica: Replica, game: Game) -> object | None:
    """The game's own view of the round for this seat (None for a game without one):
    the round being played, with this seat's secrets; between rounds, the last one. A
    seat not dealt in (a person who sat down after the deal) sees the public view."""
    me = game.seat_of(seat.node_id)
    if game.table is not None:
        secrets = seat.steward.game.secrets_for(replica, game)
        return player.seat_view(game.table, me, secrets)
    if game.last_table is not None:
        return player.seat_view(game.last_table, me, None)
    return None


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
        return _not_sent(seat)
    changed()
    return None
