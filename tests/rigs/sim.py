"""A seeded simulation of whole tables on an in-memory network with injected faults.

N real protocol replicas (the same sans-IO code a node runs) play with bots on
a virtual clock. One seed draws the table size, the bots' choices, latencies and
every fault: loss, duplication, reordering and delay, partitions (symmetric and
one-way) that heal, faults of single links (one direction down, or lossy, slow and
duplicating: ``tests/rigs/links.py``), crashes with a restart from the persisted log, pauses,
and clock skew. Invariants are checked as the run goes (``tests/rigs/watch.py``) and after
everything heals; a failing seed is counted as diverged or stalled.

    python -m tests.rigs.sim --seeds 300                   # a sweep
    python -m tests.rigs.sim --seeds 1000 --faults links   # faults of single links
    python -m tests.rigs.sim --seed 1234 -v                # replay one seed, with its trace
    python -m tests.rigs.sim --faults links --seeds 10000 --workers 16 --start 0

The same seed always gives the same trace.
"""

from __future__ import annotations

import argparse
import hashlib
import heapq
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from dutchblitz.protocol.games.blitz.bots import LEVELS, Bot, think_time
from dutchblitz.protocol.games.blitz.rules import Reason
from dutchblitz.protocol.games.blitz.wire_moves import play_from_move
from dutchblitz.protocol.games.registry import DEFAULT_GAME
from dutchblitz.protocol.replica.core import Identity, Replica, Settings
from dutchblitz.protocol.replica.effects import (
    Alarm,
    Delivered,
    Effect,
    Persist,
    PersistClock,
    Send,
    Timer,
    Withdrawn,
)
from dutchblitz.protocol.replica.flush import Flushes
from dutchblitz.protocol.replica.liveness import Liveness
from dutchblitz.protocol.replica.viewchange import ViewChange
from dutchblitz.protocol.seat.deal_duties import Grace
from dutchblitz.protocol.seat.duties import Steward, Wishes, rematch_duty
from dutchblitz.protocol.seat.game_duties import holds_secrets
from dutchblitz.protocol.seat.pace import Pace
from dutchblitz.protocol.table.fairdeal import RoundSecret
from dutchblitz.protocol.table.state import FlagKind, Game, Phase
from dutchblitz.protocol.wire.auth import Signer
from dutchblitz.protocol.wire.codec import decode
from dutchblitz.protocol.wire.messages import Body, Envelope, Profile, Ready, Start
from dutchblitz.protocol.wire.signing import authentic

from tests.rigs.links import LinkFault, draw_links, link_fate
from tests.rigs.watch import DIVERGED, STALLED, Diverged, InvariantViolated, Stalled, Watch

TABLE = "sim"
SIM_GRACE = Grace(seconds=5.0, step=0.5)  # the simulation's suspicion timeout is 1 s, not 2
FAULT_PLANS = ("none", "single", "overlapping", "links")
PROGRESS_BOUND = 30.0  # virtual seconds without a log growing, once healed, that is a stall
# Messages a run's memo holds at most (SharedReading): a seed's game is a few thousand; a
# long stalled run starts again from empty rather than hold every heartbeat it ever sent.
MEMO_SIZE = 20_000

__all__ = [
    "InvariantViolated",
    "Scenario",
    "SharedReading",
    "SimNode",
    "Simulation",
    "run_seed",
    "sweep",
]


