"""The door on 127.0.0.1: open and private tables, refusals, forgeries, garbage, throttles."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import msgpack
import pytest
import zmq
import zmq.asyncio
import zmq.auth
from dutchblitz.node.net.door import DOOR_PUBLIC, DOOR_SECRET, Door, DoorRefused, knock
from dutchblitz.protocol.door.codec import (
    MAX_DOOR_MESSAGE,
    NONCE_SIZE,
    Card,
    Kind,
    decode,
    encode,
)
from dutchblitz.protocol.door.guesses import DoorLimits
from dutchblitz.protocol.door.handshake import pake_identity, pake_password, transcript
from dutchblitz.protocol.wire.auth import Signer, check_signature, node_id_of
from spake2 import SPAKE2_Symmetric
from zmq.auth.asyncio import AsyncioAuthenticator

pytestmark = pytest.mark.timeout(60)

T = TypeVar("T")
WAIT_S = 10.0
TABLE = "kitchen"


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 40))


def signer(n: int) -> Signer:
    return Signer(bytes([n]) * 32)


def card_of(who: Signer, name: str, port: int = 5000) -> Card:
    return Card(who.node_id, who.public_key, f"tcp://127.0.0.1:{port}", name)


async def until(condition: Callable[[], bool], what: str = "condition") -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


class Table:
    """One door on loopback and what it admitted."""

    def __init__(self, door: Door, who: Signer, card: Card) -> None:
        self.door = door
        self.signer = who
        self.card = card
        self.admitted: list[Card] = []


@contextlib.asynccontextmanager
async def context(authenticate: bool = False) -> AsyncIterator[zmq.asyncio.Context]:
    ctx = zmq.asyncio.Context()
    auth = None
    if authenticate:
        auth = AsyncioAuthenticator(ctx)
        auth.start()
        auth.configure_curve(domain="door", location=zmq.auth.CURVE_ALLOW_ANY)
    try:
        yield ctx
    finally:
        if auth is not None:
            auth.stop()
        ctx.destroy(linger=0)


async def open_door(
    ctx: zmq.asyncio.Context,
    n: int = 1,
    *,
    passphrase: str | None = None,
    table: str = TABLE,
    limits: DoorLimits | None = None,
    on_admit: Callable[[Card], None] | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
) -> Table:
    who = signer(n)
    card = card_of(who, f"door{n}", 6000 + n)
    admitted: list[Card] = []
    door = await Door.open(
        ctx,
        host,
        port,
        signer=who,
        table=table,
        passphrase=passphrase,
        card=lambda: card,
        on_admit=on_admit or admitted.append,
        limits=limits,
    )
    result = Table(door, who, card)
    result.admitted = admitted
    return result


async def knock_as(
    ctx: zmq.asyncio.Context,
    endpoint: str,
    n: int = 2,
    *,
    passphrase: str | None = None,
    table: str = TABLE,
    timeout: float = 5.0,
) -> Card:
    who = signer(n)
    return await knock(
        ctx,
        endpoint,
        signer=who,
        table=table,
        passphrase=passphrase,
        mine=card_of(who, f"knocker{n}", 7000 + n),
        timeout=timeout,
    )


async def refused(knocking: Awaitable[Card]) -> str:
    with pytest.raises(DoorRefused) as caught:
        await knocking
    return caught.value.reason


def raw_dealer(ctx: zmq.asyncio.Context, endpoint: str) -> zmq.asyncio.Socket:
    """A bare CURVE client of a door, to send it whatever a test likes."""
    public, secret = zmq.curve_keypair()
    socket = ctx.socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    socket.curve_serverkey = DOOR_PUBLIC
    socket.curve_publickey = public
    socket.curve_secretkey = secret
    socket.connect(endpoint)
    return socket


async def reply(socket: zmq.asyncio.Socket) -> tuple[Kind, list[Any]]:
    return decode(await asyncio.wait_for(socket.recv(), WAIT_S))


# --- the exchange works ---------------------------------------------------------------------


def test_open_table_swaps_cards_and_both_verify() -> None:
    """P-120 (any client key, ZAP domain door), P-123, P-127, P-131."""

    async def main() -> None:
        async with context(authenticate=True) as ctx:
            table = await open_door(ctx)
            try:
                got = await knock_as(ctx, table.door.endpoint)
                assert got == table.card
                assert node_id_of(got.public_key) == got.node_id
                assert table.admitted == [card_of(signer(2), "knocker2", 7002)]
                assert node_id_of(table.admitted[0].public_key) == table.admitted[0].node_id
                stats = table.door.stats
                assert (stats.attempts, stats.admitted, stats.refused) == (1, 1, 0)
            finally:
                table.door.close()

    run(main())


def test_right_passphrase_admits_and_wrong_one_refuses_on_both_sides() -> None:
    """P-129, P-130: a wrong phrase is refused by both sides before knock returns."""

    async def main() -> None:
        async with context() as ctx:
            table = await open_door(ctx, passphrase="correct horse battery")
            try:
                endpoint = table.door.endpoint
                wrong = knock_as(ctx, endpoint, 2, passphrase="correct horse batterx")
                assert await refused(wrong) == "wrong passphrase"
                # The door refused it too, before the knocker gave up.
                assert table.door.stats.refused == 1
                assert table.admitted == []
                got = await knock_as(ctx, endpoint, 3, passphrase="correct horse battery")
                assert got == table.card
                assert [c.node_id for c in table.admitted] == [signer(3).node_id]
                assert table.door.stats.admitted == 1
            finally:
                table.door.close()

    run(main())


def test_passphrase_is_compared_after_unicode_normalisation() -> None:
    """P-128: the phrase is NFC-normalised before SPAKE2."""

    async def main() -> None:
        async with context() as ctx:
            table = await open_door(ctx, passphrase="caf\u00e9")
            try:
                got = await knock_as(ctx, table.door.endpoint, passphrase="cafe\u0301")
                assert got == table.card
            finally:
                table.door.close()

    run(main())


def test_a_table_of_eight_knocks_at_once() -> None:
    """Seven knocks from one address at one private door, all at once, all get in."""

    async def main() -> None:
        async with context() as ctx:
            table = await open_door(ctx, passphrase="one two three")
            try:
                knocks = [
                    knock_as(ctx, table.door.endpoint, n, passphrase="one two three")
                    for n in range(2, 9)
                ]
                assert await asyncio.gather(*knocks) == [table.card] * 7
                assert len({c.node_id for c in table.admitted}) == 7
                assert table.door.stats.throttled == 0
            finally:
                table.door.close()

    run(main())


def test_a_door_made_private_later_wants_the_phrase() -> None:
    async def main() -> None:
        async with context() as ctx:
            table = await open_door(ctx)
            try:
                assert not table.door.private
                table.door.set_passphrase("now private")
                assert table.door.private
                assert await refused(knock_as(ctx, table.door.endpoint)) == "wrong passphrase"
                got = await knock_as(ctx, table.door.endpoint, passphrase="now private")
                assert got == table.card
            finally:
                table.door.close()

    run(main())


def test_a_phrase_where_none_is_wanted_and_none_where_one_is_are_wrong() -> None:
    """P-125."""

    async def main() -> None:
        async with context() as ctx:
            private = await open_door(ctx, 1, passphrase="secret")
            public = await open_door(ctx, 3)
            try:
                assert await refused(knock_as(ctx, private.door.endpoint)) == "wrong passphrase"
                knocking = knock_as(ctx, public.door.endpoint, passphrase="secret")
                assert await refused(knocking) == "wrong passphrase"
                # An empty phrase is no phrase.
                assert await knock_as(ctx, public.door.endpoint, passphrase="") == public.card
                assert private.admitted == []
                assert [c.node_id for c in public.admitted] == [signer(2).node_id]
            finally:
                private.door.close()
                public.door.close()

    run(main())


def test_another_table_is_refused() -> None:
    """P-124."""

    async def main() -> None:
        async with context() as ctx:
            table = await open_door(ctx, passphrase="x")
            try:
                knocking = knock_as(ctx, table.door.endpoint, table="lounge", passphrase="x")
                assert await refused(knocking) == "other table"
                assert table.admitted == []
                assert table.door.stats.refused == 1
            finally:
                table.door.close()

    run(main())


def test_knocking_at_ones_own_door_is_refused() -> None:
    """P-126, the door's side."""

    async def main() -> None:
        async with context() as ctx:
            table = await open_door(ctx, 1)
            try:
                assert await refused(knock_as(ctx, table.door.endpoint, 1)) == "self"
                assert table.admitted == []
            finally:
                table.door.close()

    run(main())


