"""``NodeSession``: the client's ``Session`` (node/api.py) over a running ``Node``.

Everything here runs on the node's event loop. ``play`` has the game (its ``TableGame``,
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
from collections.abc import Callable, Collection

from dutchblitz.protocol.games.registry import game_for
from dutchblitz.protocol.replica.core import Replica
from dutchblitz.protocol.seat.duties import our_start
from dutchblitz.protocol.table.player import ActRefusal, GameMove, GameSeatView
from dutchblitz.protocol.table.rules import AnyGame
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.views import game_view
from dutchblitz.protocol.wire.auth import fingerprint

from .api import (
    Notice,
    PlayerInfo,
    Refused,
    Snapshot,
    Why,
)
from .net.doorbell import Doorbell
from .notices import SessionNotices
from .runtime import Node
from .seat.local import LocalSeat
from .seat.presence import missing_players
from .seat.spectator import spectator_snapshot
from .session_lobby import LobbyChoices, not_sent
from .store.lock import shown
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


class NodeSession(LobbyChoices):
    """The ``Session`` a running node offers its client: reading the table and playing,
    and the lobby's choices (``LobbyChoices``, session_lobby.py)."""

    def __init__(self, node: Node) -> None:
        assert node.main is not None, "start the node first"
        self._subscribers = Subscribers()
        side = GameSide(node.main)
        self._pumping = False
        self.notices = SessionNotices(node.options.table, node.main, side.player)
        side.notices = self.notices
        super().__init__(node, side, self.notices, self._changed)
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
            option=(
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
        self.make_held()
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

    def play(self, move: GameMove) -> Refused | None:
        """A move of the game's own, as its face built it from keys: one that names a key's
        action (``SeatPlayer.keyed``, Dutch Blitz's) is one call into the seat's machine
        (``SeatMachine.press``); any other goes as the game's body (Dutch's, Blitz!'s)."""
        self.side.follow()
        keyed = self.side.player.keyed(move)
        if keyed is not None:
            return self._press(*keyed)
        found = self._in_round()
        if isinstance(found, Refused):
            return found
        replica, game, me = found
        secrets = self.seat.steward.game.secrets_for(replica, game)
        body = self.side.player.body(game.table, me, move, game.round, secrets)
        if isinstance(body, ActRefusal):
            return _refused(body)
        if not self.seat.submit(body):
            return not_sent(self.seat)
        return None

    def _press(self, action: str, slot: int) -> Refused | None:
        """A key's action, checked, built and sent or held by the seat's machine."""
        seat = self.seat
        if not seat.act(seat.machine.press, action, slot):
            return self._not_seated() if seat.replica is None else not_sent(seat)
        refused = seat.machine.person.refused
        if refused is None:
            return None
        if refused.code == "not_seated":
            return self._not_seated()
        return not_sent(seat) if refused.code == "not_sent" else _refused(refused)

    def seen_scores(self) -> Refused | None:
        if not self.seat.pace.look():
            return Refused(Why.NO_SCORES)
        self.seat.poke()  # the steward says so to the table (spec/rules.md R-54)
        self._changed()
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


def _refused(refusal: ActRefusal) -> Refused:
    """The client's refusal for the game's: a code of the game's own comes as ``OTHER``."""
    return Refused.of(refusal.code, refusal.held, refusal.what, refusal.other, refusal.count)


def _players(game: Game, seat: LocalSeat, bots: Collection[bytes]) -> tuple[PlayerInfo, ...]:
    """The table's members in seat order, as the client shows them: which is this seat,
    which a bot of this node, and each one's key fingerprint. This seat's own row shows the
    name it chose, also while the table has yet to hear it."""
    return tuple(
        PlayerInfo(
            m.seat,
            m.node,
            seat.config.wishes.name if m.node == seat.node_id else m.name,
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


def _seat_view(
    seat: LocalSeat, player: AnyGame, replica: Replica, game: Game
) -> GameSeatView | None:
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
