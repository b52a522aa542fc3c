"""The codec's quick path (codec_quick) accepts only what the reference path accepts (P-10).

Whatever ``_quick_decode`` returns must equal what the reference ``_decode`` returns for
the same bytes, and whatever it gives up on is decided by the reference path; the same
for ``_quick_encode`` against the reference encoder.
"""

from __future__ import annotations

import dataclasses
import struct
from datetime import date
from decimal import Decimal
from enum import Enum
from types import SimpleNamespace
from typing import Any
from uuid import UUID

import msgpack
import pytest
from dutchblitz.protocol.games.blitz.moves import Source
from dutchblitz.protocol.games.blitz.wire_moves import play_fits
from dutchblitz.protocol.wire import codec
from dutchblitz.protocol.wire import wholes as codec_rules
from dutchblitz.protocol.wire.codec import ALL_KINDS, ProtocolError
from dutchblitz.protocol.wire.messages import (
    Ack,
    Admit,
    Envelope,
    Event,
    Heartbeat,
    Hello,
    MoveKind,
    Options,
    PeerAddress,
    Play,
    Start,
)
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


def test_every_valid_vector_takes_the_quick_path_but_repairs_admits_and_starts() -> None:
    for data in VALID:
        quick = codec._quick_decode(data)
        reference = reference_decode(data)
        assert not isinstance(reference, ProtocolError)
        # A REPAIR's relayed events, an ADMIT (its optional game, P-233), a START (its
        # optional rounds and game, P-237, P-240) and an OPTIONS (its optional game, P-261)
        # are checked the reference way.
        body = getattr(reference.payload, "body", None)
        if data[2] == 5 or isinstance(body, Admit | Start | Options):
            assert quick is None and codec._quick_encode(reference) is None
        else:
            assert quick == reference
            assert codec._quick_encode(reference) == data


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


def test_a_play_made_from_a_move_takes_the_quick_path() -> None:
    """A Play names its source as a ``Source`` member: an IntEnum member is its value."""
    play = Play(1, MoveKind.CENTRE, Source.POST, 1, 17, 3, -1)
    envelope = Envelope("t", bytes(16), 5, 1, Event(play))
    data = codec._quick_encode(envelope)
    assert data is not None and data == reference_encode(envelope)
    assert codec._quick_decode(data) == envelope


def test_the_quick_play_check_is_the_play_check() -> None:
    """``play_fits`` decides as ``check_play`` over every field within its wire range."""
    cards = (-1, 0, 9, 10, 39, 40, 45, 79, 80, 280, 319)
    for move in MoveKind:
        for source in range(3):
            for slot in range(codec.MAX_SLOT + 1):
                for pile in (-1, 0, 7, codec.MAX_PILE):
                    for card in cards:
                        for shows in cards:
                            play = Play(1, move, source, slot, card, pile, shows)
                            try:
                                codec_rules.check_play(play)
                            except ProtocolError:
                                fits = False
                            else:
                                fits = True
                            assert play_fits(play) is fits, play


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


# -- every field, value by value ------------------------------------------------------------
#
# The quick path leaves an int's type and range, a constant's value and the form of every
# value to msgspec, and proves a message canonical by packing it again (``codec_quick``);
# on the way out it checks exact types where msgspec would take others. These tests put
# unfit values and longer forms at every place of every valid vector, and check both paths
# give the reference's answer.

Path = tuple[int, ...]

UNFIT = [
    True,
    False,
    None,
    0,
    1,
    -1,
    -33,
    127,
    128,
    255,
    256,
    319,
    320,
    1000,
    1001,
    2**32 - 1,
    2**32,
    2**63 - 1,
    2**63,
    2**64 - 1,
    -(2**63),
    0.0,
    1.0,
    "",
    "x",
    "x" * 33,
    b"",
    b"x",
    bytes(16),
    bytes(32),
    [],
    [1],
    {},
    {"a": 1},
    msgpack.ExtType(1, b""),
]


def _places(wire: Any, path: Path = (), every: bool = True) -> list[Path]:
    """Every value of ``wire``, arrays included, by its indices (unless ``every``, only the
    first two and the last of a list longer than any record)."""
    found = [path] if path else []
    if isinstance(wire, list):
        indices = list(range(len(wire)))
        if not every and len(wire) > codec.ENVELOPE_LENGTH:
            indices = [0, 1, len(wire) - 1]
        for index in indices:
            found += _places(wire[index], (*path, index), every)
    return found


def _put(wire: Any, path: Path, value: Any) -> Any:
    if not path:
        return value
    copy = list(wire)
    copy[path[0]] = _put(wire[path[0]], path[1:], value)
    return copy


def _get(wire: Any, path: Path) -> Any:
    for index in path:
        wire = wire[index]
    return wire