def test_a_door_on_another_address_answers_at_loopback_too() -> None:
    """A node on its LAN address can be named as --peer 127.0.0.1:PORT from its own machine
    (127.0.0.2 stands in for the LAN address: Linux's loopback answers all of 127/8)."""

    async def main() -> None:
        async with context() as ctx:
            table = await open_door(ctx, host="127.0.0.2")
            try:
                port = table.door.endpoint.rpartition(":")[2]
                assert table.door.endpoint == f"tcp://127.0.0.2:{port}"
                assert table.door.loopback == f"tcp://127.0.0.1:{port}"
                assert await knock_as(ctx, table.door.loopback) == table.card
                assert await refused(knock_as(ctx, table.door.loopback, 1)) == "self"
            finally:
                table.door.close()
            on_loopback = await open_door(ctx)
            on_loopback.door.close()
            assert on_loopback.door.loopback == ""  # already there

    run(main())


def test_a_door_whose_port_is_taken_at_loopback_opens_on_its_address_alone() -> None:
    async def main() -> None:
        async with context() as ctx:
            squatter = ctx.socket(zmq.ROUTER)
            squatter.setsockopt(zmq.LINGER, 0)
            squatter.bind("tcp://127.0.0.1:*")
            port = int(squatter.getsockopt_string(zmq.LAST_ENDPOINT).rpartition(":")[2])
            table = await open_door(ctx, host="127.0.0.2", port=port)
            try:
                assert table.door.loopback == ""
                assert await knock_as(ctx, table.door.endpoint) == table.card
            finally:
                table.door.close()
                squatter.close(linger=0)

    run(main())


