"""Move byte strings between nodes over ZeroMQ, peer to peer.

Each node binds one ROUTER socket to receive, and opens one DEALER per peer to
send. The transport knows nothing of the game: it moves ``bytes`` and knows
peers by node id, key and endpoint.

It never waits on a slow or absent peer. Every send is non-blocking; when a
peer's queue is full (``SEND_HWM`` messages) the message is dropped and
counted, and the protocol above repairs the gap. Nothing here runs a task:
``recv`` waits on the ROUTER itself, so a slow reader leaves messages in
ZeroMQ's bounded queue (``RECV_HWM``) rather than in an unbounded one of ours.

The sockets that carry messages are plain (not ``zmq.asyncio``) sockets: every
call on them never waits, and the only wait is ``recv``'s, on the event loop's
reader for the ROUTER's file descriptor. ZeroMQ signals that descriptor by edge,
so ``recv`` waits only after a receive has found the queue empty. (An asyncio
socket would answer every wake-up of every DEALER, and every receive, through
futures: about a tenth of a busy node's time.) Only the DEALERs' monitors,
which nobody waits on in a hurry, are asyncio sockets.

Every connection is CURVE (encrypted and authenticated). The ROUTER is a
CURVE server with the node's own key; each DEALER is a CURVE client with the
node's own key and the peer's server key, so it only ever talks to the holder
of that key. A ZAP handler (``TableAuthenticator``) lets a client connect only
if its key is let in by the seat's ``Roster``, and names the connection by the
key's node id (its ZAP User-Id). ``recv`` returns that authenticated id as the
sender of every message, never a routing id. Our DEALERs claim no routing id
(ZeroMQ gives each connection one of its own, so a restarted node's new
connection never collides with its old one, and ``ROUTER_HANDOVER`` stays off:
with it, a member claiming another's routing id would take over, and cut, the
other's connection). A connection that does claim a routing id must claim its
own node id; a message whose claimed id is another's, or whose key the roster
no longer lets in, is dropped and counted. The bytes themselves are still
untrusted input.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import heapq
import itertools
from collections.abc import Callable, Container
from dataclasses import dataclass
from typing import Any, Protocol, cast

import zmq
import zmq.asyncio
from dutchblitz.protocol.wire.auth import Signer, curve_public_of
from dutchblitz.protocol.wire.messages import Kind
from dutchblitz.protocol.wire.peek import message_kind
from zmq.auth.asyncio import AsyncioAuthenticator
from zmq.utils import z85

from .roster import Roster

MAX_PAYLOAD = 65536
# ZeroMQ cuts off a peer that sends a bigger frame; the margin leaves room for
# a peer whose limit is counted a little differently, never for a whole message.
MAX_FRAME = MAX_PAYLOAD + 1024
SEND_HWM = 1000
RECV_HWM = 1000
HEARTBEAT_IVL_MS = 1000
HEARTBEAT_TIMEOUT_MS = 3000
HEARTBEAT_TTL_MS = 3000
RECONNECT_IVL_MS = 100
RECONNECT_IVL_MAX_MS = 400  # a restarted peer is reached again within this
REFUSED_RETRY_S = 0.5  # first wait before connecting again to a peer that refused our key
REFUSED_RETRY_MAX_S = 2.0
_HANDSHAKE_FAILED = (
    zmq.EVENT_HANDSHAKE_FAILED_AUTH
    | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
    | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL
)
_monitor_numbers = itertools.count()
TABLE_DOMAIN = "blitz-table"
"""The ZAP domain of every table ROUTER."""


class TransportClosed(Exception):
    """The transport was closed; nothing more will arrive."""


@dataclass(slots=True)
class TransportStats:
    """Counters since the transport opened."""

    sent: int = 0
    """handed to ZeroMQ for a peer"""
    dropped_full: int = 0
    """dropped because the peer's send queue was full"""
    dropped_fault: int = 0
    """dropped on purpose by the test-only fault layer"""
    delayed: int = 0
    """held back by the fault layer before sending"""
    no_peer: int = 0
    """addressed to a node id with no peer (or removed while held)"""
    oversize: int = 0
    """refused to send: bigger than ``MAX_PAYLOAD``"""
    received: int = 0
    """delivered by ``recv``"""
    oversize_received: int = 0
    """arrived bigger than ``MAX_PAYLOAD`` and dropped"""
    malformed: int = 0
    """arrived in more than one frame and dropped"""
    handshake_failed: int = 0
    """our connection to a peer was refused (it does not know our key yet) or the
    peer did not prove the key we expected; we connect again later"""
    impostor: int = 0
    """claimed a routing id other than its authenticated key's node id, dropped"""
    not_on_roster: int = 0
    """from a key the roster no longer lets in (or never named), dropped"""


