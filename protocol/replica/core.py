"""The sans-IO replica: bytes and timer ticks in, effects out.

A ``Replica`` holds every sender's stream, orders events by Lamport time with a
fair tie-break, applies an event to the game once it is stable (nobody can
still send anything that sorts before it), repairs gaps from any peer, settles
who has left, and checks its state digest against its peers'. It never reads a
clock or touches a socket: ``now`` is passed in, and effects come back.

``Replica`` is the facade the shell drives; each concern lives in a module of its own
and holds its own state: the senders' streams (``senders``), the log and order with
heartbeats and digests (``order``), membership and admission (``membership``), repair
(``repair``), and liveness, that is suspicion and the agreed cut (``liveness``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from ..games.registry import DEFAULT_GAME
from ..table.state import Game
from ..wire.auth import AUTH_SIZE, Signer
from ..wire.codec import ProtocolError, decode, encode
from ..wire.messages import (
    Admit,
    Body,
    Envelope,
    Event,
    Heartbeat,
    Hello,
    RepairRequest,
    Round,
    Watch,
)
from ..wire.signing import authentic, sign_encoded
from .clock import LamportClock, OrderKey
from .effects import Alarm, Effect, LogEntry, Persist, Send, Timer
from .liveness import Liveness
from .membership import Membership
from .order import CLOCK_MARK_STEP, DIGEST_MEMORY, MAX_ACKS, Order
from .repair import REPAIR_BATCH, Repairs
from .senders import Senders
from .spectators import Spectators
from .streams import Stream
from .viewchange import ViewChange

__all__ = [
    "CLOCK_MARK_STEP",
    "DIGEST_MEMORY",
    "MAX_ACKS",
    "REPAIR_BATCH",
    "Authentic",
    "Counters",
    "Decode",
    "Identity",
    "Replica",
    "Settings",
]


@dataclass(frozen=True, slots=True)
class Settings:
    """Timing of the protocol, in seconds of the ``now`` the shell passes in, and its game."""

    heartbeat_every: float = 0.25
    suspect_after: float = 2.0
    repair_retry: float = 0.3
    hello_every: float = 1.0
    # Check the signature of an event that comes straight from its origin. The node may
    # turn this off when its channel has already authenticated the sender (CURVE); an
    # event relayed by anyone else, or inside a REPAIR, is always checked.
    verify_direct: bool = True
    # The game a table this node founds plays (protocol/games/registry.py). Its founding
    # ADMIT names it; a table found on the LAN plays the game its log names (P-234).
    game: str = DEFAULT_GAME


Authentic = Callable[[bytes, bytes, bytes], bool]
"""Whether an event's bytes carry its origin's valid signature, as ``authentic(origin, raw,
auth)`` answers (wire/signing.py)."""
Decode = Callable[[bytes], Envelope]
"""The envelope bytes encode, or ProtocolError, as ``wire.codec.decode`` answers.

