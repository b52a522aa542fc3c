"""The simulation with table finding: each node starts on a table id of its own.

``FindingSimulation`` runs the seeded simulation of ``tests/rigs/sim.py`` (same faults,
same bots, same invariants) but does not hand every node one table id up front. Each node
starts at a time of its own and meets the others as LAN discovery would, one pair at a
time after a drawn delay. Then it does what a seat does (spec/protocol.md section 12):

* it probes for the join window; if a member answers (a HELLO naming an epoch) it asks to
  join the smallest epoch it heard, else it founds a table under an epoch of its own;
* a HELLO names the epoch its sender's log belongs to; any other message from a peer whose
  last HELLO named another epoch is dropped;
* the real ``TableFinder`` (protocol/seat/finding.py) decides when to move: the lobby
  merge (``JoinSmaller``), asking again (``AskAgain``) and founding afresh
  (``StartAfresh``); a crashed node restarts as a seat does, keeping a lobby's log aside
  and going back to it only if its table answers (P-257).

What a seat's node part does around the finder is mirrored here, and kept small:
``SeatFinding`` stands for node/net/contacts.py (epochs, last heard, greetings) and
node/seat/tables.py (``settle``, ``_begin``, ``consider_moving``, ``restore``); the
replica, the finder and the messages are the real ones. The invariants are checked per
table id, and two more hold here (``tests/rigs/watch.py``): every node leaves the lobby
within a bound of the first, once healed, and no lobby log grows without bound.

    python -m tests.rigs.sim --finding --seeds 300
    python -m tests.rigs.sim --finding --seed 12 -v
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

from dutchblitz.protocol.replica.core import Identity, Replica
from dutchblitz.protocol.replica.effects import Delivered, Effect, PeerSeen, Send
from dutchblitz.protocol.seat.duties import Wishes
from dutchblitz.protocol.seat.finding import AskAgain, JoinSmaller, Seating, TableFinder
from dutchblitz.protocol.seat.pace import Pace
from dutchblitz.protocol.table.game import Game, Phase
from dutchblitz.protocol.wire.codec import ProtocolError, decode, encode
from dutchblitz.protocol.wire.messages import Bye, Envelope, Hello, Kind, PeerAddress
from dutchblitz.protocol.wire.peek import holds_a_start, message_kind, message_sender, own_last_seq

from tests.rigs.sim import TABLE, Disk, SimNode, Simulation
from tests.rigs.watch import Watch

JOIN_WINDOW = 1.5  # node/seat/local.py JOIN_WINDOW_S
GREET_GAP = 0.25  # node/net/contacts.py GREET_GAP_S
STARTS_WITHIN = 2.5  # nodes start up within this many seconds of each other
DISCOVERY_DELAY = (0.0, 2.5)  # how long until two running nodes find each other


@dataclass(slots=True)
class SeatFinding:
    """One node's part in finding its table: what its contacts and seating hold."""

    finder: TableFinder
    seated: bool = False  # a replica taken up (restored, founded or asked to join)
    probing_since: float | None = None  # in the join window since then
    epochs: dict[bytes, bytes] = field(default_factory=dict)  # peer -> epoch of its HELLO
    heard: dict[bytes, float] = field(default_factory=dict)  # peer -> last heard (local)
    greeted: dict[bytes, float] = field(default_factory=dict)
    connected: set[bytes] = field(default_factory=set)  # whom our messages reach
    early: list[tuple[bytes, bytes, bytes | None]] = field(default_factory=list)
    kept: bytes | None = None  # the epoch of a lobby's log kept aside at a restart
    floor: int = 0  # our highest sequence number in a log given up
    announce_due: bool = False
    tables: int = 0  # tables this node founded or joined


