"""The door: how a node that knows only HOST:PORT joins a table, with or without a passphrase.

Every node binds a second ROUTER next to its table socket, the door. It is a
CURVE server with one fixed, well-known key pair (``DOOR_PUBLIC`` and
``DOOR_SECRET``), so anyone may connect to it; the ephemeral CURVE handshake
still hides every byte from an eavesdropper. Over the door two nodes swap
*cards* (node id, Ed25519 public key, table endpoint, name), and each proves it
holds the secret of the key it shows by signing a transcript of the whole
exchange, both fresh nonces included. On success the door calls ``on_admit``
with the newcomer's card and ``knock`` returns the door's card: each side then
puts the other's key on its roster, and the table sockets (CURVE with the
nodes' own keys) take over.

A private table has a passphrase. The two sides run SPAKE2 on it, bound to the
table name, and each sends a MAC, keyed from the SPAKE2 key, over the same
transcript. A wrong phrase makes both MACs fail: the knock is refused on both
sides and nobody is admitted. SPAKE2 gives a knocker, or a door, one guess per
exchange and nothing to test guesses with offline; the door limits how fast
guesses come in (``DoorLimits``). ``spec/protocol.md`` section 17 gives the
messages and the reasoning.

The exchange, knocker K to door D::

    K -> D  KNOCK    table, private, nonce_K, pake_K, card_K
    D -> K  ANSWER   nonce_D, pake_D, card_D, sig_D(T), mac_D(T)     or REFUSED reason
    K -> D  CONFIRM  sig_K(T), mac_K(T)                              or REFUSED reason
    D -> K  WELCOME                                                  or REFUSED reason

where T hashes every field of KNOCK and ANSWER (both cards and both nonces).
On an open table pake and mac are empty.

Nothing from the network can raise out of a ``Door``: a message it cannot
parse is dropped, counted in ``stats.malformed`` and logged once per kind of
fault. The SPAKE2 arithmetic (pure Python, some milliseconds) runs in a worker
thread so the event loop keeps turning.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import os
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

import msgpack
import zmq
import zmq.asyncio
from dutchblitz.protocol.auth import (
    PUBLIC_KEY_SIZE,
    SIGNATURE_SIZE,
    Signer,
    check_signature,
    node_id_of,
)
from dutchblitz.protocol.messages import NODE_ID_SIZE
from spake2 import SPAKE2_Symmetric

log = logging.getLogger("dutchblitz.node")

DOOR_PUBLIC = b"ZDRKvT@YwR?$Q*:*x4[sFzwH7Fs:YP4+4n.=9(LL"
"""The door's CURVE public key (z85), the same for every node."""
DOOR_SECRET = b"R(MQS]@-jV{&M7elW)+dXDAh%XB>nt=uwd<yab8o"
"""The door's CURVE secret key (z85). Public on purpose: the door hides traffic
from eavesdroppers, and the exchange itself, not this key, authenticates."""

DOOR_VERSION = 1
MAX_DOOR_MESSAGE = 1024
"""No door message is longer; anything longer is malformed."""
NONCE_SIZE = 32
PAKE_SIZE = 33
"""A SPAKE2 message: one side byte and a 32-byte group element."""
MAC_SIZE = 32
MAX_TABLE = 32
MAX_NAME = 32
MAX_ENDPOINT = 128
MAX_REASON = 32

_SEND_HWM = 100
_RECV_HWM = 100
_GIVE_UP_WAIT = 1.0
"""Seconds a knocker that refuses the door waits for the door's word that it heard."""


class Kind(IntEnum):
    KNOCK = 1
    ANSWER = 2
    CONFIRM = 3
    WELCOME = 4
    REFUSED = 5


REASONS = frozenset(
    {
        "wrong passphrase",
        "other table",
        "timeout",
        "bad card",
        "busy",
        "self",
        "malformed",
        "version",
        "refused",
    }
)
"""What a refusal may say. ``knock`` reports any other word from a door as "refused"."""

_KNOCKER = b"blitz door knocker\x00"
_DOOR = b"blitz door door\x00"


@dataclass(frozen=True)
class Card:
    """What one node tells another at the door."""

    node_id: bytes
    public_key: bytes
    table_endpoint: str
    name: str


