"""One seat this process plays at the table: the person's own, or a local bot's.

A ``LocalSeat`` is a whole peer: its own node id, state directory, ZeroMQ transport,
and ``SeatMachine`` (protocol/seat/machine.py), which decides everything the seat
does. The seat is its shell: one call into the machine per input, then its effects
carried out (``Carrier``, node/seat/carrier.py), as aioquic's ``datagram_received``:

* receive: wait for a message, drain whatever else has arrived (a batch), hand each
  to ``SeatMachine.receive``, then ``acknowledge`` once (one acknowledgement per batch);
* timer: ``SeatMachine.tick`` no later than the ``Timer`` it asked for (``Ticker``);
* duties: after each change, ``SeatMachine.duties`` (and a bot's think time first);
* the player: ``submit`` and ``leave``.

Its parts with IO: ``TableSeating`` (node/seat/tables.py: the log restored, founded or
joined), ``Peers`` (node/net/peers.py: greetings, the roster), ``Following``
(node/seat/watching.py), ``GameEnds`` (node/seat/ending.py), ``Ticker`` and ``SeatTasks``.
The transport hands over each message with its sender's authenticated node id (CURVE
and ZAP); the machine drops and counts one whose header names another sender
(``forged_sender``) and one from a peer at another table (``dropped_other_table``), and
one from a peer that has sent no HELLO yet, which is asked for one (P-264).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from dutchblitz.protocol.replica.core import Replica, Settings
from dutchblitz.protocol.seat.duties import Wishes
from dutchblitz.protocol.seat.effects import Out
from dutchblitz.protocol.seat.finding import TableFinder
from dutchblitz.protocol.seat.machine import SeatMachine
from dutchblitz.protocol.seat.pace import COUNT_IN_S, Pace
from dutchblitz.protocol.table.game import Game
from dutchblitz.protocol.wire.messages import Body

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
    """A peer at the table, run on the caller's asyncio loop: the shell of its machine."""

    def __init__(
        self, config: SeatConfig, store: StateDir, transport: Transport, node_id: bytes
    ) -> None:
        self.config, self.store, self.transport, self.node_id = config, store, transport, node_id
        self.endpoint, self.label = transport.endpoint, config.wishes.name
        self.watchers: list[Callable[[], None]] = []
        self.table_log = TableLog(self.label)
        self.alarms = self.table_log.alarms  # counted here, each kind logged once
        self.tasks = SeatTasks(config.wishes)
        self.failed, self.started_at, self.ticker = self.tasks.failed, now(), Ticker()
        self.pace = Pace(eager=config.bot is not None, count_in_s=config.count_in_s)
        settings = config.settings
        finder = TableFinder(settings.suspect_after, settings.heartbeat_every)
        self.machine = machine = SeatMachine(
            node_id, config.table, config.wishes, config.bot, draws(config.seed, node_id),
            self.pace, finder, config.join_window, random.SystemRandom(),
        )  # fmt: skip
        self.steward = machine.steward
        self.contacts = contacts = Contacts(node_id, config.table, transport)
        standing = machine.standing  # what it hears of the peers, shared with ``Contacts``
        contacts.heard, contacts.epochs, standing.endpoints = (
            standing.heard,
            standing.epochs,
            contacts.endpoints,
        )
        self.roster = transport.roster
        self.following = Following(config.table, node_id, config.wishes, contacts, machine)
        self.peers = Peers(
            config.table, config.wishes, contacts, self.following, self.alarms, machine
        )
        self.ends = GameEnds(machine, config.wishes)
        self.game_over, self.finished = self.ends.game_over, self.ends.finished
        self.game_over_hooks = self.ends.hooks  # run once at each game's end
        self._changed = asyncio.Event()

        def pause_over() -> None:  # the scores' timeout or the count-in ended
            self.poke()
            self._notify()

        self.carrier = Carrier(
            machine, transport, store, self.peers, self.ticker, self.table_log, self.ends,
            pause_over,
        )  # fmt: skip
        self.listeners = self.carrier.listeners
        self.replica: Replica | None = None  # the seating's, told when it takes up another
        self.seating = TableSeating(
            config, node_id, store, contacts, self.carrier, self.ends, finder, self._seated
        )  # fmt: skip
        self.carrier.seating = self.seating
        self.roster.listeners.append(self.seating.know_key)
        # Our HELLO to a peer that refused us at first was lost with that connection.
        transport.relinked.append(
            lambda node: self.carrier.execute(self.peers.greet(node, self.replica, force=True))
        )
        self._closed = False

    @property
    def failure(self) -> StoreError | None:
        """What stopped the seat, if anything did (``failed`` is set then)."""
        return self.tasks.failure

    @property
    def peers_seen(self) -> int:
        return len(self.contacts.endpoints)

    @property
    def dropped_other_table(self) -> int:
        return self.machine.other_table

    # -- life ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Find the table (restore, join or found), then run until ``close``."""
        self.spawn(self._receive_loop(), "receive")
        self.spawn(self._timer_loop(), "timer")
        if not self.seating.restore():
            self.carrier.execute(self.peers.greet_all(self.replica, force=True))
            arrival = self.machine.arrival
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(arrival.listen_time()):
                    while not arrival.heard_enough(now()):  # a member answered (P-267)
                        self.peers.answered.clear()
                        await self.peers.answered.wait()
            if self.replica is None and not self._closed:
                self._run("settling", arrival.settle, now())
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
            "forged_sender": self.machine.forged,
            "roster": {
                "known": len(self.roster.keys),
                "refused": self.roster.stats.refused,
                "mismatched": self.roster.stats.mismatched,
            },
            "throttled": self.machine.throttle.stats.as_dict(),
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
        if self.failure is None:
            with contextlib.suppress(StoreError):
                self._run("leaving", self.machine.leave, now())
        await asyncio.sleep(linger)  # let ZeroMQ hand the last messages over
        await self.close()

    # -- the table -----------------------------------------------------------------------

    def meet(
        self, node: bytes, endpoint: str, force: bool = False, announced: bool = False
    ) -> None:
        """A peer met at the door, found by discovery or learnt from a HELLO: greet it
        (``Peers.meet``; ``force``: even if greeted just now)."""
        self.carrier.execute(self.peers.meet(node, endpoint, self.replica, force, announced))

    def _seated(self, replica: Replica) -> None:
        self.replica = self.machine.replica = replica

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

    # -- the loops: one call into the machine per input, then its effects -----------------

    async def _receive_loop(self) -> None:
        transport, machine = self.transport, self.machine
        while True:
            batch = [await transport.recv()]
            while len(batch) < MAX_BATCH and (more := transport.try_recv()) is not None:
                batch.append(more)
            at = now()
            for sender, data in batch:
                self._run("handling a message", machine.receive, sender, data, at, notify=False)
            self._run("acknowledging", machine.acknowledge, at)
            await asyncio.sleep(0)

    async def _timer_loop(self) -> None:
        while True:
            self._run("ticking", self.machine.tick, await self.ticker.due())

    async def _duty_loop(self) -> None:
        while True:
            await self._changed.wait()
            self._changed.clear()
            pause = self.machine.think_pause(self.game_tag())
            if pause > 0:
                await asyncio.sleep(pause)
            if self.failure is None:
                self._run("choosing a move", self.machine.duties, now(), notify=None)
            await asyncio.sleep(0)

    def _run(
        self, what: str, step: Callable[..., list[Out]], *args: Any, notify: bool | None = True
    ) -> bool:
        """Hand the machine one input (``step(*args)``) and carry out its effects, then look
        at the duties again and tell the screen (``notify``; None: if there were effects).
        A failed write stops the seat (raised); any other error is counted."""
        outs: list[Out] = []
        try:
            outs = step(*args)
            self.carrier.carry(outs)
        except StoreError:
            self.machine.failed = True
            raise
        except Exception:
            self.tasks.loop_error(what)
            return False
        finally:
            if notify or (notify is None and outs):
                self._changed.set()
                self._notify()
        return True

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
        return self.act(self.machine.submit, body)

    def act(self, step: Callable[..., list[Out]], *args: Any) -> bool:
        """A person's input (``SeatMachine.submit``, ``offer``, ``pump``), with the time;
        False if it could not go or be written down (see ``failure``)."""
        if self.replica is None or self.failure is not None:
            return False
        try:
            return self._run("sending", step, *args, now())
        except StoreError as error:
            self.tasks.fail(error)
            return False
