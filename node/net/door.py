"""The door's sockets: how a node that knows only HOST:PORT joins a table.

Every node binds a second ROUTER next to its table socket, the door. It is a
CURVE server with one fixed, well-known key pair (``DOOR_PUBLIC`` and
``DOOR_SECRET``), so anyone may connect to it; the ephemeral CURVE handshake
still hides every byte from an eavesdropper. Over the door two nodes swap
*cards* (node id, Ed25519 public key, table endpoint, name), and each proves it
holds the secret of the key it shows by signing a transcript of the whole
exchange; on a private table both sides also prove the passphrase with SPAKE2.
On success the door calls ``on_admit`` with the newcomer's card and ``knock``
returns the door's card: each side then puts the other's key on its roster, and
the table sockets (CURVE with the nodes' own keys) take over.

The exchange itself is sans-IO, in ``dutchblitz.protocol.door``: the door's side
is a ``Keeper`` and the knocker's a ``Knocker``. This module only carries bytes,
time and randomness to them and does what they say. Their SPAKE2 arithmetic (pure
Python, some milliseconds) runs in a worker thread so the event loop keeps turning.
``spec/protocol.md`` section 17 gives the messages and the reasoning.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import zmq
import zmq.asyncio
from dutchblitz.protocol.door.codec import MAX_DOOR_MESSAGE, Card
from dutchblitz.protocol.door.guesses import DoorLimits
from dutchblitz.protocol.door.keeper import Admit, DoorStats, Effect, Keeper, Note, Send
from dutchblitz.protocol.door.knocker import Admitted, Knocker, Refused, Say
from dutchblitz.protocol.wire.auth import Signer

__all__ = ["DOOR_PUBLIC", "DOOR_SECRET", "Card", "Door", "DoorLimits", "DoorRefused", "knock"]

log = logging.getLogger("dutchblitz.node")

DOOR_PUBLIC = b"ZDRKvT@YwR?$Q*:*x4[sFzwH7Fs:YP4+4n.=9(LL"
"""The door's CURVE public key (z85), the same for every node."""
DOOR_SECRET = b"R(MQS]@-jV{&M7elW)+dXDAh%XB>nt=uwd<yab8o"
"""The door's CURVE secret key (z85). Public on purpose: the door hides traffic
from eavesdroppers, and the exchange itself, not this key, authenticates."""

_SEND_HWM = 100
_RECV_HWM = 100
_GIVE_UP_WAIT = 1.0
"""Seconds a knocker that refuses the door waits for the door's word that it heard."""


class DoorRefused(Exception):
    """A knock failed; ``reason`` says why, in a few words from ``REASONS``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(slots=True)
class _Logged:
    seen: set[str] = field(default_factory=set)

    def once(self, key: str, message: str, *args: Any) -> None:
        if key not in self.seen:
            self.seen.add(key)
            log.info(message, *args)

    def first(self, key: str) -> bool:
        """Whether ``key`` comes up for the first time (then it is seen)."""
        if key in self.seen:
            return False
        self.seen.add(key)
        return True


LOOPBACK = "127.0.0.1"


def _also_on_loopback(router: zmq.asyncio.Socket, host: str, endpoint: str) -> str:
    """Bind the door on 127.0.0.1 too, on its port, and say where ("": the port is taken there).

    A node of this machine may then knock with ``--peer 127.0.0.1:PORT`` although this node
    listens on its LAN address: whoever reaches loopback reaches that address too, so no one
    new can knock. The card it hands out still names the table socket's LAN endpoint."""
    if host == LOOPBACK:
        return ""
    there = f"tcp://{LOOPBACK}:{endpoint.rpartition(':')[2]}"
    try:
        router.bind(there)
    except zmq.ZMQError as error:
        log.info("door: not on %s too: %s", there, error)
        return ""
    return there


# --- the door -----------------------------------------------------------------------------


