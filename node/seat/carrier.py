"""What a seat does with its replica's effects: sockets, files, timer, and what they report."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from dutchblitz.protocol.replica.core import Replica
from dutchblitz.protocol.replica.effects import (
    Alarm,
    Delivered,
    Effect,
    PeerSeen,
    Persist,
    PersistClock,
    Send,
    SpectatorSeen,
    Timer,
    Withdrawn,
)
from dutchblitz.protocol.seat.duties import Steward, adopt_options
from dutchblitz.protocol.seat.pace import Pace
from dutchblitz.protocol.table.game import Phase

from ..net.peers import Peers
from ..net.transport import Transport
from ..store.state import StateDir
from ..store.tablelog import TableLog
from .ending import GameEnds
from .ticks import Ticker, now

Listener = Callable[[Effect, bool], None]  # an effect, and whether it happened live


class Carrier:
    """Carries out a replica's effects in order (a failed write stops the later sends): sends
    (a broadcast skips the spectators, who get their feed alone), writes to the log,
    timers, peers met; and hands what they report (``Delivered``, ``Withdrawn``, ``Alarm``)
    to the table's log, the steward, the pace, the game's end and the ``listeners``."""

    def __init__(
        self,
        node_id: bytes,
        transport: Transport,
        store: StateDir,
        peers: Peers,
        ticker: Ticker,
        table_log: TableLog,
        steward: Steward,
        pace: Pace,
        ends: GameEnds,
        pause_over: Callable[[], None],
    ) -> None:
        self.node_id = node_id
        self.transport = transport
        self.store = store
        self.peers = peers
        self.ticker = ticker
        self.table_log = table_log
        self.steward = steward
        self.pace = pace
        self.ends = ends
        self.pause_over = pause_over  # called when the scores' timeout or the count-in ends
        self.listeners: list[Listener] = []

    def execute(
        self, effects: Iterable[Effect], replica: Replica | None, live: bool = True
    ) -> None:
        """Carry out ``replica``'s effects (``live``: not a log being restored)."""
        for effect in effects:
            if isinstance(effect, Send):
                if effect.to is None:  # a spectator is sent its feed and nothing else
                    skip = () if replica is None else replica.spectators.watching
                    self.transport.broadcast(effect.data, skip=skip)
                else:
                    self.transport.send(effect.to, effect.data)
            elif isinstance(effect, Persist):
                self.store.append_event(effect.data)
            elif isinstance(effect, PersistClock):
                self.store.save_clock_mark(effect.mark)
            elif isinstance(effect, PeerSeen):
                self.execute(self.peers.peer_seen(effect.node, effect.endpoint, replica), replica)
            elif isinstance(effect, SpectatorSeen):
                self.peers.contacts.connect(effect.node, effect.endpoint)
                if replica is not None:
                    # Our HELLO lists it: our peers let it in to watch, and it follows
                    # through one of them should we leave (P-260).
                    self.execute(replica.hello(None), replica)
            elif isinstance(effect, Timer):
                self.ticker.by(effect.at)
            else:
                self._report(effect, replica, live)

    def _report(
        self, effect: Delivered | Withdrawn | Alarm, replica: Replica | None, live: bool
    ) -> None:
        if isinstance(effect, Alarm):
            self.table_log.alarm(effect)
        elif isinstance(effect, Delivered) and replica is not None:
            self._delivered(effect, replica)
            if live:
                self.table_log.delivered(effect, replica.stable)
        for listener in self.listeners:
            listener(effect, live)

    def _delivered(self, effect: Delivered, replica: Replica) -> None:
        entry = effect.entry
        stable = replica.stable
        if entry.sender == self.node_id:
            self.steward.on_own_event(entry, stable)
        at = now()
        if stable.phase == Phase.LOBBY and replica.optimistic().phase == Phase.LOBBY:
            adopt_options(self.steward.wishes, replica.optimistic())  # P-261
        pause_ends = self.pace.follow(stable, at)
        if pause_ends is not None:  # look at the duties again when it ends
            self.ticker.wake_at(pause_ends, self.pause_over)
        self.ends.delivered(replica, at)