@dataclass(frozen=True, slots=True)
class Scenario:
    """What one seed draws: the table and its faults."""

    players: int
    target: int
    loss: float
    duplicate: float
    latency: tuple[float, float]
    partitions: tuple[tuple[float, float, frozenset[int], bool], ...]  # start, end, side, one-way
    crashes: tuple[tuple[float, float, int], ...]  # at, restart at, node
    pauses: tuple[tuple[float, float, int], ...]  # at, resume at, node
    skews: tuple[float, ...]
    heal_at: float
    links: tuple[LinkFault, ...] = field(default=(), repr=False)
    # Once healed, a log must grow within this many seconds (None: only by the run's end).
    progress_bound: float | None = field(default=None, repr=False)

    @staticmethod
    def draw(rng: random.Random, faults: str = "single") -> Scenario:
        """Draw a table and its faults. ``faults`` is none, single, overlapping or links.

        ``single`` (what CI sweeps) injects message loss, duplication, reordering, delay and
        clock skew throughout, plus one membership fault: a partition that cuts off a
        minority (symmetric or one-way), a crash with a restart, or a pause. ``overlapping``
        lets several of them (and even splits) overlap; see docs/testing.md for what it finds.
        ``links`` draws faults of single links instead, on 3 to 5 players (``draw_links``).
        """
        if faults == "links":
            return Scenario.draw_links(rng)
        players = rng.choice((2, 3, 3, 4, 4, 5))
        skews = tuple(rng.uniform(-0.05, 0.05) if faults != "none" else 0.0 for _ in range(players))
        if faults == "none":
            return Scenario(players, 12, 0.0, 0.0, (0.0005, 0.003), (), (), (), skews, 0.0)
        partitions: list[tuple[float, float, frozenset[int], bool]] = []
        crashes: list[tuple[float, float, int]] = []
        pauses: list[tuple[float, float, int]] = []
        if faults == "single":
            kind = rng.choice(("none", "partition", "crash", "pause"))
            at = rng.uniform(1.0, 20.0)
            if kind == "partition":
                side = frozenset(rng.sample(range(players), max(1, (players - 1) // 2)))
                partitions.append((at, at + rng.uniform(0.5, 6.0), side, rng.random() < 0.3))
            elif kind == "crash":
                crashes.append((at, at + rng.uniform(0.2, 6.0), rng.randrange(players)))
            elif kind == "pause":
                pauses.append((at, at + rng.uniform(0.2, 4.0), rng.randrange(players)))
        else:
            for _ in range(rng.choice((0, 0, 1, 2))):
                start = rng.uniform(1.0, 25.0)
                side = frozenset(rng.sample(range(players), rng.randint(1, max(1, players // 2))))
                partitions.append((start, start + rng.uniform(0.5, 6.0), side, rng.random() < 0.3))
            for _ in range(rng.choice((0, 0, 1))):
                at = rng.uniform(1.0, 25.0)
                crashes.append((at, at + rng.uniform(0.2, 6.0), rng.randrange(players)))
            for _ in range(rng.choice((0, 0, 1))):
                at = rng.uniform(1.0, 25.0)
                pauses.append((at, at + rng.uniform(0.2, 4.0), rng.randrange(players)))
        return Scenario(
            players=players,
            target=rng.choice((8, 12, 20)),
            loss=rng.choice((0.0, 0.01, 0.05, 0.15)),
            duplicate=rng.choice((0.0, 0.02, 0.1)),
            latency=rng.choice(((0.0005, 0.003), (0.001, 0.02), (0.002, 0.15))),
            partitions=tuple(partitions),
            crashes=tuple(crashes),
            pauses=tuple(pauses),
            skews=skews,
            heal_at=30.0,
        )

    @staticmethod
    def draw_links(rng: random.Random) -> Scenario:
        """3 to 5 players, 5 to 15 % loss, and 2 to 4 link faults that start together."""
        players = rng.choice((3, 3, 4, 4, 5))
        skews = tuple(rng.uniform(-0.05, 0.05) for _ in range(players))
        links = draw_links(rng, players)
        return Scenario(
            players=players,
            target=rng.choice((8, 12, 20)),
            loss=rng.choice((0.05, 0.1, 0.15)),
            duplicate=rng.choice((0.0, 0.02, 0.1)),
            latency=rng.choice(((0.0005, 0.003), (0.001, 0.02), (0.002, 0.15))),
            partitions=(),
            crashes=(),
            pauses=(),
            skews=skews,
            heal_at=30.0,
            links=links,
            progress_bound=PROGRESS_BOUND,
        )


class SharedReading:
    """One memo of ``decode`` and one of ``authentic`` for every node of a run.

    The nodes run in one process, and each reads every broadcast and checks every event's
    signature as it arrives: decoding is about a fifth of a sweep's time, an Ed25519 check
    most of what it spends outside Python. Both answers depend on nothing but their input
    (and the codec's switches, which are set before a run and stay), and an envelope is
    immutable all through, so each distinct message is read once and each distinct
    (origin, raw, auth) checked once, and every node gets the same answer: a refusal as
    much as a pass, so a forged event is refused at every node as before. Bytes that do
    not decode are not kept: each node reads them, and refuses them, itself.
    """

    __slots__ = ("answers", "checked", "envelopes", "read")

    def __init__(self) -> None:
        self.envelopes: dict[bytes, Envelope] = {}
        self.answers: dict[tuple[bytes, bytes, bytes], bool] = {}
        self.read = 0  # messages actually decoded (the rest came from the memo)
        self.checked = 0  # signatures actually checked

    def decode(self, data: bytes) -> Envelope:
        envelope = self.envelopes.get(data)
        if envelope is None:
            self.read += 1
            if len(self.envelopes) >= MEMO_SIZE:
                self.envelopes.clear()
            envelope = self.envelopes[data] = decode(data)
        return envelope

    def authentic(self, origin: bytes, raw: bytes, auth: bytes) -> bool:
        key = (origin, raw, auth)
        answer = self.answers.get(key)
        if answer is None:
            self.checked += 1
            if len(self.answers) >= MEMO_SIZE:
                self.answers.clear()
            answer = self.answers[key] = authentic(origin, raw, auth)
        return answer


@dataclass(slots=True)
class Disk:
    """What survives a crash: the appended log, the clock mark and the deal secrets."""

    records: list[bytes] = field(default_factory=list)
    clock_mark: int = 0
    secrets: dict[int, RoundSecret] = field(default_factory=dict)
    epoch: bytes | None = None  # the table the log is of (table finding: tests/rigs/finding.py)
    seq_floor: int = 0  # our stream starts above this at a table we join


@dataclass(slots=True)
class SimNode:
    index: int
    node_id: bytes
    replica: Replica
    disk: Disk
    rng: random.Random
    up: bool = True
    paused: bool = False
    inbox: list[bytes] = field(default_factory=list)
    submitted: dict[int, Body] = field(default_factory=dict)  # seq -> body
    settled_seqs: set[int] = field(default_factory=set)
    timer_due: float = 0.0
    incarnation: int = 0
    bot: Bot | None = None
    pace: Pace = field(default_factory=lambda: Pace(eager=True))
    steward: Steward | None = None  # the seat's deal duties, as a node's (``Simulation._steward``)


class Simulation:
    """One seeded run. ``run`` returns a summary or raises InvariantViolated.

    ``players`` sets the table size instead of the seed's (the faults drawn for the seed's
    own size stay as they are: a subclass that sets its own faults uses it). ``game`` names
    the game the table hosts (protocol/games/registry.py).
    """

    def __init__(
        self,
        seed: int,
        faults: str = "single",
        trace: Callable[[str], None] | None = None,
        players: int | None = None,
        rematches: int = 0,
        game: str = DEFAULT_GAME,
    ):
        self.seed = seed
        self.rematches = rematches  # games played again after the first (spec/rules.md R-50)
        self.rng = random.Random(seed)
        self.scenario = Scenario.draw(self.rng, faults)
        if players is not None:
            # The same seed's network and faults at another table size: nothing else drawn
            # changes, and the clock skews repeat over the seats.
            skews = self.scenario.skews
            self.scenario = replace(
                self.scenario,
                players=players,
                skews=tuple(skews[i % len(skews)] for i in range(players)),
            )
        self.trace = trace
        self.now = 0.0
        self.queue: list[tuple[float, int, Callable[[], None]]] = []
        self.counter = 0
        self.settings = Settings(
            heartbeat_every=0.1, suspect_after=1.0, repair_retry=0.15, game=game
        )
        self.grace = SIM_GRACE
        self.seat_level = "careful"  # a bot's level in a game whose bots play with secrets
        self.think = LEVELS["fast"]  # how long a bot waits before it looks again
        self.nodes: list[SimNode] = []
        self.epoch = hashlib.blake2b(f"epoch-{seed}".encode(), digest_size=16).digest()
        self.reference: list[tuple[bytes, int]] = []  # the longest stable log seen
        self.messages = 0
        self.watch = Watch()
        self.signers: dict[bytes, Signer] = {}
        self.reading = SharedReading()
        for index in range(self.scenario.players):
            signer = Signer(hashlib.blake2b(f"key-{seed}-{index}".encode()).digest()[:32])
            node_id = signer.node_id
            self.signers[node_id] = signer
            node = SimNode(
                index, node_id, self._replica(node_id), Disk(), random.Random(seed * 31 + index)
            )
            node.steward = self._steward(node)
            self.nodes.append(node)

    # -- the event loop -------------------------------------------------------------------

    def at(self, when: float, action: Callable[[], None]) -> None:
        self.counter += 1
        heapq.heappush(self.queue, (when, self.counter, action))

    def log(self, text: str) -> None:
        if self.trace is not None:
            self.trace(f"{self.now:9.4f} {text}")

    def run(self, limit: float = 600.0) -> dict[str, object]:
        self.log(f"scenario {self.scenario}")
        for fault in self.scenario.links:
            self.log(f"link fault {fault}")
        for node in self.nodes:
            self.log(f"node {node.index} is {node.node_id.hex()[:4]}")
        self._schedule_faults()
        self._start()
        while self.queue:
            when, _, action = heapq.heappop(self.queue)
            if when > limit:
                break
            self.now = when
            action()
            if self._finished():
                break
            self._check_progress(when)
        self._check_final(limit)
        return self._summary()

    def _start(self) -> None:
        """One table id for all: node 0 founds the table, the others ask to join it."""
        founder = self.nodes[0]
        self._effects(founder, founder.replica.found(self.now))
        for node in self.nodes[1:]:
            self.at(0.01 * node.index, partial(self._join, node))
        for node in self.nodes:
            self.at(0.0, partial(self._tick, node))
            self.at(0.05, partial(self._bot, node))

    def _check_progress(self, when: float) -> None:
        if self.watch.stalled(when, self.scenario.heal_at, self.scenario.progress_bound):
            self._stall(f"no log grew for {self.scenario.progress_bound:.0f} s after healing")

    def _finished(self) -> bool:
        if self.now < self.scenario.heal_at:
            return False
        games = [node.replica.stable for node in self.nodes]
        if not all(g.phase == Phase.OVER for g in games):
            return False
        if any(g.game_number <= self.rematches for g in games):
            return False  # a rematch is still to come
        ends = [node.replica.ended for node in self.nodes]
        if any(end is None or end[2].game_number != self.rematches + 1 for end in ends):
            return False  # the last round's audit is not complete
        if any(node.replica.pending for node in self.nodes):
            return False
        if any(set(node.submitted) - node.settled_seqs for node in self.nodes):
            return False
        return len({len(node.replica.log) for node in self.nodes}) == 1

    # -- nodes --------------------------------------------------------------------------------

    def _replica(self, node_id: bytes) -> Replica:
        identity = Identity(
            node_id,
            TABLE,
            self.epoch,
            name=f"bot-{node_id.hex()[:4]}",
            endpoint="tcp://127.0.0.1:1",
        )
        reading = self.reading
        signer = self.signers[node_id]
        return Replica(identity, self.now, self.settings, signer, reading.authentic, reading.decode)

    def _local_now(self, node: SimNode) -> float:
        return self.now + self.scenario.skews[node.index]

    def _join(self, node: SimNode) -> None:
        if node.up and not node.paused:
            self._effects(node, node.replica.ask_to_join(self._local_now(node)))

    def _tick(self, node: SimNode) -> None:
        if node.up and not node.paused:
            self._effects(node, node.replica.tick(self._local_now(node)))
        self.at(self.now + 0.05, partial(self._tick, node))

    def _deliver(self, node: SimNode, data: bytes, incarnation: int) -> None:
        if not node.up or node.incarnation != incarnation:
            return
        if node.paused:
            node.inbox.append(data)
            return
        local = self._local_now(node)
        self._effects(node, node.replica.receive(data, local))
        self._effects(node, node.replica.flush(local))

    def _effects(self, node: SimNode, effects: Sequence[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, Send):
                self._send(node, effect)
            elif isinstance(effect, Persist):
                node.disk.records.append(effect.data)
            elif isinstance(effect, PersistClock):
                node.disk.clock_mark = effect.mark
            elif isinstance(effect, Delivered):
                if self.trace is not None:
                    entry = effect.entry
                    self.log(
                        f"node {node.index} #{entry.index} {entry.sender.hex()[:4]}:{entry.seq}"
                        f" L{entry.lamport} {entry.body} -> {entry.outcome.refusal or 'ok'}"
                    )
                self._check_delivered(node, effect)
                node.pace.follow(node.replica.stable, self._local_now(node))
            elif isinstance(effect, Withdrawn):
                node.settled_seqs.add(effect.seq)
            elif isinstance(effect, Alarm) and effect.kind == "desync":
                raise Diverged(f"node {node.index}: {effect.detail}")
            elif isinstance(effect, Timer):
                pass  # the simulation ticks every node on a fixed period
        self._check_step(node)

    def _check_step(self, node: SimNode) -> None:
        """After every step of a node: its cuts and its latest digest against everyone's."""
        order = node.replica.order
        watch = self._watch_of(node)
        watch.cuts_held(node.index, node.replica.liveness.settled)
        length, digest = order.last_digest
        watch.digest(node.index, length, digest)

    def _watch_of(self, node: SimNode) -> Watch:
        """The invariants of the log ``node`` holds (one table id here: one for all)."""
        return self.watch

    def _reference_of(self, node: SimNode) -> list[tuple[bytes, int]]:
        """The longest stable log seen of the table ``node`` sits at."""
        return self.reference

    def _same_log(self, node: SimNode) -> list[SimNode]:
        """The nodes whose logs are the same table's as ``node``'s."""
        return self.nodes

    def _targets(self, sender: SimNode, effect: Send) -> list[SimNode]:
        """Whom a message goes to: everyone, or the one it names."""
        if effect.to is None:
            return self.nodes
        return [n for n in self.nodes if n.node_id == effect.to]

    def _send(self, sender: SimNode, effect: Send) -> None:
        for target in self._targets(sender, effect):
            if target is sender or not self._link_open(sender.index, target.index):
                continue
            if self.rng.random() < self.scenario.loss and self.now < self.scenario.heal_at:
                continue
            extra = 0.0
            copies = 1
            if self.scenario.links:  # drawn only where the plan has link faults
                fate = link_fate(
                    self.scenario.links, sender.index, target.index, self.now, self.rng
                )
                if fate.lost:
                    continue
                extra = fate.delay
                copies += fate.duplicate > 0.0 and self.rng.random() < fate.duplicate
            copies += self.rng.random() < self.scenario.duplicate
            for _ in range(min(copies, 2)):
                delay = self.rng.uniform(*self.scenario.latency) + extra
                self.messages += 1
                incarnation = target.incarnation
                when = self._arrival(sender, target, self.now + delay)
                self.at(when, partial(self._deliver, target, effect.data, incarnation))

    def _arrival(self, sender: SimNode, target: SimNode, when: float) -> float:
        """When a message sent now arrives: here, whenever its delay says (reordered)."""
        return when

    def _link_open(self, a: int, b: int) -> bool:
        for start, end, side, one_way in self.scenario.partitions:
            if not start <= self.now < end:
                continue
            if a in side and b not in side:
                return False
            if not one_way and b in side and a not in side:
                return False
        return True

    # -- bots ----------------------------------------------------------------------------------

    def _bot(self, node: SimNode) -> None:
        level = LEVELS["fast"]
        self.at(self.now + think_time(self.think, node.rng), partial(self._bot, node))
        if not node.up or node.paused or not node.replica.can_play():
            return
        replica = node.replica
        game = replica.optimistic()
        me = game.members.get(node.node_id)
        if me is None:
            return
        local = self._local_now(node)
        if game.phase == Phase.LOBBY:
            self._lobby_step(node, game, me.seat, local)
            return
        if self._deal(node, local):
            return
        assert node.steward is not None
        if node.steward.game_duties(replica):
            return  # a game's own duties (Dutch: keys, shuffles, shares) go first
        if game.phase == Phase.OVER and replica.stable.game_number <= self.rematches:
            body = rematch_duty(game, me, replica.stable, bot=True)
            if body is not None and not replica.pending_own():
                self._submit(node, body, local)
            return
        if me.seat in replica.stable.still_looking() and not replica.pending_own():
            self._submit(node, Ready(True), local)  # a bot has seen the scores at once
            return
        if game.phase == Phase.PLAYING and holds_secrets(game.rules):
            if not replica.pending_own() and node.pace.count_in_left(game, local) <= 0:
                body = node.steward.game.bot_body(replica, game, me.seat, self.seat_level)
                if body is not None:
                    self._submit(node, body, local)
            return
        if game.phase == Phase.PLAYING and game.rules.bots_send_bodies:
            if not replica.pending_own() and node.pace.count_in_left(game, local) <= 0:
                body = game.rules.bot_body(game.table, me.seat, game.round)
                if body is not None:
                    self._submit(node, body, local)
            return
        if game.phase == Phase.PLAYING and game.table is not None and me.seat in game.table.areas:
            if replica.pending_own() or node.pace.count_in_left(game, local) > 0:
                return  # one move in flight at a time, and none before the count-in ends
            if node.bot is None:
                node.bot = Bot(level, node.rng)
            move = node.bot.choose(game.table, me.seat)
            if move is not None:
                self._submit(node, play_from_move(move, game.round), local)

    def _lobby_step(self, node: SimNode, game: Game, seat: int, local: float) -> None:
        member = game.members[node.node_id]
        if node.replica.pending_own():
            return
        if member.name != f"bot{node.index}":
            self._submit(node, Profile(f"bot{node.index}", member.back), local)
        elif not member.ready:
            self._submit(node, Ready(True), local)
        elif (
            seat == 0
            and len(game.seated()) == self.scenario.players
            and all(m.ready for m in game.seated())
        ):
            self._submit(node, Start(self.scenario.target, True), local)

    def _deal(self, node: SimNode, local: float) -> bool:
        """Send what the fair deal asks of this node now; True if it sent anything.

        The node's ``Steward`` decides, as a real seat's does; its secrets come from the
        node's random stream and are kept on its disk before the commitment goes out.
        """
        assert node.steward is not None
        node.steward.grace = self.grace  # a test may set the table's grace after the nodes
        dealt = node.steward.deal_duties(node.replica)
        graced = node.steward.end_grace(node.replica)
        return dealt or graced

    def _steward(self, node: SimNode) -> Steward:
        """A seat's duties for ``node``: the disk keeps its secrets, its stream draws them."""

        def submit(body: Body) -> bool:
            self._submit(node, body, self._local_now(node))
            return True

        def keep(number: int, secret: RoundSecret) -> None:
            node.disk.secrets[number] = secret

        name = f"bot{node.index}"
        steward = Steward(
            node.node_id, Wishes(name), None, lambda _: node.rng, keep, submit, grace=self.grace
        )
        steward.take_secrets(node.replica, node.disk.secrets)
        return steward

    def _submit(self, node: SimNode, body: Body, local: float) -> None:
        effects = node.replica.submit(body, local)
        node.submitted[node.replica.my_seq] = body
        self._effects(node, effects)

    # -- faults -------------------------------------------------------------------------------

    def _schedule_faults(self) -> None:
        for at, restart, index in self.scenario.crashes:
            self.at(at, partial(self._crash, self.nodes[index]))
            self.at(restart, partial(self._restart, self.nodes[index]))
        for at, resume, index in self.scenario.pauses:
            self.at(at, partial(self._pause, self.nodes[index], True))
            self.at(resume, partial(self._pause, self.nodes[index], False))

    def _crash(self, node: SimNode) -> None:
        self.log(f"crash node {node.index}")
        node.up = False
        node.incarnation += 1

    def _restart(self, node: SimNode) -> None:
        self.log(f"restart node {node.index}")
        node.replica = self._replica(node.node_id)
        self._watch_of(node).fresh_log(node.index)
        node.pace = Pace(eager=True)
        node.steward = self._steward(node)  # the secrets kept on disk come back
        node.up = True
        local = self._local_now(node)
        self._effects(
            node, node.replica.restore(list(node.disk.records), node.disk.clock_mark, local)
        )
        if not node.replica.is_member():
            self._effects(node, node.replica.ask_to_join(local))

    def _pause(self, node: SimNode, paused: bool) -> None:
        self.log(f"{'pause' if paused else 'resume'} node {node.index}")
        node.paused = paused
        if not paused:
            inbox, node.inbox = node.inbox, []
            for data in inbox:
                self._deliver(node, data, node.incarnation)

    # -- invariants ----------------------------------------------------------------------------

    def _check_delivered(self, node: SimNode, effect: Delivered) -> None:
        entry = effect.entry
        ident = (entry.sender, entry.seq)
        log = node.replica.log
        reference = self._reference_of(node)
        if entry.index < len(reference):
            if reference[entry.index] != ident:
                raise Diverged(
                    f"node {node.index} has a different event at log index {entry.index}"
                )
        else:
            reference.append(ident)
        self.watch.last_progress = self.now
        cuts = ((other.index, other.replica.liveness.settled) for other in self._same_log(node))
        self._watch_of(node).delivered(node.index, entry, cuts)
        if entry.sender == node.node_id:
            node.settled_seqs.add(entry.seq)
        if entry.outcome.refusal == Reason.PILE_TAKEN:
            seat = node.replica.stable.seat_of(entry.sender)
            if entry.outcome.by is None or entry.outcome.by == seat:
                raise InvariantViolated(f"a lost race at index {entry.index} names no other winner")
        del log  # the log itself is checked for duplicates at the end
        self._check_cards(node)

    def _check_cards(self, node: SimNode) -> None:
        table = node.replica.stable.table
        if table is None or self.settings.game != DEFAULT_GAME:
            return  # Dutch Blitz's cards
        counts = {seat: area.card_count() for seat, area in table.areas.items()}
        for pile in table.piles:
            for placed in pile.cards:
                counts[placed.deck] += 1
        for seat, count in counts.items():
            if count != 40:
                raise InvariantViolated(f"node {node.index}: deck {seat} has {count} cards")

    def _stall(self, why: str) -> None:
        phases = [n.replica.stable.phase.value for n in self.nodes]
        lengths = [len(n.replica.log) for n in self.nodes]
        raise Stalled(f"{why} by t={self.now:.1f}: phases {phases}, log lengths {lengths}")

    def _check_final(self, limit: float) -> None:
        logs = [[(e.sender, e.seq) for e in node.replica.log] for node in self.nodes]
        for node, log in zip(self.nodes, logs, strict=True):
            if len(set(log)) != len(log):
                raise InvariantViolated(f"node {node.index} applied an event twice")
        if not self._finished():
            self._stall("no progress to the end of the game")
        digests = {node.replica.digest() for node in self.nodes}
        if len(digests) != 1:
            raise Diverged("nodes with the same log have different digests")
        for node in self.nodes:
            flags = [f for f in node.replica.stable.flags if f.kind != FlagKind.UNAUDITED]
            if flags:
                raise InvariantViolated(f"node {node.index}: honest players flagged: {flags}")
        for node in self.nodes:
            lost = [seq for seq in node.submitted if seq not in node.settled_seqs]
            if lost:
                raise Stalled(f"node {node.index}: submitted events {lost[:5]} never settled")

    def _summary(self) -> dict[str, object]:
        game = self.nodes[0].replica.stable
        return {
            "seed": self.seed,
            "players": self.scenario.players,
            "rounds": len(game.results),
            "games": game.game_number,
            "events": len(self.nodes[0].replica.log),
            "messages": self.messages,
            "virtual_seconds": round(self.now, 2),
            "digest": self.nodes[0].replica.digest().hex(),
            "unaudited": len(game.flags),
        }


def run_seed(
    seed: int, faults: str = "single", verbose: bool = False, finding: bool = False
) -> dict[str, object]:
    """One seed's run; with ``finding``, each node starts on a table id of its own."""
    trace = print if verbose else None
    if finding:
        from tests.rigs.finding import FindingSimulation  # it builds on this module

        return FindingSimulation(seed, faults, trace).run()
    return Simulation(seed, faults, trace).run()


Outcome = tuple[int, str | None, dict[str, object] | None, str]  # seed, error, summary, kind


def _outcome(job: tuple[int, str, bool, bool, bool, bool]) -> Outcome:
    seed, faults, old_withdrawal, old_cuts, finding, rounds = job
    Flushes.enabled = not old_withdrawal  # in this worker process only
    Liveness.learns_cuts = not old_cuts
    ViewChange.switch(rounds and not old_cuts)
    try:
        return seed, None, run_seed(seed, faults, finding=finding), "held"
    except InvariantViolated as error:
        return seed, str(error), None, error.kind


def sweep(
    seeds: Sequence[int],
    faults: str,
    workers: int,
    old_withdrawal: bool = False,
    old_cuts: bool = False,
    finding: bool = False,
    rounds: bool = False,
) -> list[Outcome]:
    """Run many seeds, on ``workers`` processes; results come back in seed order.

    Each result is (seed, error or None, summary or None, kind): ``held`` when every
    invariant held, else the kind of the violation (``diverged``, ``stalled``, ``broken``).
    """
    return list(sweep_iter(seeds, faults, workers, old_withdrawal, old_cuts, finding, rounds))


def sweep_iter(
    seeds: Sequence[int],
    faults: str,
    workers: int,
    old_withdrawal: bool = False,
    old_cuts: bool = False,
    finding: bool = False,
    rounds: bool = False,
) -> Iterator[Outcome]:
    """``sweep``, yielding each result (in seed order) as soon as it and those before are in."""
    jobs = [(seed, faults, old_withdrawal, old_cuts, finding, rounds) for seed in seeds]
    if workers <= 1:
        yield from map(_outcome, jobs)
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap(_outcome, jobs, chunksize=2)


def tally(results: Sequence[Outcome]) -> list[str]:
    """The sweep's summary lines: how many seeds held, stalled and diverged, and which."""
    kinds: dict[str, list[int]] = {"held": [], STALLED: [], DIVERGED: []}
    for seed, _error, _summary, kind in results:
        kinds.setdefault(kind, []).append(seed)
    counts = ", ".join(f"{kind} {len(seeds)}" for kind, seeds in kinds.items())
    lines = [f"summary: {counts}"]
    for kind, seeds in kinds.items():
        if kind != "held" and seeds:
            lines.append(f"  {kind}: {' '.join(map(str, seeds))}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.rigs.sim", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--seeds", type=int, default=100, help="how many seeds to sweep")
    parser.add_argument(
        "--first", "--start", type=int, default=0, help="the first seed of the sweep"
    )
    parser.add_argument("--seed", type=int, help="replay this one seed, printing its trace")
    parser.add_argument(
        "--faults",
        choices=FAULT_PLANS,
        default="single",
        help="which faults to draw (default: single)",
    )
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="processes for a sweep"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="print the trace")
    parser.add_argument(
        "--finding",
        action="store_true",
        help="each node starts on a table id of its own: table finding and the lobby merge run",
    )
    parser.add_argument(
        "--old-withdrawal",
        action="store_true",
        help="test only: the withdrawal rule before P-262 (no flush), to show what it breaks",
    )
    parser.add_argument(
        "--old-cuts",
        action="store_true",
        help="test only: the cut rules before P-268 and P-269, to show what they break",
    )
    parser.add_argument(
        "--rounds",
        action="store_true",
        help="a consensus round decides each cut (P-274 to P-287, off by default)",
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    Flushes.enabled = not args.old_withdrawal
    Liveness.learns_cuts = not args.old_cuts
    ViewChange.switch(args.rounds and not args.old_cuts)
    if args.seed is not None:
        try:
            print(run_seed(args.seed, args.faults, verbose=True, finding=args.finding))
        except InvariantViolated as violation:
            print(f"seed {args.seed}: FAILED: {violation}")
            print("0 passed, 1 failed")
            return 1
        print("1 passed, 0 failed")
        return 0
    seeds = range(args.first, args.first + args.seeds)
    failures = 0
    results: list[Outcome] = []
    rules = (args.old_withdrawal, args.old_cuts, args.finding, args.rounds)
    for outcome in sweep_iter(seeds, args.faults, args.workers, *rules):
        results.append(outcome)
        seed, error, summary, _kind = outcome
        if error is not None:
            failures += 1
            print(f"seed {seed}: FAILED: {error}")
            finding = " --finding" if args.finding else ""
            rounds = " --rounds" if args.rounds else ""
            print(
                f"  replay: python -m tests.rigs.sim --seed {seed} --faults {args.faults}"
                f"{finding}{rounds}"
            )
        elif args.verbose:
            print(summary)
        sys.stdout.flush()  # a long sweep in the background shows how far it has come
    elapsed = time.perf_counter() - started
    count = len(seeds)
    print(f"sim: {count} seeds in {elapsed:.1f} s ({count / elapsed:.1f} seeds/s)")
    print(f"{count - failures} passed, {failures} failed")
    print("\n".join(tally(results)))
    print(one_line(results, args.faults, seeds, args.workers, elapsed))
    return 1 if failures else 0


def one_line(
    results: Sequence[Outcome], faults: str, seeds: range, workers: int, elapsed: float
) -> str:
    """The sweep in one line, to collect from many machines: plan, seeds, and the counts."""
    kinds = {"held": 0, STALLED: 0, DIVERGED: 0}
    for _seed, _error, _summary, kind in results:
        kinds[kind] = kinds.get(kind, 0) + 1
    counts = " ".join(f"{kind}={count}" for kind, count in kinds.items())
    last = seeds.start + len(seeds) - 1
    return (
        f"sweep faults={faults} seeds={seeds.start}..{last} workers={workers} "
        f"{counts} seconds={elapsed:.0f}"
    )


if __name__ == "__main__":
    sys.exit(main())
