"""Which table a seat plays at, and its replica of that table's log (spec/protocol.md 12).

A seat that holds a log restores it and says hello as a member (or asks to be admitted
if it never was). A seat with no log *probes* for a short window (``Peers``): a member
answers with a HELLO that names the table's epoch. The seat then asks to be admitted to
the smallest epoch it heard; if nobody answered, it founds a new table. Two tables of one
name merge while in the lobby: a seat in the lobby that hears a live peer at a smaller
epoch gives up its log and joins that table. Messages other than HELLO from a peer whose
last HELLO named another epoch, or that has sent no HELLO yet (it is asked for one, P-264),
are dropped by the seat: two tables of one name on one LAN never mix their logs. When to
move is the seat's machine's (``MoveTable``, protocol/seat/machine.py, with its
``TableFinder``); this carries the move out.
"""

from __future__ import annotations

import logging
import os
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from dutchblitz.protocol.replica.core import Identity, Replica
from dutchblitz.protocol.seat.duties import Steward, table_options
from dutchblitz.protocol.seat.finding import TableFinder
from dutchblitz.protocol.wire.messages import Kind
from dutchblitz.protocol.wire.peek import holds_a_start, message_kind, own_last_seq, said_goodbye

from ..api import GameOn
from ..net.contacts import Contacts
from ..store.state import StateDir, TableRecord
from ..store.tablelog import TableLog
from .carrier import Carrier
from .ending import GameEnds
from .latecomer import GameNews
from .ticks import now

if TYPE_CHECKING:
    from .local import SeatConfig

log = logging.getLogger("dutchblitz.node")

EARLY_LIMIT = 4096  # messages kept while the seat has no replica yet

Handler = Callable[[bytes, bytes, float], None]  # a message for the seat: sender, data, now


