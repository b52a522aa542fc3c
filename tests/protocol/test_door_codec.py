"""The door's codec: messages round-trip, decoding is strict, hostile bytes only ever
give ``Malformed`` (P-121)."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from dutchblitz.protocol.door.codec import (
    Card,
    Kind,
    Malformed,
    card_problem,
    decode,
    encode,
    reason_of,
)
from dutchblitz.protocol.wire.auth import Signer
from hypothesis import given
from hypothesis import strategies as st

TABLE = "kitchen"


def signer(n: int) -> Signer:
    return Signer(bytes([n]) * 32)


def card_of(who: Signer, name: str, port: int = 5000) -> Card:
    return Card(who.node_id, who.public_key, f"tcp://127.0.0.1:{port}", name)


def test_messages_round_trip_and_decoding_is_strict() -> None:
    """P-121."""
    card = card_of(signer(2), "n")
    data = encode(Kind.KNOCK, TABLE, False, b"\x00" * 32, b"", card)
    assert decode(data) == (Kind.KNOCK, [TABLE, False, b"\x00" * 32, b"", card])
    assert decode(encode(Kind.WELCOME)) == (Kind.WELCOME, [])
    with pytest.raises(Malformed, match="version"):
        decode(msgpack.packb([2, 4]))
    with pytest.raises(Malformed, match="bad bin"):  # a private knock without a PAKE message
        decode(encode(Kind.KNOCK, TABLE, True, b"\x00" * 32, b"", card))
    long_name = Card(card.node_id, card.public_key, card.table_endpoint, "n" * 33)
    with pytest.raises(Malformed, match="bad str"):
        decode(encode(Kind.KNOCK, TABLE, False, b"\x00" * 32, b"", long_name))


def _decodes_or_refuses(data: bytes) -> None:
    try:
        kind, _ = decode(data)
    except Malformed:
        return
    assert encode(kind, *decode(data)[1]) == data


@given(st.binary(max_size=1100))
def test_decoding_any_bytes_gives_a_message_or_malformed(data: bytes) -> None:
    """P-121: nothing but ``Malformed`` comes out of decoding hostile bytes."""
    _decodes_or_refuses(data)


MSGPACK_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats()
    | st.text(max_size=40)
    | st.binary(max_size=70),
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=20,
)


@given(
    st.sampled_from([1, 2]),
    st.sampled_from(list(Kind)),
    st.lists(MSGPACK_VALUES, max_size=7),
)
def test_decoding_well_formed_msgpack_of_any_shape_is_safe(
    version: int, kind: Kind, fields: list[Any]
) -> None:
    """P-121: any msgpack array, of any version, kind and fields, decodes or is refused."""
    _decodes_or_refuses(msgpack.packb([version, int(kind), *fields], use_bin_type=True))


@pytest.mark.parametrize(
    ("endpoint", "problem"),
    [
        ("tcp://127.0.0.1:5000", None),
        ("tcp://[::1]:5000", None),
        ("udp://127.0.0.1:5000", "its endpoint is not tcp://HOST:PORT"),
        ("tcp://127.0.0.1", "its endpoint is not tcp://HOST:PORT"),
        ("tcp://:5000", "its endpoint is not tcp://HOST:PORT"),
        ("tcp://host:port", "its endpoint is not tcp://HOST:PORT"),
    ],
)
def test_a_card_must_name_a_tcp_endpoint(endpoint: str, problem: str | None) -> None:
    """P-123."""
    who = signer(2)
    assert card_problem(Card(who.node_id, who.public_key, endpoint, "n")) == problem


def test_a_card_whose_id_is_not_its_keys_has_a_problem() -> None:
    """P-123."""
    card = card_of(signer(2), "n")
    forged = Card(signer(3).node_id, card.public_key, card.table_endpoint, card.name)
    assert card_problem(forged) == "its node id is not its key's"


def test_an_unknown_reason_reads_as_refused() -> None:
    assert reason_of("busy") == "busy"
    assert reason_of("go away") == "refused"
