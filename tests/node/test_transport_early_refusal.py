"""A refusal that comes before the transport starts watching its connection is still retried.

A DEALER whose key the peer does not know yet is refused (ZAP), and ZeroMQ never tries
that connection again: the transport watches for the refusal and connects anew. On a
busy machine the refusal can come back before the thread that opened the connection
runs again; the watch must already be in place, or the link stays down for good (a
player that nobody hears, suspected and removed again each time it sits down).

Here the peer runs on a thread of its own, and ``connect`` holds the calling thread
until the peer has refused the key: the refusal always wins that race.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
import zmq
from dutchblitz.node.net.roster import Roster, Source
from dutchblitz.node.net.transport import Transport
from dutchblitz.protocol.wire.auth import Signer

pytestmark = pytest.mark.timeout(30)

HOST, GUEST = Signer(bytes([1]) * 32), Signer(bytes([7]) * 32)
WAIT_S = 10.0


class WatchedRoster(Roster):
    """A roster that also says, on a thread event, when it has refused a key."""

    def __init__(self) -> None:
        super().__init__()
        self.refusal = threading.Event()

    def allows_curve(self, curve_key: bytes) -> bool:
        allowed = super().allows_curve(curve_key)
        if not allowed:
            self.refusal.set()
        return allowed


class Host(threading.Thread):
    """A transport on its own event loop, refusing GUEST until told to learn its key."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.ready = threading.Event()
        self.learn = threading.Event()
        self.received = threading.Event()
        self.roster = WatchedRoster()
        self.endpoint = ""

    def run(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        async with await Transport.open(HOST, "127.0.0.1", 0, roster=self.roster) as transport:
            self.endpoint = transport.endpoint
            self.ready.set()
            assert await asyncio.to_thread(self.learn.wait, WAIT_S)
            self.roster.learn(GUEST.node_id, GUEST.public_key, Source.DOOR)
            await asyncio.wait_for(transport.recv(), WAIT_S)
            self.received.set()


def test_a_refusal_before_the_watch_starts_is_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    host = Host()
    host.start()
    assert host.ready.wait(WAIT_S)
    connect = zmq.Socket.connect

    def connect_then_stall(socket: Any, address: str) -> Any:
        result = connect(socket, address)
        if not address.startswith("tcp://"):
            return result  # the watch's own inproc socket
        # This thread is held up until the peer has refused the key.
        host.roster.refusal.wait(WAIT_S)
        return result

    monkeypatch.setattr(zmq.Socket, "connect", connect_then_stall)

    async def guest() -> None:
        roster = Roster()
        roster.learn(HOST.node_id, HOST.public_key, Source.DOOR)
        async with await Transport.open(GUEST, "127.0.0.1", 0, roster=roster) as transport:
            transport.add_peer(HOST.node_id, host.endpoint, HOST.public_key)
            assert host.roster.stats.refused >= 1
            host.learn.set()
            number = 0
            while not host.received.is_set():
                transport.send(HOST.node_id, b"let me in %d" % number)
                number += 1
                # Sent again until the host has one: a send before the reconnect is lost.
                await asyncio.to_thread(host.received.wait, 0.05)
            assert transport.stats.handshake_failed >= 1

    asyncio.run(asyncio.wait_for(guest(), 15))
    host.join(WAIT_S)