def _set_common_options(socket: zmq.Socket[Any]) -> None:
    socket.setsockopt(zmq.LINGER, 0)
    socket.setsockopt(zmq.MAXMSGSIZE, MAX_FRAME)
    socket.setsockopt(zmq.HEARTBEAT_IVL, HEARTBEAT_IVL_MS)
    socket.setsockopt(zmq.HEARTBEAT_TIMEOUT, HEARTBEAT_TIMEOUT_MS)
    socket.setsockopt(zmq.HEARTBEAT_TTL, HEARTBEAT_TTL_MS)


def _check_endpoint(endpoint: str) -> None:
    address, sep, port = endpoint.removeprefix("tcp://").rpartition(":")
    if not endpoint.startswith("tcp://") or not sep or not address or not port.isdigit():
        raise ValueError(f"peer endpoint must look like tcp://HOST:PORT, got {endpoint!r}")


class _RosterCallback:
    """The ZAP credentials callback of the table domain: asks the roster."""

    def __init__(self, roster: Roster) -> None:
        self.roster = roster

    def callback(self, domain: str, z85_key: bytes) -> bool:
        try:
            raw = z85.decode(z85_key)
        except ValueError:
            return False
        return self.roster.allows_curve(raw)


class TableAuthenticator(AsyncioAuthenticator):
    """ZAP for one context: table ROUTERs let in the roster's keys, named by node id."""

    def __init__(self, context: zmq.asyncio.Context, roster: Roster) -> None:
        super().__init__(context)
        self.roster = roster
        self.configure_curve_callback(TABLE_DOMAIN, _RosterCallback(roster))

    def curve_user_id(self, client_public_key: bytes) -> str:
        node = self.roster.node_of_curve(client_public_key)
        return "" if node is None else node.hex()


def _is_stand_in(routing_id: bytes) -> bool:
    """Whether ZeroMQ made this routing id up (the connection claimed none)."""
    return len(routing_id) == 5 and routing_id[0] == 0


class Fate(Protocol):
    """What happens to each message sent: ``None`` drops it, else the seconds it is held.

    A real node has none. A test rig gives one to lose and delay messages on purpose
    (tests/rigs/faults.py); the transport itself reads no environment for it.
    """

    def fate(self) -> float | None: ...


