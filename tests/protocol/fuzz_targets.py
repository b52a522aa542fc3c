"""Fuzz targets for the replica's receive path, shared by the CI tests and the long runs.

A target takes a plan drawn by Hypothesis (``test_fuzz_core.py`` in CI with a few dozen
examples; ``BLITZ_FUZZ_EXAMPLES=N`` or ``tests/fuzz/atheris_core.py`` for long runs) and
throws it at replica 0 of a four-player table in the middle of a round:

* ``feed_bytes``: arbitrary bytes, and valid messages with bytes changed. Whatever it
  refuses leaves its state exactly as it was (P-99).
* ``feed_hostile``: well-formed messages with wild values, from strangers (ids nobody
  admitted), from the table's fourth member, which is the attacker (it sends nothing
  honest; its messages are all drawn), and in ``forge=True`` plans as the honest
  members and as replica 0 itself. Honest traffic and timer ticks run in between.

Either way no input may raise, take long, or grow what the replica holds past the
bounds of ``protocol.guard`` (``check_bounds``). After a plan without forgeries, the
three honest replicas must still come to one log (``converge``): a stranger changes
nothing, and the attacker can at most be removed for its silence.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass
from functools import cache

from dutchblitz.protocol.replica.core import DIGEST_MEMORY, Replica
from dutchblitz.protocol.replica.guard import (
    MAX_ADMITTING,
    MAX_CLAIM_TARGETS,
    MAX_ENDPOINTS,
    MAX_SETTLED,
    MAX_STREAMS,
)
from dutchblitz.protocol.replica.streams import MAX_AHEAD
from dutchblitz.protocol.wire.auth import Signer
from dutchblitz.protocol.wire.codec import MAX_PEERS, MAX_UINT63, ProtocolError, decode, encode
from dutchblitz.protocol.wire.messages import (
    Ack,
    Admit,
    Body,
    Bye,
    Cut,
    Envelope,
    Event,
    Heartbeat,
    Hello,
    MoveKind,
    PeerAddress,
    Play,
    Profile,
    Ready,
    Repair,
    RepairRequest,
    Suspect,
    Unsuspect,
)
from dutchblitz.protocol.wire.signing import sign_encoded

from tests.protocol.replicas import EPOCH, NODE_IDS, SIGNERS, STEP, TABLE, Net

PLAYERS = 4
TARGET = 0
HONEST = (0, 1, 2)
ATTACKER = 3
STRANGER_KEYS = tuple(Signer(bytes([0xEE, n]) * 16) for n in range(4))
STRANGERS = tuple(signer.node_id for signer in STRANGER_KEYS)
# Whose events a plan signs: the attacker and the strangers hold their own keys; an id
# drawn at random, or an honest member's claimed by someone else, has no key to sign with.
KEYS = {SIGNERS[ATTACKER].node_id: SIGNERS[ATTACKER]} | {s.node_id: s for s in STRANGER_KEYS}
SLOW_RECEIVE_S = 0.5  # one message handled slower than this counts as a hang


@cache
def _table() -> Net:
    """Four replicas in round 1, every deal final; built once, copied for each run."""
    net = Net(PLAYERS)
    net.open_table()
    net.lobby()
    net.deal()
    return net


def fresh_table() -> Net:
    return copy.deepcopy(_table())


# -- the plan -----------------------------------------------------------------------------------

# A number in a plan is either small, and then counts from a reference the target reads when
# it runs (the attacker's next seq, the target's clock), or large, and then taken as it is.
RELATIVE_BELOW = 16


def _value(raw: int, reference: int) -> int:
    value = reference + raw if raw < RELATIVE_BELOW else raw
    return max(0, min(value, MAX_UINT63))


@dataclass(frozen=True, slots=True)
class Message:
    """One drawn message: who claims to send it, and the raw numbers of its fields."""

    sender: int  # 0..3: that replica's id; 4..7: a stranger; 8: a drawn id
    drawn_id: bytes
    table_ok: bool
    lamport: int
    kind: str  # "event", "heartbeat", "hello", "request", "repair"
    seq: int
    body: str  # for events: admit, profile, ready, play, suspect, cut, bye
    node: int  # a node the payload names, as ``sender``
    number: int  # seq-like field of the payload (held, first-seq, last-seq, resume-seq)
    count: int  # how many acks, peers or events
    epoch: int  # hellos: 0 none, 1 ours, 2 a smaller one, 3 a larger one
    endpoint: str


@dataclass(frozen=True, slots=True)
class Step:
    """Deliver a message to the target, run some honest flights, or let time pass."""

    what: str  # "message", "flights", "tick"
    message: Message | None = None
    amount: int = 0


def _node(index: int, drawn: bytes) -> bytes:
    if index < PLAYERS:
        return NODE_IDS[index]
    if index < PLAYERS + len(STRANGERS):
        return STRANGERS[index - PLAYERS]
    return drawn


def _epoch(choice: int) -> bytes:
    return [b"", EPOCH, bytes(16), b"\xff" * 16][choice % 4]


def _body(message: Message, node: bytes, number: int) -> Body:
    kind = message.body
    if kind == "admit":
        return Admit(node, max(number, 1))
    if kind == "profile":
        return Profile("mallory", "pump")
    if kind == "ready":
        return Ready(bool(number % 2))
    if kind == "suspect":
        return Suspect(node, number)
    if kind == "cut":
        return Cut(node, number)
    if kind == "unsuspect":
        return Unsuspect(node)
    if kind == "bye":
        return Bye()
    return Play(1, MoveKind.TURN, 0, 0, -1, -1, -1) if number % 2 else _flip()


def _flip() -> Play:
    return Play(1, MoveKind.FLIP, 0, 0, -1, -1, 3 * 40 + 7)


def build(message: Message, target: Replica, forge: bool = True) -> bytes | None:
    """The message's bytes, its relative numbers read off ``target``; None if unsendable.

    Without ``forge``, a REPAIR relays only events of the attacker or of strangers: events
    of the honest members relayed with other bytes are forgeries, which the signatures on
    events refuse (spec/protocol.md section 15).
    """
    sender = _node(message.sender, message.drawn_id)
    node = _node(message.node, message.drawn_id[::-1])
    stream = target.streams.get(sender)
    held = stream.held if stream is not None else 0
    lamport = _value(message.lamport, target.clock.time)
    number = _value(message.number, held)
    table = TABLE if message.table_ok else "garden"
    payload: Event | Heartbeat | Hello | RepairRequest | Repair
    seq = 0
    if message.kind == "event":
        seq = max(1, _value(message.seq, held))
        lamport = max(lamport, 1)
        payload = Event(_body(message, node, number))
    elif message.kind == "heartbeat":
        acks = tuple(
            Ack(_node((message.node + i) % 9, bytes([i]) * 16), _value(message.number, i))
            for i in range(min(message.count, 9))
        )
        acks = tuple({a.node: a for a in acks}.values())
        payload = Heartbeat(number, acks, 0, b"")
        if message.count % 3 == 2:
            payload = Heartbeat(number, acks, number, bytes(range(16)))
    elif message.kind == "hello":
        peers = tuple(
            PeerAddress(
                bytes([0xAA, i]) * 8, f"tcp://10.{i}.0.1:{1000 + message.count}", bytes([i]) * 32
            )
            for i in range(min(message.count, 64))
        )
        payload = Hello("mallory", "pump", message.endpoint, peers, _epoch(message.epoch), number)
    elif message.kind == "request":
        first = max(1, number)
        payload = RepairRequest(node, first, min(first + message.count % 256, MAX_UINT63))
    else:
        origin = node if forge or message.node not in HONEST else sender
        origin_stream = target.streams.get(origin)
        start = max(1, _value(message.seq, origin_stream.held if origin_stream else 0))
        events = []
        for i in range(min(message.count, 8) or 1):
            seq_i = min(start + i, MAX_UINT63)
            inner = Envelope(table, origin, max(lamport, 1), seq_i, Event(_body(message, node, i)))
            try:
                events.append(_signed(origin, encode(inner)))
            except ProtocolError:
                break
            if seq_i == MAX_UINT63:
                break
        if not events:
            return None
        payload = Repair(origin, tuple(events))
    try:
        raw = encode(Envelope(table, sender, lamport, seq, payload))
    except ProtocolError:
        return None
    return _signed(sender, raw) if isinstance(payload, Event) else raw


def _signed(origin: bytes, raw: bytes) -> bytes:
    """An event signed by its origin, when the plan holds that origin's key."""
    signer = KEYS.get(origin)
    return raw if signer is None else sign_encoded(signer, raw)


