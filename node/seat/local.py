"""One seat this process plays at the table: the person's own, or a local bot's.

A ``LocalSeat`` is a whole peer: its own node id, state directory, ZeroMQ
transport and protocol ``Replica``. It runs one task per role:

* receive: wait for a message, drain whatever else has arrived (a batch), feed
  each to the replica, then ``flush`` once (one acknowledgement per batch) and only
  then apply what the batch made final (``Replica.advance``);
* timer: ``tick`` the replica no later than the ``Timer`` it asked for (``Ticker``);
* duties: after each change, send what the seat owes the table (``duties``)
  and, for a bot, its next move.

The seat holds its parts, each with its own state:

* ``TableSeating`` (node/seat/tables.py): its replica, and the table it found (restored,
  founded, or asked to join), moving on to another when the finder says so;
* ``Peers`` (node/net/peers.py): greetings, the roster in step with the game, flood limits;
* ``Carrier`` (node/seat/carrier.py): what it does with the replica's effects;
* ``Following`` (node/seat/watching.py): its ``Follower`` while it watches a game;
* ``GameEnds`` (node/seat/ending.py): each game's end, told once, and the wait after it;
* ``Ticker`` (node/seat/ticks.py) and ``SeatTasks`` (node/seat/tasks.py): its timer and its tasks.

The transport hands over each message with its sender's authenticated node id
(CURVE and ZAP); a message whose header names another sender is dropped and
counted (``forged_sender``), so the replica may take the sender a direct
message names as proven. A message from a peer at another table (its last HELLO
named another epoch), or at none we know of yet (no HELLO of its heard: it is asked for
one, P-283), is dropped and counted (``dropped_other_table``), HELLO aside.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from dutchblitz.protocol.games.registry import game_for, level_in
from dutchblitz.protocol.replica.core import Replica, Settings
from dutchblitz.protocol.replica.effects import Effect
from dutchblitz.protocol.seat.duties import Steward, Wishes
from dutchblitz.protocol.seat.finding import TableFinder
from dutchblitz.protocol.seat.pace import COUNT_IN_S, Pace
from dutchblitz.protocol.table.game import Game
from dutchblitz.protocol.wire.messages import Body, Bye, Kind
from dutchblitz.protocol.wire.peek import message_kind, message_sender

from ..api import GameOn
from ..net.contacts import Contacts
from ..net.peers import Peers
from ..net.transport import Transport
from ..store.state import StateDir, StoreError
from ..store.tablelog import TableLog
from .carrier import Carrier
from .ending import GameEnds
from .tables import TableSeating
from .tasks import SeatTasks
from .ticks import Ticker, now
from .watching import Following

log = logging.getLogger("dutchblitz.node")

JOIN_WINDOW_S = 1.5  # how long a new seat listens for an existing table
MAX_BATCH = 256  # messages handled before the acknowledgement and a yield
SIT_DOWN_S = 10.0  # how long a seat taken away while it joins waits to sit, to say goodbye


@dataclass(slots=True)
class SeatConfig:
    table: str
    wishes: Wishes
    settings: Settings = field(default_factory=Settings)
    bot: Any = None  # the bot's level (the game's ``TableGame.levels``), or None: a person
    seed: int | None = None
    join_window: float = JOIN_WINDOW_S
    restore: bool = True  # reload an unfinished game left in the state directory
    count_in_s: float = COUNT_IN_S  # before each round's first move (spec/rules.md R-55)


def draws(seed: int | None, node_id: bytes) -> Callable[[str], random.Random]:
    """The seat's random streams, one per purpose: the system's, or seeded (``--seed``)."""

    def draw(purpose: str) -> random.Random:
        if seed is None:
            return random.SystemRandom()
        return random.Random(f"{seed}-{node_id.hex()}-{purpose}")

    return draw


class LocalSeat:
    """A peer at the table, run on the caller's asyncio loop."""

    def __init__(
        self, config: SeatConfig, store: StateDir, transport: Transport, node_id: bytes
    ) -> None:
        self.config = config
        self.store = store
        self.transport = transport
        self.node_id = node_id
        self.signer = store.identity()
        self.endpoint = transport.endpoint
        self.label = config.wishes.name
        self.watchers: list[Callable[[], None]] = []
        self.table_log = TableLog(self.label)
        self.alarms = self.table_log.alarms  # counted here, each kind logged once
        self.dropped_other_table = 0
        self.forged_sender = 0
        self.tasks = SeatTasks(config.wishes)
        self.failed = self.tasks.failed
        self.started_at = now()
        self.ticker = Ticker()
        contacts = Contacts(node_id, config.table, transport)
        self.contacts = contacts
        self.roster = transport.roster
        self.following = Following(config.table, node_id, config.wishes, contacts)
        self.peers = Peers(config.table, config.wishes, contacts, self.following, self.alarms)
        settings = config.settings
        finder = TableFinder(settings.suspect_after, settings.heartbeat_every)
        self.ends = GameEnds(node_id, finder, config.wishes)
        self.game_over = self.ends.game_over  # cleared again when a rematch begins
        self.finished = self.ends.finished  # over, and the others have seen the end too
        self.game_over_hooks = self.ends.hooks  # run once at each game's end
        self._changed = asyncio.Event()
        self.pace = Pace(eager=config.bot is not None, count_in_s=config.count_in_s)
        self.steward = Steward(
            node_id,
            config.wishes,
            config.bot,
            draws(config.seed, node_id),
            store.save_deal_secret,
            self.submit,
            self.pace,
        )
        self.think_rng: random.Random = random.SystemRandom()
        self.carrier = Carrier(
            node_id,
            transport,
            store,
            self.peers,
            self.ticker,
            self.table_log,
            self.steward,
            self.pace,
            self.ends,
            self._pause_over,
        )
        self.listeners = self.carrier.listeners
        self.replica: Replica | None = None  # the seating's, told when it takes up another
        self.seating = TableSeating(
            config, node_id, store, contacts, self.carrier, self.ends, finder, self._seated,
            self.following.live_epoch,
        )  # fmt: skip
        self.roster.listeners.append(self.seating.know_key)
        # Our HELLO to a peer that refused us at first was lost with that connection.
        transport.relinked.append(
            lambda node: self._execute(self.peers.greet(node, self.replica, force=True))
        )
        self._closed = False

    @property
    def failure(self) -> StoreError | None:
        """What stopped the seat, if anything did (``failed`` is set then)."""
        return self.tasks.failure

    @property
    def peers_seen(self) -> int:
        return len(self.contacts.endpoints)

    # -- life ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Find the table (restore, join or found), then run until ``close``."""
        self.spawn(self._receive_loop(), "receive")
        self.spawn(self._timer_loop(), "timer")
        if not self.seating.restore():
            self._execute(self.peers.greet_all(self.replica, force=True))
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.seating.listen_time()):
                    await self.peers.answered.wait()
                    while not self.seating.heard_kept():  # P-286
                        self.peers.answered.clear()
                        await self.peers.answered.wait()
            if self.replica is None and not self._closed:
                self.seating.settle(self._handle)
                self._changed.set()
        self.spawn(self._duty_loop(), "duties")

    def spawn(self, work: Awaitable[None], name: str) -> None:
        """Run ``work`` beside the seat's own loops, until ``close``; an error in it is
        counted as the seat's own (a test rig adds its misbehaviour this way)."""
        self.tasks.spawn(work, name)

    def counters(self) -> dict[str, object]:
        """What this seat has seen: messages, what it refused and why, and its own errors."""
        replica = self.replica
        stats = self.transport.stats
        return {
            "received": stats.received,
            "sent": stats.sent,
            "dropped": dict(replica.counters.dropped) if replica is not None else {},
            "other_table": self.dropped_other_table,
            "transport_refused": stats.oversize_received + stats.malformed,
            "no_peer": stats.no_peer,
            "handshake_failed": stats.handshake_failed,
            "impostor": stats.impostor,
            "not_on_roster": stats.not_on_roster,
            "forged_sender": self.forged_sender,
            "roster": {
                "known": len(self.roster.keys),
                "refused": self.roster.stats.refused,
                "mismatched": self.roster.stats.mismatched,
            },
            "throttled": self.peers.throttle.stats.as_dict(),
            "alarms": dict(self.alarms),
            "loop_errors": self.tasks.loop_errors,
        }

    async def close(self) -> None:
        """Stop every task and close the sockets and files (no goodbye: see ``leave``)."""
        if self._closed:
            return
        self._closed = True
        log.info("%s: counters: %s", self.label, self.counters())
        self.ticker.cancel()
        await self.tasks.cancel()
        self.transport.close()
        self.store.close()

    def sitting_down(self) -> bool:
        """Whether the seat is still finding its table or waiting to be admitted to it."""
        replica = self.replica
        return replica is None or (replica.rejoining and not replica.is_member())

    async def sit_down_first(self, limit: float = SIT_DOWN_S) -> None:
        """Wait, at most ``limit`` seconds, until the seat has sat down. A seat taken away
        while it asks to join leaves with no goodbye, yet the table admits it all the same:
        a member nobody answers for, never ready, whose acknowledgements every event then
        waits for. Once seated, its goodbye takes the seat away again."""
        changed = asyncio.Event()
        self.watchers.append(changed.set)
        try:
            async with asyncio.timeout(limit):
                while self.sitting_down() and not self._closed and self.failure is None:
                    changed.clear()
                    await changed.wait()
        except TimeoutError:
            log.info("%s: not seated after %.0f s: leaving all the same", self.label, limit)
        finally:
            self.watchers.remove(changed.set)

    async def leave(self, linger: float = 0.3) -> None:
        """Say goodbye to the table (a BYE) if still playing, then close."""
        replica = self.replica
        if replica is not None and replica.is_member():  # after a game too: no rematch wait
            if self.failure is None:
                self.steward.deal_duties(replica, reveals_only=True)  # a reveal owed goes first
            self.submit(Bye())
        await asyncio.sleep(linger)  # let ZeroMQ hand the last messages over
        await self.close()

    # -- the table -----------------------------------------------------------------------

    def meet(
        self, node: bytes, endpoint: str, force: bool = False, announced: bool = False
    ) -> None:
        """A peer met at the door, found by discovery or learnt from a HELLO: greet it
        (``Peers.meet``; ``force``: even if greeted just now)."""
        self._execute(self.peers.meet(node, endpoint, self.replica, force, announced))

    def _seated(self, replica: Replica) -> None:
        self.replica = replica

    def watch(self) -> None:
        """Follow the table's game as a spectator (spec/protocol.md section 26)."""
        self.following.watch(self.ticker)

    def ended_game(self) -> tuple[bytes, Game] | None:
        """The last game that ended here, audited, with the log's digest then."""
        ended = None if self.replica is None else self.replica.ended
        return None if ended is None else (ended[1], ended[2])

    def game_tag(self) -> str:
        """The game the table plays: its log's (P-234, P-241), or ours before we sit."""
        replica = self.replica
        return replica.stable.rules.tag if replica is not None else self.config.settings.game

    def game_on(self) -> GameOn | None:
        """The game on at the table we asked to join, if one keeps us waiting (P-117)."""
        return self.seating.game_on()

    # -- the loops -----------------------------------------------------------------------

    async def _receive_loop(self) -> None:
        transport, peers = self.transport, self.peers
        while True:
            batch = [await transport.recv()]
            while len(batch) < MAX_BATCH:
                more = transport.try_recv()
                if more is None:
                    break
                batch.append(more)
            at = now()
            for sender, data in batch:
                if not peers.within_limits(sender, data, at, self.replica):
                    continue
                try:
                    self._handle(sender, data, at, defer=True)
                except StoreError:
                    raise
                except Exception:
                    self.tasks.loop_error("handling a message")
            try:
                replica = self.replica
                if replica is not None:
                    # The acknowledgement goes out first: the others wait for it, while
                    # what becomes final here (and the bot's next move) waits for nobody.
                    self._execute(replica.flush(at))
                    self._execute(replica.advance(at))
                    self._execute(peers.announce(replica))
                    peers.admit_for(replica)
            except StoreError:
                raise
            except Exception:
                self.tasks.loop_error("acknowledging")
            self._changed.set()
            self._notify()
            await asyncio.sleep(0)

    def _handle(self, sender: bytes, data: bytes, at: float, defer: bool = False) -> None:
        """One message for the replica; with ``defer``, what becomes final waits for
        ``Replica.advance`` (the batch's acknowledgement goes out before it)."""
        named = message_sender(data)
        if named is not None and named != sender:
            self.forged_sender += 1
            if self.forged_sender == 1:
                log.warning("%s: a message named another sender than its key's", self.label)
            return
        self.contacts.heard[sender] = at
        kind = message_kind(data)
        follower = self.following.follower
        if kind == Kind.WATCH and follower is not None:
            self._execute(follower.receive(sender, data, at))
            return
        if kind == Kind.HELLO:
            self._execute(self.peers.note_hello(data, self.replica))
        elif sender not in self.contacts.epochs:  # at a table we do not know yet (P-283)
            self.dropped_other_table += 1
            self._execute(self.peers.ask_hello(sender, self.replica))
            return
        seating = self.seating
        replica = seating.replica
        if replica is None:
            seating.hold(sender, data)
            return
        if kind != Kind.HELLO and not self.contacts.same_table(sender, replica.me.epoch):
            self.dropped_other_table += 1
            return
        seating.overhear(kind, data, at)
        # ``sender`` is the key the channel authenticated (and the header named it).
        # A HELLO may move the seat to another table: it sees the state brought up to date.
        advance = not defer or kind == Kind.HELLO
        self._execute(replica.receive(data, at, via=sender, advance=advance))
        if kind == Kind.HELLO:
            seating.consider_moving(at, self._handle, self.submit)

    async def _timer_loop(self) -> None:
        while True:
            at = await self.ticker.due()
            try:
                self._execute(self.following.tick(self.replica, at, self.ticker))
                if self.replica is not None:
                    self._execute(self.replica.tick(at))
                    self._execute(self.peers.announce(self.replica))
                    self.seating.consider_moving(at, self._handle, self.submit)
                    self.ends.check_finished(self.replica, at)
                    self.peers.admit_for(self.replica)
            except StoreError:
                raise
            except Exception:
                self.tasks.loop_error("ticking")
            self._changed.set()
            self._notify()

    async def _duty_loop(self) -> None:
        while True:
            await self._changed.wait()
            self._changed.clear()
            bot = self.steward.bot
            if bot is not None:
                tag = self.game_tag()
                level = level_in(tag, self.steward.level)
                pause = game_for(tag).think_time(level, self.think_rng)
                if pause > 0:
                    await asyncio.sleep(pause)
            try:
                if self.replica is not None and self.failure is None:
                    self.steward.step(self.replica, now())
            except StoreError:
                raise
            except Exception:
                self.tasks.loop_error("choosing a move")
            await asyncio.sleep(0)

    # -- effects, and what we send ----------------------------------------------------------

    def _execute(self, effects: Iterable[Effect], live: bool = True) -> None:
        """Carry out effects for the replica held now (``Carrier.execute``)."""
        self.carrier.execute(effects, self.replica, live)

    def _pause_over(self) -> None:
        """The scores' timeout or the count-in ended: look at the duties again."""
        self.poke()
        self._notify()

    def _notify(self) -> None:
        for watcher in list(self.watchers):
            try:
                watcher()
            except Exception:
                self.tasks.loop_error("telling the screen")

    def poke(self) -> None:
        """Look again at what the seat owes the table (after the person changed a wish)."""
        self._changed.set()

    def submit(self, body: Body) -> bool:
        """Send one event of ours; False if it could not be written down (see ``failure``)."""
        replica = self.replica
        if replica is None or self.failure is not None:
            return False
        try:
            self._execute(replica.submit(body, now()))
        except StoreError as error:
            self.tasks.fail(error)
            return False
        self._changed.set()
        self._notify()
        return True
