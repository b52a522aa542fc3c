"""The codec against its vectors, and the properties the spec promises (spec/protocol.md)."""

from __future__ import annotations

import dataclasses
import json
from importlib import resources
from typing import Any

import msgpack
import pytest
from dutchblitz.protocol.conformance.codec_vectors import cases, from_json
from dutchblitz.protocol.games.blitz.cards import Colour, card, new_deck
from dutchblitz.protocol.games.blitz.moves import (
    MOVE_TYPES,
    CentrePlay,
    PostPlay,
    Source,
    StuckCall,
    WoodFlip,
)
from dutchblitz.protocol.games.blitz.plays import legal_moves
from dutchblitz.protocol.games.blitz.rules import apply
from dutchblitz.protocol.games.blitz.state import deal
from dutchblitz.protocol.games.blitz.wire_moves import read_move as move_from_play
from dutchblitz.protocol.games.blitz.wire_moves import write_move as play_from_move
from dutchblitz.protocol.wire import codec, wholes
from dutchblitz.protocol.wire.codec import (
    MAX_MESSAGE_SIZE,
    ErrorReason,
    ProtocolError,
    decode,
    encode,
)
from dutchblitz.protocol.wire.fields import Record
from dutchblitz.protocol.wire.messages import (
    Ack,
    Admit,
    Backdated,
    BodyKind,
    Bye,
    Commit,
    Cut,
    Deal,
    Envelope,
    Event,
    GameBody,
    Heartbeat,
    Hello,
    Kind,
    MoveKind,
    Options,
    PeerAddress,
    Play,
    Profile,
    Ready,
    Repair,
    RepairRequest,
    Reveal,
    Round,
    RoundOp,
    Share,
    Start,
    Suspect,
    Unsuspect,
    Watch,
    WatchOp,
)

ANN = bytes(range(16))
BOB = bytes(range(16, 32))


