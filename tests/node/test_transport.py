"""The ZeroMQ transport on 127.0.0.1: CURVE and the roster, delivery, limits, garbage, faults."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import pytest
import zmq
import zmq.asyncio
from dutchblitz.node.net.roster import Roster, Source
from dutchblitz.node.net.transport import (
    MAX_FRAME,
    MAX_PAYLOAD,
    SEND_HWM,
    Transport,
    TransportClosed,
)
from dutchblitz.protocol.wire.auth import Signer
from dutchblitz.protocol.wire.codec import encode
from dutchblitz.protocol.wire.messages import Envelope, Watch, WatchOp
from zmq.utils import z85

from tests.rigs.faults import FaultConfig, Faults

pytestmark = pytest.mark.timeout(30)

T = TypeVar("T")
NO_FAULTS = FaultConfig()
WAIT_S = 10.0


SIGNERS = {n: Signer(bytes([n]) * 32) for n in range(1, 10)}
MEMBERS = (1, 2, 3, 4, 5, 6, 9)  # 7 and 8 are strangers to everyone's roster


def node_id(n: int) -> bytes:
    return SIGNERS[n].node_id


def key(n: int) -> bytes:
    return SIGNERS[n].public_key


def roster(members: tuple[int, ...] = MEMBERS) -> Roster:
    known = Roster()
    for n in members:
        known.learn(node_id(n), key(n), Source.DOOR)
    return known


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 20))


async def opened(
    n: int, faults: FaultConfig = NO_FAULTS, members: tuple[int, ...] = MEMBERS
) -> Transport:
    fate = Faults(faults) if faults.is_active else None
    return await Transport.open(SIGNERS[n], "127.0.0.1", 0, roster=roster(members), faults=fate)


def raw_dealer(
    context: zmq.asyncio.Context, n: int, server: Transport, routing_id: bytes | None = None
) -> zmq.asyncio.Socket:
    """A bare DEALER with node ``n``'s key, connected to ``server``'s table ROUTER."""
    raw = context.socket(zmq.DEALER)
    raw.setsockopt(zmq.LINGER, 0)
    raw.setsockopt(zmq.CURVE_SERVERKEY, z85.encode(server.signer.curve_public))
    raw.setsockopt(zmq.CURVE_PUBLICKEY, z85.encode(SIGNERS[n].curve_public))
    raw.setsockopt(zmq.CURVE_SECRETKEY, z85.encode(SIGNERS[n].curve_secret()))
    if routing_id is not None:
        raw.setsockopt(zmq.ROUTING_ID, routing_id)
    raw.connect(server.endpoint)
    return raw


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
            a.add_peer(b.node_id, b.endpoint, b.signer.public_key)
            b.add_peer(a.node_id, a.endpoint, a.signer.public_key)
            assert a.send(b.node_id, b"ping")
            assert await recv(b) == (a.node_id, b"ping")
            assert b.send(a.node_id, b"pong")
            assert await recv(a) == (b.node_id, b"pong")
            assert a.stats.sent == 1 and a.stats.received == 1

    run(scenario())


def test_messages_from_one_peer_arrive_in_order() -> None:
    async def scenario() -> None:
        async with await opened(1) as a, await opened(2) as b:
            a.add_peer(b.node_id, b.endpoint, b.signer.public_key)
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
                        node.add_peer(other.node_id, other.endpoint, other.signer.public_key)
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
            a.add_peer(b.node_id, b.endpoint, b.signer.public_key)
            assert not a.send(b.node_id, bytes(MAX_PAYLOAD + 1))
            assert a.send(b.node_id, bytes(MAX_PAYLOAD))
            assert await recv(b) == (a.node_id, bytes(MAX_PAYLOAD))
            assert a.stats.oversize == 1

    run(scenario())


@pytest.mark.parametrize("size", [MAX_PAYLOAD + 1, MAX_FRAME + 1, 4 * MAX_FRAME])
def test_oversize_message_is_dropped_and_the_links_survive(size: int) -> None:
    async def scenario() -> None:
        async with await opened(1) as a, await opened(2) as b:
            b.add_peer(a.node_id, a.endpoint, a.signer.public_key)
            context = zmq.asyncio.Context()
            raw = raw_dealer(context, 9, a, node_id(9))
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
            a.add_peer(node_id(2), f"tcp://127.0.0.1:{free_port()}", key(2))
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
            a.add_peer(b.node_id, b.endpoint, b.signer.public_key)
            assert a.peers == {b.node_id: b.endpoint}
            a.remove_peer(b.node_id)
            assert not a.send(b.node_id, b"gone")
            assert a.broadcast(b"anyone") == 0
            assert a.stats.no_peer == 2

    run(scenario())


@pytest.mark.parametrize(
    ("routing_id", "garbage"),
    [
        (node_id(9), b"\xff\x00\xc1 not msgpack at all"),
        (None, bytes(range(256))),
    ],
)
def test_garbage_from_a_raw_dealer_is_just_bytes(routing_id: bytes | None, garbage: bytes) -> None:
    """A member's key may send anything: it arrives as bytes under the member's id.

    P-192: a message of two frames is dropped and counted; one frame is one message.
    """

    async def scenario() -> None:
        async with await opened(1) as a:
            context = zmq.asyncio.Context()
            raw = raw_dealer(context, 9, a, routing_id)
            try:
                await raw.send_multipart([b"two", b"frames"])
                await raw.send(garbage)
                sender, data = await recv(a)
                # With no routing id of its own, ZeroMQ makes one up: the key still names it.
                assert (sender, data) == (node_id(9), garbage)
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
                a.add_peer(node_id(2), endpoint, key(2))

    run(scenario())


def test_fault_layer_drops_the_configured_share_and_keeps_order() -> None:
    sent = 400

    async def scenario() -> None:
        faults = FaultConfig(loss=0.25, seed=7)
        async with await opened(1, faults) as a, await opened(2) as b:
            a.add_peer(b.node_id, b.endpoint, b.signer.public_key)
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
            a.add_peer(b.node_id, b.endpoint, b.signer.public_key)
            for number in range(50):
                assert a.send(b.node_id, b"%d" % number)
            assert a.stats.delayed == 50 and a.stats.sent == 0
            got = {int((await recv(b))[1]) for _ in range(50)}
            assert got == set(range(50))
            assert a.stats.sent == 50

    run(scenario())


# -- CURVE, ZAP and the roster ------------------------------------------------------------


def test_a_strangers_key_is_refused_until_the_roster_learns_it() -> None:
    """P-136: ZAP refuses a key the roster does not let in; the DEALER tries again later."""

    async def scenario() -> None:
        async with await opened(1) as a, await opened(7) as stranger:
            stranger.add_peer(a.node_id, a.endpoint, key(1))
            assert stranger.send(a.node_id, b"let me in")
            got: list[tuple[bytes, bytes]] = []
            await wait_for(lambda: a.roster.stats.refused >= 1, a, got)
            assert got == []
            assert a.stats.received == 0
            # Learnt the right way (say at the door), the same DEALER gets in on its next try.
            a.roster.learn(node_id(7), key(7), Source.DOOR)
            arrived = await keep_sending_until_received(
                lambda data: stranger.send(a.node_id, data), a.recv
            )
            assert arrived in (b"let me in", b"retry-0") or arrived.startswith(b"retry-")

    run(scenario())


def test_a_member_claiming_another_members_routing_id_is_dropped_and_counted() -> None:
    """P-137: 9 claims 2's id as its routing id: its key says it is 9, so it is dropped."""

    async def scenario() -> None:
        async with await opened(1) as a, await opened(2) as b:
            b.add_peer(a.node_id, a.endpoint, key(1))
            assert b.send(a.node_id, b"from 2")
            assert await recv(a) == (node_id(2), b"from 2")
            context = zmq.asyncio.Context()
            impostor = raw_dealer(context, 9, a, node_id(2))
            try:
                await impostor.send(b"from 2, honestly")
                got: list[tuple[bytes, bytes]] = []
                await wait_for(lambda: a.stats.impostor >= 1, a, got)
                # 2's own connection is untouched and still speaks as 2.
                assert b.send(a.node_id, b"really from 2")
                await wait_for(lambda: (node_id(2), b"really from 2") in got, a, got)
                assert a.stats.impostor == 1
                assert all(sender == node_id(2) for sender, _ in got)
            finally:
                impostor.close(linger=0)
                context.term()

    run(scenario())