def test_a_door_that_does_not_answer_times_out() -> None:
    async def main() -> None:
        async with context() as ctx:
            silent = ctx.socket(zmq.ROUTER)
            silent.setsockopt(zmq.LINGER, 0)
            silent.curve_server = True
            silent.curve_secretkey = DOOR_SECRET
            silent.bind("tcp://127.0.0.1:*")
            endpoint = silent.getsockopt_string(zmq.LAST_ENDPOINT)
            loop = asyncio.get_running_loop()
            started = loop.time()
            assert await refused(knock_as(ctx, endpoint, timeout=0.3)) == "timeout"
            assert loop.time() - started < 3.0
            silent.close(linger=0)

    run(main())


# --- forgeries ------------------------------------------------------------------------------


def knock_message(card: Card, *, table: str = TABLE, nonce: bytes = b"\x01" * NONCE_SIZE) -> bytes:
    return encode(Kind.KNOCK, table, False, nonce, b"", card)


def test_a_card_whose_id_is_not_its_keys_is_refused() -> None:
    """P-123."""

    async def main() -> None:
        async with context() as ctx:
            table = await open_door(ctx)
            socket = raw_dealer(ctx, table.door.endpoint)
            try:
                honest = card_of(signer(2), "knocker")
                forged = Card(signer(3).node_id, honest.public_key, honest.table_endpoint, "x")
                await socket.send(knock_message(forged))
                assert await reply(socket) == (Kind.REFUSED, ["bad card"])
                assert table.admitted == []
                # knock() will not even send such a card.
                with pytest.raises(ValueError):
                    await knock(
                        ctx,
                        table.door.endpoint,
                        signer=signer(2),
                        table=TABLE,
                        passphrase=None,
                        mine=forged,
                    )
            finally:
                socket.close(linger=0)
                table.door.close()

    run(main())


