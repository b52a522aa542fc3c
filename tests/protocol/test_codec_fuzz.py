"""Hostile input: decode refuses it with a ProtocolError, and nothing else, quickly (P-98).

Whatever decode accepts, it accepts only in its one canonical encoding (P-10, P-11), so
every accepted byte string must come back unchanged from ``encode``.
"""

from __future__ import annotations

import json
import tracemalloc
from importlib import resources
from typing import Any

import pytest
from dutchblitz.protocol.wire.codec import (
    MAX_MESSAGE_SIZE,
    ErrorReason,
    ProtocolError,
    decode,
    encode,
)
from dutchblitz.protocol.wire.messages import (
    Ack,
    Admit,
    Body,
    Bye,
    Deal,
    Envelope,
    Event,
    GameBody,
    Heartbeat,
    Hello,
    MoveKind,
    PeerAddress,
    Play,
    Profile,
    Ready,
    Repair,
    RepairRequest,
    Reveal,
    Start,
    Suspect,
    Unsuspect,
)
from hypothesis import given, settings
from hypothesis import strategies as st

MAX_U63 = 2**63 - 1


def _valid_vectors() -> list[bytes]:
    text = resources.files("dutchblitz.vectors").joinpath("codec.json").read_text("utf-8")
    return [bytes.fromhex(v["bytes"]) for v in json.loads(text)["valid"]]


VALID = _valid_vectors()


def _decode_or_refuse(data: bytes) -> None:
    """The property every input must have: refused with a reason, or accepted canonically."""
    try:
        envelope = decode(data)
    except ProtocolError as exc:
        assert isinstance(exc.reason, ErrorReason)
        return
    assert encode(envelope) == data


# -- hostile bytes -------------------------------------------------------------------------------


@given(st.binary(max_size=4096))
def test_random_bytes(data: bytes) -> None:
    _decode_or_refuse(data)


@given(st.lists(st.integers(0, 255), min_size=1, max_size=64).map(bytes))
def test_random_msgpack_heads(data: bytes) -> None:
    """Short inputs that start with an array header reach deeper into the checks."""
    _decode_or_refuse(b"\x98\x01" + data)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(VALID)))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        op = draw(st.sampled_from(["set", "insert", "delete", "truncate", "repeat"]))
        byte = draw(st.integers(0, 255))
        if op == "set" and at < len(data):
            data[at] = byte
        elif op == "insert":
            data.insert(at, byte)
        elif op == "delete" and at < len(data):
            del data[at]
        elif op == "truncate":
            del data[at:]
        elif op == "repeat":
            data[at:at] = data[at : at + draw(st.integers(1, 16))]
    return bytes(data)


@settings(max_examples=500)
@given(mutated())
def test_mutated_valid_messages(data: bytes) -> None:
    _decode_or_refuse(data)


@given(st.integers(1, MAX_MESSAGE_SIZE - 1))
def test_deep_nesting(depth: int) -> None:
    """P-7: arrays more than four deep are too_deep, however deep, without recursion."""
    data = b"\x91" * depth + b"\x01"
    with pytest.raises(ProtocolError) as refused:
        decode(data)
    assert (refused.value.reason == ErrorReason.TOO_DEEP) == (depth > 4)


@given(st.integers(4, 3000), st.sampled_from([v for v in VALID if v.endswith(b"\xc4\x00")]))
def test_deep_nesting_inside_a_valid_message(depth: int, valid: bytes) -> None:
    """Nested arrays in place of the auth field: the nesting is refused before the field."""
    data = valid[:-2] + b"\x91" * depth + b"\x01"
    with pytest.raises(ProtocolError) as refused:
        decode(data)
    assert refused.value.reason == ErrorReason.TOO_DEEP


HUGE_HEADERS = [
    "dc ffff",  # array 16
    "dd ffffffff",  # array 32
    "d9 ff",  # str 8
    "da ffff",  # str 16
    "db ffffffff",  # str 32
    "c4 ff",  # bin 8
    "c5 ffff",  # bin 16
    "c6 ffffffff",  # bin 32
    "de ffff",  # map 16
    "df ffffffff",  # map 32
    "c7 ff 01",  # ext 8
    "c8 ffff 01",  # ext 16
    "c9 ffffffff 01",  # ext 32
]


@given(
    st.sampled_from(HUGE_HEADERS),
    st.sampled_from(["", "98", "98 01 03", "98 01 03 a7 6b 69 74 63 68 65 6e"]),
    st.binary(max_size=256),
)
def test_huge_declared_lengths(header: str, prefix: str, tail: bytes) -> None:
    data = bytes.fromhex(prefix + header) + tail
    with pytest.raises(ProtocolError):
        decode(data)