class DoorRefused(Exception):
    """A knock failed; ``reason`` says why, in a few words from ``REASONS``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(slots=True)
class DoorStats:
    """Counters since the door opened."""

    attempts: int = 0
    """well-formed KNOCKs received"""
    admitted: int = 0
    """knockers admitted (``on_admit`` called)"""
    refused: int = 0
    """knocks refused, abandoned or timed out after they began"""
    throttled: int = 0
    """knocks answered "busy": too many guesses or sessions at once"""
    malformed: int = 0
    """messages dropped because they could not be parsed or did not fit the exchange"""


@dataclass(frozen=True)
class DoorLimits:
    """How fast a door takes guesses at its passphrase, and how many knocks it holds.

    Each knock at a private table takes one token from its source's bucket and
    one from the door's global bucket; a knock that ends in admission gives
    them back, so only failed or abandoned guesses count. The source is the
    peer's IP address as ZeroMQ reports it; anyone who can use many addresses
    is still held by the global bucket.
    """

    source_burst: int = 10
    """guesses one source may make at once (a machine may run several nodes, and a
    table of eight may knock at one door all at once)"""
    source_every: float = 10.0
    """seconds for one source to earn one more guess"""
    global_burst: int = 30
    """guesses all sources together may make at once"""
    global_every: float = 3.0
    """seconds for the door to earn one more guess"""
    sessions: int = 64
    """knocks in progress at once"""
    session_timeout: float = 10.0
    """seconds a knocker has to CONFIRM after the ANSWER"""
    max_sources: int = 1024
    """sources whose buckets are remembered; beyond it new sources are busy"""


class _Bucket:
    __slots__ = ("stamp", "tokens")

    def __init__(self, burst: int, now: float) -> None:
        self.tokens = float(burst)
        self.stamp = now

    def refill(self, now: float, burst: int, every: float) -> None:
        if every > 0:
            self.tokens = min(float(burst), self.tokens + (now - self.stamp) / every)
        else:
            self.tokens = float(burst)
        self.stamp = now

    def full(self, burst: int) -> bool:
        return self.tokens >= burst


class _Throttle:
    def __init__(self, limits: DoorLimits) -> None:
        self._limits = limits
        self._global = _Bucket(limits.global_burst, time.monotonic())
        self._sources: dict[str, _Bucket] = {}

    def take(self, source: str) -> bool:
        limits, now = self._limits, time.monotonic()
        self._global.refill(now, limits.global_burst, limits.global_every)
        bucket = self._sources.get(source)
        if bucket is None:
            if len(self._sources) >= limits.max_sources:
                self._forget_full(now)
                if len(self._sources) >= limits.max_sources:
                    return False
            bucket = self._sources[source] = _Bucket(limits.source_burst, now)
        bucket.refill(now, limits.source_burst, limits.source_every)
        if bucket.tokens < 1 or self._global.tokens < 1:
            return False
        bucket.tokens -= 1
        self._global.tokens -= 1
        return True

    def give_back(self, source: str) -> None:
        limits = self._limits
        self._global.tokens = min(float(limits.global_burst), self._global.tokens + 1)
        bucket = self._sources.get(source)
        if bucket is not None:
            bucket.tokens = min(float(limits.source_burst), bucket.tokens + 1)

    def _forget_full(self, now: float) -> None:
        limits = self._limits
        for source, bucket in list(self._sources.items()):
            bucket.refill(now, limits.source_burst, limits.source_every)
            if bucket.full(limits.source_burst):
                del self._sources[source]


# --- encoding ---------------------------------------------------------------------------


class Malformed(ValueError):
    """A door message that does not parse or does not fit its grammar."""


def _pack(value: list[Any]) -> bytes:
    packed: bytes = msgpack.packb(value, use_bin_type=True)
    return packed


def _card_fields(card: Card) -> list[Any]:
    return [card.node_id, card.public_key, card.table_endpoint, card.name]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bin(value: Any, *sizes: int) -> bytes:
    if not isinstance(value, bytes) or len(value) not in sizes:
        raise Malformed("bad bin")
    return value


def _str(value: Any, longest: int) -> str:
    if not isinstance(value, str) or not 1 <= len(value.encode("utf-8")) <= longest:
        raise Malformed("bad str")
    return value


def _card(value: Any) -> Card:
    """A card from the wire: its shape only; ``_card_problem`` checks what it says."""
    if not isinstance(value, list) or len(value) != 4:
        raise Malformed("bad card shape")
    return Card(
        node_id=_bin(value[0], NODE_ID_SIZE),
        public_key=_bin(value[1], PUBLIC_KEY_SIZE),
        table_endpoint=_str(value[2], MAX_ENDPOINT),
        name=_str(value[3], MAX_NAME),
    )


def _card_problem(card: Card) -> str | None:
    """Why a well-formed card cannot be accepted, or None."""
    if node_id_of(card.public_key) != card.node_id:
        return "its node id is not its key's"
    endpoint = card.table_endpoint
    address, sep, port = endpoint.removeprefix("tcp://").rpartition(":")
    if not endpoint.startswith("tcp://") or not sep or not address or not port.isdigit():
        return "its endpoint is not tcp://HOST:PORT"
    return None


_FIELDS = {
    Kind.KNOCK: 7,
    Kind.ANSWER: 7,
    Kind.CONFIRM: 4,
    Kind.WELCOME: 2,
    Kind.REFUSED: 3,
}


def decode(data: bytes) -> tuple[Kind, list[Any]]:
    """Parse one door message strictly: its kind and its fields after version and kind.

    Raises ``Malformed`` for anything that is not exactly one canonical msgpack
    array of the right shape; its text says what was wrong, and is "version"
    for a message of another version than ``DOOR_VERSION``.
    """
    if len(data) > MAX_DOOR_MESSAGE:
        raise Malformed("oversize")
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            use_list=True,
            strict_map_key=True,
            max_str_len=MAX_DOOR_MESSAGE,
            max_bin_len=MAX_DOOR_MESSAGE,
            max_array_len=16,
            max_map_len=0,
            max_ext_len=0,
        )
    except Exception as error:
        raise Malformed("not msgpack") from error
    if not isinstance(value, list) or len(value) < 2:
        raise Malformed("not an array")
    if _pack(value) != data:
        raise Malformed("not canonical")
    version, kind = value[0], value[1]
    if not _is_int(version):
        raise Malformed("bad version")
    if version != DOOR_VERSION:
        raise Malformed("version")
    if not _is_int(kind) or kind not in _FIELDS:
        raise Malformed("unknown kind")
    kind = Kind(kind)
    if len(value) != _FIELDS[kind]:
        raise Malformed("bad length")
    fields = value[2:]
    if kind is Kind.KNOCK:
        table, private, nonce, pake, card = fields
        _str(table, MAX_TABLE)
        if not isinstance(private, bool):
            raise Malformed("bad bool")
        _bin(nonce, NONCE_SIZE)
        _bin(pake, PAKE_SIZE if private else 0)
        fields[4] = _card(card)
    elif kind is Kind.ANSWER:
        nonce, pake, card, sig, mac = fields
        _bin(nonce, NONCE_SIZE)
        _bin(pake, 0, PAKE_SIZE)
        fields[2] = _card(card)
        _bin(sig, SIGNATURE_SIZE)
        _bin(mac, 0 if not pake else MAC_SIZE)
    elif kind is Kind.CONFIRM:
        sig, mac = fields
        _bin(sig, SIGNATURE_SIZE)
        _bin(mac, 0, MAC_SIZE)
    elif kind is Kind.REFUSED:
        _str(fields[0], MAX_REASON)
    return kind, fields


def encode(kind: Kind, *fields: Any) -> bytes:
    """One door message; cards are written as their four fields."""
    return _pack(
        [DOOR_VERSION, int(kind), *(_card_fields(f) if isinstance(f, Card) else f for f in fields)]
    )


# --- the exchange's cryptography ---------------------------------------------------------


def pake_password(passphrase: str) -> bytes:
    return unicodedata.normalize("NFC", passphrase).encode("utf-8")


def pake_identity(table: str) -> bytes:
    return b"blitz-door/1/" + table.encode("utf-8")


def transcript(
    table: str,
    private: bool,
    nonce_k: bytes,
    pake_k: bytes,
    card_k: Card,
    nonce_d: bytes,
    pake_d: bytes,
    card_d: Card,
) -> bytes:
    """The 32-byte hash both sides sign and MAC: every field of KNOCK and ANSWER."""
    data = _pack(
        [
            DOOR_VERSION,
            table,
            private,
            nonce_k,
            pake_k,
            _card_fields(card_k),
            nonce_d,
            pake_d,
            _card_fields(card_d),
        ]
    )
    return hashlib.blake2b(data, digest_size=32, person=b"blitz-door-tx").digest()


def _mac(pake_key: bytes | None, label: bytes, digest: bytes) -> bytes:
    if pake_key is None:
        return b""
    key = hashlib.blake2b(pake_key, digest_size=32, person=b"blitz-door-mac").digest()
    return hashlib.blake2b(label + digest, digest_size=MAC_SIZE, key=key).digest()


def _pake_exchange(password: bytes, table: str, inbound: bytes) -> tuple[bytes, bytes | None]:
    """The door's half of SPAKE2 in one go: its message, and the key (None if unusable)."""
    pake = SPAKE2_Symmetric(password, idSymmetric=pake_identity(table))
    outbound: bytes = pake.start()
    try:
        key: bytes = pake.finish(inbound)
    except Exception:  # a bad point, a reflected message, a wrong side byte
        return outbound, None
    return outbound, key