# -- running a plan -----------------------------------------------------------------------------


def deliver(net: Net, data: bytes) -> None:
    """Hand ``data`` to the target as its shell would, and time it."""
    replica = net.replica(TARGET)
    started = time.perf_counter()
    net.take(TARGET, replica.receive(data, net.now))
    net.take(TARGET, replica.flush(net.now))
    took = time.perf_counter() - started
    assert took < SLOW_RECEIVE_S, f"one message took {took:.3f} s"


def run_steps(net: Net, steps: list[Step], forge: bool = True) -> None:
    net.down.add(ATTACKER)  # the attacker's messages are all in the plan
    for step in steps:
        if step.what == "message" and step.message is not None:
            data = build(step.message, net.replica(TARGET), forge)
            if data is not None:
                deliver(net, data)
        elif step.what == "flights":
            net.run(budget=step.amount)
        else:
            net.advance(STEP * (1 + step.amount % 8))
            for index in HONEST:
                started = time.perf_counter()
                net.tick(index)
                assert time.perf_counter() - started < SLOW_RECEIVE_S, "a tick took too long"
        for index in HONEST:
            check_bounds(net.replica(index))


def check_bounds(replica: Replica) -> None:
    """Everything a replica holds per peer stays within ``protocol.guard``'s limits."""
    members = len(replica.stable.members)
    streams = replica.streams
    assert len(streams) <= MAX_STREAMS + members + len(replica.liveness.settled), len(streams)
    for stream in streams.values():
        assert len(stream.events) <= MAX_AHEAD + len(replica.pending), len(stream.events)
        assert len(stream.parked) <= MAX_AHEAD
        assert len(stream.acks) <= len(streams)
    assert len(replica.membership.endpoints) <= MAX_ENDPOINTS
    liveness = replica.liveness
    assert len(liveness.claims.keys() | liveness.withdrawals.keys()) <= MAX_CLAIM_TARGETS
    assert all(len(by) <= len(streams) for by in liveness.withdrawals.values())
    assert all(len(by) <= len(streams) for by in replica.liveness.claims.values())
    assert len(replica.liveness.settled) <= MAX_SETTLED + members
    assert len(replica.membership.admitted) <= MAX_ADMITTING
    assert len(replica.liveness.cut_notes) <= MAX_PEERS
    assert len(replica.order.peer_digests) <= DIGEST_MEMORY
    assert len(replica.repairs.asked) <= len(streams)
    assert len(replica.order.announced_clocks) <= len(streams)
    assert replica.clock.time < 2**40, "each message moves the clock by at most 2^24"