def test_a_knocker_that_cannot_sign_for_its_key_is_refused() -> None:
    """P-127, the door's side."""

    async def main() -> None:
        async with context() as ctx:
            table = await open_door(ctx)
            socket = raw_dealer(ctx, table.door.endpoint)
            try:
                victim = card_of(signer(2), "victim")
                nonce_k = b"\x07" * NONCE_SIZE
                await socket.send(knock_message(victim, nonce=nonce_k))
                kind, (nonce_d, pake_d, card_d, sig_d, _mac) = await reply(socket)
                assert kind is Kind.ANSWER and card_d == table.card
                digest = transcript(TABLE, False, nonce_k, b"", victim, nonce_d, pake_d, card_d)
                assert check_signature(card_d.public_key, b"blitz door door\x00" + digest, sig_d)
                # The impostor signs with its own key, not the victim's.
                fake = signer(9).sign(b"blitz door knocker\x00" + digest)
                await socket.send(encode(Kind.CONFIRM, fake, b""))
                assert await reply(socket) == (Kind.REFUSED, ["bad card"])
                assert table.admitted == []
                assert table.door.stats.refused == 1
            finally:
                socket.close(linger=0)
                table.door.close()

    run(main())


@pytest.mark.parametrize(
    ("claimed", "signed", "reason"),
    [(1, True, "bad card"), (2, False, "self")],
    ids=["signature by another key", "the knocker's own card"],
)
def test_a_door_that_cannot_sign_for_its_key_is_refused(
    claimed: int, signed: bool, reason: str
) -> None:
    """P-127, P-126 and P-130, the knocker's side: an impostor door gets a REFUSED back."""

    async def main() -> None:
        async with context() as ctx:
            fake = ctx.socket(zmq.ROUTER)
            fake.setsockopt(zmq.LINGER, 0)
            fake.curve_server = True
            fake.curve_secretkey = DOOR_SECRET
            fake.bind("tcp://127.0.0.1:*")
            endpoint = fake.getsockopt_string(zmq.LAST_ENDPOINT)

            async def impostor() -> list[Any]:
                routing_id, data = await fake.recv_multipart()
                assert decode(data)[0] is Kind.KNOCK
                card = card_of(signer(claimed), "door")
                signature = signer(9).sign(b"x") if signed else b"\x00" * 64
                answer = encode(Kind.ANSWER, b"\x02" * NONCE_SIZE, b"", card, signature, b"")
                await fake.send_multipart([routing_id, answer])
                _, last = await fake.recv_multipart()
                return decode(last)[1]

            serving = asyncio.ensure_future(impostor())
            assert await refused(knock_as(ctx, endpoint)) == reason
            assert await asyncio.wait_for(serving, WAIT_S) == [reason]
            fake.close(linger=0)

    run(main())


# --- a man in the middle ----------------------------------------------------------------------


class Relay:
    """A door in front of a door that passes messages on, changing cards as it likes."""

    def __init__(
        self,
        ctx: zmq.asyncio.Context,
        door_endpoint: str,
        up: Callable[[bytes], bytes] = lambda data: data,
        down: Callable[[bytes], bytes] = lambda data: data,
    ) -> None:
        self.front = ctx.socket(zmq.ROUTER)
        self.front.setsockopt(zmq.LINGER, 0)
        self.front.curve_server = True
        self.front.curve_secretkey = DOOR_SECRET
        self.front.bind("tcp://127.0.0.1:*")
        self.endpoint = self.front.getsockopt_string(zmq.LAST_ENDPOINT)
        self.back = raw_dealer(ctx, door_endpoint)
        self.up, self.down = up, down
        self.task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        routing_id = b""
        poller = zmq.asyncio.Poller()
        poller.register(self.front, zmq.POLLIN)
        poller.register(self.back, zmq.POLLIN)
        while True:
            for socket, _ in await poller.poll():
                if socket is self.front:
                    routing_id, data = await self.front.recv_multipart()
                    await self.back.send(self.up(data))
                else:
                    data = await self.back.recv()
                    await self.front.send_multipart([routing_id, self.down(data)])

    def close(self) -> None:
        self.task.cancel()
        self.front.close(linger=0)
        self.back.close(linger=0)