def _normal_phrase(passphrase: str | None) -> str | None:
    return passphrase if passphrase else None


def _check_own_card(card: Card, signer: Signer) -> None:
    try:
        _card(_card_fields(card))
    except Malformed as error:
        raise ValueError(f"this node's card does not fit the door's limits: {card!r}") from error
    if card.node_id != signer.node_id or card.public_key != signer.public_key:
        raise ValueError("this node's card does not carry its own key")
    problem = _card_problem(card)
    if problem is not None:
        raise ValueError(f"this node's card is bad: {problem}")


# --- the door -----------------------------------------------------------------------------


@dataclass(slots=True)
class _Session:
    source: str
    private: bool
    card: Card
    digest: bytes
    pake_key: bytes | None
    timer: asyncio.TimerHandle | None = None


@dataclass(slots=True)
class _Logged:
    seen: set[str] = field(default_factory=set)

    def once(self, key: str, message: str, *args: Any) -> None:
        if key not in self.seen:
            self.seen.add(key)
            log.info(message, *args)


class Door:
    """A node's door. Open with ``Door.open``; ``close`` when done."""

    def __init__(
        self,
        router: zmq.asyncio.Socket,
        signer: Signer,
        table: str,
        passphrase: str | None,
        card: Callable[[], Card],
        on_admit: Callable[[Card], None],
        limits: DoorLimits,
    ) -> None:
        self.endpoint: str = router.getsockopt_string(zmq.LAST_ENDPOINT)
        self._router = router
        self._signer = signer
        self._table = table
        self._passphrase = _normal_phrase(passphrase)
        self._card = card
        self._on_admit = on_admit
        self._limits = limits
        self._throttle = _Throttle(limits)
        self._sessions: dict[bytes, _Session] = {}
        self._stats = DoorStats()
        self._logged = _Logged()
        self._closed = False
        self._task: asyncio.Task[None] | None = None

    @classmethod
    async def open(
        cls,
        context: zmq.asyncio.Context,
        host: str,
        port: int,
        *,
        signer: Signer,
        table: str,
        passphrase: str | None,
        card: Callable[[], Card],
        on_admit: Callable[[Card], None],
        limits: DoorLimits | None = None,
    ) -> Door:
        """Bind the door on ``host:port`` (port 0: any free port; see ``endpoint``) and serve.

        ``card`` is asked for this node's card at each knock. ``on_admit`` is
        called with a knocker's card once the exchange has fully succeeded.
        An empty passphrase is no passphrase: the table is open.
        """
        if not 1 <= len(table.encode("utf-8")) <= MAX_TABLE:
            raise ValueError(f"a table name is 1 to {MAX_TABLE} bytes, got {table!r}")
        router = context.socket(zmq.ROUTER)
        try:
            router.setsockopt(zmq.LINGER, 0)
            router.setsockopt(zmq.MAXMSGSIZE, MAX_DOOR_MESSAGE)
            router.setsockopt(zmq.RCVHWM, _RECV_HWM)
            router.setsockopt(zmq.SNDHWM, _SEND_HWM)
            router.curve_server = True
            router.curve_secretkey = DOOR_SECRET
            router.curve_publickey = DOOR_PUBLIC
            router.zap_domain = b"door"
            router.bind(f"tcp://{host}:{port if port else '*'}")
        except BaseException:
            router.close(linger=0)
            raise
        door = cls(router, signer, table, passphrase, card, on_admit, limits or DoorLimits())
        door._task = asyncio.get_running_loop().create_task(door._serve(), name="door")
        return door

    @property
    def stats(self) -> DoorStats:
        """A snapshot of the counters."""
        s = self._stats
        return DoorStats(s.attempts, s.admitted, s.refused, s.throttled, s.malformed)

    @property
    def private(self) -> bool:
        return self._passphrase is not None

    def set_passphrase(self, passphrase: str | None) -> None:
        """Change the phrase (None or "": open table) for knocks that begin from now on."""
        self._passphrase = _normal_phrase(passphrase)

    def close(self) -> None:
        """Stop serving and close the socket at once; knocks in progress are dropped."""
        if self._closed:
            return
        self._closed = True
        if self._task is not None:
            self._task.cancel()
        self._router.close(linger=0)
        for routing_id in list(self._sessions):
            self._end(routing_id)

    # --- serving ---

    async def _serve(self) -> None:
        while not self._closed:
            try:
                frames = await self._router.recv_multipart(copy=False)
            except asyncio.CancelledError:
                raise
            except zmq.ZMQError as error:
                if self._closed or error.errno == zmq.ETERM:
                    return
                # Not the peer's doing; keep serving rather than leave the door shut.
                self._stats.malformed += 1
                self._logged.once("recv " + str(error.errno), "door: receive failed: %s", error)
                await asyncio.sleep(0)
                continue
            try:
                await self._handle(frames)
            except asyncio.CancelledError:
                raise
            except Exception:
                # A fault of ours, not the peer's: keep the door open.
                self._stats.malformed += 1
                if "internal" not in self._logged.seen:
                    self._logged.seen.add("internal")
                    log.exception("door: a knock failed inside the door")

    def _malformed(self, why: str) -> None:
        self._stats.malformed += 1
        self._logged.once(why, "door: dropped a malformed message (%s)", why)

    def _send(self, routing_id: bytes, data: bytes) -> None:
        if self._closed:
            return
        # NOBLOCK: the future is done at once; a full queue just drops the reply.
        with contextlib.suppress(zmq.ZMQError):
            outcome = self._router.send_multipart([routing_id, data], flags=zmq.NOBLOCK)
            if isinstance(outcome, asyncio.Future) and outcome.done() and not outcome.cancelled():
                outcome.exception()

    def _refuse(self, routing_id: bytes, reason: str) -> None:
        self._stats.refused += 1
        self._send(routing_id, encode(Kind.REFUSED, reason))

    def _end(self, routing_id: bytes) -> _Session | None:
        session = self._sessions.pop(routing_id, None)
        if session is not None and session.timer is not None:
            session.timer.cancel()
        return session

    def _timed_out(self, routing_id: bytes, session: _Session) -> None:
        if self._closed or self._sessions.get(routing_id) is not session:
            return
        del self._sessions[routing_id]
        self._stats.refused += 1
        self._logged.once("timeout", "door: a knock was abandoned before it finished")

    async def _handle(self, frames: list[zmq.Frame]) -> None:
        if len(frames) != 2:
            self._malformed("not one frame")
            return
        routing_id = frames[0].bytes
        try:
            kind, fields = decode(frames[1].bytes)
        except Malformed as error:
            if str(error) == "version":
                self._malformed("version")
                self._send(routing_id, encode(Kind.REFUSED, "version"))
            else:
                self._malformed(str(error))
            return
        if kind is Kind.KNOCK:
            await self._knocked(routing_id, self._source(frames[1], routing_id), fields)
        elif kind is Kind.CONFIRM:
            self._confirmed(routing_id, fields)
        elif kind is Kind.REFUSED:
            session = self._end(routing_id)
            if session is None:
                self._malformed("unexpected refusal")
                return
            # The knocker found the ANSWER wanting; say the same back, so that it
            # knows this side has ended the knock too.
            reason = fields[0] if fields[0] in REASONS else "refused"
            self._logged.once("knocker " + reason, "door: a knocker refused the door: %s", reason)
            self._refuse(routing_id, reason)
        else:
            self._malformed("unexpected " + kind.name)

    @staticmethod
    def _source(frame: zmq.Frame, routing_id: bytes) -> str:
        try:
            address = frame.get("Peer-Address")
        except (zmq.ZMQError, KeyError, ValueError):
            address = None
        return address if isinstance(address, str) and address else "id:" + routing_id.hex()

    async def _knocked(self, routing_id: bytes, source: str, fields: list[Any]) -> None:
        table, private, nonce_k, pake_k, card_k = fields
        self._stats.attempts += 1
        if self._end(routing_id) is not None:
            self._stats.refused += 1  # a second knock on one connection ends the first
        if len(self._sessions) >= self._limits.sessions:
            self._stats.throttled += 1
            self._send(routing_id, encode(Kind.REFUSED, "busy"))
            return
        if table != self._table:
            self._refuse(routing_id, "other table")
            return
        passphrase = self._passphrase
        if private != (passphrase is not None):
            self._refuse(routing_id, "wrong passphrase")
            return
        if _card_problem(card_k) is not None:
            self._refuse(routing_id, "bad card")
            return
        if card_k.node_id == self._signer.node_id:
            self._refuse(routing_id, "self")
            return
        if passphrase is not None and not self._throttle.take(source):
            self._stats.throttled += 1
            self._logged.once("throttled", "door: guesses come too fast; answering busy")
            self._send(routing_id, encode(Kind.REFUSED, "busy"))
            return
        try:
            mine = self._card()
            _check_own_card(mine, self._signer)
        except Exception:
            if "own card" not in self._logged.seen:
                self._logged.seen.add("own card")
                log.exception("door: this node has no card to show; refusing knocks")
            self._refuse(routing_id, "refused")
            if passphrase is not None:
                self._throttle.give_back(source)
            return
        nonce_d = os.urandom(NONCE_SIZE)
        pake_d, pake_key = b"", None
        if passphrase is not None:
            pake_d, pake_key = await asyncio.to_thread(
                _pake_exchange, pake_password(passphrase), table, pake_k
            )
            if self._closed:
                return
            if pake_key is None:
                self._malformed("bad pake message")
                self._refuse(routing_id, "malformed")
                return
        digest = transcript(table, private, nonce_k, pake_k, card_k, nonce_d, pake_d, mine)
        signature = self._signer.sign(_DOOR + digest)
        mac = _mac(pake_key, _DOOR, digest)
        session = _Session(source, private, card_k, digest, pake_key)
        session.timer = asyncio.get_running_loop().call_later(
            self._limits.session_timeout, self._timed_out, routing_id, session
        )
        self._sessions[routing_id] = session
        self._send(routing_id, encode(Kind.ANSWER, nonce_d, pake_d, mine, signature, mac))

    def _confirmed(self, routing_id: bytes, fields: list[Any]) -> None:
        signature, mac = fields
        session = self._end(routing_id)
        if session is None:
            self._malformed("unexpected CONFIRM")
            return
        if session.private:
            expected = _mac(session.pake_key, _KNOCKER, session.digest)
            if not hmac.compare_digest(mac, expected):
                self._logged.once("wrong phrase", "door: refused a knock: wrong passphrase")
                self._refuse(routing_id, "wrong passphrase")
                return
        elif mac:
            self._refuse(routing_id, "malformed")
            return
        if not check_signature(session.card.public_key, _KNOCKER + session.digest, signature):
            self._logged.once("bad signature", "door: refused a knock: bad signature")
            self._refuse(routing_id, "bad card")
            return
        try:
            self._on_admit(session.card)
        except Exception:
            if "on_admit" not in self._logged.seen:
                self._logged.seen.add("on_admit")
                log.exception("door: on_admit failed for %s", session.card.node_id.hex())
            self._refuse(routing_id, "refused")
            return
        if session.private:
            self._throttle.give_back(session.source)
        self._stats.admitted += 1
        self._send(routing_id, encode(Kind.WELCOME))