Both answers are pure functions of their input, and an envelope is immutable all through,
so a shell that runs many replicas in one process (the simulator) may hand them one memo
of each: every node then reads and checks the same broadcast once, not once per node."""


@dataclass(slots=True)
class Counters:
    received: int = 0
    dropped: dict[str, int] = field(default_factory=dict)
    duplicates: int = 0
    repairs_asked: int = 0
    repairs_served: int = 0
    desyncs: int = 0
    sent: int = 0
    bad_signatures: int = 0
    backdated: int = 0

    def drop(self, reason: str) -> bool:
        """Count a dropped message; True the first time this reason is seen (log it once)."""
        self.dropped[reason] = self.dropped.get(reason, 0) + 1
        return self.dropped[reason] == 1


@dataclass(slots=True)
class Identity:
    node: bytes
    table: str
    epoch: bytes  # the table's log id; also the seed of the tie-break
    name: str = "player"
    back: str = "pump"
    endpoint: str = ""


class Replica:
    """One node's copy of the table log and game, fed by ``receive`` and ``tick``."""

    def __init__(
        self,
        identity: Identity,
        now: float,
        settings: Settings | None = None,
        signer: Signer | None = None,
        check: Authentic = authentic,
        read: Decode = decode,
    ) -> None:
        if signer is not None and signer.node_id != identity.node:
            raise ValueError("the signer's key does not go with this node's id")
        self.me = identity
        self.signer = signer  # None: our events go out unsigned (peers will refuse them)
        self.authentic = check
        self.decode = read
        self.settings = settings or Settings()
        self.clock = LamportClock()
        self.my_seq = 0
        self.counters = Counters()
        self.rejoining = False
        self.now = now
        self.senders = Senders(self)
        self.streams: dict[bytes, Stream] = self.senders.streams  # the same table, never rebound
        self.order = Order(self)
        self.membership = Membership(self)
        self.repairs = Repairs(self)
        self.liveness = Liveness(self)
        self.viewchange = ViewChange(self)
        self.spectators = Spectators(self)

    # -- starting --------------------------------------------------------------------

    def found(self, now: float) -> list[Effect]:
        """Start a new table with this node as its first member."""
        game = None if self.settings.game == DEFAULT_GAME else self.settings.game
        return self.submit(Admit(self.me.node, 1, game), now)  # the log names its game (P-233)

    def ask_to_join(self, now: float) -> list[Effect]:
        """Say hello as a non-member asking to be admitted (a newcomer, or after removal)."""
        self.rejoining = True
        return [self.membership.hello(None)]

    def restore(self, raws: Iterable[bytes], clock_mark: int, now: float) -> list[Effect]:
        """Reload the durable log after a restart: every event held, own ones included."""
        effects: list[Effect] = []
        self.clock.observe(clock_mark)
        self.order.clock_mark = clock_mark
        for raw in raws:
            try:
                envelope = self.decode(raw)
            except ProtocolError:
                continue  # a torn or damaged record: the log reader should have cut it
            if isinstance(envelope.payload, Round) and envelope.sender == self.me.node:
                self.viewchange.restore(envelope.payload)  # our word in a round (P-283)
            if not isinstance(envelope.payload, Event):
                continue
            if not self.senders.is_duplicate(envelope) and not self.authentic(
                envelope.sender, raw, envelope.auth
            ):
                effects += self.forged(envelope, "in the stored log")
                continue
            if envelope.sender == self.me.node:
                self.my_seq = max(self.my_seq, envelope.seq)
            effects += self.order.take_event(envelope, raw, now, persist=False)
        effects += self.order.advance(now)
        return effects

    # -- the shell's entry points ----------------------------------------------------------

    def receive(
        self,
        data: bytes,
        now: float,
        via: bytes | None = None,
        advance: bool = True,
        decoded: Envelope | ProtocolError | None = None,
    ) -> list[Effect]:
        """Handle one message from the network. Never raises on bad input.

        With ``advance`` false nothing is applied yet: a shell that handles a batch this
        way sends its acknowledgement (``flush``) first, then calls ``advance`` once.
        ``decoded``: ``data`` as the caller decoded it already (a HELLO the seat read
        first), or the error decoding it raised, so that no message is decoded twice.
        """
        self.now = now
        self.counters.received += 1
        if decoded is None:
            try:
                decoded = self.decode(data)
            except ProtocolError as error:
                decoded = error
        if isinstance(decoded, ProtocolError):
            return self.dropped(str(decoded.reason), f"undecodable message: {decoded}")
        envelope = decoded
        if envelope.table != self.me.table:
            return self.dropped("other_table", f"message for table {envelope.table!r}")
        if envelope.sender == self.me.node:
            return self.dropped("from_myself", "a message claiming to be from this node")
        payload = envelope.payload
        if isinstance(payload, Watch):
            # A spectator is no member: its clock moves nothing, and it holds no stream.
            return self.spectators.take(envelope.sender, payload, now)
        if self.spectators.is_watching(envelope.sender):
            return self.dropped("from_spectator", "a spectator sent more than WATCH")
        if isinstance(payload, Event):
            turned_away = _event_turned_away(self, envelope, data, via)
            if turned_away is not None:
                return turned_away
        if not self.senders.clock_near(envelope.lamport):
            return self.dropped("clock_jump", f"a clock of {envelope.lamport}")
        if not self.senders.room_for(envelope.sender):
            return self.dropped("too_many_peers", "no room for another sender")
        self.clock.observe(envelope.lamport)
        self.senders.stream(envelope.sender).last_heard = now
        effects = _take(self, envelope, data, now)
        return (effects + self.advance(now)) if advance else effects

    def advance(self, now: float) -> list[Effect]:
        """Apply whatever has become stable (after ``receive`` with ``advance`` false)."""
        self.now = now
        effects = self.order.advance(now)
        return effects + self.spectators.feed(now)

    def submit(self, body: Body, now: float) -> list[Effect]:
        """Send one event of ours into the total order."""
        effects = self.send_event(body, now)
        return effects + self.advance(now)

    def send_event(self, body: Body, now: float) -> list[Effect]:
        """Send one event without applying anything: safe in the middle of other work.

        The parts send their own events (SUSPECT, CUT, ADMIT, BACKDATED) through this.
        """
        self.now = now
        lamport = self.clock.tick()
        envelope = Envelope(self.me.table, self.me.node, lamport, self.my_seq + 1, Event(body))
        # A body the wire cannot carry raises here, before its number is spent: a number
        # announced but never sent would be a gap nobody could fill, and stall the table.
        raw = encode(envelope)
        self.my_seq += 1
        if self.signer is not None:
            raw = sign_encoded(self.signer, raw)
            envelope = replace(envelope, auth=raw[-AUTH_SIZE:])
        effects: list[Effect] = [Persist(raw)]
        effects += self.order.take_event(envelope, raw, now, persist=False)
        effects.append(Send(None, raw))
        self.counters.sent += 1
        return effects

    def flush(self, now: float) -> list[Effect]:
        """Send the acknowledgement owed for what was received since the last flush."""
        if not self.order.ack_due:
            return []
        return self.order.heartbeat(now, fresh=False)

    def tick(self, now: float) -> list[Effect]:
        """Timers: heartbeats, suspicion, repair retries and hellos."""
        self.now = now
        effects: list[Effect] = []
        if now - self.order.last_heartbeat >= self.settings.heartbeat_every:
            effects += self.order.heartbeat(now)
        if self.rejoining and now - self.membership.last_hello >= self.settings.hello_every:
            self.membership.last_hello = now
            effects.append(self.membership.hello(None))
        effects += self.liveness.suspect_silent(now)
        effects += self.viewchange.tick(now)
        effects += self.repairs.ask(now)
        effects += self.advance(now)
        effects.append(Timer(now + min(self.settings.heartbeat_every, self.settings.repair_retry)))
        return effects

    # -- views -------------------------------------------------------------------------------

    @property
    def stable(self) -> Game:
        """The game as the stable log leaves it."""
        return self.order.stable

    @property
    def log(self) -> list[LogEntry]:
        """The stable log: every event that counts, in the total order."""
        return self.order.log

    @property
    def pending(self) -> list[tuple[OrderKey, bytes, int]]:
        """Events held but not yet stable, in their current order: (key, sender, seq)."""
        return self.order.pending

    @property
    def ended(self) -> tuple[int, bytes, Game] | None:
        """The last game that ended and was audited: the log length then, its digest, it."""
        return self.order.ended

    def optimistic(self) -> Game:
        """The stable game with every pending event applied in its current order."""
        return self.order.optimistic()

    def pending_own(self) -> list[Body]:
        """Our own events that are not final yet."""
        return self.order.pending_own()

    def is_member(self) -> bool:
        return self._present(self.me.node)

    def digest(self) -> bytes:
        """The digest of the stable state after ``len(self.log)`` events."""
        return self.order.digest()

    def hello(self, to: bytes | None, unlisted: bool = False) -> list[Effect]:
        """Our HELLO for one peer, or every peer: where we listen, whom we know, which log.
        ``unlisted``: ``to`` is left out of the list, so that it answers (P-201, P-264)."""
        return [self.membership.hello(to, unlisted)]

    def can_play(self) -> bool:
        """Whether this node may send game events now (a member, not being removed)."""
        return self.is_member() and not self.rejoining and self.me.node not in self.liveness.settled

    def know_key(self, node: bytes, key: bytes) -> None:
        """Learn a peer's public key (checked against its id), to list it in our HELLOs."""
        self.membership.know_key(node, key)

    # -- shared by the parts ---------------------------------------------------------------

    def _present(self, node: bytes) -> bool:
        member = self.order.stable.members.get(node)
        return member is not None and member.present

    def forged(self, envelope: Envelope, where: str) -> list[Effect]:
        """An event whose auth does not prove its origin: refused, counted, logged once."""
        self.counters.bad_signatures += 1
        place = f" ({where})" if where else ""
        detail = f"event {envelope.seq} of {envelope.sender.hex()[:8]} has a bad signature{place}"
        return self.dropped("bad_signature", detail)

    def dropped(self, reason: str, detail: str) -> list[Effect]:
        """Count a message refused for ``reason``; an alarm the first time that reason comes."""
        first = self.counters.drop(reason)
        return [Alarm("dropped", detail)] if first else []