class Door:
    """A node's door. Open with ``Door.open``; ``close`` when done."""

    def __init__(
        self,
        router: zmq.asyncio.Socket,
        keeper: Keeper,
        on_admit: Callable[[Card], None],
    ) -> None:
        self.endpoint: str = router.getsockopt_string(zmq.LAST_ENDPOINT)
        self.loopback = ""  # the same door on 127.0.0.1 too ("": not there)
        self._router = router
        self._keeper = keeper
        self._on_admit = on_admit
        self._logged = _Logged()
        # Told every note's key, and the knock's address if known ("": not; doorbell.py).
        self.listeners: list[Callable[[str, str], object]] = []
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
        keeper = Keeper(signer, table, passphrase, card, entropy=os.urandom, limits=limits)
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
        door = cls(router, keeper, on_admit)
        door.loopback = _also_on_loopback(router, host, door.endpoint)
        door._task = asyncio.get_running_loop().create_task(door._serve(), name="door")
        return door

    @property
    def stats(self) -> DoorStats:
        """A snapshot of the counters."""
        return self._keeper.stats

    @property
    def private(self) -> bool:
        return self._keeper.private

    def set_passphrase(self, passphrase: str | None) -> None:
        """Change the phrase (None or "": open table) for knocks that begin from now on."""
        self._keeper.set_passphrase(passphrase)

    def close(self) -> None:
        """Stop serving and close the socket at once; knocks in progress are dropped."""
        if self._closed:
            return
        self._closed = True
        if self._task is not None:
            self._task.cancel()
        self._router.close(linger=0)
        self._keeper.close()

    # --- serving: one task hands the keeper every input in turn ---

    async def _serve(self) -> None:
        loop = asyncio.get_running_loop()
        while not self._closed:
            self._carry_out(self._keeper.tick(loop.time()))
            try:
                frames = await self._next_message(loop)
            except asyncio.CancelledError:
                raise
            except zmq.ZMQError as error:
                if self._closed or error.errno == zmq.ETERM:
                    return
                # Not the peer's doing; keep serving rather than leave the door shut.
                self._keeper.counters.malformed += 1
                self._logged.once("recv " + str(error.errno), "door: receive failed: %s", error)
                await asyncio.sleep(0)
                continue
            if frames is None:
                continue
            try:
                await self._handle(frames, loop)
            except asyncio.CancelledError:
                raise
            except Exception:
                # A fault of ours, not the peer's: keep the door open.
                self._keeper.counters.malformed += 1
                if self._logged.first("internal"):
                    log.exception("door: a knock failed inside the door")

    async def _next_message(self, loop: asyncio.AbstractEventLoop) -> list[zmq.Frame] | None:
        """The next message, or None when a knock in progress is due to time out first."""
        deadline = self._keeper.next_deadline()
        if deadline is not None:
            wait_ms = max(0, int((deadline - loop.time()) * 1000) + 1)
            if not await self._router.poll(timeout=wait_ms):
                return None
        return await self._router.recv_multipart(copy=False)

    async def _handle(self, frames: list[zmq.Frame], loop: asyncio.AbstractEventLoop) -> None:
        routing_id = frames[0].bytes
        source = _source(frames[1], routing_id) if len(frames) > 1 else "id:" + routing_id.hex()
        effects = await asyncio.to_thread(
            self._keeper.receive, routing_id, source, [f.bytes for f in frames[1:]], loop.time()
        )
        if not self._closed:
            self._carry_out(effects, source)

    def _carry_out(self, effects: Iterable[Effect], source: str = "") -> None:
        for effect in effects:
            if isinstance(effect, Send):
                self._send(effect.to, effect.data)
            elif isinstance(effect, Admit):
                self._carry_out(self._keeper.admitted(effect.to, self._admit(effect.card)), source)
            elif isinstance(effect, Note):
                self._note(effect, source)

    def _note(self, note: Note, source: str = "") -> None:
        for listener in list(self.listeners):
            listener(note.key, source)
        if not note.serious:
            self._logged.once(note.key, "%s", note.text)
        elif self._logged.first(note.key):
            log.error("%s", note.text)

    def _admit(self, card: Card) -> bool:
        try:
            self._on_admit(card)
        except Exception:
            if self._logged.first("on_admit"):
                log.exception("door: on_admit failed for %s", card.node_id.hex())
            return False
        return True

    def _send(self, routing_id: bytes, data: bytes) -> None:
        if self._closed:
            return
        # NOBLOCK: the future is done at once; a full queue just drops the reply.
        with contextlib.suppress(zmq.ZMQError):
            outcome = self._router.send_multipart([routing_id, data], flags=zmq.NOBLOCK)
            if isinstance(outcome, asyncio.Future) and outcome.done() and not outcome.cancelled():
                outcome.exception()


def _source(frame: zmq.Frame, routing_id: bytes) -> str:
    """Whose bucket a knock spends: the peer's IP address, or its connection if unknown."""
    try:
        address = frame.get("Peer-Address")
    except (zmq.ZMQError, KeyError, ValueError):
        address = None
    return address if isinstance(address, str) and address else "id:" + routing_id.hex()


# --- knocking ----------------------------------------------------------------------------


async def _receive(socket: zmq.asyncio.Socket, deadline: float) -> bytes:
    remaining = deadline - asyncio.get_running_loop().time()
    if remaining <= 0:
        raise DoorRefused("timeout")
    try:
        data: bytes = await asyncio.wait_for(socket.recv(), remaining)
    except TimeoutError:
        raise DoorRefused("timeout") from None
    return data


def _tell(socket: zmq.asyncio.Socket, data: bytes) -> None:
    # Without IMMEDIATE the DEALER queues at once, even before it has connected.
    with contextlib.suppress(zmq.ZMQError):
        socket.send(data, flags=zmq.NOBLOCK)


async def _give_up(socket: zmq.asyncio.Socket, refusal: bytes, deadline: float) -> None:
    """Tell the door why this side ends the knock, and wait (briefly) for it to agree."""
    _tell(socket, refusal)
    remaining = min(deadline - asyncio.get_running_loop().time(), _GIVE_UP_WAIT)
    if remaining > 0:
        with contextlib.suppress(TimeoutError, zmq.ZMQError):
            await asyncio.wait_for(socket.recv(), remaining)


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
    knocker = Knocker(signer, table, passphrase, mine, entropy=os.urandom)
    deadline = asyncio.get_running_loop().time() + timeout
    public, secret = zmq.curve_keypair()
    socket = context.socket(zmq.DEALER)
    try:
        socket.setsockopt(zmq.LINGER, 0)
        socket.setsockopt(zmq.MAXMSGSIZE, MAX_DOOR_MESSAGE)
        socket.curve_serverkey = DOOR_PUBLIC
        socket.curve_publickey = public
        socket.curve_secretkey = secret
        socket.connect(door_endpoint)
        _tell(socket, await asyncio.to_thread(knocker.knock))
        while True:
            step = await asyncio.to_thread(knocker.receive, await _receive(socket, deadline))
            if isinstance(step, Admitted):
                return step.card
            if isinstance(step, Say):
                _tell(socket, step.data)
                continue
            assert isinstance(step, Refused)
            if step.say is not None:
                await _give_up(socket, step.say, deadline)
            raise DoorRefused(step.reason)
    finally:
        socket.close(linger=0)
