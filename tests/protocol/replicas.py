"""Real Replicas on an in-memory network that a test controls completely.

Every message a replica asks to send becomes a ``Flight`` in ``Net.flights``. Nothing
moves until the test says so: it delivers flights in any order, drops them, delivers
them twice, or lets ``run`` and ``settle`` do it (first in, first out, or in an order
a ``Schedule`` picks). Time is virtual: ``Net.now`` moves only in ``tick_all`` and
``advance``. Node ids, the epoch and the table name are fixed, so every run is the same.

The helpers follow what a node does: found a table, let the others ask to join, hold a
lobby (Profile, Ready, Start), deal each round from fixed deck orders, and play moves
built by ``protocol.plays`` on the player's own optimistic table.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from dutchblitz.protocol.games.blitz.cards import (
    BLITZ_SIZE,
    Card,
    Colour,
    card,
    new_deck,
    post_count,
)
from dutchblitz.protocol.games.blitz.moves import Move
from dutchblitz.protocol.games.blitz.state import Table, visible_codes
from dutchblitz.protocol.games.blitz.wire_moves import play_from_move
from dutchblitz.protocol.replica.core import Identity, Replica, Settings
from dutchblitz.protocol.replica.effects import (
    Alarm,
    Delivered,
    Effect,
    LogEntry,
    Persist,
    PersistClock,
    Send,
    Withdrawn,
)
from dutchblitz.protocol.seat.deal_duties import deal_duties
from dutchblitz.protocol.table.fairdeal import RoundSecret
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.wire.auth import Signer
from dutchblitz.protocol.wire.codec import decode
from dutchblitz.protocol.wire.messages import (
    Body,
    Deal,
    Envelope,
    Event,
    Profile,
    Ready,
    Reveal,
    Start,
)

TABLE = "kitchen"
EPOCH = hashlib.blake2b(b"dbp test epoch", digest_size=16).digest()
SIGNERS = tuple(
    Signer(hashlib.blake2b(b"dbp test key %d" % index, digest_size=32).digest())
    for index in range(9)
)
NODE_IDS = tuple(signer.node_id for signer in SIGNERS)
STEP = 0.1  # seconds of virtual time per tick round: below every timeout of Settings()


@dataclass(frozen=True, slots=True)
class Flight:
    """One message on its way from one replica to another."""

    source: int
    target: int
    data: bytes

    def envelope(self) -> Envelope:
        return decode(self.data)


@dataclass(slots=True)
class Node:
    """One replica and everything it has asked its shell to do."""

    index: int
    replica: Replica
    delivered: list[LogEntry] = field(default_factory=list)
    withdrawn: list[Withdrawn] = field(default_factory=list)
    alarms: list[Alarm] = field(default_factory=list)
    persisted: list[bytes] = field(default_factory=list)
    clock_marks: list[int] = field(default_factory=list)
    sent: list[Send] = field(default_factory=list)
    own: dict[int, bytes] = field(default_factory=dict)  # seq -> raw of each event it made
    effects: list[Effect] = field(default_factory=list)  # every effect, in order

    @property
    def node_id(self) -> bytes:
        return self.replica.me.node


class Schedule:
    """Which flight goes next, and whether it is lost or doubled.

    ``pick`` returns (index into the flights, copies): copies 0 drops it, 2 delivers it
    twice. The default takes the oldest flight once.
    """

    def pick(self, flights: Sequence[Flight]) -> tuple[int, int]:
        return 0, 1


@dataclass(slots=True)
class RandomSchedule(Schedule):
    """Any arrival order, with some loss and duplication, from a seeded generator."""

    rng: random.Random
    drop: float = 0.0
    duplicate: float = 0.0

    def pick(self, flights: Sequence[Flight]) -> tuple[int, int]:
        index = self.rng.randrange(len(flights))
        roll = self.rng.random()
        if roll < self.drop:
            return index, 0
        return index, 2 if roll < self.drop + self.duplicate else 1


@dataclass(slots=True)
class ChoiceSchedule(Schedule):
    """A schedule written as data (say, drawn by Hypothesis): (number, copies) pairs.

    Each pair picks flight ``number % len(flights)``; once the pairs run out, the
    oldest flight goes next, once, so every run ends.
    """

    choices: Sequence[tuple[int, int]]
    used: int = 0

    def pick(self, flights: Sequence[Flight]) -> tuple[int, int]:
        if self.used >= len(self.choices):
            return 0, 1
        number, copies = self.choices[self.used]
        self.used += 1
        return number % len(flights), copies


class Net:
    """N replicas, all connected to each other, and the messages between them."""

    def __init__(
        self,
        count: int,
        *,
        settings: Settings | None = None,
        epoch: bytes = EPOCH,
        now: float = 0.0,
    ) -> None:
        self.now = now
        self.epoch = epoch
        self.settings = settings or Settings()
        self.nodes = [Node(index, self._replica(index)) for index in range(count)]
        self.flights: list[Flight] = []
        self.down: set[int] = set()  # crashed or paused: receives nothing, ticks never
        self.cut_links: set[tuple[int, int]] = set()  # (from, to): messages are lost
        self.losing: list[Callable[[Flight], bool]] = []  # a message any of these picks is lost
        self.log_of_sends: list[Flight] = []  # every flight ever queued, for vectors
        self.secrets: dict[int, dict[int, RoundSecret]] = {}  # index -> round -> secret
        self.chosen_rounds: set[int] = set()
        self.looking: set[int] = set()  # still looking at the scores: they hold back READY
        self._last_duty: Body | None = None

    def _replica(self, index: int) -> Replica:
        identity = Identity(
            NODE_IDS[index], TABLE, self.epoch, name=f"p{index}", endpoint=f"tcp://p{index}:1"
        )
        return Replica(identity, self.now, self.settings, SIGNERS[index])

    # -- looking -----------------------------------------------------------------------

    def __getitem__(self, index: int) -> Node:
        return self.nodes[index]

    def replica(self, index: int) -> Replica:
        return self.nodes[index].replica

    def index_of(self, node_id: bytes) -> int:
        return next(n.index for n in self.nodes if n.node_id == node_id)

    def logs(self) -> list[list[tuple[bytes, int]]]:
        return [[(e.sender, e.seq) for e in n.replica.log] for n in self.nodes]

    def quiet(self) -> bool:
        """Nothing in flight, nothing pending, and every live replica at the same log length."""
        live = [n for n in self.nodes if n.index not in self.down]
        if self.flights or any(n.replica.pending for n in live):
            return False
        return len({len(n.replica.log) for n in live}) <= 1

    # -- effects in, flights out ----------------------------------------------------------

    def take(self, index: int, effects: Iterable[Effect]) -> list[Effect]:
        """Record what replica ``index`` asked for, and queue what it sends."""
        node = self.nodes[index]
        taken = list(effects)
        for effect in taken:
            node.effects.append(effect)
            if isinstance(effect, Send):
                node.sent.append(effect)
                self._queue(index, effect)
            elif isinstance(effect, Persist):
                node.persisted.append(effect.data)
                envelope = decode(effect.data)
                if envelope.sender == node.node_id:
                    node.own[envelope.seq] = effect.data
            elif isinstance(effect, PersistClock):
                node.clock_marks.append(effect.mark)
            elif isinstance(effect, Delivered):
                node.delivered.append(effect.entry)
            elif isinstance(effect, Withdrawn):
                node.withdrawn.append(effect)
            elif isinstance(effect, Alarm):
                node.alarms.append(effect)
        return taken

    def _queue(self, source: int, send: Send) -> None:
        targets = (
            [n.index for n in self.nodes if n.index != source]
            if send.to is None
            else [n.index for n in self.nodes if n.node_id == send.to]
        )
        for target in targets:
            flight = Flight(source, target, send.data)
            self.log_of_sends.append(flight)
            if (source, target) in self.cut_links or any(lose(flight) for lose in self.losing):
                continue
            self.flights.append(flight)

    # -- delivering ------------------------------------------------------------------------

    def deliver(self, flight: Flight, flush: bool = True) -> list[Effect]:
        """Hand one message to its target (as the shell does: receive, then flush)."""
        if flight.target in self.down:
            return []
        replica = self.replica(flight.target)
        effects = self.take(flight.target, replica.receive(flight.data, self.now))
        if flush:
            effects += self.take(flight.target, replica.flush(self.now))
        return effects

    def pop(self, index: int = 0) -> Flight:
        return self.flights.pop(index)

    def deliver_where(self, wanted: Callable[[Flight], bool]) -> int:
        """Deliver (in order) every flight in the air that ``wanted`` picks; return how many."""
        chosen = [f for f in self.flights if wanted(f)]
        self.flights = [f for f in self.flights if not wanted(f)]
        for flight in chosen:
            self.deliver(flight)
        return len(chosen)

    def drop_where(self, wanted: Callable[[Flight], bool]) -> int:
        before = len(self.flights)
        self.flights = [f for f in self.flights if not wanted(f)]
        return before - len(self.flights)

    def run(
        self, schedule: Schedule | None = None, limit: int = 200_000, budget: int | None = None
    ) -> int:
        """Deliver until nothing is in flight (new flights included), or ``budget`` flights."""
        schedule = schedule or Schedule()
        count = 0
        while self.flights and (budget is None or count < budget):
            count += 1
            if count > limit:
                raise AssertionError(f"still {len(self.flights)} flights after {limit}")
            index, copies = schedule.pick(self.flights)
            flight = self.flights.pop(index)
            for _ in range(copies):
                self.deliver(flight)
        return count

    # -- time --------------------------------------------------------------------------------

    def advance(self, seconds: float) -> None:
        self.now += seconds

    def tick(self, index: int) -> list[Effect]:
        if index in self.down:
            return []
        return self.take(index, self.replica(index).tick(self.now))

    def tick_all(self, step: float = STEP) -> None:
        self.now += step
        for node in self.nodes:
            self.tick(node.index)

    def settle(
        self,
        schedule: Schedule | None = None,
        until: Callable[[], bool] | None = None,
        rounds: int = 400,
    ) -> None:
        """Deliver and tick until ``until`` holds (default: ``quiet``)."""
        done = until or self.quiet
        for _ in range(rounds):
            self.run(schedule)
            if done():
                return
            self.tick_all()
        raise AssertionError(f"not settled after {rounds} tick rounds: {self.describe()}")

    def describe(self) -> str:
        return ", ".join(
            f"p{n.index}: log {len(n.replica.log)} pending {len(n.replica.pending)}"
            for n in self.nodes
        )

    # -- a table -------------------------------------------------------------------------------

    def submit(self, index: int, body: Body) -> list[Effect]:
        return self.take(index, self.replica(index).submit(body, self.now))

    def found(self) -> None:
        """Replica 0 founds the table."""
        self.take(0, self.replica(0).found(self.now))

    def join(self, index: int, schedule: Schedule | None = None) -> None:
        """Replica ``index`` asks to join and is admitted (and everyone agrees)."""
        self.take(index, self.replica(index).ask_to_join(self.now))
        self.settle(schedule, until=lambda: self.quiet() and self.replica(index).is_member())

    def open_table(self, count: int | None = None) -> None:
        """Found the table and admit the others one by one: replica i gets seat i."""
        count = len(self.nodes) if count is None else count
        self.found()
        self.settle()
        for index in range(1, count):
            self.join(index)

    def lobby(
        self,
        *,
        target: int = 75,
        post_stacking: bool = True,
        names: bool = False,
        schedule: Schedule | None = None,
    ) -> None:
        """Every member gets ready (after a Profile, if ``names``) and seat 0 starts."""
        members = [n.index for n in self.nodes if n.replica.is_member()]
        for index in members:
            if names:
                back = self.replica(index).stable.members[NODE_IDS[index]].back
                self.submit(index, Profile(f"player {index}", back))
            self.submit(index, Ready(True))
        self.settle(schedule)
        self.submit(members[0], Start(target, post_stacking))
        self.settle(schedule)
        assert self.replica(0).stable.phase == Phase.DEALING, self.replica(0).stable.phase

    def deal(
        self,
        orders: Mapping[int, Sequence[Card]] | None = None,
        *,
        schedule: Schedule | None = None,
        settle: bool = True,
    ) -> None:
        """Each player commits, shares and deals (spec/rules.md R-40 to R-43).

        By default each deck is the one the fair deal gives; with ``orders`` a player
        deals the order given instead (a test's chosen layout, which no reveal could
        justify, so it reveals nothing for that round). Reveals owed for earlier
        rounds go out first.
        """
        round_number = self.replica(0).stable.round
        if orders:
            self.chosen_rounds.add(round_number)
        for _ in range(8):
            sent = False
            for index in self.player_indexes():
                for body in self.deal_duties(index, orders):
                    self.submit(index, body)
                    sent = True
            game = self.replica(0).stable
            if (game.round == round_number and game.phase == Phase.PLAYING) or not sent:
                break
            if isinstance(self._last_duty, Deal) and not settle:
                return
            self.settle(schedule)
        if settle:
            self.settle(schedule)

    def deal_duties(
        self, index: int, orders: Mapping[int, Sequence[Card]] | None = None
    ) -> list[Body]:
        """What replica ``index`` owes the fair deal now, as a node's steward would send it."""
        replica = self.replica(index)
        kept = self.secrets.setdefault(index, {})

        def fresh(number: int) -> RoundSecret:
            seed = b"dbp test secret %d %d" % (index, number)
            secret = RoundSecret(
                hashlib.blake2b(seed + b"s", digest_size=32).digest(),
                hashlib.blake2b(seed + b"r", digest_size=32).digest(),
            )
            kept[number] = secret
            return secret

        pending = replica.pending_own()
        bodies = deal_duties(replica.stable, NODE_IDS[index], pending, kept, fresh)
        seat = replica.stable.seat_of(NODE_IDS[index])
        looked = index not in self.looking
        if (
            looked
            and seat in replica.stable.still_looking()
            and not any(isinstance(b, Ready) for b in pending)
        ):
            bodies.append(Ready(True))  # the scores seen at once (spec/rules.md R-54)
        chosen = [
            b for b in bodies if not (isinstance(b, Reveal) and b.round in self.chosen_rounds)
        ]
        found: list[Body] = []
        for body in chosen:
            if isinstance(body, Deal) and orders:
                order = list(orders[index])
                replica.stable.own_orders[body.round] = order
                body = Deal(body.round, visible_codes(order, len(replica.stable.players)), b"")
            found.append(body)
            self._last_duty = body
        return found

    def player_indexes(self) -> list[int]:
        game = self.replica(0).stable
        return [self.index_of(game.node_of(seat) or b"") for seat in game.players]

    def seat(self, index: int) -> int:
        seat = self.replica(0).stable.seat_of(NODE_IDS[index])
        assert seat is not None
        return seat

    def view(self, index: int) -> Table:
        """The player's own table, with its own moves in flight applied."""
        table = self.replica(index).optimistic().table
        assert table is not None, "no round is being played"
        return table

    def play(self, index: int, move: Move) -> list[Effect]:
        game: Game = self.replica(index).optimistic()
        return self.submit(index, play_from_move(move, game.round))

    def last_own(self, index: int) -> tuple[int, bytes]:
        """The seq and bytes of the last event replica ``index`` made."""
        seq = max(self.nodes[index].own)
        return seq, self.nodes[index].own[seq]


def deck_order(
    seat: int,
    players: int,
    placed: Mapping[int, tuple[Colour, int]],
) -> list[Card]:
    """A deck order, top first, with the given cards at the given places.

    Every other card follows in the canonical order. Places: 0 .. posts-1 the Post row,
    ``blitz_top(players)`` the Blitz top, the place before it the card below, and so on.
    """
    order: list[Card | None] = [None] * 40
    for place, (colour, value) in placed.items():
        order[place] = card(seat, colour, value)
    rest = [c for c in new_deck(seat) if c not in order]
    filled = [slot if slot is not None else rest.pop(0) for slot in order]
    assert len(set(filled)) == 40
    return filled


def blitz_top(players: int) -> int:
    """The place in a deck order of the Blitz top card."""
    return post_count(players) + BLITZ_SIZE - 1


def events_of(flights: Iterable[Flight]) -> list[bytes]:
    """The distinct EVENT messages among these flights, in first-sent order."""
    seen: dict[bytes, None] = {}
    for flight in flights:
        if isinstance(decode(flight.data).payload, Event):
            seen.setdefault(flight.data, None)
    return list(seen)
