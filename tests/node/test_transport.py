"""The ZeroMQ transport on 127.0.0.1: delivery, limits, garbage and the fault layer."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import pytest
import zmq
import zmq.asyncio
from dutchblitz.node.faults import FaultConfig
from dutchblitz.node.transport import (
    MAX_FRAME,
    MAX_PAYLOAD,
    SEND_HWM,
    Transport,
    TransportClosed,
)

pytestmark = pytest.mark.timeout(30)

T = TypeVar("T")
NO_FAULTS = FaultConfig()
WAIT_S = 10.0


def node_id(n: int) -> bytes:
    return bytes([n]) * 16


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 20))


async def opened(n: int, faults: FaultConfig = NO_FAULTS) -> Transport:
    return await Transport.open(node_id(n), "127.0.0.1", 0, faults=faults)


async def recv(transport: Transport) -> tuple[bytes, bytes]:
    return await asyncio.wait_for(transport.recv(), WAIT_S)


async def keep_sending_until_received(
    send: Callable[[bytes], object], receive: Callable[[], Awaitable[tuple[bytes, bytes]]]
) -> bytes:
    """Repeat a numbered message until one arrives: a link that reconnects gets it."""
    received: asyncio.Task[tuple[bytes, bytes]] = asyncio.ensure_future(receive())
    number = 0
    while not received.done():
        send(b"retry-%d" % number)
        number += 1
        await asyncio.wait({received}, timeout=0.1)
    return received.result()[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_two_transports_exchange_messages_both_ways() -> None:
    async def scenario() -> None:
        async with await opened(1) as a, await opened(2) as b:
            assert a.endpoint.startswith("tcp://127.0.0.1:")
            assert not a.endpoint.endswith(":0")
            a.add_peer(b.node_id, b.endpoint)
            b.add_peer(a.node_id, a.endpoint)
            assert a.send(b.node_id, b"ping")
            assert await recv(b) == (a.node_id, b"ping")
            assert b.send(a.node_id, b"pong")
            assert await recv(a) == (b.node_id, b"pong")
            assert a.stats.sent == 1 and a.stats.received == 1

    run(scenario())


def test_messages_from_one_peer_arrive_in_order() -> None:
    async def scenario() -> None:
        async with await opened(1) as a, await opened(2) as b:
            a.add_peer(b.node_id, b.endpoint)
            for number in range(200):
                assert a.send(b.node_id, b"%d" % number)
            got = [int((await recv(b))[1]) for _ in range(200)]
            assert got == list(range(200))

    run(scenario())


def test_three_transports_broadcast_to_each_other() -> None:
    async def scenario() -> None:
        nodes = [await opened(n) for n in (1, 2, 3)]
        try:
            for node in nodes:
                for other in nodes:
                    if other is not node:
                        node.add_peer(other.node_id, other.endpoint)
            for node in nodes:
                assert node.broadcast(b"from " + node.node_id[:1]) == 2
            for node in nodes:
                got = {await recv(node) for _ in range(2)}
                expected = {
                    (other.node_id, b"from " + other.node_id[:1])
                    for other in nodes
                    if other is not node
                }
                assert got == expected
        finally:
            for node in nodes:
                node.close()

    run(scenario())


def test_sending_refuses_what_the_receiver_would_drop() -> None:
    async def scenario() -> None:
        async with await opened(1) as a, await opened(2) as b:
            a.add_peer(b.node_id, b.endpoint)
            assert not a.send(b.node_id, bytes(MAX_PAYLOAD + 1))
            assert a.send(b.node_id, bytes(MAX_PAYLOAD))
            assert await recv(b) == (a.node_id, bytes(MAX_PAYLOAD))
            assert a.stats.oversize == 1

    run(scenario())


@pytest.mark.parametrize("size", [MAX_PAYLOAD + 1, MAX_FRAME + 1, 4 * MAX_FRAME])
def test_oversize_message_is_dropped_and_the_links_survive(size: int) -> None:
    async def scenario() -> None:
        async with await opened(1) as a, await opened(2) as b:
            b.add_peer(a.node_id, a.endpoint)
            context = zmq.asyncio.Context()
            raw = context.socket(zmq.DEALER)
            raw.setsockopt(zmq.LINGER, 0)
            raw.setsockopt(zmq.ROUTING_ID, node_id(9))
            raw.connect(a.endpoint)
            try:
                assert b.send(a.node_id, b"before")
                assert await recv(a) == (b.node_id, b"before")
                await raw.send(bytes(size))
                # Bigger than MAX_FRAME, ZeroMQ cuts the raw peer off and it
                # reconnects; below it, the transport drops the message itself.
                arrived = await keep_sending_until_received(
                    lambda data: raw.send(data, flags=zmq.NOBLOCK), a.recv
                )
                assert arrived.startswith(b"retry-")
                assert b.send(a.node_id, b"after")
                sender, data = await recv(a)
                while data.startswith(b"retry-"):
                    sender, data = await recv(a)
                assert (sender, data) == (b.node_id, b"after")
                if size <= MAX_FRAME:
                    assert a.stats.oversize_received == 1
            finally:
                raw.close(linger=0)
                context.term()

    run(scenario())


def test_sending_to_a_peer_that_is_not_listening_never_blocks() -> None:
    async def scenario() -> None:
        async with await opened(1) as a:
            a.add_peer(node_id(2), f"tcp://127.0.0.1:{free_port()}")
            attempts = SEND_HWM * 3
            accepted = sum(a.send(node_id(2), b"into the void") for _ in range(attempts))
            stats = a.stats
            assert 0 < accepted < attempts
            assert stats.sent == accepted
            assert stats.dropped_full == attempts - accepted

    run(scenario())


def test_sending_to_an_unknown_or_removed_peer_is_refused() -> None:
    async def scenario() -> None:
        async with await opened(1) as a, await opened(2) as b:
            assert not a.send(b.node_id, b"who?")
            a.add_peer(b.node_id, b.endpoint)
            assert a.peers == {b.node_id: b.endpoint}
            a.remove_peer(b.node_id)
            assert not a.send(b.node_id, b"gone")
            assert a.broadcast(b"anyone") == 0
            assert a.stats.no_peer == 2

    run(scenario())


@pytest.mark.parametrize(
    ("routing_id", "garbage"),
    [
        (node_id(7), b"\xff\x00\xc1 not msgpack at all"),
        (b"\x00short", b""),
        (None, bytes(range(256))),
    ],
)
def test_garbage_from_a_raw_dealer_is_just_bytes(routing_id: bytes | None, garbage: bytes) -> None:
    async def scenario() -> None:
        async with await opened(1) as a:
            context = zmq.asyncio.Context()
            raw = context.socket(zmq.DEALER)
            raw.setsockopt(zmq.LINGER, 0)
            if routing_id is not None:
                raw.setsockopt(zmq.ROUTING_ID, routing_id)
            raw.connect(a.endpoint)
            try:
                await raw.send_multipart([b"two", b"frames"])
                await raw.send(garbage)
                sender, data = await recv(a)
                assert data == garbage
                if routing_id is not None:
                    assert sender == routing_id
                assert a.stats.malformed == 1
            finally:
                raw.close(linger=0)
                context.term()

    run(scenario())


def test_close_ends_a_pending_recv_and_later_sends() -> None:
    async def scenario() -> None:
        a = await opened(1)
        waiting = asyncio.ensure_future(a.recv())
        await asyncio.sleep(0)  # let the receive start before the close
        a.close()
        with pytest.raises(TransportClosed):
            await asyncio.wait_for(waiting, WAIT_S)
        with pytest.raises(TransportClosed):
            a.send(node_id(2), b"late")
        a.close()

    run(scenario())


@pytest.mark.parametrize(
    "endpoint", ["127.0.0.1:5555", "tcp://127.0.0.1", "tcp://:5555", "ipc:///tmp/x"]
)
def test_add_peer_rejects_a_bad_endpoint(endpoint: str) -> None:
    async def scenario() -> None:
        async with await opened(1) as a:
            with pytest.raises(ValueError, match="tcp://HOST:PORT"):
                a.add_peer(node_id(2), endpoint)

    run(scenario())


def test_node_id_must_be_sixteen_bytes() -> None:
    with pytest.raises(ValueError, match="16 bytes"):
        run(Transport.open(b"short", "127.0.0.1", 0))


def test_fault_layer_drops_the_configured_share_and_keeps_order() -> None:
    sent = 400

    async def scenario() -> None:
        faults = FaultConfig(loss=0.25, seed=7)
        async with await opened(1, faults) as a, await opened(2) as b:
            a.add_peer(b.node_id, b.endpoint)
            for number in range(sent):
                assert a.send(b.node_id, b"%d" % number)
            lost = a.stats.dropped_fault
            assert 0.18 * sent < lost < 0.32 * sent
            got = [int((await recv(b))[1]) for _ in range(sent - lost)]
            assert got == sorted(got)
            assert a.stats.sent == sent - lost

    run(scenario())


def test_fault_layer_delays_with_timers_and_still_delivers() -> None:
    async def scenario() -> None:
        faults = FaultConfig(delay_ms=20, jitter_ms=10, seed=3)
        async with await opened(1, faults) as a, await opened(2) as b:
            a.add_peer(b.node_id, b.endpoint)
            for number in range(50):
                assert a.send(b.node_id, b"%d" % number)
            assert a.stats.delayed == 50 and a.stats.sent == 0
            got = {int((await recv(b))[1]) for _ in range(50)}
            assert got == set(range(50))
            assert a.stats.sent == 50

    run(scenario())


def test_blitz_faults_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLITZ_FAULTS", "loss=0.5,seed=1")

    async def scenario() -> None:
        async with await Transport.open(node_id(1), "127.0.0.1", 0) as a:
            a.add_peer(node_id(2), f"tcp://127.0.0.1:{free_port()}")
            for _ in range(100):
                a.send(node_id(2), b"x")
            assert 30 < a.stats.dropped_fault < 70

    run(scenario())


def test_a_bad_blitz_faults_stops_the_transport_opening(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLITZ_FAULTS", "loss=lots")
    with pytest.raises(ValueError, match="BLITZ_FAULTS: loss must be a number"):
        run(Transport.open(node_id(1), "127.0.0.1", 0))