def _same_answer(data: bytes) -> None:
    """The quick path accepts only what the reference accepts, as it does; ``decode`` gives
    what the reference gives, refusal and all."""
    reference = reference_decode(data)
    quick = codec._quick_decode(data)
    if isinstance(reference, ProtocolError):
        assert quick is None, data.hex()
        with pytest.raises(ProtocolError) as refused:
            codec.decode(data)
        assert (refused.value.reason, refused.value.detail) == (reference.reason, reference.detail)
    else:
        assert quick is None or quick == reference, data.hex()
        assert codec.decode(data) == reference


def test_every_place_of_every_vector_takes_every_unfit_value() -> None:
    """A bool, float, None, str, bin, array, map or ext, or an int of any size, anywhere
    (the version, the kind, a body kind, every field, an array's items, an array itself)."""
    for valid in VALID:
        wire = msgpack.unpackb(valid)
        for path in _places(wire, every=False):
            here = _get(wire, path)
            mimics = (
                [dict.fromkeys(here)]
                if isinstance(here, list) and all(isinstance(item, str | bytes) for item in here)
                else []
            )  # a map whose keys are the array's items
            for value in [*UNFIT, *mimics]:
                _same_answer(msgpack.packb(_put(wire, path, value)))


def _int_forms(value: int) -> list[bytes]:
    """Every msgpack form of ``value``."""
    forms = []
    if 0 <= value <= 0x7F or -32 <= value < 0:
        forms.append(struct.pack("b", value))
    for tag, fmt, low, high in (
        (0xCC, ">B", 0, 2**8 - 1),
        (0xCD, ">H", 0, 2**16 - 1),
        (0xCE, ">I", 0, 2**32 - 1),
        (0xCF, ">Q", 0, 2**64 - 1),
        (0xD0, ">b", -(2**7), 2**7 - 1),
        (0xD1, ">h", -(2**15), 2**15 - 1),
        (0xD2, ">i", -(2**31), 2**31 - 1),
        (0xD3, ">q", -(2**63), 2**63 - 1),
    ):
        if low <= value <= high:
            forms.append(bytes([tag]) + struct.pack(fmt, value))
    return forms


def _header_forms(kind: str, size: int) -> list[bytes]:
    """Every msgpack header of a str, bin or array of ``size``."""
    short = {"str": (0xA0, 31), "array": (0x90, 15), "bin": (None, -1)}[kind]
    tags = {"str": (0xD9, 0xDA, 0xDB), "bin": (0xC4, 0xC5, 0xC6), "array": (None, 0xDC, 0xDD)}
    forms = [bytes([short[0] + size])] if short[0] is not None and size <= short[1] else []
    sizes = ((">B", 2**8 - 1), (">H", 2**16 - 1), (">I", 2**32 - 1))
    for tag, (fmt, high) in zip(tags[kind], sizes, strict=True):
        if tag is not None and size <= high:
            forms.append(bytes([tag]) + struct.pack(fmt, size))
    return forms


def _pack_with(wire: Any, path: Path, form: bytes, here: Path = ()) -> bytes:
    """``wire`` in its canonical form but at ``path``: there ``form`` (the whole value, or,
    for an array, its header)."""
    if here == path and not isinstance(wire, list):
        return form
    if isinstance(wire, list):
        head = form if here == path else _header_forms("array", len(wire))[0]
        return head + b"".join(
            _pack_with(item, path, form, (*here, index)) for index, item in enumerate(wire)
        )
    return msgpack.packb(wire)


def _forms(value: Any) -> list[bytes]:
    if value is None:
        return [b"\xc0"]  # a START's nil rounds before its game (P-240): one form only
    if isinstance(value, bool):
        return [msgpack.packb(value)]
    if isinstance(value, int):
        return _int_forms(value)
    if isinstance(value, str):
        raw = value.encode()
        return [head + raw for head in _header_forms("str", len(raw))]
    if isinstance(value, bytes):
        return [head + value for head in _header_forms("bin", len(value))]
    assert isinstance(value, list)
    return _header_forms("array", len(value))


def test_every_value_of_every_vector_in_every_form() -> None:
    """Each value in each of its msgpack forms: the canonical one is the vector itself, every
    other is refused as non_canonical by both paths (an int in a signed form of the same
    size among them: only the packing sees it)."""
    for valid in VALID:
        wire = msgpack.unpackb(valid)
        for path in _places(wire):
            for form in _forms(_get(wire, path)):
                data = _pack_with(wire, path, form)
                assert msgpack.unpackb(data) == wire
                if data == valid:
                    continue
                assert codec._quick_decode(data) is None, (path, form.hex())
                with pytest.raises(ProtocolError) as refused:
                    codec.decode(data)
                assert refused.value.reason == codec.ErrorReason.NON_CANONICAL


class _Int(int):
    pass


class _Str(str):
    pass


class _Bytes(bytes):
    pass


UNFIT_FIELDS = [
    *UNFIT,
    2**64,
    bytearray(16),
    (),
    (1,),
    MoveKind.CENTRE,
    MoveKind.FLIP,
    Source.POST,
    _Int(1),
    _Str("x"),
    _Bytes(16),
    memoryview(bytes(16)),
    {1},
    frozenset(),
    Decimal(1),
    UUID(int=1),
    date(2000, 1, 1),
]


