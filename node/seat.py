"""One seat this process plays at the table: the person's own, or a local bot's.

A ``LocalSeat`` is a whole peer: its own node id, state directory, ZeroMQ
transport and protocol ``Replica``. It runs one task per role:

* receive: wait for a message, drain whatever else has arrived (a batch), feed
  each to the replica, then ``flush`` once (one acknowledgement per batch) and only
  then apply what the batch made final (``Replica.advance``);
* timer: ``tick`` the replica no later than the ``Timer`` it asked for;
* duties: after each change, send what the seat owes the table (``duties``)
  and, for a bot, its next move.

Finding the table (spec/protocol.md section 12): a seat that holds a log
restores it and says hello as a member (or asks to be admitted if it never
was). A seat with no log *probes* for a short window: it greets every peer it
knows with a HELLO that holds no epoch, and a member answers with its own
HELLO, which names the table's epoch. The seat then asks to be admitted to the
smallest epoch it heard; if nobody answered, it founds a new table. Two tables
of one name merge while in the lobby: a seat in the lobby that hears a live
peer at a smaller epoch gives up its log and joins that table.

Each seat answers a HELLO that does not list it (at its current endpoint) with
its own, so a peer that restarted, or learnt of us from a third node, gets to
know us; a HELLO that lists us is not answered, so greetings never ping-pong.
Messages other than HELLO from a peer whose last HELLO named another epoch are
dropped here: two tables of one name on one LAN never mix their logs.

The transport hands over each message with its sender's authenticated node id
(CURVE and ZAP); a message whose header names another sender is dropped and
counted (``forged_sender``), so the replica may take the sender a direct
message names as proven. The seat keeps its ``Roster`` in step with the game:
once the game starts only the seated players may connect (``Roster.seat_only``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
from collections import deque
from collections.abc import Awaitable, Callable, Container, Iterable
from dataclasses import dataclass, field
from typing import Any

from dutchblitz.protocol.codec import ProtocolError, decode
from dutchblitz.protocol.core import Identity, Replica, Settings
from dutchblitz.protocol.duties import Steward, Wishes
from dutchblitz.protocol.effects import (
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
from dutchblitz.protocol.finding import AskAgain, JoinSmaller, Seating, TableFinder
from dutchblitz.protocol.follow import Follower
from dutchblitz.protocol.games.registry import player_for
from dutchblitz.protocol.messages import (
    Body,
    Bye,
    Heartbeat,
    Hello,
    Kind,
)
from dutchblitz.protocol.pace import COUNT_IN_S, Pace
from dutchblitz.protocol.peek import (
    holds_a_start,
    message_kind,
    message_sender,
    own_last_seq,
    said_goodbye,
)
from dutchblitz.protocol.table.game import Game, Phase
from dutchblitz.protocol.throttle import Throttle, Verdict

from .api import GameOn
from .contacts import Contacts
from .latecomer import GameNews
from .store import StateDir, StoreError, TableRecord
from .tablelog import TableLog
from .transport import Transport, TransportClosed

log = logging.getLogger("dutchblitz.node")

JOIN_WINDOW_S = 1.5  # how long a new seat listens for an existing table
MAX_BATCH = 256  # messages handled before the acknowledgement and a yield
EARLY_LIMIT = 4096  # messages kept while the seat has no replica yet

Listener = Callable[[Effect, bool], None]  # an effect, and whether it happened live


@dataclass(slots=True)
class SeatConfig:
    table: str
    wishes: Wishes
    settings: Settings = field(default_factory=Settings)
    bot: Any = None  # the bot's level (the game's PlayerRules.levels), or None: a person
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
        self.replica: Replica | None = None
        self.listeners: list[Listener] = []
        self.watchers: list[Callable[[], None]] = []
        self.table_log = TableLog(self.label)
        self.alarms = self.table_log.alarms  # counted here, each kind logged once
        self.loop_errors = 0
        self.dropped_other_table = 0
        self.forged_sender = 0
        self.failure: StoreError | None = None
        self.failed = asyncio.Event()
        self.game_over = asyncio.Event()  # cleared again when a rematch begins
        self.game_over_hooks: list[Callable[[], None]] = []  # run once at each game's end
        self._games_ended = 0  # the game number of the last end signalled
        self.finished = asyncio.Event()  # over, and the others have seen the end too
        self.started_at = self._now()
        self.contacts = Contacts(node_id, config.table, transport)
        self.roster = transport.roster
        self.roster.listeners.append(self._know_key)
        # Our HELLO to a peer that refused us at first was lost with that connection.
        transport.relinked.append(lambda node: self._greet(node, force=True))
        self.throttle = Throttle()
        # Messages that came before the replica, each with its sender's epoch back then.
        self._announce_due = False
        self._early: deque[tuple[bytes, bytes, bytes | None]] = deque(maxlen=EARLY_LIMIT)
        self._answered = asyncio.Event()
        self._changed = asyncio.Event()
        self._timer_wake = asyncio.Event()
        self._next_tick = self._now()
        settings = config.settings
        self.finder = TableFinder(settings.suspect_after, settings.heartbeat_every)
        self._floor = 0
        self._tasks: list[asyncio.Task[None]] = []
        self.pace = Pace(eager=config.bot is not None, count_in_s=config.count_in_s)
        self._pace_wake: asyncio.TimerHandle | None = None
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
        self._closed = False
        self.news = GameNews()  # what we overhear of a game we arrived too late for
        self.follower: Follower | None = None  # watching a game, as a spectator (section 26)

    # -- life ----------------------------------------------------------------------------

    @staticmethod
    def _now() -> float:
        return asyncio.get_running_loop().time()

    async def start(self) -> None:
        """Find the table (restore, join or found), then run until ``close``."""
        self.spawn(self._receive_loop(), "receive")
        self.spawn(self._timer_loop(), "timer")
        if not self._restore():
            self._greet_all(force=True)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._answered.wait(), self.config.join_window)
            if self.replica is None and not self._closed:
                epoch = self._smallest_live_epoch(None)
                self._begin(epoch, self._seq_floor(), found=epoch is None)
        self.spawn(self._duty_loop(), "duties")

    def spawn(self, work: Awaitable[None], name: str) -> None:
        """Run ``work`` beside the seat's own loops, until ``close``; an error in it is
        counted as the seat's own (a test rig adds its misbehaviour this way)."""
        self._tasks.append(asyncio.ensure_future(self._guard(work, name)))

    async def _guard(self, work: Awaitable[None], name: str) -> None:
        try:
            await work
        except StoreError as error:
            self._fail(error)
        except (asyncio.CancelledError, TransportClosed):
            pass
        except Exception:
            log.exception("%s: the %s loop stopped", self.label, name)
            self.loop_errors += 1
            self._fail(StoreError(f"the {name} loop stopped unexpectedly"))

    def _fail(self, error: StoreError) -> None:
        if self.failure is None:
            self.failure = error
            log.error("%s: %s; stopping (everything written so far is kept)", self.label, error)
        self.failed.set()

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
            "throttled": self.throttle.stats.as_dict(),
            "alarms": dict(self.alarms),
            "loop_errors": self.loop_errors,
        }

    async def close(self) -> None:
        """Stop every task and close the sockets and files (no goodbye: see ``leave``)."""
        if self._closed:
            return
        self._closed = True
        log.info("%s: counters: %s", self.label, self.counters())
        if self._pace_wake is not None:
            self._pace_wake.cancel()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self.transport.close()
        self.store.close()

    async def leave(self, linger: float = 0.3) -> None:
        """Say goodbye to the table (a BYE) if still playing, then close."""
        replica = self.replica
        if replica is not None and replica.is_member():  # after a game too: no rematch wait
            if self.failure is None:
                self.steward.deal_duties(replica, reveals_only=True)  # a reveal owed goes first
            self.submit(Bye())
        await asyncio.sleep(linger)  # let ZeroMQ hand the last messages over
        await self.close()

    # -- contacts ------------------------------------------------------------------------

    def meet(
        self, node: bytes, endpoint: str, force: bool = False, announced: bool = False
    ) -> None:
        """A peer met at the door, found by discovery or learnt from a HELLO: greet it.

        Its key must be on the roster already (``Roster.learn``). A peer that has just
        ``announced`` itself on the LAN is greeted even when we knew it there already:
        it may have restarted, and not know where we are.
        """
        if self.contacts.connect(node, endpoint) or force or announced:
            self._greet(node, force)

    def _know_key(self, node: bytes, key: bytes) -> None:
        if self.replica is not None:
            self.replica.know_key(node, key)

    def _follow_game(self) -> None:
        """While a game is on, let in only the seated players; in a lobby, or between games
        (a newcomer may sit down for the next one), all."""
        replica = self.replica
        if replica is None:
            return
        game = replica.stable
        if game.admits_newcomers():
            self.roster.reopen()
        else:
            self.roster.seat_only(member.node for member in game.members.values())

    @property
    def peers_seen(self) -> int:
        return len(self.contacts.endpoints)

    def _greet(self, node: bytes, force: bool = False) -> None:
        if not self.contacts.may_greet(node, self._now(), force):
            return
        if self.replica is not None:
            self._execute(self.replica.hello(node))
        else:
            wishes = self.config.wishes
            self.transport.send(node, self.contacts.probe_hello(wishes.name, wishes.back or "pump"))

    def _announce(self) -> None:
        """After learning of new peers, send every peer our HELLO with the longer list.

        A peer learnt of through one member (a local bot seat, a node given one
        ``--peer``) is introduced to all the others this way; each node does it
        once per peer it learns of, so greetings stay bounded.
        """
        if self._announce_due and self.replica is not None:
            self._announce_due = False
            self._execute(self.replica.hello(None))

    def _greet_all(self, force: bool = False) -> None:
        for node in self.contacts.everyone():
            self._greet(node, force)

    # -- finding the table ----------------------------------------------------------------

    def _identity(self, epoch: bytes) -> Identity:
        wishes = self.config.wishes
        return Identity(
            self.node_id,
            self.config.table,
            epoch,
            wishes.name,
            wishes.back or "pump",
            self.endpoint,
        )

    def _seq_floor(self) -> int:
        record = self.store.table()
        floor = record.seq_floor if record is not None else 0
        mine = self.replica.my_seq if self.replica is not None else 0
        return max(floor, mine, self._floor)

    def _restore(self) -> bool:
        """Reload a game that a previous run left unfinished; False if there is none.

        A log of a table still in the lobby holds nothing worth keeping: the seat starts
        afresh (and finds the same table again if it is still there), remembering only
        how far its stream had counted. So does the log of a game that ended here when
        the seat is done with it: a headless bot's, or one its player left. Otherwise a
        game that ended is the table's rematch offer (spec/rules.md R-49), and comes back.
        """
        record = self.store.table()
        if record is None or record.table != self.config.table:
            return False
        now = self._now()
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
            return False
        replica = Replica(self._identity(record.epoch), now, self.config.settings, self.signer)
        self.steward.take_secrets(replica, self.store.deal_secrets())
        self._give_keys(replica)
        self.replica = replica
        self._execute(replica.restore(found.records, self.store.clock_mark(), now), live=False)
        replica.my_seq = max(replica.my_seq, record.seq_floor)
        self.table_log.caught_up(replica.stable)
        log.info(
            "%s: restored %d events of the game at table %s; rejoining",
            self.label,
            len(found.records),
            record.epoch.hex()[:8],
        )
        self.finder.restored(now)
        self._execute(replica.hello(None))
        return True

    def _begin(self, epoch: bytes | None, seq_floor: int, found: bool) -> None:
        """Start a fresh log: found a new table, or ask to join the one at ``epoch``."""
        now = self._now()
        epoch = os.urandom(16) if epoch is None else epoch
        self.store.begin_table(TableRecord(self.config.table, epoch, seq_floor))
        self.store.open_events()
        self.table_log.caught_up(None)
        self.game_over.clear()
        self._games_ended = 0
        self.news = GameNews()
        replica = Replica(self._identity(epoch), now, self.config.settings, self.signer)
        if self.replica is not None:
            # Our clock never goes back, even on another table's log: peers that heard our
            # heartbeats before would take our next events for backdated ones.
            replica.clock.observe(self.replica.clock.time)
        # A table we found is new to everyone: our stream there starts at 1 (P-80). One we
        # join may hold our earlier stream, so there we resume above every number used.
        replica.my_seq = 0 if found else seq_floor
        self._give_keys(replica)
        self.replica = replica
        self.steward.take_secrets(replica, self.store.deal_secrets())
        self.contacts.forget_greetings()
        if found:
            log.info("%s: founded table %r (%s)", self.label, self.config.table, epoch.hex()[:8])
            # The HELLO naming our epoch goes first, so that no peer takes our events
            # for those of a table without one.
            self._execute(replica.hello(None))
            self._execute(replica.found(now))
            self.finder.began(now, found=True)
        else:
            log.info("%s: asking to join table %s", self.label, epoch.hex()[:8])
            self._execute(replica.ask_to_join(now))
            self.finder.began(now, found=False)
        early, self._early = list(self._early), deque(maxlen=EARLY_LIMIT)
        for sender, data, epoch_then in early:
            if message_kind(data) == Kind.HELLO:
                self._execute(replica.receive(data, now))
            elif epoch_then in (None, epoch):  # not a table its sender has since left
                self._handle(sender, data, now)
        self._execute(replica.flush(now))
        self._changed.set()

    def _give_keys(self, replica: Replica) -> None:
        for node, key in self.roster.keys.items():
            replica.know_key(node, key)

    def _live_epochs(self, now: float) -> list[bytes]:
        window = max(self.config.settings.suspect_after, self.config.join_window)
        fed = self.follower.live_epoch(now) if self.follower is not None else None  # P-205
        return self.contacts.live_epochs(now, window) + ([fed] if fed else [])

    def _smallest_live_epoch(self, below: bytes | None) -> bytes | None:
        live = [e for e in self._live_epochs(self._now()) if below is None or e < below]
        return min(live, default=None)

    def _consider_moving(self, now: float) -> None:
        """Lobby merge, and giving up on a table that never admits us (``TableFinder``)."""
        replica = self.replica
        if replica is None:
            return
        epoch = replica.me.epoch
        in_lobby = replica.stable.phase == Phase.LOBBY and replica.optimistic().phase == Phase.LOBBY
        seating = Seating(epoch, in_lobby, replica.is_member(), replica.rejoining)
        for step in self.finder.consider(now, seating, self._live_epochs(now)):
            if isinstance(step, AskAgain):
                # Our goodbye, or the others' removal of us, is in the log: sit down again.
                self._execute(replica.ask_to_join(now))
                continue
            if isinstance(step, JoinSmaller):
                log.info(
                    "%s: table %s is also in the lobby here: leaving %s to join it",
                    self.label,
                    step.epoch.hex()[:8],
                    epoch.hex()[:8],
                )
            else:
                what = "starting afresh" if step.restored else "founding anew"
                log.info("%s: nobody at table %s answers: %s", self.label, epoch.hex()[:8], what)
            self._give_up(step.epoch if isinstance(step, JoinSmaller) else None)
            return

    def _give_up(self, epoch: bytes | None) -> None:
        replica = self.replica
        assert replica is not None
        others = [
            m for m in replica.stable.members.values() if m.present and m.node != self.node_id
        ]
        if replica.is_member() and others:
            self.submit(Bye())
        self._begin(epoch, self._seq_floor(), found=epoch is None)

    # -- the loops -----------------------------------------------------------------------

    async def _receive_loop(self) -> None:
        transport = self.transport
        while True:
            batch = [await transport.recv()]
            while len(batch) < MAX_BATCH:
                more = transport.try_recv()
                if more is None:
                    break
                batch.append(more)
            now = self._now()
            for sender, data in batch:
                if not self._within_limits(sender, data, now):
                    continue
                try:
                    self._handle(sender, data, now, defer=True)
                except StoreError:
                    raise
                except Exception:
                    self._loop_error("handling a message")
            try:
                replica = self.replica
                if replica is not None:
                    # The acknowledgement goes out first: the others wait for it, while
                    # what becomes final here (and the bot's next move) waits for nobody.
                    self._execute(replica.flush(now))
                    self._execute(replica.advance(now))
                    self._announce()
                    self._follow_game()
            except StoreError:
                raise
            except Exception:
                self._loop_error("acknowledging")
            self._changed.set()
            self._notify()
            await asyncio.sleep(0)

    def _within_limits(self, peer: bytes, data: bytes, now: float) -> bool:
        """Whether a peer's message fits its flood limits (protocol/throttle.py); else dropped."""
        verdict = self.throttle.check(peer, len(data), now)
        if verdict is Verdict.CUT_OFF:
            member = self.replica is not None and self.replica._present(peer)
            if member:  # see protocol/throttle.py: a member is throttled, never cut off
                self.throttle.pardon(peer)
            else:
                self.contacts.forget(peer)
            self.alarms["flood"] += 1
            if self.alarms["flood"] == 1:
                what = "throttled" if member else "cut off for a while"
                log.warning("%s: peer %s floods us: %s", self.label, peer.hex()[:8], what)
        return verdict is Verdict.TAKE

    def _loop_error(self, what: str) -> None:
        self.loop_errors += 1
        if self.loop_errors == 1:
            log.exception("%s: error while %s (counted, not fatal)", self.label, what)

    def _handle(self, sender: bytes, data: bytes, now: float, defer: bool = False) -> None:
        """One message for the replica; with ``defer``, what becomes final waits for
        ``Replica.advance`` (the batch's acknowledgement goes out before it)."""
        named = message_sender(data)
        if named is not None and named != sender:
            self.forged_sender += 1
            if self.forged_sender == 1:
                log.warning("%s: a message named another sender than its key's", self.label)
            return
        self.contacts.heard[sender] = now
        kind = message_kind(data)
        if kind == Kind.WATCH and self.follower is not None:
            self._execute(self.follower.receive(sender, data, now))
            return
        if kind == Kind.HELLO:
            self._note_hello(data)
        replica = self.replica
        if replica is None:
            self._early.append((sender, data, self.contacts.epochs.get(sender)))
            return
        if kind != Kind.HELLO and not self.contacts.same_table(sender, replica.me.epoch):
            self.dropped_other_table += 1
            return
        if kind == Kind.HEARTBEAT and replica.ended is not None:
            self._note_progress(data)
        if kind in (Kind.HEARTBEAT, Kind.EVENT) and self._outside(replica):
            self.news.overhear(data, now)
        # ``sender`` is the key the channel authenticated (and the header named it).
        # A HELLO may move the seat to another table: it sees the state brought up to date.
        advance = not defer or kind == Kind.HELLO
        self._execute(replica.receive(data, now, via=sender, advance=advance))
        if kind == Kind.HELLO:
            self._consider_moving(now)

    def _outside(self, replica: Replica) -> bool:
        """Asking to join a table that has never seated us (not a player coming back)."""
        return replica.rejoining and self.node_id not in replica.stable.members

    def watch(self) -> None:
        """Follow the table's game as a spectator (spec/protocol.md section 26)."""
        if self.follower is None:
            wishes = self.config.wishes
            self.follower = Follower(self.config.table, self.node_id, wishes.name, self.endpoint)
        self._next_tick = self._now()
        self._timer_wake.set()

    def ended_game(self) -> tuple[bytes, Game] | None:
        """The last game that ended here, audited, with the log's digest then."""
        ended = None if self.replica is None else self.replica.ended
        return None if ended is None else (ended[1], ended[2])

    def game_on(self) -> GameOn | None:
        """The game on at the table we asked to join, if one keeps us waiting (P-117)."""
        replica, since = self.replica, self.finder.joining_since
        if replica is None or since is None or not self._outside(replica):
            return None
        now = self._now()
        return self.news.game_on(now - since, now, self.node_id)

    def _note_hello(self, data: bytes) -> None:
        try:
            envelope = decode(data)
        except ProtocolError:
            return  # the replica counts and reports it
        hello = envelope.payload
        sender = envelope.sender
        if not isinstance(hello, Hello) or sender == self.node_id:
            return
        if envelope.table != self.config.table:
            return
        if self.contacts.note_hello(sender, hello):
            self._greet(sender)
        if self.replica is None:
            self.contacts.learn(hello.peers)
            if hello.epoch:
                self._answered.set()

    def _note_progress(self, data: bytes) -> None:
        with contextlib.suppress(ProtocolError):
            envelope = decode(data)
            if isinstance(envelope.payload, Heartbeat):
                self.finder.heard_progress(envelope.sender, envelope.payload.digest_index)

    async def _timer_loop(self) -> None:
        while True:
            delay = self._next_tick - self._now()
            if delay > 0:
                self._timer_wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._timer_wake.wait(), delay)
                continue
            now = self._now()
            self._next_tick = now + 1.0  # unless the replica asks for sooner
            try:
                self._follow(now)
                if self.replica is not None:
                    self._execute(self.replica.tick(now))
                    self._announce()
                    self._consider_moving(now)
                    self._check_finished(now)
                    self._follow_game()
            except StoreError:
                raise
            except Exception:
                self._loop_error("ticking")
            self._changed.set()
            self._notify()

    async def _duty_loop(self) -> None:
        while True:
            await self._changed.wait()
            self._changed.clear()
            bot = self.steward.bot
            if bot is not None:
                pause = player_for(self.config.settings.game).think_time(bot.level, self.think_rng)
                if pause > 0:
                    await asyncio.sleep(pause)
            try:
                self._do_duties()
            except StoreError:
                raise
            except Exception:
                self._loop_error("choosing a move")
            await asyncio.sleep(0)

    # -- effects ---------------------------------------------------------------------------

    def _execute(self, effects: Iterable[Effect], live: bool = True) -> None:
        """Carry out the replica's effects in order: a failed write stops the later sends."""
        for effect in effects:
            if isinstance(effect, Send):
                if effect.to is None:  # a spectator is sent its feed and nothing else
                    self.transport.broadcast(effect.data, skip=self._spectators())
                else:
                    self.transport.send(effect.to, effect.data)
            elif isinstance(effect, Persist):
                self.store.append_event(effect.data)
            elif isinstance(effect, PersistClock):
                self.store.save_clock_mark(effect.mark)
            elif isinstance(effect, PeerSeen):
                self.meet(effect.node, effect.endpoint)
                self._announce_due = True  # our peer list grew: tell the others too
            elif isinstance(effect, SpectatorSeen):
                self.contacts.connect(effect.node, effect.endpoint)
            elif isinstance(effect, Timer):
                if effect.at < self._next_tick:
                    self._next_tick = effect.at
                    self._timer_wake.set()
            else:
                self._on_report(effect, live)

    def _spectators(self) -> Container[bytes]:
        return () if self.replica is None else self.replica.spectators.watching

    def _follow(self, now: float) -> None:
        """Watching: renew our subscription with the members (or every peer, before any
        is known); the timer comes back within a second. A seat that watches the game
        that keeps it waiting stops once that game is over, or once it is seated."""
        follower, replica = self.follower, self.replica
        if follower is None:
            return
        if replica is not None and (replica.is_member() or follower.ended is not None):
            self._execute(follower.end())  # we sit down after it
            self.follower = None
            return
        members = [n for n in follower.members() if n in self.contacts.endpoints]
        self._execute(follower.subscribe(members or self.contacts.everyone(), now))
        self._next_tick = min(self._next_tick, now + 0.5)

    def _on_report(self, effect: Delivered | Withdrawn | Alarm, live: bool) -> None:
        if isinstance(effect, Alarm):
            self.table_log.alarm(effect)
        elif isinstance(effect, Delivered):
            self._on_delivered(effect)
            if live and self.replica is not None:
                self.table_log.delivered(effect, self.replica.stable)
        for listener in self.listeners:
            listener(effect, live)

    def _on_delivered(self, effect: Delivered) -> None:
        entry = effect.entry
        replica = self.replica
        if entry.sender == self.node_id and replica is not None:
            self.steward.on_own_event(entry, replica.stable)
        if replica is None:
            return
        self._follow_pace(replica.stable)
        if replica.ended is not None and replica.ended[2].game_number > self._games_ended:
            self._games_ended = replica.ended[2].game_number
            self.finder.game_ended(self._now())
            self.game_over.set()
            for hook in list(self.game_over_hooks):
                hook()
        elif self.game_over.is_set() and replica.stable.phase != Phase.OVER:
            self.game_over.clear()  # a rematch (spec/rules.md R-51)
            self.finder.game_again()

    def _follow_pace(self, stable: Game) -> None:
        """The scores' timeout or the count-in began: look at the duties again when it ends."""
        ends = self.pace.follow(stable, self._now())
        if ends is None:
            return
        if self._pace_wake is not None:
            self._pace_wake.cancel()
        self._pace_wake = asyncio.get_running_loop().call_at(ends, self._pace_ended)

    def _pace_ended(self) -> None:
        self._pace_wake = None
        self.poke()
        self._notify()

    def _notify(self) -> None:
        for watcher in list(self.watchers):
            try:
                watcher()
            except Exception:
                self._loop_error("telling the screen")

    # -- what we send -------------------------------------------------------------------------

    def poke(self) -> None:
        """Look again at what the seat owes the table (after the person changed a wish)."""
        self._changed.set()

    def submit(self, body: Body) -> bool:
        """Send one event of ours; False if it could not be written down (see ``failure``)."""
        replica = self.replica
        if replica is None or self.failure is not None:
            return False
        try:
            self._execute(replica.submit(body, self._now()))
        except StoreError as error:
            self._fail(error)
            return False
        self._changed.set()
        self._notify()
        return True

    def _do_duties(self) -> None:
        if self.replica is not None and self.failure is None:
            self.steward.step(self.replica, self._now())

    # -- the end ---------------------------------------------------------------------------

    def _check_finished(self, now: float) -> None:
        """After the end, wait until every other player has applied it too, then finish.

        Leaving at once could take away a HEARTBEAT that a slower node still needs
        to make the last events final, so a seat stays until each present member
        reports (in its HEARTBEAT's digest index) that it has reached the end.
        """
        replica = self.replica
        if replica is None or replica.ended is None or self.finished.is_set():
            return
        others = [
            m.node for m in replica.stable.members.values() if m.present and m.node != self.node_id
        ]
        finish = self.finder.finish(now, replica.ended[0], others)
        if finish is not None:
            if not finish.confirmed:
                log.warning("%s: not every player confirmed the end; finishing anyway", self.label)
            self.finished.set()