def _event_turned_away(
    replica: Replica, envelope: Envelope, data: bytes, via: bytes | None
) -> list[Effect] | None:
    """What an event not taken comes to, or None to take it: a duplicate is dropped
    unchecked (held already, or too far ahead: it may not move the clock), and an event
    whose signature does not hold is forged. One its sender handed over itself, on a link
    the transport authenticated, is trusted unless the settings ask to verify it."""
    if replica.senders.is_duplicate(envelope):
        replica.counters.duplicates += 1
        return []
    direct = via is not None and via == envelope.sender
    if direct and not replica.settings.verify_direct:
        return None
    if replica.authentic(envelope.sender, data, envelope.auth):
        return None
    return replica.forged(envelope, "" if direct else "relayed")


def _take(replica: Replica, envelope: Envelope, data: bytes, now: float) -> list[Effect]:
    """Hand a member's message to the part of the replica that takes it: an event or a
    heartbeat to the order, a HELLO to the membership, a repair's ask or answer to the
    repairs."""
    payload = envelope.payload
    if isinstance(payload, Event):
        return replica.order.take_event(envelope, data, now, persist=True)
    if isinstance(payload, Heartbeat):
        return replica.order.take_heartbeat(envelope, payload, now)
    if isinstance(payload, Hello):
        return replica.membership.take_hello(envelope, payload, now)
    if isinstance(payload, RepairRequest):
        return replica.repairs.serve(envelope.sender, payload)
    if isinstance(payload, Round):
        return replica.viewchange.take(envelope.sender, payload)
    assert not isinstance(payload, Watch)  # a spectator's, taken before
    return replica.repairs.take(payload, now)