class TableSeating:
    """The seat's replica, and the log it keeps: restored, founded, or asked to join; the
    messages that came before it; and moving on, to a smaller table in the lobby or afresh
    when the table never admits us (``TableFinder``)."""

    def __init__(
        self,
        config: SeatConfig,
        node_id: bytes,
        store: StateDir,
        contacts: Contacts,
        carrier: Carrier,
        ends: GameEnds,
        finder: TableFinder,
        seated: Callable[[Replica], None],
        live: Callable[[float, float], list[bytes]],
    ) -> None:
        self.config = config
        self.node_id = node_id
        self.store = store
        self.contacts = contacts
        self.carrier = carrier
        self.ends = ends
        self.finder = finder
        self.seated = seated  # told each replica the seating takes up, before its effects
        self.live = live  # the epochs heard within a window, the table we watch too (P-205)
        self.signer = store.identity()
        self.steward: Steward = carrier.steward
        self.table_log: TableLog = carrier.table_log
        self.replica: Replica | None = None
        self.founded = False  # the last fresh log is a table this seat founded
        self.news = GameNews()  # what we overhear of a game we arrived too late for
        self._floor = 0
        self._kept: bytes | None = None  # the epoch of a log kept aside by ``restore``
        # Messages that came before the replica, each with its sender's epoch back then.
        self._early: deque[tuple[bytes, bytes, bytes | None]] = deque(maxlen=EARLY_LIMIT)
        # (A message but HELLO comes only from a peer whose epoch we know: P-264.)
        # Told each log reloaded from disk, once its events are in (a screen may have
        # begun before: what the log held is not news).
        self.reloaded: list[Callable[[Replica], None]] = []

    @property
    def label(self) -> str:
        return self.config.wishes.name

    def _identity(self, epoch: bytes) -> Identity:
        wishes = self.config.wishes
        endpoint = self.contacts.endpoint
        return Identity(
            self.node_id, self.config.table, epoch, wishes.name, wishes.back or "pump", endpoint
        )

    def _seq_floor(self) -> int:
        record = self.store.table()
        floor = record.seq_floor if record is not None else 0
        mine = self.replica.my_seq if self.replica is not None else 0
        return max(floor, mine, self._floor)

    def know_key(self, node: bytes, key: bytes) -> None:
        """A key the roster learnt: the replica checks that node's signatures with it."""
        if self.replica is not None:
            self.replica.know_key(node, key)

    def _give_keys(self, replica: Replica) -> None:
        for node, key in self.contacts.roster.keys.items():
            replica.know_key(node, key)

    def restore(self) -> bool:
        """Reload a game that a previous run left unfinished; False if there is none.

        A log of a table still in the lobby, or of a game that ended here when the seat is
        done with it (a headless bot's, or one its player left), is kept aside: the seat
        looks for a table first, and comes back to that log only if its table answers
        (``settle``, P-257). Otherwise a game that ended is the table's rematch offer
        (spec/rules.md R-49), and comes back at once.
        """
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
        # What is final after a restore is decided again with the others' heartbeats,
        # so whether this log holds a game is read from the records themselves.
        finished = self.store.has_results(record.epoch) and (
            self.config.bot is not None or said_goodbye(found.records, self.node_id)
        )
        if not self.config.restore or finished or not holds_a_start(found.records):
            self._floor = max(record.seq_floor, own_last_seq(found.records, self.node_id))
            headless_done = finished and self.config.bot is not None
            if self.config.restore and found.records and not headless_done:
                self._kept = record.epoch
            return False
        self._reload(record, found.records)
        return True

    def _reload(self, record: TableRecord, records: list[bytes]) -> None:
        at = now()
        replica = Replica(self._identity(record.epoch), at, self.config.settings, self.signer)
        self.steward.take_secrets(replica, self.store.deal_secrets())
        self._give_keys(replica)
        self._take_up(replica)
        effects = replica.restore(records, self.store.clock_mark(), at)
        self.carrier.execute(effects, replica, live=False)
        replica.my_seq = max(replica.my_seq, record.seq_floor)
        self.table_log.caught_up(replica.stable)
        for told in self.reloaded:
            told(replica)
        log.info(
            "%s: restored %d events of table %s; rejoining",
            self.label,
            len(records),
            record.epoch.hex()[:8],
        )
        self.finder.restored(at)
        self.carrier.execute(replica.hello(None), replica)

    def _back_to_kept(self, handle: Handler) -> bool:
        """The table of the log kept aside answers: reload that log and sit down again
        there, with every event of our own it holds (P-257). A fresh log could never get
        them back (no node takes its own events from a peer): it would go on without
        them, showing us as a newcomer, never ready, for good."""
        kept, self._kept = self._kept, None
        record = self.store.table()
        if kept is None or record is None or record.epoch != kept:
            return False
        found = self.store.open_events()
        self._reload(record, found.records)
        early, self._early = list(self._early), deque(maxlen=EARLY_LIMIT)
        replica = self.replica
        assert replica is not None
        for sender, data, epoch_then in early:
            if message_kind(data) == Kind.HELLO:
                self.carrier.execute(replica.receive(data, now()), replica)
            elif epoch_then == kept:
                handle(sender, data, now())
        return True

    def listen_time(self) -> float:
        """How long a seat with no log listens before it settles: the join window, or, with
        a log kept aside, as long as a join is waited for (P-267)."""
        if self._kept is None:
            return self.config.join_window
        return max(self.config.join_window, self.finder.patience)

    def heard_kept(self) -> bool:
        """Whether the table of the log kept aside is heard, if one is kept (P-267)."""
        return self._kept is None or self._kept in self._live_epochs(now())

    def settle(self, handle: Handler) -> None:
        """The join window is over: back to the table of a log kept aside if it answers
        (P-257), else ask to join the smallest table heard, or found one."""
        live = self._live_epochs(now())
        if self._kept is not None and self._kept in live and self._back_to_kept(handle):
            return
        self._kept = None
        self._begin(self._smallest_live_epoch(), handle)

    def _begin(self, epoch: bytes | None, handle: Handler) -> None:
        """Start a fresh log: found a new table (no ``epoch``), or ask to join the one at
        ``epoch``; then ``handle`` the messages that came before."""
        seq_floor, found = self._seq_floor(), epoch is None
        self.founded = found
        at = now()
        epoch = os.urandom(16) if epoch is None else epoch
        self.store.begin_table(TableRecord(self.config.table, epoch, seq_floor))
        self.store.open_events()
        self.table_log.caught_up(None)
        self.ends.forget()
        self.news = GameNews()
        replica = Replica(self._identity(epoch), at, self.config.settings, self.signer)
        if self.replica is not None:
            # Our clock never goes back, even on another table's log: peers that heard our
            # heartbeats before would take our next events for backdated ones.
            replica.clock.observe(self.replica.clock.time)
        # A table we found is new to everyone: our stream there starts at 1 (P-80). One we
        # join may hold our earlier stream, so there we resume above every number used.
        replica.my_seq = 0 if found else seq_floor
        self._give_keys(replica)
        self._take_up(replica)
        self.steward.take_secrets(replica, self.store.deal_secrets())
        self.contacts.forget_greetings()
        execute = self.carrier.execute
        if found:
            log.info("%s: founded table %r (%s)", self.label, self.config.table, epoch.hex()[:8])
            # The HELLO naming our epoch goes first, so that no peer takes our events
            # for those of a table without one.
            execute(replica.hello(None), replica)
            wished = replace(self.config.wishes)  # before the founding ADMIT sets them
            execute(replica.found(at), replica)
            proposal = table_options(wished, replica.optimistic())
            if proposal is not None:  # our command line's options are the lobby's (P-261)
                execute(replica.submit(proposal, at), replica)
            self.finder.began(at, found=True)
        else:
            log.info("%s: asking to join table %s", self.label, epoch.hex()[:8])
            execute(replica.ask_to_join(at), replica)
            self.finder.began(at, found=False)
        early, self._early = list(self._early), deque(maxlen=EARLY_LIMIT)
        for sender, data, epoch_then in early:
            if message_kind(data) == Kind.HELLO:
                execute(replica.receive(data, at), replica)
            elif epoch_then == epoch:  # not a table its sender has since left
                handle(sender, data, at)
        execute(replica.flush(at), replica)

    def begin(self, epoch: bytes | None, handle: Handler) -> None:
        """Move to a fresh log, as the seat's machine decided (``MoveTable``)."""
        self._begin(epoch, handle)

    def _take_up(self, replica: Replica) -> None:
        self.replica = replica
        self.seated(replica)

    def hold(self, sender: bytes, data: bytes) -> None:
        """A message that came before the replica, kept with its sender's epoch then."""
        self._early.append((sender, data, self.contacts.epochs.get(sender)))

    def _live_epochs(self, at: float) -> list[bytes]:
        window = max(self.config.settings.suspect_after, self.config.join_window)
        return self.live(at, window)  # a table we watch is heard in its FEEDs (P-205)

    def _smallest_live_epoch(self) -> bytes | None:
        return min(self._live_epochs(now()), default=None)

    def _outside(self, replica: Replica) -> bool:
        """Asking to join a table that has never seated us (not a player coming back)."""
        return replica.rejoining and self.node_id not in replica.stable.members

    def game_on(self) -> GameOn | None:
        """The game on at the table we asked to join, if one keeps us waiting (P-117)."""
        replica, since = self.replica, self.finder.joining_since
        if replica is None or since is None or not self._outside(replica):
            return None
        at = now()
        return self.news.game_on(at - since, at, self.node_id)
