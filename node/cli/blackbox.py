"""A black-box check of a live node, from the outside: knock at its door, sit at its table
as a guest, and run wire-level cases against it (spec/protocol.md, section 25).

    python -m dutchblitz.node.cli.conformance --target HOST:PORT [--table NAME] [--passphrase P]

The checker is a node of its own: it draws a fresh key, knocks at the door (PORT) with the
table name, opens a table socket the target may connect to, and says HELLO without asking
to be admitted, so it never changes the target's game. A refused message is never
answered (P-99), so a case that sends bad bytes checks that the node lives on: its
HEARTBEATs keep coming. Each case is a ``Result`` named by the requirement it checks.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources

from dutchblitz.protocol.conformance.codec_vectors import vector_bytes
from dutchblitz.protocol.conformance.digest_vectors import replay
from dutchblitz.protocol.conformance.runner import VECTORS_PACKAGE, Result
from dutchblitz.protocol.replica.clock import order_key
from dutchblitz.protocol.wire.auth import Signer, check_signature, node_id_of
from dutchblitz.protocol.wire.codec import ProtocolError, decode, encode
from dutchblitz.protocol.wire.messages import (
    Envelope,
    Event,
    Heartbeat,
    Hello,
    Ready,
    Repair,
    RepairRequest,
)
from dutchblitz.protocol.wire.signing import sign_encoded

from ..net.door import Card, DoorRefused, knock
from ..net.roster import Roster, Source
from ..net.transport import Transport

WAIT_S = 4.0  # how long a case waits for the target's answer
MALFORMED_SAMPLE = 12  # invalid codec vectors thrown at the target


@dataclass(slots=True)
class Target:
    host: str
    door: int
    table: str
    passphrase: str | None = None


@dataclass(slots=True)
class Checker:
    """The guest: its key, its table socket, and what the target has said."""

    target: Target
    signer: Signer
    transport: Transport
    card: Card | None = None
    hello: Hello | None = None
    clock: int = 0
    inbox: list[Envelope] = field(default_factory=list)

    @property
    def me(self) -> bytes:
        return self.signer.node_id

    @property
    def them(self) -> bytes:
        assert self.card is not None
        return self.card.node_id

    def send(self, envelope: Envelope, sign: bool = False) -> None:
        data = encode(envelope)
        self.transport.send(self.them, sign_encoded(self.signer, data) if sign else data)

    def send_raw(self, data: bytes) -> None:
        self.transport.send(self.them, data)

    async def wait_for(
        self, wanted: Callable[[Envelope], bool], timeout: float = WAIT_S
    ) -> Envelope | None:
        """The first message from the target, already received or to come, that ``wanted``."""
        for envelope in self.inbox:
            if wanted(envelope):
                self.inbox.remove(envelope)
                return envelope
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                sender, data = await asyncio.wait_for(self.transport.recv(), left)
            except TimeoutError:
                return None
            if sender != self.them:
                continue
            try:
                envelope = decode(data)
            except ProtocolError:
                continue
            self.clock = max(self.clock, envelope.lamport)
            if wanted(envelope):
                return envelope
            self.inbox.append(envelope)
            del self.inbox[:-256]
        return None

    async def heartbeat(self, timeout: float = WAIT_S) -> Heartbeat | None:
        self.inbox = [e for e in self.inbox if not isinstance(e.payload, Heartbeat)]
        found = await self.wait_for(lambda e: isinstance(e.payload, Heartbeat), timeout)
        if found is None or not isinstance(found.payload, Heartbeat):
            return None
        return found.payload

    def event(self, seq: int, lamport: int | None = None) -> bytes:
        stamp = self.clock + 1 if lamport is None else lamport
        envelope = Envelope(self.target.table, self.me, stamp, seq, Event(Ready(True)))
        return sign_encoded(self.signer, encode(envelope))


Case = Callable[[Checker], Awaitable[str | None]]


# -- the cases, in the order they run -------------------------------------------------------


async def _hello(checker: Checker) -> str | None:
    assert checker.card is not None
    hello = Hello("conformance", "pump", checker.transport.endpoint, (), b"", 0)
    found = None
    for _ in range(int(3 * WAIT_S)):  # the target may first have been refused by our ZAP
        checker.send(Envelope(checker.target.table, checker.me, checker.clock, 0, hello))
        found = await checker.wait_for(lambda e: isinstance(e.payload, Hello), 1.0)
        if found is not None:
            break
    if found is None:
        return f"no HELLO in answer to ours within {3 * WAIT_S:.0f} s"
    assert isinstance(found.payload, Hello)
    checker.hello = found.payload
    # A node takes only HELLOs from a peer whose last HELLO named no epoch or another
    # (P-202): name the target's, still asking for nothing.
    at_table = Hello("conformance", "pump", checker.transport.endpoint, (), hello_epoch(found), 0)
    checker.send(Envelope(checker.target.table, checker.me, checker.clock, 0, at_table))
    await asyncio.sleep(0.3)
    return None


def hello_epoch(envelope: Envelope) -> bytes:
    assert isinstance(envelope.payload, Hello)
    return envelope.payload.epoch


async def _heartbeats(checker: Checker) -> str | None:
    beat = await checker.heartbeat()
    if beat is None:
        return f"no HEARTBEAT within {WAIT_S} s"
    return None if beat.digest or beat.digest_index == 0 else "a digest index without a digest"


async def _survives_malformed(checker: Checker) -> str | None:
    source = resources.files(VECTORS_PACKAGE).joinpath("codec.json")
    invalid = json.loads(source.read_text(encoding="utf-8"))["invalid"]
    step = max(1, len(invalid) // MALFORMED_SAMPLE)
    for vector in invalid[::step]:
        checker.send_raw(vector_bytes(vector["bytes"]))
    await asyncio.sleep(0.5)  # let the target take them in before the next heartbeat
    beats = [await checker.heartbeat() for _ in range(2)]
    return None if all(beats) else "the node went silent after malformed messages"


async def _gap_is_repaired(checker: Checker) -> str | None:
    checker.send_raw(checker.event(2))
    asked = await checker.wait_for(
        lambda e: isinstance(e.payload, RepairRequest) and e.payload.origin == checker.me
    )
    if asked is None:
        return "no REPAIR-REQUEST for the gap below our event 2"
    request = asked.payload
    assert isinstance(request, RepairRequest)
    if (request.first, request.last) != (1, 1):
        return f"asked for {request}"
    checker.send_raw(checker.event(1))
    return await _acknowledged(checker, checker.me, 2)


async def _acknowledged(checker: Checker, node: bytes, wanted: int) -> str | None:
    held = -1
    for _ in range(4):
        held = _held_of(await checker.heartbeat(), node)
        if held == wanted:
            return None
    return f"the node acknowledges {held} of {node.hex()[:8]}, not {wanted}"


def _held_of(beat: Heartbeat | None, node: bytes) -> int:
    if beat is None:
        return -1
    return next((ack.held for ack in beat.acks if ack.node == node), 0)


async def _forged_is_refused(checker: Checker) -> str | None:
    """An event of a third node, relayed by us in a REPAIR: its signature is checked (P-103)."""
    other = Signer(os.urandom(32))
    unsigned = encode(
        Envelope(checker.target.table, other.node_id, checker.clock + 1, 1, Event(Ready(True)))
    )
    good = sign_encoded(other, unsigned)
    forged = good[:-64] + bytes(64)
    for data in (forged, good):
        repair = Repair(other.node_id, (data,))
        checker.send(Envelope(checker.target.table, checker.me, checker.clock, 0, repair))
        if data is forged:
            await asyncio.sleep(0.5)
            held = _held_of(await checker.heartbeat(), other.node_id)
            if held != 0:
                return f"a forged event counted: the node acknowledges {held} of its stream"
    return await _acknowledged(checker, other.node_id, 1)


async def _replay_changes_nothing(checker: Checker) -> str | None:
    checker.send_raw(checker.event(1, lamport=1))  # a new event under a number held: a forgery
    checker.send_raw(checker.event(2, lamport=1))
    await asyncio.sleep(0.5)
    held = _held_of(await checker.heartbeat(), checker.me)
    return None if held == 2 else f"the node acknowledges {held} of our stream, not 2"


async def _fetch(checker: Checker, origin: bytes, last: int) -> list[bytes] | str:
    events: list[bytes] = []
    first = 1
    while first <= last:
        ask = RepairRequest(origin, first, min(last, first + 255))
        checker.send(Envelope(checker.target.table, checker.me, checker.clock, 0, ask))
        found = await checker.wait_for(
            lambda e: isinstance(e.payload, Repair) and e.payload.origin == origin
        )
        if found is None:
            return f"no REPAIR for {origin.hex()[:8]} {first}..{ask.last}"
        assert isinstance(found.payload, Repair)
        events.extend(found.payload.events)
        first = decode(events[-1]).seq + 1
    return events


async def _repair_is_answered(checker: Checker) -> str | None:
    beat = await checker.heartbeat()
    if beat is None or beat.last_seq == 0:
        return "no HEARTBEAT with a stream to repair"
    events = await _fetch(checker, checker.them, min(beat.last_seq, 256))
    if isinstance(events, str):
        return events
    for raw in events:
        envelope = decode(raw)
        key, signature = envelope.auth[:32], envelope.auth[32:]
        unsigned = raw[: -len(envelope.auth) - 2] + b"\xc4\x00"
        if node_id_of(key) != checker.them or not check_signature(key, unsigned, signature):
            return f"event {envelope.seq} of the REPAIR is not signed by its origin"
    return None


async def _digest_matches(checker: Checker) -> str | None:
    """Gather every stream the target holds and replay its stable log (section 13)."""
    beat = await checker.heartbeat()
    hello = checker.hello
    if beat is None or hello is None or not hello.epoch:
        return "no HEARTBEAT, or no epoch in the target's HELLO"
    if not beat.digest:
        return "the target sent no digest yet"
    streams = {checker.them: beat.last_seq}
    streams |= {ack.node: ack.held for ack in beat.acks if ack.node != checker.me}
    events: list[bytes] = []
    for origin, last in streams.items():
        if last:
            found = await _fetch(checker, origin, last)
            if isinstance(found, str):
                return found
            events.extend(found)

    def key(raw: bytes) -> tuple[int, int, bytes]:
        envelope = decode(raw)
        return order_key(hello.epoch, envelope.lamport, envelope.sender)

    log = sorted(events, key=key)[: beat.digest_index]
    if len(log) < beat.digest_index:
        return f"only {len(log)} events gathered for a digest of {beat.digest_index}"
    steps = list(replay(log))
    mine = steps[-1].digest if steps else b""
    if mine != beat.digest:
        return f"digest {mine.hex()}, the node says {beat.digest.hex()}"
    return None


async def _wrong_passphrase(checker: Checker) -> str | None:
    target = checker.target
    phrase = (target.passphrase or "") + " not the phrase"
    signer = Signer(os.urandom(32))
    card = Card(signer.node_id, signer.public_key, checker.transport.endpoint, "guesser")
    try:
        await knock(
            checker.transport.context,
            f"tcp://{target.host}:{target.door}",
            signer=signer,
            table=target.table,
            passphrase=phrase,
            mine=card,
        )
    except DoorRefused as refused:
        return None if refused.reason == "wrong passphrase" else f"refused: {refused.reason}"
    return "a wrong passphrase was let in"


CASES: tuple[tuple[str, str, Case], ...] = (
    ("P-201", "the node answers a HELLO", _hello),
    ("P-95", "the node sends HEARTBEATs", _heartbeats),
    ("P-99", "malformed messages are dropped and the node lives on", _survives_malformed),
    ("P-77", "a gap in our stream is asked for, and filled", _gap_is_repaired),
    ("P-103", "a forged relayed event is refused; the real one is taken", _forged_is_refused),
    ("P-119", "an old number sent again changes nothing", _replay_changes_nothing),
    ("P-78", "a REPAIR-REQUEST is answered with the origin's signed events", _repair_is_answered),
    ("P-96", "the digest of the target's stable log matches its HEARTBEAT", _digest_matches),
    ("P-129", "the door refuses a wrong passphrase", _wrong_passphrase),
)


def local_address(host: str, port: int) -> str:
    """The address of ours the target reaches us at: the one our route to it leaves from."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect((host, port))
        return str(probe.getsockname()[0])


