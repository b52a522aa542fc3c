"""Move byte strings between nodes over ZeroMQ, peer to peer.

Each node binds one ROUTER socket to receive, and opens one DEALER per peer to
send. A DEALER's routing id is our node id, so the ROUTER at the far end sees
who sent each message without reading it. The transport knows nothing of the
game: it moves ``bytes`` and knows peers by node id and endpoint.

It never waits on a slow or absent peer. Every send is non-blocking; when a
peer's queue is full (``SEND_HWM`` messages) the message is dropped and
counted, and the protocol above repairs the gap. Nothing here runs a task:
``recv`` awaits the ROUTER itself, so a slow reader leaves messages in
ZeroMQ's bounded queue (``RECV_HWM``) rather than in an unbounded one of ours.

The sender id that ``recv`` returns is what the sender's DEALER claims. It is
not authenticated, and a foreign ZeroMQ peer may claim anything: treat it, and
the bytes, as untrusted input.
"""

from __future__ import annotations

import asyncio
import dataclasses
import heapq
import itertools
from dataclasses import dataclass
from typing import Any

import zmq
import zmq.asyncio
from dutchblitz.node.faults import FaultConfig, Faults, faults_from_env
from dutchblitz.protocol.messages import NODE_ID_SIZE

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


class Transport:
    """One ROUTER to receive, one DEALER per peer to send. Open with ``Transport.open``."""

    def __init__(
        self,
        node_id: bytes,
        context: zmq.asyncio.Context,
        router: zmq.asyncio.Socket,
        faults: FaultConfig | None,
    ) -> None:
        self.node_id = node_id
        self.endpoint: str = router.getsockopt_string(zmq.LAST_ENDPOINT)
        self._context = context
        self._router = router
        self._dealers: dict[bytes, tuple[str, zmq.asyncio.Socket]] = {}
        # Plain (not asyncio) views of the same sockets, for the calls that never wait:
        # a non-blocking send or receive through them costs a fifth of the asyncio one.
        self._senders: dict[bytes, zmq.Socket[bytes]] = {}
        self._router_now: zmq.Socket[bytes] = zmq.Socket.shadow(router.underlying)
        self._stats = TransportStats()
        self._faults = Faults(faults) if faults is not None and faults.is_active else None
        self._held: list[tuple[float, int, bytes, bytes]] = []
        self._held_order = itertools.count()
        self._held_timer: asyncio.TimerHandle | None = None
        self._closed = False

    @classmethod
    async def open(
        cls, node_id: bytes, host: str, port: int = 0, *, faults: FaultConfig | None = None
    ) -> Transport:
        """Bind the ROUTER on ``host:port`` (port 0: any free port; see ``endpoint``).

        ``faults`` defaults to what ``BLITZ_FAULTS`` says; pass ``FaultConfig()``
        to run without faults whatever the environment holds.
        """
        if len(node_id) != NODE_ID_SIZE:
            raise ValueError(f"node id must be {NODE_ID_SIZE} bytes, got {len(node_id)}")
        if faults is None:
            faults = faults_from_env()
        context = zmq.asyncio.Context()
        router = context.socket(zmq.ROUTER)
        try:
            _set_common_options(router)
            router.setsockopt(zmq.RCVHWM, RECV_HWM)
            # A node that restarts with the same id takes its old connection over
            # instead of being refused until the old one times out.
            router.setsockopt(zmq.ROUTER_HANDOVER, 1)
            router.bind(f"tcp://{host}:{port if port else '*'}")
        except BaseException:
            router.close(linger=0)
            context.term()
            raise
        return cls(node_id, context, router, faults)

    @property
    def stats(self) -> TransportStats:
        """A snapshot of the counters."""
        return dataclasses.replace(self._stats)

    @property
    def peers(self) -> dict[bytes, str]:
        """Node id to endpoint, for every peer we can send to."""
        return {node_id: endpoint for node_id, (endpoint, _) in self._dealers.items()}

    def add_peer(self, node_id: bytes, endpoint: str) -> None:
        """Start sending to ``endpoint`` as ``node_id``; a new endpoint replaces the old."""
        self._check_open()
        _check_endpoint(endpoint)
        known = self._dealers.get(node_id)
        if known is not None and known[0] == endpoint:
            return
        self.remove_peer(node_id)
        dealer = self._context.socket(zmq.DEALER)
        try:
            _set_common_options(dealer)
            dealer.setsockopt(zmq.ROUTING_ID, self.node_id)
            dealer.setsockopt(zmq.SNDHWM, SEND_HWM)
            dealer.setsockopt(zmq.RCVHWM, 1)
            dealer.setsockopt(zmq.RECONNECT_IVL, RECONNECT_IVL_MS)
            dealer.setsockopt(zmq.RECONNECT_IVL_MAX, RECONNECT_IVL_MAX_MS)
            dealer.connect(endpoint)
        except BaseException:
            dealer.close(linger=0)
            raise
        self._dealers[node_id] = (endpoint, dealer)
        self._senders[node_id] = zmq.Socket.shadow(dealer.underlying)

    def remove_peer(self, node_id: bytes) -> None:
        """Stop sending to ``node_id`` and drop what is still queued for it."""
        known = self._dealers.pop(node_id, None)
        self._senders.pop(node_id, None)
        if known is not None:
            known[1].close(linger=0)

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

    def broadcast(self, data: bytes) -> int:
        """Send ``data`` to every peer; returns how many accepted it."""
        return sum(self.send(node_id, data) for node_id in list(self._dealers))

    async def recv(self) -> tuple[bytes, bytes]:
        """Wait for the next message: (sender's routing id, data)."""
        while True:
            message = self._accept(await self._recv_frames())
            if message is not None:
                return message

    def try_recv(self) -> tuple[bytes, bytes] | None:
        """The next message if one has already arrived, else None; never waits.

        A reader drains a batch this way after one ``recv``, so that it can
        answer the whole batch at once (one acknowledgement, not one per message).
        """
        self._check_open()
        while True:
            try:
                frames = self._router_now.recv_multipart(flags=zmq.NOBLOCK)
            except zmq.Again:
                return None
            message = self._accept(frames)
            if message is not None:
                return message

    def _accept(self, frames: list[bytes]) -> tuple[bytes, bytes] | None:
        """(sender, data) from a well-formed message, or None after counting why not."""
        if len(frames) != 2:
            self._stats.malformed += 1
            return None
        sender, data = frames
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
        self._router.close(linger=0)
        self._context.term()

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

    async def _recv_frames(self) -> list[bytes]:
        self._check_open()
        try:
            return await self._router.recv_multipart()
        except asyncio.CancelledError:
            # Closing the ROUTER cancels a pending receive; only a cancel of
            # our own task should travel on as a cancel.
            task = asyncio.current_task()
            if self._closed and (task is None or not task.cancelling()):
                raise TransportClosed("the transport was closed while receiving") from None
            raise
        except zmq.ZMQError as error:
            if self._closed:
                raise TransportClosed("the transport was closed while receiving") from error
            raise

    def _send_now(self, node_id: bytes, data: bytes) -> bool:
        sender = self._senders.get(node_id)
        if sender is None:
            self._stats.no_peer += 1
            return False
        try:
            sender.send(data, flags=zmq.NOBLOCK)
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