def test_once_the_game_starts_a_lobby_guest_is_cut_off_at_once() -> None:
    """P-138: a connection opened in the lobby no longer delivers once its key is not let in."""

    async def scenario() -> None:
        async with await opened(1) as a, await opened(2) as b, await opened(3) as guest:
            for sender in (b, guest):
                sender.add_peer(a.node_id, a.endpoint, key(1))
                assert sender.send(a.node_id, b"hello")
            assert {(await recv(a))[0] for _ in range(2)} == {node_id(2), node_id(3)}
            a.roster.seat_only([node_id(1), node_id(2)])
            assert guest.send(a.node_id, b"still here?")
            assert b.send(a.node_id, b"playing")
            got: list[tuple[bytes, bytes]] = []
            # The two messages race: wait for the refusal and for the member's message.
            await wait_for(lambda: a.stats.not_on_roster == 1 and bool(got), a, got)
            assert got == [(node_id(2), b"playing")]
            assert a.stats.not_on_roster == 1
            a.roster.reopen()
            assert guest.send(a.node_id, b"back in the lobby")
            assert await recv(a) == (node_id(3), b"back in the lobby")

    run(scenario())


def test_once_the_game_starts_a_lobby_guest_may_still_send_watch_and_nothing_else() -> None:
    """P-216: a key the lobby let in connects during the game, to watch only."""
    watch = Envelope(
        "t", node_id(3), 0, 0, Watch(WatchOp.SUBSCRIBE, b"", 0, "sam", "tcp://127.0.0.1:1")
    )

    async def scenario() -> None:
        async with await opened(1) as a, await opened(3) as guest:
            a.roster.seat_only([node_id(1)])
            guest.add_peer(a.node_id, a.endpoint, key(1))
            assert guest.send(a.node_id, b"a move")
            assert guest.send(a.node_id, encode(watch))
            assert await recv(a) == (node_id(3), encode(watch))
            assert a.stats.not_on_roster == 1

    run(scenario())


def test_a_dealer_only_talks_to_the_holder_of_the_key_it_was_given() -> None:
    """P-134: an endpoint that answers with another key never gets the message."""

    async def scenario() -> None:
        async with await opened(1) as a, await opened(2) as b, await opened(3) as c:
            a.add_peer(b.node_id, c.endpoint, key(2))  # c listens where a thinks b is
            for _ in range(5):
                assert a.send(b.node_id, b"for 2 only")
            a.add_peer(c.node_id, c.endpoint, key(3))
            assert a.send(c.node_id, b"for 3")
            assert await recv(c) == (node_id(1), b"for 3")
            assert c.try_recv() is None
            assert c.stats.received == 1

    run(scenario())


async def wait_for(
    condition: Callable[[], bool], reader: Transport, got: list[tuple[bytes, bytes]]
) -> None:
    """Read what arrives at ``reader`` into ``got`` until ``condition`` holds."""
    async with asyncio.timeout(WAIT_S):
        while not condition():
            message = reader.try_recv()
            if message is None:
                await asyncio.sleep(0.01)
            else:
                got.append(message)