def swap_card(data: bytes, kind: Kind, index: int, to: Signer) -> bytes:
    """Put ``to``'s key (and the id that goes with it) on the card in field ``index``."""
    value = msgpack.unpackb(data, raw=False)
    if value[1] == kind:
        card = value[2 + index]
        card[0], card[1] = to.node_id, to.public_key
    return msgpack.packb(value, use_bin_type=True)  # type: ignore[no-any-return]


@pytest.mark.parametrize("phrase", ["open sesame", None])
@pytest.mark.parametrize("direction", ["knocker's card", "door's card"])
def test_a_relay_that_swaps_a_key_is_caught(phrase: str | None, direction: str) -> None:
    """A man in the middle who swaps a key makes the transcript MAC (and signatures) fail."""
    mallory = signer(66)

    async def main() -> None:
        async with context() as ctx:
            table = await open_door(ctx, passphrase=phrase)
            if direction == "knocker's card":
                relay = Relay(
                    ctx, table.door.endpoint, up=lambda d: swap_card(d, Kind.KNOCK, 4, mallory)
                )
            else:
                relay = Relay(
                    ctx, table.door.endpoint, down=lambda d: swap_card(d, Kind.ANSWER, 2, mallory)
                )
            try:
                reason = await refused(knock_as(ctx, relay.endpoint, passphrase=phrase))
                # With a phrase the MAC fails first; without one, the signature.
                assert reason == ("wrong passphrase" if phrase else "bad card")
                assert table.admitted == []
                await until(lambda: table.door.stats.refused == 1, "the door to refuse")
                # Passed on untouched, the same knock gets in.
                honest = Relay(ctx, table.door.endpoint)
                try:
                    assert await knock_as(ctx, honest.endpoint, passphrase=phrase) == table.card
                finally:
                    honest.close()
            finally:
                relay.close()
                table.door.close()

    run(main())


def fake_door(ctx: zmq.asyncio.Context) -> tuple[zmq.asyncio.Socket, str]:
    socket = ctx.socket(zmq.ROUTER)
    socket.setsockopt(zmq.LINGER, 0)
    socket.curve_server = True
    socket.curve_secretkey = DOOR_SECRET
    socket.bind("tcp://127.0.0.1:*")
    return socket, socket.getsockopt_string(zmq.LAST_ENDPOINT)


def test_a_door_that_reflects_the_knockers_pake_message_is_refused() -> None:
    """P-207: SPAKE2 refuses its own message sent back; the knocker says so, admits nobody."""

    async def main() -> None:
        async with context() as ctx:
            fake, endpoint = fake_door(ctx)

            async def reflect() -> list[Any]:
                routing_id, data = await fake.recv_multipart()
                _, (_table, _private, nonce_k, pake_k, _card) = decode(data)
                card = card_of(signer(1), "door")
                answer = encode(Kind.ANSWER, nonce_k, pake_k, card, b"\x00" * 64, b"\x00" * 32)
                await fake.send_multipart([routing_id, answer])
                return decode((await fake.recv_multipart())[1])[1]

            serving = asyncio.ensure_future(reflect())
            assert await refused(knock_as(ctx, endpoint, passphrase="pw")) == "malformed"
            assert await asyncio.wait_for(serving, WAIT_S) == ["malformed"]
            fake.close(linger=0)

    run(main())


@pytest.mark.parametrize(("phrase", "reason"), [("pw", "wrong passphrase"), (None, "bad card")])
def test_a_replayed_answer_is_refused(phrase: str | None, reason: str) -> None:
    """P-127, P-129: the knocker's fresh nonce makes an ANSWER from an earlier knock useless."""
    recorded: list[bytes] = []

    def record_or_replay(data: bytes) -> bytes:
        if decode(data)[0] is not Kind.ANSWER:
            return data
        if not recorded:
            recorded.append(data)
        return recorded[0]

    async def main() -> None:
        async with context() as ctx:
            table = await open_door(ctx, passphrase=phrase)
            relay = Relay(ctx, table.door.endpoint, down=record_or_replay)
            try:
                assert await knock_as(ctx, relay.endpoint, passphrase=phrase) == table.card
                assert await refused(knock_as(ctx, relay.endpoint, passphrase=phrase)) == reason
                assert len(table.admitted) == 1
            finally:
                relay.close()
                table.door.close()

    run(main())