class FindingSimulation(Simulation):
    """``Simulation`` with table finding and the lobby merge run for real."""

    def __init__(
        self,
        seed: int,
        faults: str = "single",
        trace: Callable[[str], None] | None = None,
        players: int | None = None,
        rematches: int = 0,
    ) -> None:
        self.seats: dict[int, SeatFinding] = {}
        super().__init__(seed, faults, trace, players, rematches)
        self.draws = random.Random(f"finding-{seed}")  # apart from the faults' stream
        self.seats.update(
            {
                node.index: SeatFinding(
                    TableFinder(self.settings.suspect_after, self.settings.heartbeat_every)
                )
                for node in self.nodes
            }
        )
        self.watches: dict[bytes, Watch] = {}
        self.references: dict[bytes, list[tuple[bytes, int]]] = {}
        self.fresh = 0  # epochs drawn so far
        self.arrivals: dict[tuple[int, int], float] = {}  # link -> its last arrival
        for node in self.nodes:
            node.replica = self._seat_replica(node, self._own_epoch(node))

    # -- start-up and discovery ---------------------------------------------------------------

    def _start(self) -> None:
        starts = [self.draws.uniform(0.0, STARTS_WITHIN) for _ in self.nodes]
        for node, at in zip(self.nodes, starts, strict=True):
            self.at(at, partial(self._boot, node, node.incarnation))
            self.at(at, partial(self._tick, node))
            self.at(at + 0.05, partial(self._bot, node))
        for a in self.nodes:
            for b in self.nodes[a.index + 1 :]:
                meet = max(starts[a.index], starts[b.index]) + self.draws.uniform(*DISCOVERY_DELAY)
                self.at(meet, partial(self._discover, a, b))

    def _boot(self, node: SimNode, incarnation: int) -> None:
        """A seat with no log to restore: probe every peer known, for the join window."""
        seat = self.seats[node.index]
        if not node.up or node.incarnation != incarnation or seat.seated:
            return
        seat.probing_since = self._local_now(node)
        for peer in sorted(seat.connected):
            self._greet(node, peer, force=True)
        # With a log kept aside, as long as a join is waited for (P-267).
        window = seat.finder.patience if seat.kept is not None else JOIN_WINDOW
        self.at(self.now + window, partial(self._window_over, node, incarnation))

    def _window_over(self, node: SimNode, incarnation: int) -> None:
        if node.up and node.incarnation == incarnation and not self.seats[node.index].seated:
            if node.paused:  # a paused process settles once it runs again
                self.at(self.now + 0.05, partial(self._window_over, node, incarnation))
                return
            self._settle(node)

    def _discover(self, a: SimNode, b: SimNode) -> None:
        """LAN discovery: each of two running nodes finds the other's advert and greets it."""
        for me, other in ((a, b), (b, a)):
            if me.up and not me.paused and other.up:
                seat = self.seats[me.index]
                seat.connected.add(other.node_id)
                me.replica.know_key(other.node_id, self.signers[other.node_id].public_key)
                self._greet(me, other.node_id)  # an advert just announced: greeted

    def _greet(
        self, node: SimNode, peer: bytes, force: bool = False, unlisted: bool = False
    ) -> None:
        """Our HELLO to ``peer`` (a probe while we hold no log), unless greeted just now;
        ``unlisted``: leaving ``peer`` out of the list, so that it answers (P-264)."""
        seat = self.seats[node.index]
        local = self._local_now(node)
        if not force and local - seat.greeted.get(peer, -1e9) < GREET_GAP:
            return
        seat.greeted[peer] = local
        if seat.seated:
            self._effects(node, node.replica.hello(peer, unlisted))
            return
        peers = tuple(
            PeerAddress(n, self._endpoint(self._node(n)), self.signers[n].public_key)
            for n in sorted(seat.connected)
            if not (unlisted and n == peer)
        )
        hello = Hello(f"bot-{node.node_id.hex()[:4]}", "pump", self._endpoint(node), peers, b"", 0)
        self._send(node, Send(peer, encode(Envelope(TABLE, node.node_id, 0, 0, hello))))

    # -- the table a seat sits at ------------------------------------------------------------

    def _endpoint(self, node: SimNode) -> str:
        return f"tcp://127.0.0.1:{20000 + node.index}"

    def _node(self, node_id: bytes) -> SimNode:
        return next(n for n in self.nodes if n.node_id == node_id)

    def _own_epoch(self, node: SimNode) -> bytes:
        """A table id of the node's own: its first, then one per table it founds anew."""
        self.fresh += 1
        return hashlib.blake2b(f"epoch-{self.seed}-{node.index}-{self.fresh}".encode()).digest()[
            :16
        ]

    def _seat_replica(self, node: SimNode, epoch: bytes) -> Replica:
        identity = Identity(
            node.node_id,
            TABLE,
            epoch,
            f"bot-{node.node_id.hex()[:4]}",
            "pump",
            self._endpoint(node),
        )
        replica = Replica(
            identity, self._local_now(node), self.settings, self.signers[node.node_id]
        )
        for peer in self.seats[node.index].connected:
            replica.know_key(peer, self.signers[peer].public_key)
        return replica

    def _live_epochs(self, node: SimNode, at: float) -> list[bytes]:
        """tables.py ``_live_epochs``: the epochs of peers heard within the window."""
        seat = self.seats[node.index]
        window = max(self.settings.suspect_after, JOIN_WINDOW)
        return [
            epoch
            for peer, epoch in seat.epochs.items()
            if epoch and at - seat.heard.get(peer, -1e9) <= window
        ]

    def _settle(self, node: SimNode) -> None:
        """tables.py ``settle``: back to a log kept aside if its table answers, else join
        the smallest table heard, or found one."""
        seat = self.seats[node.index]
        live = self._live_epochs(node, self._local_now(node))
        kept, seat.kept = seat.kept, None
        if kept is not None and kept in live and node.disk.records:
            self._reload(node, kept, restored_at=self._local_now(node))
            self._replay_early(node, kept)
            return
        self._begin(node, min(live, default=None))

    def _begin(self, node: SimNode, epoch: bytes | None) -> None:
        """tables.py ``_begin``: a fresh log, founded (no ``epoch``) or asking to join."""
        seat = self.seats[node.index]
        at = self._local_now(node)
        old = node.replica if seat.seated else None
        floor = max(node.disk.seq_floor, old.my_seq if old else 0, seat.floor)
        found = epoch is None
        epoch = self._own_epoch(node) if epoch is None else epoch
        node.disk = Disk(epoch=epoch, seq_floor=floor)
        replica = self._seat_replica(node, epoch)
        if old is not None:
            replica.clock.observe(old.clock.time)  # our clock never goes back
        replica.my_seq = 0 if found else floor
        self._take_up(node, replica)
        seat.tables += 1
        self.log(f"node {node.index} {'founds' if found else 'joins'} table {epoch.hex()[:8]}")
        if found:
            self._effects(node, replica.hello(None))
            self._effects(node, replica.found(at))
        else:
            self._effects(node, replica.ask_to_join(at))
        seat.finder.began(at, found=found)
        self._replay_early(node, epoch)
        self._effects(node, node.replica.flush(at))

    def _take_up(self, node: SimNode, replica: Replica) -> None:
        seat = self.seats[node.index]
        node.replica = replica
        node.submitted, node.settled_seqs = {}, set()
        node.steward = self._steward(node)
        # A headless bot's wishes (node/cli): ready at once, starting once all are seated.
        players, target = self.scenario.players, self.scenario.target
        node.steward.wishes = Wishes(
            f"bot{node.index}", ready=True, start_at=players, target=target
        )
        seat.seated = True
        seat.probing_since = None
        seat.greeted.clear()

    def _replay_early(self, node: SimNode, epoch: bytes) -> None:
        seat = self.seats[node.index]
        early, seat.early = seat.early, []
        for sender, data, epoch_then in early:
            if message_kind(data) == Kind.HELLO:
                self._effects(node, node.replica.receive(data, self._local_now(node)))
            elif epoch_then == epoch:  # not a table its sender has since left
                self._handle(node, sender, data)

    def _reload(self, node: SimNode, epoch: bytes, restored_at: float) -> None:
        """tables.py ``_reload``: the kept log comes back, and the seat says hello."""
        replica = self._seat_replica(node, epoch)
        records = list(node.disk.records)
        self._take_up(node, replica)
        self._effects(node, replica.restore(records, node.disk.clock_mark, restored_at))
        replica.my_seq = max(replica.my_seq, node.disk.seq_floor)
        self.seats[node.index].finder.restored(restored_at)
        self._effects(node, replica.hello(None))

    def _consider_moving(self, node: SimNode) -> None:
        """tables.py ``consider_moving``: what ``TableFinder`` says, carried out."""
        seat = self.seats[node.index]
        replica = node.replica
        if not seat.seated:
            return
        at = self._local_now(node)
        in_lobby = replica.stable.phase == Phase.LOBBY and replica.optimistic().phase == Phase.LOBBY
        seating = Seating(replica.me.epoch, in_lobby, replica.is_member(), replica.rejoining)
        for step in seat.finder.consider(at, seating, self._live_epochs(node, at)):
            if isinstance(step, AskAgain):
                self._effects(node, replica.ask_to_join(at))
                continue
            self.log(f"node {node.index} moves: {step}")
            others = [
                m for m in replica.stable.members.values() if m.present and m.node != node.node_id
            ]
            if replica.is_member() and others:
                self._submit(node, Bye(), at)
            self._begin(node, step.epoch if isinstance(step, JoinSmaller) else None)
            return

    # -- messages ----------------------------------------------------------------------------

    def _arrival(self, sender: SimNode, target: SimNode, when: float) -> float:
        """One connection delivers in the order sent, losses aside (ZeroMQ over TCP): a
        HELLO naming a new epoch is never overtaken by what its sender sent before it."""
        link = (sender.index, target.index)
        when = max(when, self.arrivals.get(link, 0.0))
        self.arrivals[link] = when
        return when

    def _targets(self, sender: SimNode, effect: Send) -> list[SimNode]:
        """Only the peers a node holds a connection to hear it."""
        connected = self.seats[sender.index].connected
        return [n for n in super()._targets(sender, effect) if n.node_id in connected]

    def _deliver(self, node: SimNode, data: bytes, incarnation: int) -> None:
        if not node.up or node.incarnation != incarnation:
            return
        if node.paused:
            node.inbox.append(data)
            return
        sender = message_sender(data)
        if sender is None:
            return
        self._handle(node, sender, data)

    def _handle(self, node: SimNode, sender: bytes, data: bytes) -> None:
        """local.py ``_handle``: note a HELLO, hold what comes before the replica, drop
        what comes from another table, then the replica takes it."""
        seat = self.seats[node.index]
        local = self._local_now(node)
        seat.heard[sender] = local
        kind = message_kind(data)
        if kind == Kind.HELLO:
            self._note_hello(node, data)
        elif sender not in seat.epochs:  # at no table we know of yet (P-264)
            self._greet(node, sender, unlisted=True)
            return
        if not seat.seated:
            seat.early.append((sender, data, seat.epochs.get(sender)))
            return
        replica = node.replica
        if kind != Kind.HELLO and seat.epochs[sender] != replica.me.epoch:
            return  # from a table its sender holds, not ours
        self._effects(node, replica.receive(data, local, via=sender))
        self._effects(node, node.replica.flush(local))
        self._announce(node)
        if kind == Kind.HELLO:
            self._consider_moving(node)

    def _note_hello(self, node: SimNode, data: bytes) -> None:
        """peers.py ``note_hello``: learn its epoch and peers; answer it if it does not list
        us; while probing, a member's answer ends the join window."""
        try:
            envelope = decode(data)
        except ProtocolError:
            return
        hello = envelope.payload
        if not isinstance(hello, Hello) or envelope.table != TABLE:
            return
        seat = self.seats[node.index]
        seat.epochs[envelope.sender] = hello.epoch
        listed = {peer.node: peer.endpoint for peer in hello.peers}
        seat.connected.add(envelope.sender)
        if listed.get(node.node_id) != self._endpoint(node):
            self._greet(node, envelope.sender)
        if not seat.seated:
            seat.connected.update(n for n in listed if n != node.node_id)
            kept = seat.kept
            if hello.epoch and seat.probing_since is not None and kept in (None, hello.epoch):
                self._settle(node)  # a member answered our probe (of the kept log: P-267)

    def _lobby_step(self, node: SimNode, game: Game, seat: int, local: float) -> None:
        """The seat's own lobby duties (``Steward.step``): profile, ready, start."""
        assert node.steward is not None
        node.steward.step(node.replica, local)

    def _effects(self, node: SimNode, effects: Sequence[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, Delivered) and effect.entry.sender == node.node_id:
                assert node.steward is not None  # carrier.py: it learns from its own events
                node.steward.on_own_event(effect.entry, node.replica.stable)
            if isinstance(effect, PeerSeen):
                seat = self.seats[node.index]
                seat.connected.add(effect.node)
                seat.announce_due = True
        super()._effects(node, effects)

    def _announce(self, node: SimNode) -> None:
        """peers.py ``announce``: after learning of new peers, a HELLO to every peer."""
        seat = self.seats[node.index]
        if seat.announce_due:
            seat.announce_due = False
            self._effects(node, node.replica.hello(None))

    def _tick(self, node: SimNode) -> None:
        if node.up and not node.paused and self.seats[node.index].seated:
            self._effects(node, node.replica.tick(self._local_now(node)))
            self._announce(node)
            self._consider_moving(node)
        self.at(self.now + 0.05, partial(self._tick, node))

    def _bot(self, node: SimNode) -> None:
        if self.seats[node.index].seated:
            super()._bot(node)
        else:
            self.at(self.now + 0.1, partial(self._bot, node))

    # -- faults ------------------------------------------------------------------------------

    def _restart(self, node: SimNode) -> None:
        """local.py ``start``: restore a game's log, or keep a lobby's aside and probe."""
        self.log(f"restart node {node.index}")
        old = self.seats[node.index]
        seat = SeatFinding(TableFinder(self.settings.suspect_after, self.settings.heartbeat_every))
        self.seats[node.index] = seat
        node.up = True
        node.pace = Pace(eager=True)
        records = list(node.disk.records)
        epoch = node.disk.epoch
        if epoch is not None and holds_a_start(records):
            self._reload(node, epoch, self._local_now(node))
        else:
            seat.floor = max(node.disk.seq_floor, own_last_seq(records, node.node_id))
            seat.kept = epoch if records else None
            node.replica = self._seat_replica(node, self._own_epoch(node))
            self.at(self.now, partial(self._boot, node, node.incarnation))
        del old  # what it knew of its peers died with the process
        for other in self.nodes:  # discovery finds it again, and it finds the others
            if other is not node:
                self.at(
                    self.now + self.draws.uniform(*DISCOVERY_DELAY),
                    partial(self._discover, node, other),
                )

    # -- invariants --------------------------------------------------------------------------

    def _watch_of(self, node: SimNode) -> Watch:
        return self.watches.setdefault(node.replica.me.epoch, Watch())

    def _reference_of(self, node: SimNode) -> list[tuple[bytes, int]]:
        return self.references.setdefault(node.replica.me.epoch, [])

    def _same_log(self, node: SimNode) -> list[SimNode]:
        epoch = node.replica.me.epoch
        return [n for n in self.nodes if n.replica.me.epoch == epoch]

    def _finished(self) -> bool:
        if len({node.replica.me.epoch for node in self.nodes}) != 1:
            return False
        return super()._finished()

    def _check_progress(self, when: float) -> None:
        super()._check_progress(when)
        for node in self.nodes:
            self.watch.lobby_log(node.index, node.replica.stable.phase, len(node.replica.log))
        phases = [(n.index, n.replica.stable.phase) for n in self.nodes if n.up]
        late = self.watch.left_lobby(when, self.scenario.heal_at, phases)
        if late is not None:
            epochs = {n.index: n.replica.me.epoch.hex()[:8] for n in self.nodes}
            self._stall(f"node {late} still in the lobby after the others left it; tables {epochs}")

    def _summary(self) -> dict[str, object]:
        summary = super()._summary()
        summary["tables"] = sum(seat.tables for seat in self.seats.values())
        return summary
