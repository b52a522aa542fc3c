"""The codec's quick path (codec_fast) accepts only what the reference path accepts (P-10).

Whatever ``_quick_decode`` returns must equal what the reference ``_decode`` returns for
the same bytes, and whatever it gives up on is decided by the reference path; the same
for ``_quick_encode`` against the reference encoder.
"""

from __future__ import annotations

import msgpack
from dutchblitz.protocol import codec
from dutchblitz.protocol.codec import ALL_KINDS, ProtocolError
from dutchblitz.protocol.messages import Ack, Envelope, Event, Heartbeat, MoveKind, Play
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.protocol.test_codec_fuzz import VALID, envelopes, mutated


def reference_decode(data: bytes) -> Envelope | ProtocolError:
    try:
        return codec._decode(data, ALL_KINDS)
    except ProtocolError as error:
        return error


def reference_encode(envelope: Envelope) -> bytes | ProtocolError:
    try:
        data = codec._pack(codec._dump_envelope(envelope))
    except ProtocolError as error:
        return error
    if len(data) > codec.MAX_MESSAGE_SIZE:
        return ProtocolError(codec.ErrorReason.OVERSIZE)
    return data


def agrees(data: bytes) -> None:
    quick = codec._quick_decode(data)
    if quick is not None:
        assert reference_decode(data) == quick


def test_every_valid_vector_takes_the_quick_path_but_repairs() -> None:
    for data in VALID:
        quick = codec._quick_decode(data)
        reference = reference_decode(data)
        assert not isinstance(reference, ProtocolError)
        if data[2] == 5:  # REPAIR: its relayed events are checked the reference way
            assert quick is None
        else:
            assert quick == reference


@settings(max_examples=1000)
@given(mutated())
def test_mutated_messages_agree(data: bytes) -> None:
    agrees(data)


@given(st.binary(max_size=512))
def test_random_bytes_agree(data: bytes) -> None:
    agrees(b"\x98\x01" + data)


@settings(max_examples=300)
@given(envelopes())
def test_generated_envelopes_encode_alike(envelope: Envelope) -> None:
    quick = codec._quick_encode(envelope)
    if quick is not None:
        assert quick == reference_encode(envelope)
    assert codec.decode(codec.encode(envelope)) == envelope


def test_a_bool_is_no_integer_and_a_subclass_no_record() -> None:
    node = bytes(16)
    play = Play(1, MoveKind.FLIP, 0, 0, -1, -1, 3)
    assert codec._quick_encode(Envelope("t", node, True, 1, Event(play))) is None
    beat = Heartbeat(1, (Ack(bytes([1]) * 16, 2),), 0, b"")
    data = codec.encode(Envelope("t", node, 5, 0, beat))
    assert codec._quick_decode(data) == codec.decode(data)


def test_the_quick_play_check_is_the_play_check() -> None:
    """``_play_fits`` decides as ``_check_play`` over every field within its wire range."""
    cards = (-1, 0, 9, 10, 39, 40, 45, 79, 80, 280, 319)
    for move in MoveKind:
        for source in range(3):
            for slot in range(codec.MAX_SLOT + 1):
                for pile in (-1, 0, 7, codec.MAX_PILE):
                    for card in cards:
                        for shows in cards:
                            play = Play(1, move, source, slot, card, pile, shows)
                            try:
                                codec._check_play(play)
                            except ProtocolError:
                                fits = False
                            else:
                                fits = True
                            fields = (1, move, source, slot, card, pile, shows)
                            assert codec._play_fits(*fields) is fits, play


def test_the_quick_heartbeat_checks_are_the_heartbeat_check() -> None:
    """Distinct acks and a digest for a digest index, both ways."""
    one, two = bytes([1]) * 16, bytes([2]) * 16
    for acks in ((), (Ack(one, 1),), (Ack(one, 1), Ack(two, 1)), (Ack(one, 1), Ack(one, 2))):
        for index, digest in ((0, b""), (3, b""), (0, bytes(16)), (3, bytes(16))):
            envelope = Envelope("t", bytes(16), 5, 0, Heartbeat(9, acks, index, digest))
            reference = reference_encode(envelope)
            quick = codec._quick_encode(envelope)
            if isinstance(reference, ProtocolError):
                assert quick is None
                wire = [
                    1,
                    2,
                    "t",
                    bytes(16),
                    5,
                    0,
                    [9, [[a.node, a.held] for a in acks], index, digest],
                    b"",
                ]
                data = msgpack.packb(wire)
                assert codec._quick_decode(data) is None
                assert isinstance(reference_decode(data), ProtocolError)
            else:
                assert quick == reference
                assert codec._quick_decode(quick) == envelope


def test_text_sizes_are_counted_in_bytes_both_ways() -> None:
    """A short str is taken without encoding it; a longer one is measured in UTF-8."""
    node = bytes(16)
    play = Play(1, MoveKind.FLIP, 0, 0, -1, -1, 3)
    for table in (
        "t",
        "a" * 8,
        "a" * 9,
        "a" * 32,
        "a" * 33,
        "é" * 16,
        "é" * 17,
        "😀" * 8,
        "😀" * 9,
        "",
    ):
        envelope = Envelope(table, node, 5, 1, Event(play))
        reference = reference_encode(envelope)
        quick = codec._quick_encode(envelope)
        assert quick == (None if isinstance(reference, ProtocolError) else reference), table
        data = msgpack.packb([1, 3, table, node, 5, 1, [6, 1, 3, 0, 0, -1, -1, 3], b""])
        agrees(data)
        assert (codec._quick_decode(data) is None) == isinstance(reference, ProtocolError)


def test_kinds_and_values_the_parser_lets_through_are_refused() -> None:
    """A bool for the version, kind or body kind, and a map, ext or long bin in a field,
    parse but go the reference way (which refuses them)."""
    node = bytes(16)
    body = [6, 1, 3, 0, 0, -1, -1, 3]
    wires = [
        [True, 3, "t", node, 5, 1, body, b""],
        [1, 3.0, "t", node, 5, 1, body, b""],
        [1, 3, "t", node, 5, 1, [6.0, *body[1:]], b""],
        [1, 3, "t", node, 5, 1, [True, *body[1:]], b""],
        [1, 3, "t", {}, 5, 1, body, b""],
        [1, 3, "t", node, 5, 1, body, msgpack.ExtType(1, b"")],
        [1, 3, "t", node, 5, 1, body, bytes(200)],
        [1, 2, "t", node, 5, 0, [9, [[node, 1], {}], 0, b""], b""],
        [1, 2, "t", node, 5, 0, [9, [[node, 1], [node, 2]], 0, b""], b""],
    ]
    for wire in wires:
        data = msgpack.packb(wire)
        assert codec._quick_decode(data) is None, wire
        assert isinstance(reference_decode(data), ProtocolError), wire