@pytest.mark.parametrize(
    "answer",
    [b"\xc1", msgpack.packb([1, 4, 0]), b"\x00" * 3000],
    ids=["not msgpack", "bad welcome", "oversize"],
)
def test_a_door_that_answers_garbage_is_refused(answer: bytes) -> None:
    async def main() -> None:
        async with context() as ctx:
            fake, endpoint = fake_door(ctx)

            async def garbage() -> None:
                routing_id, _ = await fake.recv_multipart()
                await fake.send_multipart([routing_id, answer])

            serving = asyncio.ensure_future(garbage())
            reason = await refused(knock_as(ctx, endpoint, timeout=1.0))
            # Too long a frame costs the door its connection instead: the knock times out.
            assert reason == ("timeout" if len(answer) > MAX_DOOR_MESSAGE else "malformed")
            await asyncio.wait_for(serving, WAIT_S)
            fake.close(linger=0)

    run(main())


def test_a_knock_with_a_pake_message_that_is_no_point_is_refused() -> None:
    """P-207: a SPAKE2 message that is no point of the curve is refused `malformed`."""

    async def main() -> None:
        async with context() as ctx:
            table = await open_door(ctx, passphrase="pw")
            socket = raw_dealer(ctx, table.door.endpoint)
            try:
                card = card_of(signer(2), "knocker")
                bogus = b"S" + b"\xff" * 32
                await socket.send(encode(Kind.KNOCK, TABLE, True, b"\x03" * 32, bogus, card))
                assert await reply(socket) == (Kind.REFUSED, ["malformed"])
                assert table.door.stats.malformed == 1
                assert await knock_as(ctx, table.door.endpoint, passphrase="pw") == table.card
            finally:
                socket.close(linger=0)
                table.door.close()

    run(main())


# --- garbage and limits ---------------------------------------------------------------------


GARBAGE: list[list[bytes]] = [
    [b""],
    [b"\xc1"],  # never used in msgpack
    [b"not msgpack at all"],
    [msgpack.packb({"a": 1})],
    [msgpack.packb([1])],
    [msgpack.packb([1, 99])],
    [msgpack.packb([1, True])],
    [msgpack.packb([1.0, 1])],
    [msgpack.packb([1, 1, TABLE, False, b"\x00" * 31, b"", [b"", b"", "", ""]])],
    [msgpack.packb([1, 1, TABLE, 0, b"\x00" * 32, b"", [b"", b"", "", ""]])],
    [msgpack.packb([1, 3, b"\x00" * 64, b""])],  # CONFIRM with no knock
    [msgpack.packb([1, 4])],  # WELCOME to a door
    [msgpack.packb([1, 5, "busy"])],  # a refusal with no knock
    [b"\xdc\x00\x02\x01\x04"],  # [1, 4] in a longer form than needed
    [msgpack.packb([1, 4]) + b"\x00"],  # trailing byte
    [msgpack.packb([1, 4]), msgpack.packb([1, 4])],  # two frames
    [b"\x91" * 600],  # deep nesting
]


def test_garbage_is_counted_and_the_door_stays_open() -> None:
    """P-121, P-122: dropped, counted, unanswered (but for the version)."""

    async def main() -> None:
        async with context() as ctx:
            table = await open_door(ctx)
            socket = raw_dealer(ctx, table.door.endpoint)
            try:
                for frames in GARBAGE:
                    await socket.send_multipart(frames)
                await until(lambda: table.door.stats.malformed == len(GARBAGE), "garbage counted")
                # Another version gets one word back, and is counted with the garbage.
                await socket.send(msgpack.packb([2, 1]))
                assert await reply(socket) == (Kind.REFUSED, ["version"])
                assert table.door.stats.malformed == len(GARBAGE) + 1
                assert await knock_as(ctx, table.door.endpoint) == table.card
                assert table.door.stats.admitted == 1
            finally:
                socket.close(linger=0)
                table.door.close()

    run(main())