class Transport:
    """One ROUTER to receive, one DEALER per peer to send. Open with ``Transport.open``."""

    def __init__(
        self,
        signer: Signer,
        roster: Roster,
        context: zmq.asyncio.Context,
        authenticator: TableAuthenticator,
        router: zmq.Socket[bytes],
        faults: Fate | None,
    ) -> None:
        self.node_id = signer.node_id
        self.signer = signer
        self.roster = roster
        self.endpoint: str = router.getsockopt_string(zmq.LAST_ENDPOINT)
        self.context = context
        self._authenticator = authenticator
        self._curve_public = z85.encode(signer.curve_public)
        self._curve_secret = z85.encode(signer.curve_secret())
        self._router = router
        self._dealers: dict[bytes, tuple[str, zmq.Socket[bytes]]] = {}
        self._watchers: dict[bytes, tuple[asyncio.Task[None], zmq.asyncio.Socket]] = {}
        # Called with a peer's id when a link it refused comes up: what was queued for
        # it before went with the refused connection.
        self.relinked: list[Callable[[bytes], None]] = []
        self._users: dict[str, bytes] = {}  # ZAP User-Id -> node id
        self._loop: asyncio.AbstractEventLoop | None = None  # whose reader watches the ROUTER
        self._readable: asyncio.Future[None] | None = None  # what ``recv`` waits on
        self._stats = TransportStats()
        self._faults = faults
        self._held: list[tuple[float, int, bytes, bytes]] = []
        self._held_order = itertools.count()
        self._held_timer: asyncio.TimerHandle | None = None
        self._closed = False

    @classmethod
    async def open(
        cls,
        signer: Signer,
        host: str,
        port: int = 0,
        *,
        roster: Roster,
        faults: Fate | None = None,
    ) -> Transport:
        """Bind the ROUTER on ``host:port`` (port 0: any free port; see ``endpoint``).

        Only keys ``roster`` lets in may connect. ``faults`` (tests only) decides the
        fate of each message sent; without it every message goes as it is.
        """
        context = zmq.asyncio.Context()
        authenticator = TableAuthenticator(context, roster)
        router: zmq.Socket[bytes] = zmq.Socket(context, zmq.ROUTER)
        try:
            authenticator.start()
            _set_common_options(router)
            router.setsockopt(zmq.RCVHWM, RECV_HWM)
            router.setsockopt(zmq.CURVE_SERVER, 1)
            router.setsockopt(zmq.CURVE_SECRETKEY, z85.encode(signer.curve_secret()))
            router.setsockopt(zmq.CURVE_PUBLICKEY, z85.encode(signer.curve_public))
            router.setsockopt_string(zmq.ZAP_DOMAIN, TABLE_DOMAIN)
            router.setsockopt(zmq.ZAP_ENFORCE_DOMAIN, 1)
            router.bind(f"tcp://{host}:{port if port else '*'}")
        except BaseException:
            router.close(linger=0)
            authenticator.stop()
            context.term()
            raise
        return cls(signer, roster, context, authenticator, router, faults)

    @property
    def stats(self) -> TransportStats:
        """A snapshot of the counters."""
        return dataclasses.replace(self._stats)

    @property
    def peers(self) -> dict[bytes, str]:
        """Node id to endpoint, for every peer we can send to."""
        return {node_id: endpoint for node_id, (endpoint, _) in self._dealers.items()}

    def add_peer(self, node_id: bytes, endpoint: str, key: bytes) -> None:
        """Start sending to ``node_id`` at ``endpoint``, whose Ed25519 key is ``key``.

        The connection is a CURVE client of the key's Curve25519 form, so only
        the key's holder can answer it. A new endpoint replaces the old.
        """
        self._check_open()
        _check_endpoint(endpoint)
        known = self._dealers.get(node_id)
        if known is not None and known[0] == endpoint:
            return
        self.remove_peer(node_id)
        dealer: zmq.Socket[bytes] = zmq.Socket(self.context, zmq.DEALER)
        monitor: zmq.asyncio.Socket | None = None
        try:
            _set_common_options(dealer)
            dealer.setsockopt(zmq.CURVE_SERVERKEY, z85.encode(curve_public_of(key)))
            dealer.setsockopt(zmq.CURVE_PUBLICKEY, self._curve_public)
            dealer.setsockopt(zmq.CURVE_SECRETKEY, self._curve_secret)
            dealer.setsockopt(zmq.SNDHWM, SEND_HWM)
            dealer.setsockopt(zmq.RCVHWM, 1)
            dealer.setsockopt(zmq.RECONNECT_IVL, RECONNECT_IVL_MS)
            dealer.setsockopt(zmq.RECONNECT_IVL_MAX, RECONNECT_IVL_MAX_MS)
            # Watch before connecting: a refusal that came before the watch would go
            # unseen, and ZeroMQ never retries it (a link that stays down for good).
            address = f"inproc://blitz-monitor-{next(_monitor_numbers)}"
            dealer.monitor(address, _HANDSHAKE_FAILED | zmq.EVENT_HANDSHAKE_SUCCEEDED)
            monitor = self.context.socket(zmq.PAIR)
            monitor.connect(address)
            dealer.connect(endpoint)
        except BaseException:
            if monitor is not None:
                monitor.close(linger=0)
            dealer.close(linger=0)
            raise
        self._dealers[node_id] = (endpoint, dealer)
        task = asyncio.ensure_future(self._watch(node_id, dealer, endpoint, monitor))
        self._watchers[node_id] = (task, monitor)

    def remove_peer(self, node_id: bytes) -> None:
        """Stop sending to ``node_id`` and drop what is still queued for it."""
        watcher = self._watchers.pop(node_id, None)
        if watcher is not None:
            watcher[0].cancel()
            watcher[1].close(linger=0)
        known = self._dealers.pop(node_id, None)
        if known is not None:
            with contextlib.suppress(zmq.ZMQError):
                known[1].disable_monitor()
            known[1].close(linger=0)

    async def _watch(
        self, node_id: bytes, dealer: zmq.Socket[bytes], endpoint: str, monitor: zmq.asyncio.Socket
    ) -> None:
        """Connect again after a failed handshake: ZeroMQ gives such a connection up.

        A peer refuses our key until its roster learns it (say from a third
        node's HELLO a little later), so a refusal is not final here. Once it
        lets us in, ``relinked`` is told: what we sent meanwhile is lost.
        """
        wait = REFUSED_RETRY_S
        refused = False
        try:
            while True:
                frames = await monitor.recv_multipart()
                event = int.from_bytes(frames[0][:2], "little")
                if event == zmq.EVENT_HANDSHAKE_SUCCEEDED:
                    wait = REFUSED_RETRY_S
                    if refused:
                        refused = False
                        for listener in list(self.relinked):
                            listener(node_id)
                    continue
                refused = True
                self._stats.handshake_failed += 1
                await asyncio.sleep(wait)
                wait = min(2 * wait, REFUSED_RETRY_MAX_S)
                with contextlib.suppress(zmq.ZMQError):
                    dealer.disconnect(endpoint)
                dealer.connect(endpoint)
        except (asyncio.CancelledError, zmq.ZMQError):
            pass

    def send(self, node_id: bytes, data: bytes) -> bool:
        """Queue ``data`` for one peer without waiting; ``False`` if it was refused.

        A message lost by the fault layer still returns ``True``: the sender
        cannot tell, as with a real lost packet.
        """
        self._check_open()
        if len(data) > MAX_PAYLOAD:
            self._stats.oversize += 1
            return False
        if node_id not in self._dealers:
            self._stats.no_peer += 1
            return False
        if self._faults is None:
            return self._send_now(node_id, data)
        delay = self._faults.fate()
        if delay is None:
            self._stats.dropped_fault += 1
        elif delay > 0.0:
            self._stats.delayed += 1
            self._hold(delay, node_id, data)
        else:
            return self._send_now(node_id, data)
        return True

    def broadcast(self, data: bytes, skip: Container[bytes] = ()) -> int:
        """Send ``data`` to every peer but those in ``skip``; returns how many accepted it."""
        return sum(self.send(node, data) for node in list(self._dealers) if node not in skip)

    async def recv(self) -> tuple[bytes, bytes]:
        """Wait for the next message: (sender's authenticated node id, data)."""
        while True:
            message = self.try_recv()
            if message is not None:
                return message
            await self._wait_readable()

    def try_recv(self) -> tuple[bytes, bytes] | None:
        """The next message if one has already arrived, else None; never waits.

        A reader drains a batch this way after one ``recv``, so that it can
        answer the whole batch at once (one acknowledgement, not one per message).
        """
        self._check_open()
        while True:
            try:
                frames = self._router.recv_multipart(flags=zmq.NOBLOCK, copy=False)
            except zmq.Again:
                return None
            message = self._accept(frames)
            if message is not None:
                return message

    def _accept(self, frames: list[zmq.Frame]) -> tuple[bytes, bytes] | None:
        """(sender, data) from a well-formed, authenticated message, or None (counted)."""
        if len(frames) != 2:
            self._stats.malformed += 1
            return None
        routing, payload = frames
        user = cast(str, payload.get("User-Id"))
        sender = self._users.get(user)
        if sender is None:
            sender = self._users[user] = bytes.fromhex(user) if user else b""
        routing_id = routing.bytes
        if routing_id != sender and not _is_stand_in(routing_id):
            self._stats.impostor += 1
            return None
        data = payload.bytes
        if not self.roster.allows(sender) and not (
            message_kind(data) == Kind.WATCH and self.roster.may_watch(sender)
        ):
            self._stats.not_on_roster += 1
            return None
        if len(data) > MAX_PAYLOAD:
            self._stats.oversize_received += 1
            return None
        self._stats.received += 1
        return sender, data

    def close(self) -> None:
        """Close every socket at once, dropping whatever is still queued or held."""
        if self._closed:
            return
        self._closed = True
        if self._held_timer is not None:
            self._held_timer.cancel()
        self._held.clear()
        for node_id in list(self._dealers):
            self.remove_peer(node_id)
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(self._router.FD)
        if self._readable is not None and not self._readable.done():
            self._readable.set_exception(TransportClosed("the transport was closed"))
            self._readable.exception()  # nobody may be waiting: never "never retrieved"
        self._router.close(linger=0)
        self._authenticator.stop()
        self.context.term()

    @property
    def closed(self) -> bool:
        return self._closed

    async def __aenter__(self) -> Transport:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self.close()

    def _check_open(self) -> None:
        if self._closed:
            raise TransportClosed("the transport is closed")

    async def _wait_readable(self) -> None:
        """Wait until the ROUTER's descriptor signals (after a receive found nothing)."""
        self._check_open()
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            if self._loop is not None and not self._loop.is_closed():
                self._loop.remove_reader(self._router.FD)
            self._loop = loop
            loop.add_reader(self._router.FD, self._on_readable)
        if self._readable is None or self._readable.done():
            self._readable = loop.create_future()
        await self._readable

    def _on_readable(self) -> None:
        if self._readable is not None and not self._readable.done():
            self._readable.set_result(None)

    def _send_now(self, node_id: bytes, data: bytes) -> bool:
        known = self._dealers.get(node_id)
        if known is None:
            self._stats.no_peer += 1
            return False
        try:
            known[1].send(data, flags=zmq.NOBLOCK)
        except zmq.Again:
            self._stats.dropped_full += 1
            return False
        self._stats.sent += 1
        return True

    def _hold(self, delay: float, node_id: bytes, data: bytes) -> None:
        loop = asyncio.get_running_loop()
        due = loop.time() + delay
        heapq.heappush(self._held, (due, next(self._held_order), node_id, data))
        if self._held[0][0] == due:
            self._arm_held_timer(loop)

    def _arm_held_timer(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._held_timer is not None:
            self._held_timer.cancel()
            self._held_timer = None
        if self._held:
            self._held_timer = loop.call_at(self._held[0][0], self._release_held)

    def _release_held(self) -> None:
        loop = asyncio.get_running_loop()
        self._held_timer = None
        # The loop may fire a timer up to one clock tick early: the head is due.
        _, _, node_id, data = heapq.heappop(self._held)
        self._send_now(node_id, data)
        now = loop.time()
        while self._held and self._held[0][0] <= now:
            _, _, node_id, data = heapq.heappop(self._held)
            self._send_now(node_id, data)
        self._arm_held_timer(loop)