def converge(net: Net) -> None:
    """With the attacker silent, the honest replicas come to one log."""
    net.flights = [f for f in net.flights if f.source != ATTACKER and f.target != ATTACKER]

    def agreed() -> bool:
        honest = [net.replica(i) for i in HONEST]
        if net.flights or any(r.pending for r in honest):
            return False
        return len({(len(r.log), r.digest()) for r in honest}) == 1

    net.settle(until=agreed, rounds=600)
    logs = [[(e.sender, e.seq, e.body) for e in net.replica(i).log] for i in HONEST]
    assert logs[0] == logs[1] == logs[2]


def feed_hostile(steps: list[Step], forge: bool = False) -> None:
    """The target of ``test_fuzz_core``: hostile steps, then bounds and (unforged) agreement."""
    net = fresh_table()
    run_steps(net, steps, forge)
    if not forge:
        converge(net)
        for index in HONEST:
            check_bounds(net.replica(index))


def _state(replica: Replica) -> bytes:
    """Everything the replica holds but its counters and its idea of the time."""
    return repr(vars_of(replica)).encode()


PARTS = ("senders", "order", "membership", "repairs", "liveness")


def vars_of(replica: Replica) -> dict[str, object]:
    """The replica's state, its parts' included, but for caches and back-references."""
    state = {
        name: getattr(replica, name)
        for name in sorted(vars(replica))
        if name not in ("counters", "now", *PARTS)
    }
    for part in PARTS:
        held = vars(getattr(replica, part))
        for name in sorted(held):
            if name not in ("replica", "optimistic_game", "stable"):
                state[f"{part}.{name}"] = held[name]
    return state | {"stable": repr(replica.stable.public_form())}


def feed_bytes(data: bytes) -> None:
    """Any bytes at all: a refused message changes nothing but the counters (P-99)."""
    net = fresh_table()
    replica = net.replica(TARGET)
    try:
        decode(data)
        refused = False
    except ProtocolError:
        refused = True
    before = _state(replica)
    deliver(net, data)
    if refused:
        assert _state(replica) == before
        assert sum(replica.counters.dropped.values()) == 1
    check_bounds(replica)