def test_a_message_over_the_limit_costs_its_sender_the_connection() -> None:
    async def main() -> None:
        async with context() as ctx:
            table = await open_door(ctx)
            socket = raw_dealer(ctx, table.door.endpoint)
            try:
                await socket.send(b"\x00" * (MAX_DOOR_MESSAGE + 1))
                assert await knock_as(ctx, table.door.endpoint) == table.card
            finally:
                socket.close(linger=0)
                table.door.close()

    run(main())


def test_a_failing_on_admit_refuses_and_keeps_the_door_open() -> None:
    calls: list[Card] = []

    def broken(card: Card) -> None:
        calls.append(card)
        raise RuntimeError("roster full")

    async def main() -> None:
        async with context() as ctx:
            table = await open_door(ctx, on_admit=broken)
            try:
                assert await refused(knock_as(ctx, table.door.endpoint)) == "refused"
                assert await refused(knock_as(ctx, table.door.endpoint, 3)) == "refused"
                assert len(calls) == 2
                assert table.door.stats.admitted == 0
            finally:
                table.door.close()

    run(main())


def test_fast_failed_guesses_are_throttled() -> None:
    """P-133: the source's bucket."""
    limits = DoorLimits(source_burst=3, source_every=1000.0, global_burst=100)

    async def main() -> None:
        async with context() as ctx:
            table = await open_door(ctx, passphrase="hunter2", limits=limits)
            try:
                endpoint = table.door.endpoint
                for n in range(3):
                    wrong = knock_as(ctx, endpoint, 10 + n, passphrase=f"guess{n}")
                    assert await refused(wrong) == "wrong passphrase"
                assert await refused(knock_as(ctx, endpoint, passphrase="guess3")) == "busy"
                # While the source is throttled, even the right phrase must wait.
                assert await refused(knock_as(ctx, endpoint, passphrase="hunter2")) == "busy"
                stats = table.door.stats
                assert (stats.refused, stats.throttled, stats.admitted) == (3, 2, 0)
                assert table.admitted == []
            finally:
                table.door.close()

    run(main())


def test_the_global_cap_holds_and_successes_cost_nothing() -> None:
    """P-133: the global bucket; admissions give their tokens back."""
    limits = DoorLimits(source_burst=100, global_burst=2, global_every=1000.0)

    async def main() -> None:
        async with context() as ctx:
            table = await open_door(ctx, passphrase="hunter2", limits=limits)
            try:
                endpoint = table.door.endpoint
                for n in range(5):
                    await knock_as(ctx, endpoint, 10 + n, passphrase="hunter2")
                assert table.door.stats.admitted == 5
                for n in range(2):
                    assert await refused(knock_as(ctx, endpoint, passphrase=f"x{n}")) == (
                        "wrong passphrase"
                    )
                assert await refused(knock_as(ctx, endpoint, passphrase="hunter2")) == "busy"
            finally:
                table.door.close()

    run(main())


def test_an_abandoned_knock_times_out_at_the_door() -> None:
    """P-131, P-132: an ANSWER without a CONFIRM admits nobody and ends."""
    limits = DoorLimits(session_timeout=0.2)

    async def main() -> None:
        async with context() as ctx:
            table = await open_door(ctx, passphrase="p", limits=limits)
            socket = raw_dealer(ctx, table.door.endpoint)
            try:
                pake = SPAKE2_Symmetric(pake_password("guess"), idSymmetric=pake_identity(TABLE))
                card = card_of(signer(2), "knocker")
                await socket.send(encode(Kind.KNOCK, TABLE, True, b"\x03" * 32, pake.start(), card))
                kind, _ = await reply(socket)
                assert kind is Kind.ANSWER
                # The knocker now knows whether its one guess was right, and walks away.
                await until(lambda: table.door.stats.refused == 1, "the abandoned knock to end")
                assert table.admitted == []
                assert await knock_as(ctx, table.door.endpoint, 3, passphrase="p") == table.card
            finally:
                socket.close(linger=0)
                table.door.close()

    run(main())