@pytest.mark.parametrize("header", HUGE_HEADERS)
def test_huge_declared_lengths_allocate_little(header: str) -> None:
    """The parser refuses a declared length before it makes room for it."""
    data = bytes.fromhex("98 01 03" + header) + bytes(MAX_MESSAGE_SIZE - 16)
    tracemalloc.start()
    try:
        with pytest.raises(ProtocolError):
            decode(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * MAX_MESSAGE_SIZE


def test_largest_flat_array_allocates_little() -> None:
    """65535 one-byte elements are refused at the array header, not after building a list."""
    data = bytes.fromhex("dc ffff") + bytes(MAX_MESSAGE_SIZE - 3)
    tracemalloc.start()
    try:
        with pytest.raises(ProtocolError) as refused:
            decode(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert refused.value.reason == ErrorReason.BAD_LENGTH
    assert peak < 4 * MAX_MESSAGE_SIZE


# -- valid envelopes, generated -------------------------------------------------------------------

nodes = st.binary(min_size=16, max_size=16)
names = st.text(min_size=1, max_size=8)  # at most 32 bytes of UTF-8
endpoints = st.text(min_size=1, max_size=32)
uint63 = st.integers(0, MAX_U63)
seqs = st.integers(1, MAX_U63)
rounds = st.integers(0, 2**32 - 1)
digests = st.just(b"") | st.binary(min_size=16, max_size=16)
secrets = st.binary(max_size=64)
auths = st.binary(max_size=128)


@st.composite
def heartbeats(draw: st.DrawFn) -> Heartbeat:
    acks = draw(st.lists(st.builds(Ack, nodes, uint63), max_size=8, unique_by=lambda a: a.node))
    digest = draw(digests)
    return Heartbeat(draw(uint63), tuple(acks), draw(uint63) if digest else 0, digest)


@st.composite
def repair_requests(draw: st.DrawFn) -> RepairRequest:
    first = draw(st.integers(1, MAX_U63 - 255))
    return RepairRequest(draw(nodes), first, first + draw(st.integers(0, 255)))


@st.composite
def plays(draw: st.DrawFn) -> Play:
    deck = draw(st.integers(0, 7))
    cards = st.integers(0, 39).map(lambda c: deck * 40 + c)
    maybe_card = st.just(-1) | cards
    move = draw(st.sampled_from(MoveKind))
    game_round = draw(rounds)
    if move == MoveKind.CENTRE:
        source = draw(st.integers(0, 2))
        slot = draw(st.integers(0, 4)) if source == 2 else 0
        pile = draw(st.integers(-1, 31))
        return Play(game_round, move, source, slot, draw(cards), pile, draw(maybe_card))
    if move == MoveKind.POST:
        source, slot = draw(st.integers(0, 1)), draw(st.integers(0, 4))
        return Play(game_round, move, source, slot, draw(cards), -1, draw(maybe_card))
    shows = draw(cards) if move == MoveKind.FLIP else -1
    return Play(game_round, move, 0, 0, -1, -1, shows)


@st.composite
def one_deck(draw: st.DrawFn, count: st.SearchStrategy[int]) -> tuple[int, ...]:
    deck = draw(st.integers(0, 7))
    size = draw(count)
    order = draw(st.permutations(range(40)))
    return tuple(deck * 40 + code for code in order[:size])


bodies: st.SearchStrategy[Body] = st.one_of(
    st.builds(Admit, nodes, seqs),
    st.builds(Profile, names, names),
    st.builds(Ready, st.booleans()),
    st.builds(
        Start,
        st.integers(1, 1000),
        st.booleans(),
        st.none() | st.integers(1, 100),
        st.none() | names,  # P-240: with a game and no rounds, the rounds are nil
        st.none() | st.binary(min_size=32, max_size=32),  # P-291: nil before the data
    ),
    st.builds(Deal, rounds, one_deck(st.integers(4, 6)), secrets),
    plays(),
    st.builds(Reveal, rounds, secrets, one_deck(st.just(40))),
    st.builds(Suspect, nodes, uint63),
    st.builds(Unsuspect, nodes),
    st.just(Bye()),
    st.builds(GameBody, st.integers(1, 255), st.binary(min_size=1, max_size=64)),
)


@st.composite
def repairs(draw: st.DrawFn, table: str) -> Repair:
    origin = draw(nodes)
    numbers = sorted(draw(st.sets(seqs, min_size=1, max_size=4)))
    events = tuple(
        encode(Envelope(table, origin, draw(seqs), seq, Event(draw(bodies)), draw(auths)))
        for seq in numbers
    )
    return Repair(origin, events)


@st.composite
def envelopes(draw: st.DrawFn) -> Envelope:
    table = draw(names)
    sender, lamport, auth = draw(nodes), draw(uint63), draw(auths)
    unsequenced = st.one_of(
        st.builds(
            Hello,
            names,
            names,
            endpoints,
            st.lists(
                st.builds(PeerAddress, nodes, endpoints, st.binary(min_size=32, max_size=32)),
                max_size=8,
                unique_by=lambda p: p.node,
            ).map(tuple),
            digests,
            uint63,
        ),
        heartbeats(),
        repair_requests(),
        repairs(table),
    )
    if draw(st.booleans()):
        return Envelope(table, sender, max(lamport, 1), draw(seqs), Event(draw(bodies)), auth)
    return Envelope(table, sender, lamport, 0, draw(unsequenced), auth)


@settings(max_examples=300)
@given(envelopes())
def test_generated_envelopes_round_trip(envelope: Envelope) -> None:
    data = encode(envelope)
    assert decode(data) == envelope
    assert encode(envelope) == data


@given(envelopes(), st.data())
def test_any_change_to_a_field_is_seen(envelope: Envelope, data: Any) -> None:
    """Flipping one byte never yields the same envelope: no byte is ignored."""
    encoded = bytearray(encode(envelope))
    at = data.draw(st.integers(0, len(encoded) - 1))
    encoded[at] ^= data.draw(st.integers(1, 255))
    try:
        changed = decode(bytes(encoded))
    except ProtocolError:
        return
    assert changed != envelope
