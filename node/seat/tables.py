"""Which table a seat plays at, and its replica of that table's log (spec/protocol.md 12).

A seat that holds a log restores it and says hello as a member (or asks to be admitted
if it never was). A seat with no log *probes* for a short window (``Peers``): a member
answers with a HELLO that names the table's epoch. The seat then asks to be admitted to
the smallest epoch it heard; if nobody answered, it founds a new table. Two tables of one
name merge while in the lobby: a seat in the lobby that hears a live peer at a smaller
epoch gives up its log and joins that table. Messages other than HELLO from a peer whose
last HELLO named another epoch, or that has sent no HELLO yet (it is asked for one, P-264),
are dropped by the seat: two tables of one name on one LAN never mix their logs. Which log
to take up, and when to move, is the seat's machine's (``MoveTable``, ``BackToKept``:
protocol/seat/arrival.py and finding.py); this carries the move out, and keeps a reloaded
log the seat gave up on disk until it goes back to it or forgets it (P-286).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from dutchblitz.protocol.replica.core import Identity, Replica
from dutchblitz.protocol.seat.duties import Steward

from ..api import GameOn
from ..net.contacts import Contacts
from ..store.state import StateDir, TableRecord
from ..store.tablelog import TableLog
from .carrier import Carrier
from .ending import GameEnds
from .ticks import now

if TYPE_CHECKING:
    from .config import SeatConfig

log = logging.getLogger("dutchblitz.node")


class TableSeating:
    """The seat's replica, and the log it keeps: restored, founded, or asked to join, as
    the seat's machine decides (its ``Arrival``, protocol/seat/arrival.py); this makes
    each replica (its keys, its files, a new table's epoch) and hands it in."""

    def __init__(
        self,
        config: SeatConfig,
        node_id: bytes,
        store: StateDir,
        contacts: Contacts,
        carrier: Carrier,
        ends: GameEnds,
        seated: Callable[[Replica], None],
    ) -> None:
        self.config = config
        self.node_id = node_id
        self.store = store
        self.contacts = contacts
        self.carrier = carrier
        self.ends = ends
        self.seated = seated  # told each replica the seating takes up, before its effects
        self.arrival = carrier.machine.arrival
        self.signer = store.identity()
        self.steward: Steward = carrier.steward
        self.table_log: TableLog = carrier.table_log
        self.replica: Replica | None = None
        # Told each log reloaded from disk, once its events are in (a screen may have
        # begun before: what the log held is not news).
        self.reloaded: list[Callable[[Replica], None]] = []

    @property
    def label(self) -> str:
        return self.config.wishes.name

    @property
    def founded(self) -> bool:
        """The last fresh log is a table this seat founded."""
        return self.arrival.founded

    def _identity(self, epoch: bytes) -> Identity:
        wishes = self.config.wishes
        endpoint = self.contacts.endpoint
        return Identity(
            self.node_id, self.config.table, epoch, wishes.name, wishes.back or "pump", endpoint
        )

    def know_key(self, node: bytes, key: bytes) -> None:
        """A key the roster learnt: the replica checks that node's signatures with it."""
        if self.replica is not None:
            self.replica.know_key(node, key)

    def _replica(self, epoch: bytes, at: float) -> Replica:
        replica = Replica(self._identity(epoch), at, self.config.settings, self.signer)
        for node, key in self.contacts.roster.keys.items():
            replica.know_key(node, key)
        self.steward.take_secrets(replica, self.store.deal_secrets())
        self.replica = replica
        self.seated(replica)
        return replica

    def restore(self) -> bool:
        """Reload a game that a previous run left unfinished; False if there is none (a
        log kept aside, or nothing: the machine decides, ``Arrival.restart``)."""
        record = self.store.table()
        if record is None or record.table != self.config.table:
            return False
        found = self.store.open_events()
        if found.problem:
            log.warning(
                "%s: the event log ended in a damaged record (%s): cut off %d bytes",
                self.label,
                found.problem,
                found.size - found.end,
            )
        config = self.config
        if self.arrival.restart(
            record.epoch,
            found.records,
            restore=config.restore,
            results=self.store.has_results(record.epoch),
            bot=config.bot is not None,
        ):
            self._reload(record, found.records)
            return True
        return False

    def _reload(self, record: TableRecord, records: list[bytes]) -> None:
        at = now()
        replica = self._replica(record.epoch, at)
        effects = replica.restore(records, self.store.clock_mark(), at)
        self.carrier.execute(effects, replica, live=False)
        self.table_log.caught_up(replica.stable)
        for told in self.reloaded:
            told(replica)
        log.info(
            "%s: restored %d events of table %s; rejoining",
            self.label,
            len(records),
            record.epoch.hex()[:8],
        )
        # The wait for its table to answer (P-205) counts from now: a restore of thousands
        # of events can take seconds on a busy machine, and no message is read meanwhile.
        self.carrier.carry(self.arrival.reload(replica, now(), floor=record.seq_floor))

    def back_to_kept(self, epoch: bytes) -> None:
        """The table of the log kept aside answers: reload that log and sit down again
        there, with every event of our own it holds (P-257). A fresh log could never get
        them back (no node takes its own events from a peer): it would go on without
        them, showing us as a newcomer, never ready, for good."""
        record = self.store.table()
        if epoch == self.arrival.aside and (record is None or record.epoch != epoch):
            # A log given up for a table that did not answer, kept aside (P-286).
            floor = self.arrival.seq_floor(record.seq_floor if record is not None else 0)
            aside = TableRecord(self.config.table, epoch, floor)
            if not self.store.resume_table(aside):
                self.begin(epoch)  # the kept log is gone from the disk: ask to join
                return
            record = aside
        if record is None or record.epoch != epoch:
            self.begin(None)  # the kept log is gone from the disk: found a table
            return
        self._reload(record, self.store.open_events().records)

    def begin(self, epoch: bytes | None) -> None:
        """Start a fresh log, as the seat's machine decided (``MoveTable``): found a new
        table (no ``epoch``), or ask to join the one at ``epoch``."""
        record = self.store.table()
        seq_floor = self.arrival.seq_floor(record.seq_floor if record is not None else 0)
        found, at = epoch is None, now()
        epoch = os.urandom(16) if epoch is None else epoch
        record = TableRecord(self.config.table, epoch, seq_floor)
        self.store.begin_table(record, keep=self.arrival.aside)
        self.store.open_events()
        self.table_log.caught_up(None)
        self.ends.forget()
        self.contacts.forget_greetings()
        if found:
            log.info("%s: founded table %r (%s)", self.label, self.config.table, epoch.hex()[:8])
        else:
            log.info("%s: asking to join table %s", self.label, epoch.hex()[:8])
        replica = self._replica(epoch, at)
        self.carrier.carry(self.arrival.begin(replica, at, found=found, floor=seq_floor))

    def game_on(self) -> GameOn | None:
        """The game on at the table we asked to join, if one keeps us waiting (P-117):
        what the machine overheard of it (protocol/seat/latecomer.py)."""
        on = self.carrier.machine.standing.game_on(self.replica, now())
        return None if on is None else GameOn(on.players, on.round)