async def check(target: Target) -> list[Result]:
    """Knock, sit down as a guest, and run every case; a case that fails does not stop it."""
    signer = Signer(os.urandom(32))
    roster = Roster(private=target.passphrase is not None)
    here = local_address(target.host, target.door)
    transport = await Transport.open(signer, here, roster=roster)
    checker = Checker(target, signer, transport)
    results: list[Result] = []
    try:
        mine = Card(signer.node_id, signer.public_key, transport.endpoint, "conformance")
        try:
            checker.card = await knock(
                transport.context,
                f"tcp://{target.host}:{target.door}",
                signer=signer,
                table=target.table,
                passphrase=target.passphrase,
                mine=mine,
            )
        except DoorRefused as refused:
            return [Result("P-131", "the door lets the checker in", f"refused: {refused}")]
        results.append(Result("P-131", "the door lets the checker in", None))
        source = Source.PAKE if target.passphrase else Source.DOOR
        roster.learn(checker.them, checker.card.public_key, source)
        transport.add_peer(checker.them, checker.card.table_endpoint, checker.card.public_key)
        for spec_id, name, case in CASES:
            try:
                message = await case(checker)
            except Exception as exc:  # a crashing case is a failed case
                message = f"crashed: {type(exc).__name__}: {exc}"
            results.append(Result(spec_id, name, message))
    finally:
        transport.close()
    return results


def parse_target(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"not HOST:PORT: {text!r}")
    return host, int(port)