class _Plain(Enum):
    """Not an int, but msgspec packs a member as its value."""

    ONE = 1
    YES = True
    TEXT = "x"
    NODE = bytes(16)


UNFIT_FIELDS += list(_Plain)


def _attributes(value: Any, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """The fields of ``value`` (a record, or a tuple of records or values) by their names and
    indices."""
    found = [path] if path else []
    if dataclasses.is_dataclass(value):
        for field in dataclasses.fields(value):
            found += _attributes(getattr(value, field.name), (*path, field.name))
    elif isinstance(value, tuple):  # of a long tuple, the first two items and the last
        for index in range(len(value)) if len(value) <= 3 else (0, 1, len(value) - 1):
            found += _attributes(value[index], (*path, index))
    return found


def _replaced(value: Any, path: tuple[str | int, ...], new: Any) -> Any:
    if not path:
        return new
    step, rest = path[0], path[1:]
    if isinstance(step, int):
        return (*value[:step], _replaced(value[step], rest, new), *value[step + 1 :])
    return dataclasses.replace(value, **{step: _replaced(getattr(value, step), rest, new)})


def _same_bytes(envelope: Envelope) -> None:
    """The quick path gives the reference's bytes or gives up; ``encode`` gives what the
    reference path gives, refusal and all."""
    reference = reference_encode(envelope)
    quick = codec._quick_encode(envelope)
    if isinstance(reference, ProtocolError):
        assert quick is None, envelope
        with pytest.raises(ProtocolError) as refused:
            codec.encode(envelope)
        assert refused.value.reason == codec.ErrorReason.BAD_FIELD
        assert refused.value.detail == f"cannot send: {reference}"
    else:
        assert quick is None or quick == reference, envelope
        assert codec.encode(envelope) == reference


def _richest_of_each_kind() -> list[bytes]:
    """Of the valid vectors of each kind (and body kind), the one with the most values."""
    richest: dict[tuple[int, int], bytes] = {}
    for valid in VALID:
        wire = msgpack.unpackb(valid)
        kind = (wire[1], wire[6][0] if wire[1] == codec.Kind.EVENT else 0)
        if len(_places(wire)) > len(_places(msgpack.unpackb(richest.get(kind, b"\x90")))):
            richest[kind] = valid
    return list(richest.values())


def test_every_field_of_every_kind_takes_every_unfit_value() -> None:
    """Bools, floats, None, IntEnum members, subclasses, tuples for lists and the other way
    round, values out of range, in every field (an envelope's, a payload's, a body's, an item
    of a list) of a valid envelope of each kind."""
    for valid in _richest_of_each_kind():
        envelope = codec.decode(valid)
        for path in _attributes(envelope):
            if path[-1] == "body" or (path[-1] == "events" and len(path) == 2):
                continue  # the body's class picks the quick function; a repair's events are bytes
            for value in UNFIT_FIELDS:
                _same_bytes(_replaced(envelope, path, value))


def test_a_record_is_one_of_its_class_not_its_look_alike() -> None:
    """A record to send, or an item of its lists, replaced by an object with the same
    attributes, by the map of its fields, or by the tuple of them: msgspec would take some
    of these for the record; the reference path refuses them all, and so does the quick one."""
    for valid in _richest_of_each_kind():
        envelope = codec.decode(valid)
        records = [path for path in _attributes(envelope) if _is_record(_get_attr(envelope, path))]
        for path in [(), *records]:
            record = _get_attr(envelope, path)
            values = {
                field.name: getattr(record, field.name) for field in dataclasses.fields(record)
            }
            for look_alike in (SimpleNamespace(**values), values, tuple(values.values())):
                _same_bytes(_replaced(envelope, path, look_alike))


def _is_record(value: Any) -> bool:
    return dataclasses.is_dataclass(value) and not isinstance(value, type)


def _get_attr(value: Any, path: tuple[str | int, ...]) -> Any:
    for step in path:
        value = value[step] if isinstance(step, int) else getattr(value, step)
    return value


def test_the_largest_hello_takes_the_quick_path() -> None:
    """The longest message the quick path sends, within the size limit, both ways."""
    peers = tuple(PeerAddress(bytes([n]) * 16, "é" * 64, bytes(32)) for n in range(codec.MAX_PEERS))
    hello = Hello("é" * 16, "é" * 16, "é" * 64, peers, bytes(16), codec.MAX_UINT63)
    envelope = Envelope("é" * 16, bytes(16), codec.MAX_UINT63, 0, hello, bytes(codec.MAX_AUTH))
    data = codec._quick_encode(envelope)
    assert data is not None and data == reference_encode(envelope)
    assert len(data) <= codec.MAX_MESSAGE_SIZE
    assert codec._quick_decode(data) == codec.decode(data) == envelope