# --- knocking ----------------------------------------------------------------------------


async def _receive(socket: zmq.asyncio.Socket, deadline: float) -> tuple[Kind, list[Any]]:
    remaining = deadline - asyncio.get_running_loop().time()
    if remaining <= 0:
        raise DoorRefused("timeout")
    try:
        data = await asyncio.wait_for(socket.recv(), remaining)
    except TimeoutError:
        raise DoorRefused("timeout") from None
    try:
        kind, fields = decode(data)
    except Malformed as error:
        raise DoorRefused("version" if str(error) == "version" else "malformed") from None
    if kind is Kind.REFUSED:
        reason = fields[0]
        raise DoorRefused(reason if reason in REASONS else "refused")
    return kind, fields


def _tell(socket: zmq.asyncio.Socket, kind: Kind, *fields: Any) -> None:
    # Without IMMEDIATE the DEALER queues at once, even before it has connected.
    with contextlib.suppress(zmq.ZMQError):
        socket.send(encode(kind, *fields), flags=zmq.NOBLOCK)


async def _give_up(socket: zmq.asyncio.Socket, reason: str, deadline: float) -> DoorRefused:
    """Tell the door why this side ends the knock, and wait (briefly) for it to agree."""
    _tell(socket, Kind.REFUSED, reason)
    remaining = min(deadline - asyncio.get_running_loop().time(), _GIVE_UP_WAIT)
    if remaining > 0:
        with contextlib.suppress(TimeoutError, zmq.ZMQError):
            await asyncio.wait_for(socket.recv(), remaining)
    return DoorRefused(reason)


