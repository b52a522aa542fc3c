"""What a seat does with its machine's effects: sockets, files, timers, and what they report."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

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
from dutchblitz.protocol.seat import effects as seat
from dutchblitz.protocol.seat.machine import SeatMachine

from ..net.peers import Peers
from ..net.transport import Transport
from ..store.state import StateDir
from ..store.tablelog import TableLog
from .ending import GameEnds
from .ticks import Ticker, now

if TYPE_CHECKING:
    from .tables import TableSeating

log = logging.getLogger("dutchblitz.node")

Listener = Callable[[Effect, bool], None]  # an effect, and whether it happened live


class Carrier:
    """Carries out a seat's effects in order (a failed write stops the later sends): sends
    (a broadcast skips the spectators, who get their feed alone), writes to the log and
    deals.log, timers, peers met, greeted, cut off and let in, a move to another table;
    and hands what they report (``Delivered``, ``Withdrawn``, ``Alarm``) to the table's
    log and the ``listeners``, and a game's end to ``GameEnds``."""

    def __init__(
        self,
        machine: SeatMachine,
        transport: Transport,
        store: StateDir,
        peers: Peers,
        ticker: Ticker,
        table_log: TableLog,
        ends: GameEnds,
        pause_over: Callable[[], None],
    ) -> None:
        self.machine = machine
        self.steward = machine.steward
        self.transport = transport
        self.store = store
        self.peers = peers
        self.ticker = ticker
        self.table_log = table_log
        self.ends = ends
        self.pause_over = pause_over  # called when the scores' timeout or the count-in ends
        self.listeners: list[Listener] = []
        self.seating: TableSeating | None = None  # set once the seat has made it

    def execute(self, effects: Iterable[Effect], replica: object = None, live: bool = True) -> None:
        """Carry out a replica's effects, and what the machine makes of them (``react``)."""
        self.carry(self.machine.react(effects, now()), live)

    def carry(self, outs: Iterable[seat.Out], live: bool = True) -> None:
        """Carry out what one input to the machine gave back (``live``: not a log restored)."""
        for out in outs:
            if isinstance(out, Send):
                if out.to is None:  # a spectator is sent its feed and nothing else
                    replica = self.machine.replica
                    skip = () if replica is None else replica.spectators.watching
                    self.transport.broadcast(out.data, skip=skip)
                else:
                    self.transport.send(out.to, out.data)
            elif isinstance(out, Persist):
                self.store.append_event(out.data)
            elif isinstance(out, Timer):
                self.ticker.by(out.at)
            elif isinstance(out, Delivered | Withdrawn | Alarm):
                self._report(out, live)
            else:
                self._other(out)

    def _other(self, out: seat.Out) -> None:
        replica = self.machine.replica
        if isinstance(out, PersistClock):
            self.store.save_clock_mark(out.mark)
        elif isinstance(out, seat.KeepSecret):
            self.store.save_deal_secret(out.round, out.secret)
        elif isinstance(out, PeerSeen):
            self.execute(self.peers.peer_seen(out.node, out.endpoint, replica))
        elif isinstance(out, SpectatorSeen):  # the machine's HELLO that lists it follows
            self.peers.contacts.connect(out.node, out.endpoint)
        elif isinstance(out, seat.HelloHeard):
            self.execute(self.peers.hello_heard(out.sender, out.hello, replica))
        elif isinstance(out, seat.AskHello):
            self.execute(self.peers.ask_hello(out.peer, replica))
        else:
            self._seat(out)

    def _seat(self, out: seat.Out) -> None:
        seating = self.seating
        assert seating is not None
        if isinstance(out, seat.Admits):
            self.peers.admit(out.nodes)
        elif isinstance(out, seat.CutOff):
            self.peers.cut_off(out.peer, out.member)
        elif isinstance(out, seat.Forged) and out.count == 1:
            log.warning("%s: a message named another sender than its key's", self.table_log.label)
        elif isinstance(out, seat.Wake):
            self.ticker.wake_at(out.at, self.pause_over)
        elif isinstance(out, seat.GameEnded):
            self.ends.tell(out.number)
        elif isinstance(out, seat.Rematch):
            self.ends.game_over.clear()  # a rematch (spec/rules.md R-51)
        elif isinstance(out, seat.Finished):
            self.ends.finish(out.confirmed)
        elif isinstance(out, seat.MoveTable):
            log.info("%s: %s", self.table_log.label, out.why)
            seating.begin(out.epoch)
        elif isinstance(out, seat.BackToKept):
            log.info(
                "%s: table %s answers: back to its log", self.table_log.label, out.epoch.hex()[:8]
            )
            seating.back_to_kept(out.epoch)

    def _report(self, effect: Effect, live: bool) -> None:
        if isinstance(effect, Alarm):
            self.table_log.alarm(effect)
        elif isinstance(effect, Delivered) and live and self.machine.stable is not None:
            self.table_log.delivered(effect, self.machine.stable)
        for listener in self.listeners:
            listener(effect, live)
