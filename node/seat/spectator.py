"""A spectator (``blitz-node --watch``): a seat that follows the table and plays nothing.

A ``WatchSeat`` is a ``LocalSeat`` with no replica: it says no HELLO and asks nobody to
seat it (its ``Following`` is a spectator's). It subscribes, with WATCH, at every node it
meets (a door it passed, a node found on the LAN, a peer a member's HELLO lists), and,
once the log names the members, at each of them; its ``Follower`` (protocol/seat/follower.py)
takes the stable log they feed and builds the public game (spec/protocol.md section 26),
and the game's own public view of its round (``public_view``: Dutch's hidden cards, as
anyone in the room sees them).
``WatchSession`` is the client's ``Session`` over it: the same ``Snapshot``, with no seat
of its own.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from dutchblitz.protocol.games.registry import game_for
from dutchblitz.protocol.replica.effects import Delivered, Effect
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.views import game_view

from ..api import (
    MAX_NOTICES,
    GameMove,
    News,
    Notice,
    NoticeKind,
    PlayerInfo,
    Refused,
    Snapshot,
    Told,
    Why,
)
from ..net.transport import Transport
from ..replaying import public_view
from ..store.lock import shown
from ..store.state import StateDir
from ..subscribers import Subscribers
from ..tv.address import tv_link
from .config import SeatConfig
from .local import LocalSeat

if TYPE_CHECKING:
    from ..runtime import Node


class WatchSeat(LocalSeat):
    """A spectator's seat: it follows the table through its members' feeds."""

    def __init__(
        self, config: SeatConfig, store: StateDir, transport: Transport, node_id: bytes
    ) -> None:
        super().__init__(config, store, transport, node_id)
        self.following.watch_only()
        self.listeners.append(self._on_feed)

    async def start(self) -> None:
        self.spawn(self._receive_loop(), "receive")
        self.spawn(self._timer_loop(), "timer")

    def ended_game(self) -> tuple[bytes, Game] | None:
        ended = None if self.following.follower is None else self.following.follower.ended
        return None if ended is None else (ended[1], ended[2])

    def _on_feed(self, effect: Effect, live: bool) -> None:
        """An event of the followed game became final: the table's log, and its end."""
        if not isinstance(effect, Delivered):
            return
        if live:
            self.table_log.delivered(effect, self.game())
        ended = self.following.follower.ended if self.following.follower is not None else None
        if ended is not None:
            self.ends.followed(ended[2].game_number)

    def counters(self) -> dict[str, object]:
        counted = super().counters()
        if self.following.follower is not None:
            counted["dropped"] = dict(self.following.follower.dropped)
        return counted

    def game(self) -> Game:
        return self.following.follower.game if self.following.follower is not None else Game()

    async def leave(self, linger: float = 0.3) -> None:
        """Tell the members we stop watching, then close."""
        self.carrier.execute(self.following.end())
        await asyncio.sleep(linger)
        await self.close()