async def knock(
    context: zmq.asyncio.Context,
    door_endpoint: str,
    *,
    signer: Signer,
    table: str,
    passphrase: str | None,
    mine: Card,
    timeout: float = 3.0,
) -> Card:
    """Knock at a door: on success the door has admitted ``mine``; returns the door's card.

    Raises ``DoorRefused`` with the reason otherwise ("timeout" when the door
    does not answer in ``timeout`` seconds). Each knock at a private table is
    one guess at its passphrase: after "wrong passphrase", do not knock again
    with the same phrase.
    """
    _check_own_card(mine, signer)
    if not 1 <= len(table.encode("utf-8")) <= MAX_TABLE:
        raise ValueError(f"a table name is 1 to {MAX_TABLE} bytes, got {table!r}")
    phrase = _normal_phrase(passphrase)
    private = phrase is not None
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    public, secret = zmq.curve_keypair()
    socket = context.socket(zmq.DEALER)
    try:
        socket.setsockopt(zmq.LINGER, 0)
        socket.setsockopt(zmq.MAXMSGSIZE, MAX_DOOR_MESSAGE)
        socket.curve_serverkey = DOOR_PUBLIC
        socket.curve_publickey = public
        socket.curve_secretkey = secret
        socket.connect(door_endpoint)
        nonce_k = os.urandom(NONCE_SIZE)
        pake = None
        pake_k = b""
        if phrase is not None:
            pake = SPAKE2_Symmetric(pake_password(phrase), idSymmetric=pake_identity(table))
            pake_k = await asyncio.to_thread(pake.start)
        _tell(socket, Kind.KNOCK, table, private, nonce_k, pake_k, mine)

        kind, fields = await _receive(socket, deadline)
        if kind is not Kind.ANSWER:
            raise DoorRefused("malformed")
        nonce_d, pake_d, card_d, sig_d, mac_d = fields
        if bool(pake_d) != private:
            raise await _give_up(socket, "wrong passphrase", deadline)
        if _card_problem(card_d) is not None:
            raise await _give_up(socket, "bad card", deadline)
        if card_d.node_id == mine.node_id:
            raise await _give_up(socket, "self", deadline)
        pake_key = None
        if pake is not None:
            try:
                pake_key = await asyncio.to_thread(pake.finish, pake_d)
            except Exception:
                raise await _give_up(socket, "malformed", deadline) from None
        digest = transcript(table, private, nonce_k, pake_k, mine, nonce_d, pake_d, card_d)
        if private and not hmac.compare_digest(mac_d, _mac(pake_key, _DOOR, digest)):
            raise await _give_up(socket, "wrong passphrase", deadline)
        if not check_signature(card_d.public_key, _DOOR + digest, sig_d):
            raise await _give_up(socket, "bad card", deadline)
        _tell(
            socket,
            Kind.CONFIRM,
            signer.sign(_KNOCKER + digest),
            _mac(pake_key, _KNOCKER, digest),
        )

        kind, fields = await _receive(socket, deadline)
        if kind is not Kind.WELCOME:
            raise DoorRefused("malformed")
        return card_d
    finally:
        socket.close(linger=0)
