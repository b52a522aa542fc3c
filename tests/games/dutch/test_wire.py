"""Dutch on the table's wire (spec/dutch-deal.md section 6): the vectors, every refusal by
name, round trips of every message (Hypothesis), bytes that never crash the decoder, and a
Dutch payload inside a table GAME body (spec/protocol.md P-209)."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import msgpack
import pytest
from dutchblitz.protocol.conformance.case import Case
from dutchblitz.protocol.games.dutch import wire, wire_vectors
from dutchblitz.protocol.games.dutch.cards import CARDS_IN_DECK
from dutchblitz.protocol.games.dutch.moves import (
    CallDutch,
    Discard,
    Draw,
    Give,
    InitialPeek,
    Leave,
    Look,
    Replace,
    Skip,
    Spot,
    Swap,
    Throw,
)
from dutchblitz.protocol.games.dutch.wire import (
    HandoverMessage,
    Payload,
    SealedShareMessage,
    SharesMessage,
    TokenShare,
    WireError,
    WireRefusal,
    decode,
    encode,
)
from dutchblitz.protocol.table.masked import elgamal, group
from dutchblitz.protocol.table.masked.checks import (
    AuditMessage,
    Cheat,
    CheatKind,
    KeyShareMessage,
    ShareMessage,
    ShuffleMessage,
)
from dutchblitz.protocol.table.masked.elgamal import Masked, Proof, Share
from dutchblitz.protocol.table.masked.seal import SealedShare, SealProof
from dutchblitz.protocol.wire import codec
from dutchblitz.protocol.wire.messages import Envelope, Event, GameBody
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.games.dutch import export_wire_vectors


def vectors() -> dict[str, Any]:
    source = resources.files("dutchblitz.vectors").joinpath("dutch_wire.json")
    data: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return data


CASES = wire_vectors.cases(vectors())


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.spec_id} {c.name}")
def test_vector(case: Case) -> None:
    """M-22, M-23, M-24, M-25: encodings, refusals, sealed shares."""
    assert case.run() is None


def test_the_file_is_what_the_exporter_writes() -> None:
    assert vectors() == json.loads(json.dumps(export_wire_vectors.vectors()))


def test_a_wrong_vector_is_caught() -> None:
    data = copy.deepcopy(vectors())
    data["valid"][0]["bytes"] = data["valid"][0]["bytes"][:-2] + "00"
    data["invalid"][0]["reason"] = "bad_point"
    data["seals"][0]["b"] = "00" + data["seals"][0]["b"][2:]
    failed = [c.name for c in wire_vectors.cases(data) if c.run() is not None]
    assert len(failed) == 3


def test_the_vectors_name_every_refusal_and_every_message() -> None:
    """M-23: every code is given by some vector; M-22: every kind is encoded by one."""
    data = vectors()
    assert {v["reason"] for v in data["invalid"]} == {str(r) for r in WireRefusal}
    kinds = {decode(bytes.fromhex(v["bytes"])).message.__class__ for v in data["valid"]}
    assert kinds == set(wire.KIND_OF)


# -- a table of refusals, one field broken at a time ----------------------------------------

SECRET = elgamal.key_secret(bytes([3]) * 32)
PUBLIC = elgamal.public_key(SECRET)
PROOF = elgamal.prove_key(SECRET, b"context")
ORDER_FOUR = bytes(32)
TOO_BIG = (2**252 + 27742317777372353535851937790883648493).to_bytes(32, "little")


def _pack(*items: object) -> bytes:
    packed: bytes = msgpack.packb(list(items), use_bin_type=True)
    return packed


SEALED = SealedShare(PUBLIC, PUBLIC, SealProof(PROOF.e, PROOF.s, PROOF.e))
SEALED_WIRE = [PUBLIC, PUBLIC, [PROOF.e, PROOF.s, PROOF.e]]

REFUSALS = [
    ("round over 2^32-1", _pack(11, 2**32), WireRefusal.BAD_FIELD),
    ("kind 0", _pack(0, 1), WireRefusal.UNKNOWN_MESSAGE),
    ("kind 20", _pack(20, 1), WireRefusal.UNKNOWN_MESSAGE),
    ("an empty array", _pack(), WireRefusal.BAD_LENGTH),
    ("replace with no slot", _pack(13, 1), WireRefusal.BAD_LENGTH),
    ("a spot as an int", _pack(15, 1, 3), WireRefusal.BAD_FIELD),
    ("a spot of three", _pack(15, 1, [0, 1, 2]), WireRefusal.BAD_LENGTH),
    ("a seat of -1", _pack(16, 1, -1), WireRefusal.BAD_FIELD),
    ("key public as an int", _pack(1, 1, 0, 5, [PROOF.e, PROOF.s]), WireRefusal.BAD_FIELD),
    ("key public off the group", _pack(1, 1, 0, ORDER_FOUR, [PROOF.e, PROOF.s]), "bad_point"),
    ("key proof s too big", _pack(1, 1, 0, PUBLIC, [PROOF.e, TOO_BIG]), "bad_scalar"),
    ("key proof of one", _pack(1, 1, 0, PUBLIC, [PROOF.e]), WireRefusal.BAD_LENGTH),
    ("sealed to seat 8", _pack(4, 1, 0, 3, 8, SEALED_WIRE), WireRefusal.BAD_FIELD),
    (
        "sealed proof of two",
        _pack(4, 1, 0, 3, 2, [PUBLIC, PUBLIC, [PROOF.e, PROOF.s]]),
        "bad_length",
    ),
    ("audit of 55", _pack(5, 1, 0, list(range(55)), [bytes(32)] * 54), "bad_length"),
    ("audit position 54", _pack(5, 1, 0, [*range(53), 54], [bytes(32)] * 54), "bad_field"),
    ("handover of 53", _pack(6, 1, 0, [[PUBLIC, [PROOF.e, PROOF.s]]] * 53), "bad_length"),
    ("a bin of 33", _pack(4, 1, 0, 3, 2, [bytes(33), PUBLIC, [PROOF.e] * 3]), "bad_length"),
    ("bytes, not a payload", b"", WireRefusal.MALFORMED),
]


@pytest.mark.parametrize(("name", "data", "reason"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_M23_each_refusal_is_named(name: str, data: bytes, reason: str) -> None:
    with pytest.raises(WireError) as refused:
        decode(data)
    assert refused.value.reason == reason


def test_M23_a_sender_refuses_what_a_receiver_refuses() -> None:
    unsent = [
        Payload(-1, Draw()),
        Payload(1, Replace(54)),
        Payload(1, KeyShareMessage(0, ORDER_FOUR, PROOF)),
        Payload(1, KeyShareMessage(0, PUBLIC, Proof(TOO_BIG, PROOF.s))),
        Payload(1, AuditMessage(0, (0,) * 54, (bytes(32),) * 54)),
        Payload(1, Leave()),
        "not a payload",
    ]
    for payload in unsent:
        with pytest.raises(WireError):
            encode(payload)  # type: ignore[arg-type]


def test_M23_a_refused_payload_or_another_seats_message_is_its_senders_cheat() -> None:
    key = encode(Payload(1, KeyShareMessage(2, PUBLIC, PROOF)))
    assert wire.receive(key, 2) == decode(key)
    cheat = wire.receive(key, 1)
    assert isinstance(cheat, Cheat) and cheat.seat == 1 and cheat.kind is CheatKind.BAD_MESSAGE
    refused = wire.receive(_pack(20, 1), 0)
    assert isinstance(refused, Cheat) and refused.kind is CheatKind.BAD_MESSAGE
    assert "unknown_message" in refused.detail
    give = encode(Payload(1, Give(3)))
    assert wire.receive(give, 0) == decode(give)  # a Give names whom it gives to


def test_M24_a_share_for_one_seat_is_never_sent_in_the_clear() -> None:
    share = Share(PUBLIC, PROOF)
    with pytest.raises(WireError, match="sealed"):
        encode(Payload(1, ShareMessage(0, 3, 2, share)))
    assert decode(encode(Payload(1, ShareMessage(0, 3, None, share)))).message.to is None
    with pytest.raises(WireError):
        encode(Payload(1, SealedShareMessage(2, 3, 2, SEALED)))


# -- round trips and fuzz --------------------------------------------------------------------

seats = st.integers(0, 7)
slots = st.integers(0, 53)
tokens = st.integers(0, 53)
spots = st.builds(Spot, seats, slots)
points = st.integers(1, 2**64).map(lambda n: group.times_base(n.to_bytes(32, "little")))
scalars = st.integers(0, 2**252).map(lambda n: n.to_bytes(32, "little"))
proofs = st.builds(Proof, scalars, scalars)
shares = st.builds(Share, points, proofs)
POINTS = tuple(group.times_base((n + 1).to_bytes(32, "little")) for n in range(108))
DECK = tuple(Masked(POINTS[2 * i], POINTS[2 * i + 1]) for i in range(54))


@st.composite
def sealed_shares(draw: st.DrawFn) -> SealedShareMessage:
    seat, to = draw(st.lists(seats, min_size=2, max_size=2, unique=True))
    sealed = SealedShare(
        draw(points), draw(points), SealProof(draw(scalars), draw(scalars), draw(scalars))
    )
    return SealedShareMessage(seat, draw(tokens), to, sealed)


messages = st.one_of(
    st.builds(KeyShareMessage, seats, points, proofs),
    st.builds(ShuffleMessage, seats, st.permutations(DECK).map(tuple)),
    st.builds(ShareMessage, seats, tokens, st.none(), shares),
    sealed_shares(),
    st.builds(
        SharesMessage,
        seats,
        st.lists(tokens, min_size=2, max_size=54, unique=True).map(
            lambda ts: tuple(TokenShare(t, POINTS[t], PROOF) for t in sorted(ts))
        ),
    ),
    st.builds(
        AuditMessage,
        seats,
        st.permutations(range(54)).map(tuple),
        st.lists(scalars, min_size=54, max_size=54).map(tuple),
    ),
    st.builds(HandoverMessage, seats, st.lists(shares, min_size=54, max_size=54).map(tuple)),
    st.builds(InitialPeek, slots, slots),
    st.just(Draw()),
    st.just(Discard()),
    st.builds(Replace, slots),
    st.builds(Swap, spots, spots),
    st.builds(Look, spots),
    st.builds(Give, seats),
    st.just(Skip()),
    st.builds(Throw, slots),
    st.just(CallDutch()),
)
payloads = st.builds(Payload, st.integers(0, 2**32 - 1), messages)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payloads)
def test_M22_every_message_round_trips_in_one_encoding(payload: Payload) -> None:
    data = encode(payload)
    assert decode(data) == payload
    assert encode(decode(data)) == data
    assert len(data) <= wire.MAX_GAME_PAYLOAD


def _valid_bytes() -> list[bytes]:
    return [bytes.fromhex(v["bytes"]) for v in vectors()["valid"]]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(_valid_bytes())))
    for _ in range(draw(st.integers(1, 4))):
        if not data:
            break
        where = draw(st.integers(0, len(data) - 1))
        choice = draw(st.integers(0, 2))
        if choice == 0:
            data[where] = draw(st.integers(0, 255))
        elif choice == 1:
            del data[where]
        else:
            data.insert(where, draw(st.integers(0, 255)))
    return bytes(data)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.binary(max_size=200), mutated()))
def test_M23_bytes_never_crash_the_decoder(data: bytes) -> None:
    try:
        payload = decode(data)
    except WireError as refused:
        assert refused.reason in set(WireRefusal)
        return
    assert encode(payload) == data  # whatever is accepted is in its one encoding


def test_P209_a_dutch_payload_rides_a_table_game_body() -> None:
    """The table codec carries the bytes as they are; Dutch's codec reads them."""
    payload = Payload(7, Swap(Spot(0, 1), Spot(2, 3)))
    body = GameBody(wire.GAME_ID, encode(payload))
    sent = Envelope("kitchen", bytes(range(16)), 3, 1, Event(body))
    received = codec.decode(codec.encode(sent))
    assert isinstance(received.payload, Event) and isinstance(received.payload.body, GameBody)
    assert decode(received.payload.body.payload) == payload


def test_a_whole_shuffle_fits_a_game_body() -> None:
    step = elgamal.shuffle(elgamal.initial_deck(CARDS_IN_DECK), PUBLIC, bytes([4]) * 32)
    data = encode(Payload(1, ShuffleMessage(0, step.deck)))
    sent = Envelope("kitchen", bytes(range(16)), 3, 1, Event(GameBody(wire.GAME_ID, data)))
    assert len(codec.encode(sent)) < codec.MAX_MESSAGE_SIZE