class WatchSession:
    """The ``Session`` a spectator offers its client: the public game, and no moves."""

    def __init__(self, node: Node, seat: WatchSeat) -> None:
        self.node = node
        self.seat = seat
        self._notices: deque[Notice] = deque(maxlen=MAX_NOTICES)
        self._subscribers = Subscribers()
        self._results_seen = (1, 0)  # (game number, rounds told)
        self._over_told: set[int] = set()
        seat.listeners.append(self._on_effect)
        node.watchers.append(self._changed)

    def snapshot(self) -> Snapshot:
        return spectator_snapshot(self.node, self.seat)

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        return self._subscribers.subscribe(callback)

    def take_notices(self) -> list[Notice]:
        taken = list(self._notices)
        self._notices.clear()
        return taken

    def _changed(self) -> None:
        self._subscribers.tell()

    # -- a spectator plays nothing -----------------------------------------------------------

    def play(self, move: GameMove) -> Refused | None:
        return Refused(Why.WATCHING)

    def seen_scores(self) -> Refused | None:
        return None  # nobody waits for a spectator to see the scores

    def set_name(self, name: str) -> Refused | None:
        return Refused(Why.WATCHING)

    def set_back(self, back: str) -> Refused | None:
        return Refused(Why.WATCHING)

    def set_ready(self, ready: bool) -> Refused | None:
        return Refused(Why.WATCHING)

    def start(self) -> Refused | None:
        return Refused(Why.WATCHING)

    def set_option(self, on: bool) -> Refused | None:
        return Refused(Why.WATCHING)

    def set_game(self, tag: str) -> Refused | None:
        return Refused(Why.WATCHING)

    def set_length(self, target: int, rounds: int | None = None) -> Refused | None:
        return Refused(Why.WATCHING)

    def add_bot(self, level: str) -> Refused | None:
        return Refused(Why.WATCHING)

    def remove_bot(self) -> Refused | None:
        return Refused(Why.WATCHING)

    def watch(self) -> Refused | None:
        return None  # watching already

    async def leave(self) -> None:
        await self.node.stop()

    # -- notices -------------------------------------------------------------------------

    def _on_effect(self, effect: Effect, live: bool) -> None:
        if isinstance(effect, Delivered):
            self._tell_results(self.seat.game())

    def _tell_results(self, game: Game) -> None:
        number, seen = self._results_seen
        seen = seen if number == game.game_number else 0
        names = {m.seat: m.name for m in game.members.values()}
        for result in game.results[seen:]:
            if result.blitz_by is not None:
                self._tell(NoticeKind.BLITZ, Told(News.BLITZ, who=names.get(result.blitz_by, "?")))
            scores = tuple((names.get(s, "?"), p) for s, p in sorted(result.scores.items()))
            told = Told(News.ROUND_SCORES, count=game.shown_round(result.round), scores=scores)
            self._tell(NoticeKind.ROUND_OVER, told)
        self._results_seen = (game.game_number, len(game.results))
        over = game.phase == Phase.OVER and game.audit_complete()
        if over and not game.results and game.game_number not in self._over_told:
            self._over_told.add(game.game_number)  # too few were left to deal (P-239)
            rules = game.rules
            self._tell(
                NoticeKind.GAME_OVER, Told(News.TOO_FEW, what=rules.name, count=rules.min_seats)
            )
        elif over and game.winner is not None and game.game_number not in self._over_told:
            self._over_told.add(game.game_number)
            winner = names.get(game.winner, "?")
            points = game.totals.get(game.winner, 0)
            self._tell(NoticeKind.GAME_OVER, Told(News.GAME_WON, who=winner, count=points))

    def _tell(self, kind: NoticeKind, told: Told) -> None:
        self._notices.append(Notice(kind, told=told))


def spectator_snapshot(node: Node, seat: LocalSeat) -> Snapshot:
    """What a spectator's screen shows: the public game as fed, and no seat of its own."""
    follower = seat.following.follower
    game = follower.game if follower is not None else Game()
    view = game_view(game)
    loop = asyncio.get_running_loop()
    players = tuple(
        PlayerInfo(m.seat, m.node, m.name, m.back, m.ready, m.present, False, False)
        for m in sorted(game.members.values(), key=lambda m: m.seat)
    )
    return Snapshot(
        table=node.options.table,
        interface=node.interface.describe() if node.interface else "",
        endpoint=seat.endpoint,
        door=node.door.endpoint if node.door is not None else "",
        private=node.options.passphrase is not None,
        state_dir=shown(node.state_root) if node.state_root is not None else "",
        profile=node.lock.profile if node.lock is not None else 1,
        my_node=seat.node_id,
        my_seat=None,
        players=players,
        game=view,
        stable=view,
        pending_moves=0,
        peers_seen=seat.peers_seen,
        seconds_running=loop.time() - node.started_at,
        can_start=False,
        bot_levels=tuple(game_for(game.rules.tag).levels),
        option=game.post_stacking,
        length=(game.target, game.rounds),
        game_tag=game.rules.tag,
        watchers=follower.watchers(loop.time()) if follower is not None else (),
        watching=True,
        tv=tv_link(node.options.web, node.interface.address if node.interface else ""),
        unanswered=node.unanswered_peers(),
        seat_view=public_view(game),
    )
