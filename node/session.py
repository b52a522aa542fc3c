"""``NodeSession``: the client's ``Session`` (node/api.py) over a running ``Node``.

Everything here runs on the node's event loop. ``act`` builds the move on the
optimistic table, the one with our own moves in flight (and those held back)
already applied, and refuses it here, with the reason, when the rules would
refuse it: a fast key press never sends a move that cannot count. A move that
builds on a play still in flight is held back and goes in its turn
(protocol/games/blitz/playqueue.py). Notices come from what becomes final: a lost race, a
refusal, a held play that came back, a Blitz, the end of a round or of the game.
"""

from __future__ import annotations

import asyncio
import math
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

from dutchblitz.protocol.auth import fingerprint
from dutchblitz.protocol.duties import can_start
from dutchblitz.protocol.effects import Alarm, Delivered, Effect, LogEntry, Withdrawn
from dutchblitz.protocol.games.registry import player_for, rules_for
from dutchblitz.protocol.limits import MAX_NAME, MAX_PLAYERS
from dutchblitz.protocol.messages import Admit, Bye, Profile, Ready, Start, Suspect
from dutchblitz.protocol.table.game import Game, Phase
from dutchblitz.protocol.table.player import ActRefusal
from dutchblitz.protocol.views import game_view

from .api import (
    MAX_NOTICES,
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
from .doorbell import Doorbell
from .presence import missing_players
from .runtime import Node
from .seat import LocalSeat
from .statelock import shown
from .tv.address import tv_link
from .watch import spectator_snapshot

GONE_TOGETHER_S = 1.5  # players gone this close are told as one (a node and its bots)


class NodeSession:
    """The ``Session`` a running node offers its client."""

    def __init__(self, node: Node) -> None:
        assert node.main is not None, "start the node first"
        self.node = node
        self.seat: LocalSeat = node.main
        self._notices: deque[Notice] = deque(maxlen=MAX_NOTICES)
        self._callbacks: list[Callable[[], None]] = []
        # (id of the replica, game number, rounds noticed): a rematch starts counting again.
        self._results_seen: tuple[int, int, int] = (0, 0, 0)
        self._flags_seen: tuple[int, int] = (0, 0)  # (id of the replica, flags noticed)
        self._over_noticed: set[tuple[int, int]] = set()
        self._stalemates_seen: tuple[int, int, int] = (0, 0, 0)  # (replica id, round, count)
        # Every node the log has seated so far (a restored log's included): one seated again
        # is back, not new.
        replica = self.seat.replica
        self._seen_members: set[bytes] = set() if replica is None else set(replica.stable.members)
        # Newcomers admitted as "player N": told once their own name is in (their PROFILE).
        self._unnamed: set[bytes] = set()
        # What this node held when the session began: after a restart, the events of its
        # log become final again as the others are heard, and are not news any more.
        self._held_at_start: dict[bytes, int] = (
            {} if replica is None else {n: st.held for n, st in replica.streams.items()}
        )
        # Players removed during the game and not back: a START in the deal went on without
        # them (spec/rules.md R-50). Effects come after a batch of events is applied, so
        # this follows the events themselves, not the game as it stands.
        self._away: set[bytes] = (
            set()
            if replica is None
            else {m.node for m in replica.stable.members.values() if m.seat in replica.stable.away}
        )
        self._gone: tuple[float, Told | None] = (0.0, None)  # the last "gone" notice
        self._void_moves = 0  # our moves that did not count because we were away
        self._games_seen = 1 if replica is None else replica.stable.game_number
        self._tasks: set[asyncio.Future[object]] = set()
        self.rules = rules_for(node.options.game)
        self.player = player_for(node.options.game)  # the game's side of a seat (Dutch Blitz's)
        self.queue = self.player.plays(self.seat.node_id, self.seat.submit)
        self._pumping = False
        self.seat.listeners.append(self._on_effect)
        node.watchers.append(self._changed)
        if node.door is not None:  # who the door turned away, told on screen
            bell = Doorbell(self._notice, self._changed, asyncio.get_running_loop().time)
            node.door.listeners.append(bell.rang)
            node.refused_us.listen(bell.refused_us)

    # -- reading --------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        seat, node = self.seat, self.node
        if seat.follower is not None:  # watching the game that keeps us waiting
            return spectator_snapshot(node, seat)
        replica = seat.replica
        game = self.queue.view(replica) if replica is not None else Game()
        stable = replica.stable if replica is not None else Game()
        optimistic, final = game_view(game), game_view(stable)
        bots = node.local_bot_nodes()
        players = tuple(
            PlayerInfo(
                m.seat,
                m.node,
                m.name,
                m.back,
                m.ready,
                m.present,
                m.node == seat.node_id,
                m.node in bots,
                self._fingerprint(m.node),
            )
            for m in sorted(game.members.values(), key=lambda m: m.seat)
        )
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
            pending_moves=self._pending_moves(),
            peers_seen=seat.peers_seen,
            seconds_running=loop.time() - node.started_at,
            can_start=self._why_not_start() is None,
            bot_levels=tuple(self.player.levels),
            post_stacking=(
                self.seat.config.wishes.post_stacking
                if stable.phase == Phase.LOBBY
                else stable.post_stacking
            ),
            scores_left=seat.pace.scores_left(loop.time()),
            count_in=seat.pace.count_in_left(game, loop.time()),
            missing=()
            if replica is None
            else missing_players(replica, loop.time(), seat.steward.grace),
            game_on=seat.game_on(),
            tv=tv_link(node.options.web, node.interface.address if node.interface else ""),
            unanswered=node.unanswered_peers(),
            watchers=replica.spectators.names() if replica is not None else (),
        )

    def _fingerprint(self, node: bytes) -> str:
        """The player's key fingerprint, if this seat has learnt the key ("" if not)."""
        key = self.seat.roster.key_of(node)
        return fingerprint(key) if key is not None else ""

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        self._callbacks.append(callback)

        def unsubscribe() -> None:
            if callback in self._callbacks:
                self._callbacks.remove(callback)

        return unsubscribe

    def take_notices(self) -> list[Notice]:
        taken = list(self._notices)
        self._notices.clear()
        return taken

    def _pending_moves(self) -> int:
        replica = self.seat.replica
        if replica is None:
            return 0
        return len(replica.pending_own()) + len(self.queue.held)

    def _changed(self) -> None:
        self._pump()
        for callback in list(self._callbacks):
            callback()

    def _pump(self) -> None:
        """Send the held plays whose turn has come (sending one calls back here: once is enough)."""
        replica = self.seat.replica
        if self._pumping or replica is None or not self.queue.held:
            return
        self._pumping = True
        try:
            for returned in self.queue.pump(replica):
                self._refused(_refused(self.player.came_back(returned)))
        finally:
            self._pumping = False

    def _notice(self, kind: NoticeKind, told: Told) -> None:
        self._notices.append(Notice(kind, told=told))

    def _refused(self, refused: Refused) -> None:
        self._notices.append(Notice(NoticeKind.REFUSED, refused=refused))

    # -- playing --------------------------------------------------------------------------

    def act(self, action: Action, slot: int = 0) -> Refused | None:
        replica = self.seat.replica
        if replica is None or not replica.can_play():
            return self._not_seated()
        game = self.queue.view(replica)
        me = game.seat_of(self.seat.node_id)
        if game.phase != Phase.PLAYING or game.table is None:
            return Refused(Why.NO_ROUND)
        if me is None:
            return Refused(Why.NOT_PLAYING)
        if (not_now := self.player.check(game.table, me, action)) is not None:
            return _refused(not_now)
        if self.queue.full:
            return Refused(Why.SLOW_DOWN, count=self.player.max_held)
        move = self.player.build(game.table, me, action, slot)
        if isinstance(move, ActRefusal):
            return _refused(move)
        count_in = self.seat.pace.count_in_left(game, asyncio.get_running_loop().time())
        if count_in > 0:  # a legal move, but nobody plays before their count-in ends
            return Refused(Why.COUNT_IN, count=math.ceil(count_in))
        if not self.queue.offer(replica, move, game.round):
            return self._failure_text()
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
        if self.seat.replica is not None:
            self.seat.replica.me.name = name
        self.seat.poke()
        return None

    def set_back(self, back: str) -> Refused | None:
        backs = self.rules.backs
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
                return self._failure_text()
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
            return self._failure_text()
        return None

    def start(self) -> Refused | None:
        why = self._why_not_start()
        if why is not None:
            return why
        start = Start(self.node.options.target, self.seat.config.wishes.post_stacking)
        if not self.seat.submit(start):
            return self._failure_text()
        return None

    def _why_not_start(self) -> Refused | None:
        replica = self.seat.replica
        if replica is None or not replica.can_play():
            return self._not_seated()
        stable = replica.stable
        if stable.phase != Phase.LOBBY:
            return Refused(Why.STARTED)
        if can_start(stable, self.seat.node_id):
            return None
        seated = stable.seated()
        if len(seated) < 2:
            return Refused(Why.TOO_FEW_PLAYERS)
        waiting = [m.name for m in seated if not m.ready]
        if waiting:
            return Refused(Why.WAITING_READY, what=", ".join(waiting))
        backs = stable.rules.check_backs([m.back for m in seated])
        return Refused(Why.BACKS_CHOICE, what=backs) if backs else Refused(Why.NO_SEAT)

    def set_post_stacking(self, on: bool) -> Refused | None:
        if (why := self._lobby_only("set_post_stacking")) is not None:
            return why
        self.seat.config.wishes.post_stacking = on
        self._changed()
        return None

    def add_bot(self, level: str) -> Refused | None:
        levels = self.player.levels
        if level not in levels:
            return Refused(Why.NO_BOT_LEVEL, what=level, other=", ".join(levels))
        if (why := self._lobby_only("add_bot")) is not None:
            return why
        replica = self.seat.replica
        assert replica is not None
        if len(replica.optimistic().seated()) + self._bots_on_the_way() >= MAX_PLAYERS:
            return Refused(Why.TABLE_FULL, count=MAX_PLAYERS)
        self._background(self.node.add_bot(level))
        return None

    def remove_bot(self) -> Refused | None:
        if not self.node.bots:
            return Refused(Why.NO_LOCAL_BOT)
        self._background(self.node.remove_bot())
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

    def _bots_on_the_way(self) -> int:
        replica = self.seat.replica
        seated = set() if replica is None else set(replica.optimistic().members)
        return sum(1 for bot in self.node.bots if bot.seat.node_id not in seated)

    def _background(self, work: Coroutine[Any, Any, object]) -> None:
        task: asyncio.Future[object] = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Future[object]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self._notice(NoticeKind.ALARM, Told(News.FAILED, detail=str(task.exception())))
            self._changed()

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

    def _failure_text(self) -> Refused:
        failure = self.seat.failure
        return Refused(Why.NOT_STORED, what=str(failure)) if failure else Refused(Why.NOT_SENT)

    # -- notices ------------------------------------------------------------------------------

    def _on_effect(self, effect: Effect, live: bool) -> None:
        if not live:
            return
        if isinstance(effect, Delivered):
            self._on_delivered(effect)
            self._on_presence(effect)
        elif isinstance(effect, Withdrawn) and effect.reason == "removed_from_table":
            self._void_moves += 1  # told once, when we are back at the table
        elif isinstance(effect, Withdrawn):
            self._refused(Refused.of(effect.reason))
        elif isinstance(effect, Alarm) and effect.kind == "desync":
            self._notice(NoticeKind.ALARM, Told(News.DESYNC, detail=effect.detail))

    def _on_delivered(self, effect: Delivered) -> None:
        replica = self.seat.replica
        if replica is None:
            return
        entry = effect.entry
        stable = replica.stable
        outcome = entry.outcome
        body = entry.body
        if self._old_news(entry):
            # Told before this node restarted: what it ended or flagged is no news either.
            self._results_seen = (id(replica), stable.game_number, len(stable.results))
            self._flags_seen = (id(replica), len(stable.flags))
            self._games_seen = stable.game_number
            return
        if entry.sender == self.seat.node_id and not outcome.accepted:
            if self.player.lost_race(outcome.refusal or ""):
                card = self.player.moved_card(outcome.move)
                self._notice(NoticeKind.LOST_RACE, _lost_race(stable, outcome.by, card))
            elif not isinstance(body, Start | Admit | Suspect):  # a second one: harmless
                self._refused(Refused.of(outcome.refusal or ""))
        elif outcome.accepted and isinstance(body, Start) and stable.game_number > self._games_seen:
            self._games_seen = stable.game_number  # (a START in a deal ends a wait: R-57)
            self._away.clear()  # a rematch seats those present
            self._notice(NoticeKind.INFO, Told(News.REMATCH))
        elif outcome.accepted and isinstance(body, Ready) and stable.phase == Phase.OVER:
            member = stable.members.get(entry.sender)
            if member is not None and entry.sender != self.seat.node_id and body.ready:
                self._notice(NoticeKind.JOINED, Told(News.WANTS_REMATCH, who=member.name))
        elif outcome.accepted and isinstance(body, Bye):
            member = stable.members.get(entry.sender)
            if member is not None:
                self._note_gone(member.name, removed=False)
        self._notice_flags(id(replica), stable)
        self._notice_stalemate(id(replica), stable)
        ended = replica.ended
        over = ended is not None and ended[2].game_number == stable.game_number
        self._notice_results(over, id(replica), stable)

    def _on_presence(self, effect: Delivered) -> None:
        """Who sat down, who is back, who was removed, and a deal that went on without some."""
        entry, replica = effect.entry, self.seat.replica
        if replica is None or not entry.outcome.accepted:
            return
        body, stable, me = entry.body, replica.stable, self.seat.node_id
        old = self._old_news(entry)
        if isinstance(body, Admit):
            member = stable.members.get(body.node)
            returning = body.node in self._seen_members
            self._seen_members.add(body.node)
            self._away.discard(body.node)
            if old:
                return
            if body.node == me and returning:
                void, self._void_moves = self._void_moves, 0
                self._notice(NoticeKind.JOINED, Told(News.BACK_AT_TABLE, count=void))
            elif member is not None and body.node != me and returning:
                self._notice(NoticeKind.JOINED, Told(News.BACK, who=member.name))
            elif member is not None and body.node != me:
                self._unnamed.add(body.node)  # "sat down" waits for the name the table shows
            elif body.node == me and stable.phase == Phase.OVER:
                table = self.node.options.table
                self._notice(NoticeKind.INFO, Told(News.NEXT_GAME, what=table))
        elif isinstance(body, Profile) and entry.sender in self._unnamed:
            self._unnamed.discard(entry.sender)
            member = stable.members.get(entry.sender)
            if member is not None and not old:
                self._notice(NoticeKind.JOINED, Told(News.SAT_DOWN, who=member.name))
        elif isinstance(body, Suspect):
            member = stable.members.get(body.node)
            if stable.phase != Phase.LOBBY:
                self._away.add(body.node)
            if member is not None and body.node != me and not old:
                self._note_gone(member.name, removed=True)
        elif isinstance(body, Start) and self._away and stable.phase != Phase.LOBBY:
            names = tuple(sorted(m.name for n, m in stable.members.items() if n in self._away))
            self._away.clear()
            if not old:
                told = Told(News.GOES_ON_WITHOUT, names=names, count=stable.round)
                self._notice(NoticeKind.LEFT, told)

    def _old_news(self, entry: LogEntry) -> bool:
        """An event this node held before it restarted (final only now): told already."""
        return entry.seq <= self._held_at_start.get(entry.sender, 0)

    def _note_gone(self, name: str, removed: bool) -> None:
        """A player gone, in one notice with those gone the same way just before: a node's
        bots go with it ("Ada and easy bot 1c2 were removed: not heard from")."""
        now = asyncio.get_running_loop().time()
        since, told = self._gone
        news = News.REMOVED if removed else News.LEFT
        last = self._notices[-1] if self._notices else None
        together = now - since < GONE_TOGETHER_S and told is not None and told.news == news
        if together and told is not None and last is not None and last.told == told:
            self._notices.pop()
            told = Told(news, names=(*told.names, name))
        else:
            told = Told(news, names=(name,))
        self._gone = (now, told)
        self._notice(NoticeKind.LEFT, told)

    def _notice_flags(self, replica_id: int, stable: Game) -> None:
        """Each flag the audit raises, once, as an alarm (spec/rules.md R-44 to R-48)."""
        known_id, seen = self._flags_seen
        if known_id != replica_id or seen > len(stable.flags):
            seen = 0 if known_id != replica_id else len(stable.flags)  # an unaudited mark went
        names = {m.seat: m.name for m in stable.members.values()}
        for flag in stable.flags[seen:]:
            who = names.get(flag.seat, "?")
            shown = stable.shown_round(flag.round)
            told = Told(
                News.FLAGGED, who=who, count=shown, what=flag.kind.value, detail=flag.detail
            )
            self._notice(NoticeKind.ALARM, told)
        self._flags_seen = (replica_id, len(stable.flags))

    def _notice_stalemate(self, replica_id: int, stable: Game) -> None:
        """Each stalemate rotation (spec/rules.md R-24), once, on every screen."""
        count = self.player.stalemates(stable.table)
        known_id, known_round, seen = self._stalemates_seen
        if (known_id, known_round) == (replica_id, stable.round) and count > seen:
            self._notice(NoticeKind.INFO, Told(News.STALEMATE))
        self._stalemates_seen = (replica_id, stable.round, count)

    def _notice_results(self, over: bool, replica_id: int, stable: Game) -> None:
        known_id, known_game, seen = self._results_seen
        if (known_id, known_game) != (replica_id, stable.game_number):
            seen = 0
        me = stable.seat_of(self.seat.node_id)
        for result in stable.results[seen:]:
            names = {m.seat: m.name for m in stable.members.values()}
            if result.blitz_by is not None:
                who = "" if result.blitz_by == me else names.get(result.blitz_by, "?")
                self._notice(NoticeKind.BLITZ, Told(News.BLITZ, who=who))
            scores = tuple(  # "" names this node's own player: the words say "you"
                ("" if seat == me else names.get(seat, "?"), points)
                for seat, points in sorted(result.scores.items())
            )
            shown = stable.shown_round(result.round)
            told = Told(News.ROUND_SCORES, count=shown, scores=scores)
            self._notice(NoticeKind.ROUND_OVER, told)
        self._results_seen = (replica_id, stable.game_number, len(stable.results))
        game = (replica_id, stable.game_number)
        if over and game not in self._over_noticed and stable.winner is not None:
            self._over_noticed.add(game)
            winner = stable.by_seat()[stable.winner]
            points = stable.totals.get(stable.winner, 0)
            who = "" if stable.winner == me else winner.name
            self._notice(NoticeKind.GAME_OVER, Told(News.GAME_WON, who=who, count=points))


def _refused(refusal: ActRefusal) -> Refused:
    """The client's refusal for the game's: a code it has no name for comes as ``OTHER``."""
    try:
        why = Why(refusal.code)
    except ValueError:
        return Refused(Why.OTHER, what=refusal.code, held=refusal.held)
    return Refused(why, refusal.what, refusal.other, refusal.count, refusal.held)


def _lost_race(game: Game, by: int | None, card: str) -> Told:
    winner = game.by_seat().get(by) if by is not None else None
    name = winner.name if winner is not None else ""
    return Told(News.LOST_RACE, who=name, what=card)
