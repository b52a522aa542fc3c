"""A seat's parts with IO, wired around its machine, and what the node reads of them.

``SeatParts`` builds the ``SeatMachine`` (protocol/seat/machine.py) and the parts that
carry out its effects: ``Contacts`` and ``Peers`` (node/net/: whom it talks to),
``Following`` (watching.py), ``GameEnds`` (ending.py), the ``Carrier`` (carrier.py),
``TableSeating`` (tables.py: the log it holds), ``Ticker`` and ``SeatTasks``. The shell
that drives them, one call into the machine per input, is ``LocalSeat`` (local.py).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

from dutchblitz.protocol.replica.core import Replica
from dutchblitz.protocol.seat.finding import TableFinder
from dutchblitz.protocol.seat.machine import SeatMachine, game_played
from dutchblitz.protocol.seat.pace import Pace
from dutchblitz.protocol.table.state import Game

from ..api import GameOn
from ..net.contacts import Contacts
from ..net.peers import Peers
from ..net.transport import Transport
from ..store.state import StateDir, StoreError
from ..store.tablelog import TableLog
from .carrier import Carrier
from .config import SeatConfig, draws
from .ending import GameEnds
from .tables import TableSeating
from .tasks import SeatTasks
from .ticks import Ticker
from .watching import Following


class SeatParts:
    """A seat's machine and the parts that carry out its effects, wired together."""

    def __init__(
        self,
        config: SeatConfig,
        store: StateDir,
        transport: Transport,
        node_id: bytes,
        pause_over: Callable[[], None],  # the scores' timeout or the count-in ended
    ) -> None:
        self.config, self.store, self.transport, self.node_id = config, store, transport, node_id
        self.endpoint, self.label = transport.endpoint, config.wishes.name
        self.watchers: list[Callable[[], None]] = []  # the screen, told of each change
        self.table_log = TableLog(self.label)
        self.alarms = self.table_log.alarms  # counted here, each kind logged once
        self.tasks = SeatTasks(config.wishes)
        self.failed, self.ticker = self.tasks.failed, Ticker()
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
        contacts.heard, contacts.epochs = standing.heard, standing.epochs
        standing.endpoints = contacts.endpoints
        self.roster = transport.roster
        self.following = Following(config.table, node_id, config.wishes, contacts, machine)
        self.peers = Peers(
            config.table, config.wishes, contacts, self.following, self.alarms, machine
        )
        self.ends = GameEnds(config.wishes)
        self.game_over, self.finished = self.ends.game_over, self.ends.finished
        self.game_over_hooks = self.ends.hooks  # run once at each game's end
        self.carrier = Carrier(
            machine, transport, store, self.peers, self.ticker, self.table_log, self.ends,
            pause_over,
        )  # fmt: skip
        self.listeners = self.carrier.listeners
        self.replica: Replica | None = None  # the seating's, told when it takes up another
        self.placed = asyncio.Event()  # set once the seat holds a log (or is closed)
        self.seating = TableSeating(
            config, node_id, store, contacts, self.carrier, self.ends, self._seated
        )  # fmt: skip
        self.carrier.seating = self.seating
        self.roster.listeners.append(self.seating.know_key)
        # Our HELLO to a peer that refused us at first was lost with that connection.
        transport.relinked.append(
            lambda node: self.carrier.execute(self.peers.greet(node, self.replica, force=True))
        )

    def _seated(self, replica: Replica) -> None:
        self.replica = self.machine.replica = replica
        self.placed.set()

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

    def sitting_down(self) -> bool:
        """Whether the seat is still finding its table or waiting to be admitted to it."""
        return self.machine.standing.sitting_down(self.replica)

    def meet(
        self, node: bytes, endpoint: str, force: bool = False, announced: bool = False
    ) -> None:
        """A peer met at the door, found by discovery or learnt from a HELLO: greet it
        (``Peers.meet``; ``force``: even if greeted just now)."""
        self.carrier.execute(self.peers.meet(node, endpoint, self.replica, force, announced))

    def watch(self) -> None:
        """Follow the table's game as a spectator (spec/protocol.md section 26)."""
        self.following.watch(self.ticker)

    def ended_game(self) -> tuple[bytes, Game] | None:
        """The last game that ended here, audited, with the log's digest then."""
        ended = None if self.replica is None else self.replica.ended
        return None if ended is None else (ended[1], ended[2])

    def game_tag(self) -> str:
        """The game the table plays: its log's (P-234, P-241), or ours before we sit."""
        return game_played(self.replica, self.config.settings.game)

    def game_on(self) -> GameOn | None:
        """The game on at the table we asked to join, if one keeps us waiting (P-117)."""
        return self.seating.game_on()
