"""The simulation with table finding: each node starts on a table id of its own.

``FindingSimulation`` runs the seeded simulation of ``tests/rigs/sim.py`` (same faults,
same invariants) but does not hand every node one table id up front. Each node starts at
a time of its own and meets the others as LAN discovery would, one pair at a time after a
drawn delay. Every node is driven by the node's own seat machine (``SeatMachine``,
protocol/seat/machine.py), as ``LocalSeat`` (node/seat/local.py) drives it: a message
received is ``receive`` then ``acknowledge``, the timer is ``tick``, the bot's turn is
``duties``, and the machine decides everything about its table (spec/protocol.md
section 12): the probe and the join window, settling on a table or founding one, the
log kept aside at a restart (P-257, P-267), the lobby merge, asking again and founding
afresh (``TableFinder``), which messages are of its table (P-202, P-264).

``SeatShell`` is what the node's IO shell holds around the machine (node/net/contacts.py,
peers.py: whom it is connected to, greetings and their rate; node/seat/tables.py: making
a replica for the log the machine settles on); it carries the machine's effects out as
node/seat/carrier.py does. The invariants are checked per table id, and two more hold
here (``tests/rigs/watch.py``): every node leaves the lobby within a bound of the first,
once healed, and no lobby log grows without bound.

    python -m tests.rigs.sim --finding --seeds 300
    python -m tests.rigs.sim --finding --seed 12 -v
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

from dutchblitz.protocol.games.blitz.bots import think_time
from dutchblitz.protocol.replica.core import Identity, Replica
from dutchblitz.protocol.replica.effects import (
    Alarm,
    Delivered,
    PeerSeen,
    Persist,
    PersistClock,
    Send,
    Withdrawn,
)
from dutchblitz.protocol.seat import effects as seat
from dutchblitz.protocol.seat.arrival import probe_hello
from dutchblitz.protocol.seat.duties import Wishes
from dutchblitz.protocol.seat.finding import TableFinder
from dutchblitz.protocol.seat.machine import SeatMachine
from dutchblitz.protocol.seat.pace import Pace
from dutchblitz.protocol.wire.messages import Hello, PeerAddress
from dutchblitz.protocol.wire.peek import message_sender

from tests.rigs.sim import TABLE, Disk, SimNode, Simulation
from tests.rigs.watch import Diverged, Watch

JOIN_WINDOW = 1.5  # node/seat/local.py JOIN_WINDOW_S
GREET_GAP = 0.25  # node/net/contacts.py GREET_GAP_S
STARTS_WITHIN = 2.5  # nodes start up within this many seconds of each other
DISCOVERY_DELAY = (0.0, 2.5)  # how long until two running nodes find each other
BOT_LEVEL = "fast"  # the seats' bots (a headless bot's level)


@dataclass(slots=True)
class SeatShell:
    """One node's shell around its machine: what its contacts and peers hold."""

    machine: SeatMachine
    probing: bool = False  # in the join window
    greeted: dict[bytes, float] = field(default_factory=dict)
    connected: dict[bytes, str] = field(default_factory=dict)  # whom our messages reach
    tables: int = 0  # tables this node founded or joined
    aside: Disk | None = None  # a reloaded log given up, kept aside (P-286)