def _vectors() -> dict[str, Any]:
    text = resources.files("dutchblitz.vectors").joinpath("codec.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


VECTORS = _vectors()
CASES = cases(VECTORS)


@pytest.mark.parametrize("case", CASES, ids=[f"{c.spec_id} {c.name}" for c in CASES])
def test_vector(case: Any) -> None:
    assert case.run() is None


def _event(body: Any, seq: int = 1) -> Envelope:
    return Envelope("kitchen", ANN, seq, seq, Event(body))


ONE_OF_EACH_BODY = [
    Admit(BOB, 1),
    Profile("Ann", "pump"),
    Ready(True),
    Start(75, True),
    Start(75, True, None, "dutch"),  # P-240: nil rounds before a game
    Start(75, True, 5, "dutch"),
    Start(1, True, 1, None, b"d" * 32),  # P-291: a game's data, nil before it
    Start(75, True, None, "faceoff", b"d" * 32),
    Deal(1, (0, 1, 2, 3, 4, 5), b"c" * 32),
    Play(1, MoveKind.CENTRE, 0, 0, 9, -1, 8),
    Reveal(1, b"s" * 32, tuple(range(40))),
    Suspect(BOB, 3),
    Bye(),
    Cut(BOB, 7),
    Commit(1, b"h" * 32, b"i" * 32),
    Share(1, b"r" * 32),
    Backdated(BOB, 9, 12, 14),
    GameBody(2, b"\x93\x0b\x01\x00"),
    Unsuspect(BOB),
    Options(50, False),  # P-261
    Options(75, True, 2, "dutch"),
]
ONE_OF_EACH_KIND = [
    Envelope("kitchen", ANN, 0, 0, Hello("Ann", "pump", "tcp://h:1", (), b"", 1)),
    Envelope("kitchen", ANN, 4, 0, Heartbeat(2, (Ack(BOB, 1),), 0, b"")),
    _event(Bye()),
    Envelope("kitchen", ANN, 4, 0, RepairRequest(BOB, 1, 3)),
    Envelope("kitchen", ANN, 4, 0, Repair(ANN, (encode(_event(Ready(True))),))),
    Envelope(
        "kitchen",
        BOB,
        4,
        0,
        Watch(
            WatchOp.FEED, bytes(16), 0, "Bob", "tcp://h:2", ("Sam",), (encode(_event(Ready(True))),)
        ),
    ),
    # P-274: on the wire only where rounds are on (test_round_trip turns them on for it)
    Envelope("kitchen", ANN, 4, 0, Round(RoundOp.PROMISE, 1, 2, BOB, (Ack(BOB, 3),), 1, ANN, ())),
]


@pytest.mark.parametrize("envelope", ONE_OF_EACH_KIND + [_event(b) for b in ONE_OF_EACH_BODY])
def test_round_trip(envelope: Envelope, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wholes.RoundKind, "enabled", isinstance(envelope.payload, Round))
    data = encode(envelope)
    assert decode(data) == envelope
    assert encode(decode(data)) == data


def test_samples_cover_every_kind_and_body() -> None:
    assert {codec.KIND_OF[type(e.payload)] for e in ONE_OF_EACH_KIND} == set(Kind)
    assert {codec.BODY_KIND[type(b)] for b in ONE_OF_EACH_BODY} == set(BodyKind)


def test_vectors_cover_every_kind_and_body() -> None:
    envelopes = [from_json(v["envelope"], Envelope) for v in VECTORS["valid"]]
    kinds = {codec.KIND_OF[type(e.payload)] for e in envelopes}
    bodies = {codec.BODY_KIND[type(e.payload.body)] for e in envelopes if e.seq}
    # ROUND (P-274) is on the wire only where rounds are on, an option without vectors yet
    # (spec/protocol.md section 12, Known limits): kind 6 stays an unknown_kind vector.
    assert kinds == set(Kind) - {Kind.ROUND}
    assert bodies == set(BodyKind)


def test_vectors_cover_every_reason() -> None:
    assert {v["reason"] for v in VECTORS["invalid"]} == {str(r) for r in ErrorReason}


def test_tables_match_the_message_classes() -> None:
    """A field added to messages.py must be added to the codec's tables too."""
    records = [*codec.BODIES.values(), *codec.PAYLOADS.values(), codec.PEER, codec.ACK]
    for record in records:
        if isinstance(record, Record):
            names = [f.name for f in dataclasses.fields(record.cls)]  # type: ignore[arg-type]
            assert [name for name, _ in record.fields] == names, record.cls


def test_encoding_is_canonical() -> None:
    """P-10: one envelope, one encoding, however its tuples were built."""
    peers = [PeerAddress(BOB, "tcp://b:1", bytes(32))]
    built_from_list = Envelope("t", ANN, 1, 0, Hello("A", "pump", "tcp://a:1", peers, b"", 0))  # type: ignore[arg-type]
    built_from_tuple = Envelope(
        "t", ANN, 1, 0, Hello("A", "pump", "tcp://a:1", tuple(peers), b"", 0)
    )
    assert encode(built_from_list) == encode(built_from_tuple) == encode(built_from_tuple)


def test_every_valid_vector_reencodes_to_its_bytes() -> None:
    for vector in VECTORS["valid"]:
        data = bytes.fromhex(vector["bytes"])
        assert encode(decode(data)) == data, vector["name"]


def _relayed(seq: int, auth: int, secret: int | None) -> bytes:
    body = Bye() if secret is None else Reveal(1, b"s" * secret, tuple(range(40)))
    return encode(Envelope("kitchen", BOB, 1, seq, Event(body), b"a" * auth))


def _relayed_sizes() -> dict[int, tuple[int, int | None]]:
    """(auth, secret) for every size of a relayed event from the smallest to the largest."""
    found: dict[int, tuple[int, int | None]] = {}
    for secret in (None, 0, 64):
        for auth in range(129):
            found.setdefault(len(_relayed(1000, auth, secret)), (auth, secret))
    return found


def _repair_wire_size(events: list[bytes]) -> int:
    return len(msgpack.packb([1, 5, "kitchen", ANN, 1, 0, [BOB, events], b""], use_bin_type=True))


def _repair_of_size(size: int) -> bytes:
    """A valid REPAIR of exactly ``size`` bytes: full events, then two cut to fit.

    Sequence numbers start at 1000 so that every one takes the same three bytes.
    """
    sizes = _relayed_sizes()
    auth, secret = sizes[max(sizes)]
    events: list[bytes] = []
    while size - _repair_wire_size(events) > 2 * (max(sizes) + 3):
        events.append(_relayed(1000 + len(events), auth, secret))
    gap = size - _repair_wire_size(events)
    for first, params in sizes.items():
        second = gap - first - (2 if first < 256 else 3)
        second -= 2 if second < 258 else 3
        if second in sizes:
            events.append(_relayed(1000 + len(events), *params))
            events.append(_relayed(1000 + len(events), *sizes[second]))
            return encode(Envelope("kitchen", ANN, 1, 0, Repair(BOB, tuple(events))))
    raise AssertionError("no two events fill the gap")


def test_largest_message_is_accepted() -> None:
    """P-2: exactly 65536 bytes is within the limit."""
    data = _repair_of_size(MAX_MESSAGE_SIZE)
    assert len(data) == MAX_MESSAGE_SIZE
    assert encode(decode(data)) == data


def test_one_byte_more_is_oversize() -> None:
    """P-2: the size is checked first, even for a message that is otherwise valid."""
    with pytest.raises(ProtocolError) as refused:
        decode(encode(ONE_OF_EACH_KIND[0]) + bytes(MAX_MESSAGE_SIZE))
    assert refused.value.reason == ErrorReason.OVERSIZE


def test_encode_refuses_an_oversize_envelope() -> None:
    """P-27, P-185: a sender refuses what receivers would refuse (`oversize`) with bad_field."""
    events = tuple(_relayed(1000 + seq, 128, 64) for seq in range(256))
    assert sum(map(len, events)) > MAX_MESSAGE_SIZE
    with pytest.raises(ProtocolError) as refused:
        encode(Envelope("kitchen", ANN, 1, 0, Repair(BOB, events)))
    assert refused.value.reason == ErrorReason.BAD_FIELD
    assert "oversize" in refused.value.detail


@pytest.mark.parametrize("value", ["not bytes", None, 42, [1, 2]])
def test_decode_refuses_what_is_not_bytes(value: Any) -> None:
    with pytest.raises(ProtocolError) as refused:
        decode(value)
    assert refused.value.reason == ErrorReason.MALFORMED


def test_decode_takes_a_bytearray() -> None:
    data = encode(ONE_OF_EACH_KIND[1])
    assert decode(bytearray(data)) == ONE_OF_EACH_KIND[1]


def test_error_carries_reason_and_detail() -> None:
    with pytest.raises(ProtocolError) as refused:
        decode(b"\x93\x02\x01\x01")
    error = refused.value
    assert error.reason is ErrorReason.BAD_VERSION
    assert "version" in error.detail
    assert str(error).startswith("bad_version: ")


@pytest.mark.parametrize("thing", [None, "envelope", Hello("A", "pump", "tcp://a", (), b"", 0)])
def test_encode_refuses_what_is_not_an_envelope(thing: Any) -> None:
    with pytest.raises(ProtocolError) as refused:
        encode(thing)
    assert refused.value.reason == ErrorReason.BAD_FIELD


def test_encode_refuses_a_str_that_is_not_utf8() -> None:
    with pytest.raises(ProtocolError) as refused:
        encode(Envelope("kitchen", ANN, 1, 1, Event(Profile("\udc80", "pump"))))
    assert refused.value.reason == ErrorReason.BAD_FIELD


# -- moves on the wire (P-51, P-52) -----------------------------------------------------------


def test_every_legal_move_of_a_game_survives_the_wire() -> None:
    """Play two seats for a while; each legal move must round trip through a Play body."""
    orders = {seat: [new_deck(seat)[(i * 7) % 40] for i in range(40)] for seat in (0, 1)}
    table = deal((0, 1), orders)
    seen: set[type] = set()
    for turn in range(300):
        seat = turn % 2
        moves = legal_moves(table, seat)
        for move in moves:
            assert move_from_play(play_from_move(move, 3), seat) == move
            seen.add(type(move))
        if not moves or table.over:
            break
        # Every third turn plays to the centre; the others prefer Post plays and the Wood.
        others = [m for m in moves if not isinstance(m, CentrePlay | StuckCall)]
        apply(table, (moves if turn % 3 == 0 else others or moves)[0])
    assert seen == set(MOVE_TYPES)


def test_a_flip_carries_the_seat_only_through_the_sender() -> None:
    play = play_from_move(WoodFlip(2, card(2, Colour.GREEN, 7)), 1)
    assert play == Play(1, MoveKind.FLIP, 0, 0, -1, -1, 2 * 40 + 26)
    assert move_from_play(play, 2) == WoodFlip(2, card(2, Colour.GREEN, 7))


@pytest.mark.parametrize(
    "move",
    [
        PostPlay(0, Source.POST, card(0, Colour.RED, 4), 1, None),  # Post to Post: no such move
        CentrePlay(0, Source.BLITZ, 2, card(0, Colour.RED, 4), None, None),  # a slot for Blitz
        CentrePlay(0, Source.WOOD, 0, card(1, Colour.RED, 4), None, None),  # another's card
        CentrePlay(0, Source.WOOD, 0, card(0, Colour.RED, 4), 40, None),  # no pile 40
        WoodFlip(0, None),  # type: ignore[arg-type]
        "not a move",
    ],
)
def test_play_from_move_refuses_a_malformed_move(move: Any) -> None:
    with pytest.raises(ProtocolError) as refused:
        play_from_move(move, 1)
    assert refused.value.reason == ErrorReason.BAD_FIELD


@pytest.mark.parametrize("seat", [-1, 8, True, "0"])
def test_move_from_play_refuses_a_seat_that_is_not_one(seat: Any) -> None:
    with pytest.raises(ProtocolError) as refused:
        move_from_play(Play(1, MoveKind.STUCK, 0, 0, -1, -1, -1), seat)
    assert refused.value.reason == ErrorReason.BAD_FIELD


def test_move_from_play_refuses_an_out_of_range_field() -> None:
    with pytest.raises(ProtocolError) as refused:
        move_from_play(Play(1, MoveKind.CENTRE, 0, 0, 9, 1024, -1), 0)
    assert refused.value.reason == ErrorReason.BAD_FIELD