class FindingSimulation(Simulation):
    """``Simulation`` with table finding and the lobby merge run by each node's machine."""

    def __init__(
        self,
        seed: int,
        faults: str = "single",
        trace: Callable[[str], None] | None = None,
        players: int | None = None,
        rematches: int = 0,
    ) -> None:
        self.shells: dict[int, SeatShell] = {}
        self.tables = 0  # tables founded or joined by processes gone
        super().__init__(seed, faults, trace, players, rematches)
        self.draws = random.Random(f"finding-{seed}")  # apart from the faults' stream
        self.watches: dict[bytes, Watch] = {}
        self.references: dict[bytes, list[tuple[bytes, int]]] = {}
        self.fresh = 0  # epochs drawn so far
        self.arrivals: dict[tuple[int, int], float] = {}  # link -> its last arrival
        for node in self.nodes:
            self.shells[node.index] = self._shell(node)
            node.replica = self._seat_replica(node, self._own_epoch(node))

    def _shell(self, node: SimNode) -> SeatShell:
        """A node's process: its machine, told of the peers it is connected to. The
        simulator's links lose messages (``Scenario.loss``, partitions), so P-264 holds."""
        shell = SeatShell(self._machine(node))
        shell.machine.standing.endpoints = shell.connected
        shell.machine.standing.ordered = False
        return shell

    def _machine(self, node: SimNode) -> SeatMachine:
        """The seat machine of a headless bot (node/cli): ready at once, starting once
        all are seated; its randomness is the node's stream."""
        players, target = self.scenario.players, self.scenario.target
        wishes = Wishes(f"bot{node.index}", ready=True, start_at=players, target=target)
        finder = TableFinder(self.settings.suspect_after, self.settings.heartbeat_every)
        node.pace = Pace(eager=True)
        machine = SeatMachine(
            node.node_id, TABLE, wishes, BOT_LEVEL, lambda _: node.rng, node.pace, finder,
            JOIN_WINDOW, node.rng,
        )  # fmt: skip
        machine.steward.grace = self.grace
        node.steward = machine.steward
        return machine

    # -- start-up and discovery ---------------------------------------------------------------

    def _start(self) -> None:
        starts = [self.draws.uniform(0.0, STARTS_WITHIN) for _ in self.nodes]
        for node, at in zip(self.nodes, starts, strict=True):
            self.at(at, partial(self._boot, node, node.incarnation))
            self.at(at, partial(self._tick, node))
            self.at(at + 0.05, partial(self._bot, node))
        for a in self.nodes:
            for b in self.nodes[a.index + 1 :]:
                meet = max(starts[a.index], starts[b.index])
                meet += self.draws.uniform(*DISCOVERY_DELAY)
                self.at(meet, partial(self._discover, a, b))

    def _seated(self, node: SimNode) -> bool:
        return self.shells[node.index].machine.replica is not None

    def _boot(self, node: SimNode, incarnation: int) -> None:
        """local.py ``start`` for a seat with no log to restore: probe every peer known,
        for as long as its machine says (``Arrival.listen_time``)."""
        shell = self.shells[node.index]
        if not node.up or node.incarnation != incarnation or self._seated(node):
            return
        shell.probing = True
        for peer in sorted(shell.connected):
            self._greet(node, peer, force=True)
        window = shell.machine.arrival.listen_time()
        self.at(self.now + window, partial(self._window_over, node, incarnation))

    def _window_over(self, node: SimNode, incarnation: int) -> None:
        if node.up and node.incarnation == incarnation and not self._seated(node):
            if node.paused:  # a paused process settles once it runs again
                self.at(self.now + 0.05, partial(self._window_over, node, incarnation))
                return
            self._settle(node)

    def _settle(self, node: SimNode) -> None:
        shell = self.shells[node.index]
        shell.probing = False
        self._carry(node, shell.machine.arrival.settle(self._local_now(node)))

    def _discover(self, a: SimNode, b: SimNode) -> None:
        """LAN discovery: each of two running nodes finds the other's advert and greets it."""
        for me, other in ((a, b), (b, a)):
            if me.up and not me.paused and other.up:
                self.shells[me.index].connected[other.node_id] = self._endpoint(other)
                me.replica.know_key(other.node_id, self.signers[other.node_id].public_key)
                self._greet(me, other.node_id)  # an advert just announced: greeted

    def _greet(
        self, node: SimNode, peer: bytes, force: bool = False, unlisted: bool = False
    ) -> None:
        """peers.py ``greet``: our HELLO to ``peer`` (a probe while we hold no log), unless
        greeted just now; ``unlisted``: leaving ``peer`` out of the list (P-264)."""
        shell = self.shells[node.index]
        local = self._local_now(node)
        if not force and local - shell.greeted.get(peer, -1e9) < GREET_GAP:
            return
        shell.greeted[peer] = local
        machine = shell.machine
        if machine.replica is not None:
            self._carry(node, machine.react(machine.replica.hello(peer, unlisted), local))
            return
        peers = [
            PeerAddress(n, self._endpoint(self._node(n)), self.signers[n].public_key)
            for n in sorted(shell.connected)
            if not (unlisted and n == peer)
        ]
        name = f"bot-{node.node_id.hex()[:4]}"
        data = probe_hello(TABLE, node.node_id, name, "pump", self._endpoint(node), peers)
        self._send(node, Send(peer, data))

    # -- the replicas the shell makes ---------------------------------------------------------

    def _endpoint(self, node: SimNode) -> str:
        return f"tcp://127.0.0.1:{20000 + node.index}"

    def _node(self, node_id: bytes) -> SimNode:
        return next(n for n in self.nodes if n.node_id == node_id)

    def _own_epoch(self, node: SimNode) -> bytes:
        """A table id of the node's own: its first, then one per table it founds anew."""
        self.fresh += 1
        seed = f"epoch-{self.seed}-{node.index}-{self.fresh}".encode()
        return hashlib.blake2b(seed).digest()[:16]

    def _seat_replica(self, node: SimNode, epoch: bytes) -> Replica:
        name = f"bot-{node.node_id.hex()[:4]}"
        identity = Identity(node.node_id, TABLE, epoch, name, "pump", self._endpoint(node))
        reading = self.reading
        signer = self.signers[node.node_id]
        at = self._local_now(node)
        replica = Replica(identity, at, self.settings, signer, reading.authentic, reading.decode)
        for peer in self.shells[node.index].connected:
            replica.know_key(peer, self.signers[peer].public_key)
        return replica

    def _take_up(self, node: SimNode, replica: Replica) -> None:
        """tables.py ``_replica``: the machine's log from now on, with the secrets kept."""
        shell = self.shells[node.index]
        shell.machine.steward.take_secrets(replica, node.disk.secrets)
        node.replica = shell.machine.replica = replica
        self._watch_of(node).fresh_log(node.index)
        node.submitted, node.settled_seqs = {}, set()
        shell.probing = False

    def _begin(self, node: SimNode, epoch: bytes | None) -> None:
        """tables.py ``begin``: a fresh log, founded (no ``epoch``) or asking to join."""
        shell = self.shells[node.index]
        arrival = shell.machine.arrival
        floor = arrival.seq_floor(node.disk.seq_floor)
        found = epoch is None
        epoch = self._own_epoch(node) if epoch is None else epoch
        if arrival.aside is not None and node.disk.epoch == arrival.aside:
            shell.aside = node.disk  # tables.py ``begin``: ``begin_table(keep=...)``
        node.disk = Disk(epoch=epoch, seq_floor=floor)
        shell.greeted.clear()
        replica = self._seat_replica(node, epoch)
        self._take_up(node, replica)
        shell.tables += 1
        self.log(f"node {node.index} {'founds' if found else 'joins'} table {epoch.hex()[:8]}")
        at = self._local_now(node)
        self._carry(node, arrival.begin(replica, at, found=found, floor=floor))

    def _reload(self, node: SimNode, epoch: bytes) -> None:
        """tables.py ``_reload``: the kept log comes back from disk, and the machine takes
        it up (``Arrival.reload``)."""
        shell = self.shells[node.index]
        machine = shell.machine
        if node.disk.epoch != epoch and epoch == machine.arrival.aside:
            aside, shell.aside = shell.aside, None  # tables.py ``back_to_kept`` (P-286)
            if aside is None or aside.epoch != epoch:
                self._begin(node, epoch)
                return
            aside.seq_floor = machine.arrival.seq_floor(node.disk.seq_floor)
            node.disk = aside
        disk = node.disk
        if disk.epoch != epoch or not disk.records:
            self._begin(node, None)  # tables.py ``back_to_kept``: no such log on disk
            return
        replica = self._seat_replica(node, epoch)
        self._take_up(node, replica)
        self.log(f"node {node.index} reloads table {epoch.hex()[:8]}")
        at = self._local_now(node)
        self._carry(node, machine.react(replica.restore(list(disk.records), disk.clock_mark, at)))
        self._carry(node, machine.arrival.reload(replica, at, floor=disk.seq_floor))

    # -- the machine's inputs -----------------------------------------------------------------

    def _arrival(self, sender: SimNode, target: SimNode, when: float) -> float:
        """One connection delivers in the order sent, losses aside (ZeroMQ over TCP): a
        HELLO naming a new epoch is never overtaken by what its sender sent before it."""
        link = (sender.index, target.index)
        when = max(when, self.arrivals.get(link, 0.0))
        self.arrivals[link] = when
        return when

    def _targets(self, sender: SimNode, effect: Send) -> list[SimNode]:
        """Only the peers a node holds a connection to hear it."""
        connected = self.shells[sender.index].connected
        return [n for n in super()._targets(sender, effect) if n.node_id in connected]

    def _deliver(self, node: SimNode, data: bytes, incarnation: int) -> None:
        """local.py ``_receive_loop``: one message, then the acknowledgement."""
        if not node.up or node.incarnation != incarnation:
            return
        if node.paused:
            node.inbox.append(data)
            return
        sender = message_sender(data)  # the key its channel proved, in the node
        if sender is None:
            return
        machine = self.shells[node.index].machine
        local = self._local_now(node)
        self._carry(node, machine.receive(sender, data, local))
        self._carry(node, machine.acknowledge(local))

    def _tick(self, node: SimNode) -> None:
        if node.up and not node.paused:
            machine = self.shells[node.index].machine
            self._carry(node, machine.tick(self._local_now(node)))
        self.at(self.now + 0.05, partial(self._tick, node))

    def _bot(self, node: SimNode) -> None:
        """The bot's next look at the table, after its think time."""
        seated = self._seated(node)
        pause = think_time(self.think, node.rng) if seated else 0.1
        self.at(self.now + pause, partial(self._bot, node))
        self._duties(node)

    def _duties(self, node: SimNode) -> None:
        """local.py ``_duty_loop``: what the seat owes the table now; the events it sends
        are counted as submitted, to be settled by the end."""
        machine = self.shells[node.index].machine
        replica = machine.replica
        if not node.up or node.paused or replica is None:
            return
        before = replica.my_seq
        outs = machine.duties(self._local_now(node))
        for seq in range(before + 1, replica.my_seq + 1):
            node.submitted.setdefault(seq, None)  # type: ignore[arg-type]
        self._carry(node, outs)

    # -- the machine's effects, carried out (node/seat/carrier.py) ----------------------------

    def _effects(self, node: SimNode, effects: Sequence[seat.Out]) -> None:
        self._carry(node, effects)

    def _carry(self, node: SimNode, outs: Sequence[seat.Out]) -> None:
        for out in outs:
            if isinstance(out, Send):
                self._send(node, out)
            elif isinstance(out, Persist):
                node.disk.records.append(out.data)
            elif isinstance(out, PersistClock):
                node.disk.clock_mark = out.mark
            elif isinstance(out, Delivered):
                self._delivered(node, out)
            elif isinstance(out, Withdrawn):
                node.settled_seqs.add(out.seq)
            elif isinstance(out, Alarm) and out.kind == "desync":
                raise Diverged(f"node {node.index}: {out.detail}")
            else:
                self._seat_effect(node, out)
        self._check_step(node)

    def _delivered(self, node: SimNode, effect: Delivered) -> None:
        if self.trace is not None:
            entry = effect.entry
            self.log(
                f"node {node.index} #{entry.index} {entry.sender.hex()[:4]}:{entry.seq}"
                f" L{entry.lamport} {entry.body} -> {entry.outcome.refusal or 'ok'}"
            )
        self._check_delivered(node, effect)

    def _seat_effect(self, node: SimNode, out: seat.Out) -> None:
        shell = self.shells[node.index]
        if isinstance(out, seat.KeepSecret):
            node.disk.secrets[out.round] = out.secret
        elif isinstance(out, PeerSeen):  # peers.py ``peer_seen``: greet it, tell the others
            shell.machine.standing.announce_due = True
            if out.node not in shell.connected:
                shell.connected[out.node] = out.endpoint
                self._greet(node, out.node)
        elif isinstance(out, seat.HelloHeard):
            self._hello_heard(node, out.sender, out.hello)
        elif isinstance(out, seat.AskHello):
            self._greet(node, out.peer, unlisted=True)
        elif isinstance(out, seat.CutOff) and not out.member:
            shell.connected.pop(out.peer, None)
        elif isinstance(out, seat.Wake):
            wait = max(0.0, out.at - self._local_now(node))
            self.at(self.now + wait, partial(self._duties, node))
        elif isinstance(out, seat.GameEnded) and out.number > self.rematches:
            # The games the run asks for are played (``rematches``): no bot asks for more.
            shell.machine.steward.bot = None
        elif isinstance(out, seat.MoveTable):
            self.log(f"node {node.index}: {out.why}")
            self._begin(node, out.epoch)
        elif isinstance(out, seat.BackToKept):
            self._reload(node, out.epoch)

    def _hello_heard(self, node: SimNode, sender: bytes, hello: Hello) -> None:
        """peers.py ``hello_heard``: answer a HELLO that does not list us; with no log yet,
        learn its peers, and settle once the machine has heard enough (P-267)."""
        shell = self.shells[node.index]
        shell.connected[sender] = hello.endpoint
        listed = {peer.node: peer.endpoint for peer in hello.peers}
        if listed.get(node.node_id) != self._endpoint(node):
            self._greet(node, sender)
        if self._seated(node):
            return
        shell.connected.update((n, e) for n, e in listed.items() if n != node.node_id)
        if shell.probing and shell.machine.arrival.heard_enough(self._local_now(node)):
            self._settle(node)

    # -- faults ------------------------------------------------------------------------------

    def _restart(self, node: SimNode) -> None:
        """local.py ``start``: a fresh process, its machine deciding what its disk holds
        (``Arrival.restart``): a game's log comes back, a lobby's is kept aside."""
        self.log(f"restart node {node.index}")
        self.tables += self.shells[node.index].tables
        shell = self.shells[node.index] = self._shell(node)
        node.up = True
        disk = node.disk
        epoch = disk.epoch
        if epoch is not None and shell.machine.arrival.restart(epoch, list(disk.records)):
            self._reload(node, epoch)
        else:
            node.replica = self._seat_replica(node, self._own_epoch(node))
            self.at(self.now, partial(self._boot, node, node.incarnation))
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
        summary["tables"] = self.tables + sum(shell.tables for shell in self.shells.values())
        return summary
