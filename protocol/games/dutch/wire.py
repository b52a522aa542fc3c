"""Dutch's messages to and from bytes: the payload of a table GAME body (spec/dutch-deal.md
section 6, spec/protocol.md section 7.11).

A payload is one msgpack array ``[message kind, round, ...fields]``. Like the table's codec,
the layout of each message is data: a record of field validators per kind (codec_fields).
``decode`` refuses whatever an honest node would not send, with a named ``WireRefusal``, and
raises nothing but ``WireError``; every point must be a point of the prime-order group
(M-2) and every scalar canonical (M-1) before anything is built from them. ``encode`` makes
the one encoding and refuses the same things, so a node cannot send what its peers refuse.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from itertools import pairwise
from typing import Final, NoReturn

import msgpack

from ...limits import MAX_GAME_PAYLOAD
from ...table.masked.checks import (
    AuditMessage,
    Cheat,
    CheatKind,
    HandoverMessage,
    KeyShareMessage,
    SealedShareMessage,
    ShareMessage,
    ShuffleMessage,
)
from ...table.masked.elgamal import Masked, Proof, Share
from ...table.masked.group import POINT_BYTES, SCALAR_BYTES, canonical_scalar, valid_point
from ...table.masked.seal import SealedShare, SealProof
from ...wire.codec import MAX_ROUND
from ...wire.fields import Field, Int, ListOf, ProtocolError, Record, type_name
from .cards import CARDS_IN_DECK
from .moves import (
    CallDutch,
    Discard,
    Draw,
    Give,
    InitialPeek,
    Look,
    Move,
    Replace,
    Skip,
    Spot,
    Swap,
    Throw,
)
from .state import MAX_DUTCH_SEATS

GAME_ID: Final = 2  # Dutch's id in a GAME body (M-22); 1 stays Dutch Blitz's
MAX_SLOT: Final = CARDS_IN_DECK - 1  # a hand never holds more cards than the deck
MAX_PAYLOAD_DEPTH: Final = 4  # payload > handover's shares > one share > its proof


class WireRefusal(StrEnum):
    """Why a Dutch payload was refused; the string is the stable code of spec/dutch-deal.md."""

    OVERSIZE = "oversize"
    MALFORMED = "malformed"
    TRAILING_BYTES = "trailing_bytes"
    TOO_DEEP = "too_deep"
    NON_CANONICAL = "non_canonical"
    UNKNOWN_MESSAGE = "unknown_message"
    BAD_LENGTH = "bad_length"
    BAD_FIELD = "bad_field"
    BAD_POINT = "bad_point"
    BAD_SCALAR = "bad_scalar"
    BAD_PERMUTATION = "bad_permutation"


class WireError(ValueError):
    """A Dutch payload that breaks spec/dutch-deal.md section 6: a peer's, or ours to send."""

    def __init__(self, reason: WireRefusal, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else str(reason))
        self.reason = reason
        self.detail = detail


def _refuse(reason: WireRefusal, where: str, what: str) -> NoReturn:
    raise WireError(reason, f"{where}: {what}")


class MessageKind(IntEnum):
    KEY = 1
    SHUFFLE = 2
    SHARE = 3
    SEALED_SHARE = 4
    AUDIT = 5
    HANDOVER = 6
    SHARES = 7
    INITIAL_PEEK = 10
    DRAW = 11
    DISCARD = 12
    REPLACE = 13
    SWAP = 14
    LOOK = 15
    GIVE = 16
    SKIP = 17
    THROW = 18
    CALL_DUTCH = 19


@dataclass(frozen=True, slots=True)
class TokenShare:
    """One share of a SHARES message: the token, the share's point and its proof."""

    token: int
    point: bytes
    proof: Proof


@dataclass(frozen=True, slots=True)
class SharesMessage:
    """M-40: several shares opened to all, sent at once by one seat, tokens increasing."""

    seat: int
    entries: tuple[TokenShare, ...]

    def messages(self) -> tuple[ShareMessage, ...]:
        return tuple(
            ShareMessage(self.seat, item.token, None, Share(item.point, item.proof))
            for item in self.entries
        )


Message = (
    KeyShareMessage
    | ShuffleMessage
    | ShareMessage
    | SealedShareMessage
    | AuditMessage
    | HandoverMessage
    | SharesMessage
    | Move
)


@dataclass(frozen=True, slots=True)
class Payload:
    """What a GAME body of Dutch carries: the round it belongs to, and one message."""

    round: int
    message: Message


# -- field validators of the group -------------------------------------------------------


def _bin(value: object, size: int, where: str) -> bytes:
    if type(value) is not bytes:
        _refuse(WireRefusal.BAD_FIELD, where, f"a bin, not {type_name(value)}")
    if len(value) != size:
        _refuse(WireRefusal.BAD_LENGTH, where, f"{len(value)} bytes, not {size}")
    return value


@dataclass(frozen=True, slots=True)
class Point:
    """M-2: a canonical point of the prime-order subgroup, not of small order."""

    def load(self, value: object, where: str) -> bytes:
        point = _bin(value, POINT_BYTES, where)
        if not valid_point(point):
            _refuse(WireRefusal.BAD_POINT, where, "not a point of the group")
        return point

    def dump(self, value: object, where: str) -> bytes:
        return self.load(value, where)


@dataclass(frozen=True, slots=True)
class Scalar:
    """M-1: a number below the group order, in its one 32-byte encoding."""

    def load(self, value: object, where: str) -> bytes:
        scalar = _bin(value, SCALAR_BYTES, where)
        if not canonical_scalar(scalar):
            _refuse(WireRefusal.BAD_SCALAR, where, "not below the group order")
        return scalar

    def dump(self, value: object, where: str) -> bytes:
        return self.load(value, where)


# -- whole-message rules -----------------------------------------------------------------


def _check_permutation(message: object) -> None:
    assert isinstance(message, AuditMessage)
    if sorted(message.permutation) != list(range(CARDS_IN_DECK)):
        _refuse(WireRefusal.BAD_PERMUTATION, "permutation", "not each position once")


def _check_shares(message: object) -> None:
    assert isinstance(message, SharesMessage)
    tokens = [item.token for item in message.entries]
    if any(a >= b for a, b in pairwise(tokens)):
        _refuse(WireRefusal.BAD_FIELD, "entries", "tokens not in increasing order (M-40)")


def _check_sealed(message: object) -> None:
    assert isinstance(message, SealedShareMessage)
    if message.to == message.seat:
        _refuse(WireRefusal.BAD_FIELD, "to", "a player never sends its own share (M-19)")


@dataclass(frozen=True, slots=True)
class _OpenShareFields:
    seat: int
    token: int
    share: Share


@dataclass(frozen=True, slots=True)
class OpenShare:
    """M-19: a share opened to all travels with no ``to``; one for a single seat is sealed
    (``SealedShareMessage``), so a ShareMessage with a ``to`` cannot be sent in the clear."""

    record: Record

    def load_items(self, items: list[object], where: str) -> ShareMessage:
        fields = self.record.load_items(items, where)
        assert isinstance(fields, _OpenShareFields)
        return ShareMessage(fields.seat, fields.token, None, fields.share)

    def dump_items(self, value: object, where: str) -> list[object]:
        if not isinstance(value, ShareMessage):
            _refuse(WireRefusal.BAD_FIELD, where, f"a ShareMessage, not {type_name(value)}")
        if value.to is not None:
            _refuse(WireRefusal.BAD_FIELD, f"{where}.to", "a share for one seat travels sealed")
        return self.record.dump_items(_OpenShareFields(value.seat, value.token, value.share), where)


# -- the table: every message, field by field --------------------------------------------

SEAT = Int(0, MAX_DUTCH_SEATS - 1)
TOKEN = Int(0, CARDS_IN_DECK - 1)
SLOT = Int(0, MAX_SLOT)
POINT, SCALAR = Point(), Scalar()
PROOF = Record(Proof, (("e", SCALAR), ("s", SCALAR)))
SHARE = Record(Share, (("point", POINT), ("proof", PROOF)))
SEAL_PROOF = Record(SealProof, (("e", SCALAR), ("s1", SCALAR), ("s2", SCALAR)))
SEALED = Record(SealedShare, (("a", POINT), ("b", POINT), ("proof", SEAL_PROOF)))
MASKED = Record(Masked, (("c1", POINT), ("c2", POINT)))
SPOT = Record(Spot, (("seat", SEAT), ("slot", SLOT)))
ROUND = Int(0, MAX_ROUND)
TOKEN_SHARE = Record(TokenShare, (("token", TOKEN), ("point", POINT), ("proof", PROOF)))
_OPEN_SHARE = Record(_OpenShareFields, (("seat", SEAT), ("token", TOKEN), ("share", SHARE)))


def _message(cls: Callable[..., object], *fields: tuple[str, Field]) -> Record:
    return Record(cls, fields)


MESSAGES: dict[MessageKind, Record | OpenShare] = {
    MessageKind.KEY: _message(KeyShareMessage, ("seat", SEAT), ("public", POINT), ("proof", PROOF)),
    MessageKind.SHUFFLE: _message(
        ShuffleMessage, ("seat", SEAT), ("deck", ListOf(MASKED, CARDS_IN_DECK, CARDS_IN_DECK))
    ),
    MessageKind.SHARE: OpenShare(_OPEN_SHARE),
    MessageKind.SEALED_SHARE: Record(
        SealedShareMessage,
        (("seat", SEAT), ("token", TOKEN), ("to", SEAT), ("sealed", SEALED)),
        _check_sealed,
    ),
    MessageKind.AUDIT: Record(
        AuditMessage,
        (
            ("seat", SEAT),
            ("permutation", ListOf(TOKEN, CARDS_IN_DECK, CARDS_IN_DECK)),
            ("masks", ListOf(SCALAR, CARDS_IN_DECK, CARDS_IN_DECK)),
        ),
        _check_permutation,
    ),
    MessageKind.HANDOVER: _message(
        HandoverMessage, ("seat", SEAT), ("shares", ListOf(SHARE, CARDS_IN_DECK, CARDS_IN_DECK))
    ),
    MessageKind.SHARES: Record(
        SharesMessage,
        (
            ("seat", SEAT),
            ("entries", ListOf(TOKEN_SHARE, 2, CARDS_IN_DECK)),
        ),
        _check_shares,
    ),
    MessageKind.INITIAL_PEEK: _message(InitialPeek, ("first", SLOT), ("second", SLOT)),
    MessageKind.DRAW: _message(Draw),
    MessageKind.DISCARD: _message(Discard),
    MessageKind.REPLACE: _message(Replace, ("slot", SLOT)),
    MessageKind.SWAP: _message(Swap, ("first", SPOT), ("second", SPOT)),
    MessageKind.LOOK: _message(Look, ("spot", SPOT)),
    MessageKind.GIVE: _message(Give, ("seat", SEAT)),
    MessageKind.SKIP: _message(Skip),
    MessageKind.THROW: _message(Throw, ("slot", SLOT)),
    MessageKind.CALL_DUTCH: _message(CallDutch),
}
KIND_OF: dict[object, MessageKind] = {
    (ShareMessage if isinstance(layout, OpenShare) else layout.cls): kind
    for kind, layout in MESSAGES.items()
}

# The parser's own bounds: no declared length can make it allocate more than these.
_UNPACKER_LIMITS = {
    "max_buffer_size": MAX_GAME_PAYLOAD,
    "max_bin_len": POINT_BYTES,  # the longest bin: a point or a scalar
    "max_str_len": 0,  # no message has a str
    "max_array_len": CARDS_IN_DECK,  # the longest list
    "max_map_len": 0,
    "max_ext_len": 0,
}


# -- bytes <-> payloads ------------------------------------------------------------------


def _parse(data: bytes) -> object:
    if type(data) is not bytes:
        _refuse(WireRefusal.MALFORMED, "payload", f"bytes, not {type_name(data)}")
    if len(data) > MAX_GAME_PAYLOAD:
        _refuse(WireRefusal.OVERSIZE, "payload", f"{len(data)} bytes > {MAX_GAME_PAYLOAD}")
    unpacker = msgpack.Unpacker(None, raw=False, strict_map_key=True, **_UNPACKER_LIMITS)
    try:
        unpacker.feed(data)
        value: object = unpacker.unpack()
    except Exception as exc:  # any parser failure at all is the sender's fault
        _refuse(*_parse_failure(exc))
    if unpacker.tell() != len(data):
        _refuse(WireRefusal.TRAILING_BYTES, "payload", f"{len(data) - unpacker.tell()} extra")
    for item, depth in _walk(value):
        if isinstance(item, list):
            if depth > MAX_PAYLOAD_DEPTH:
                _refuse(WireRefusal.TOO_DEEP, "payload", f"arrays nested {depth} deep")
        elif type(item) not in (int, bool, bytes):
            _refuse(WireRefusal.MALFORMED, "payload", f"msgpack {type_name(item)} not allowed")
    return value


def _parse_failure(exc: Exception) -> tuple[WireRefusal, str, str]:
    if isinstance(exc, msgpack.StackError):
        return WireRefusal.TOO_DEEP, "payload", "nested beyond the parser's stack"
    if isinstance(exc, msgpack.OutOfData | msgpack.FormatError | UnicodeDecodeError):
        return WireRefusal.MALFORMED, "payload", "truncated, or a byte that starts no value"
    if isinstance(exc, ValueError) and "max_" in str(exc):  # a length over the parser's bounds
        return WireRefusal.BAD_LENGTH, "payload", str(exc)
    return WireRefusal.MALFORMED, "payload", str(exc) or type_name(exc)


def _walk(value: object) -> Iterator[tuple[object, int]]:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        yield item, depth
        if isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)


def _load(wire: object) -> Payload:
    if type(wire) is not list:
        _refuse(WireRefusal.MALFORMED, "payload", f"an array, not {type_name(wire)}")
    if len(wire) < 2:
        _refuse(WireRefusal.BAD_LENGTH, "payload", "a message kind and a round first")
    head = wire[0]
    if type(head) is not int or head not in set(MessageKind):
        _refuse(WireRefusal.UNKNOWN_MESSAGE, "kind", repr(head))
    kind = MessageKind(head)
    round_number = ROUND.load(wire[1], "round")
    message = MESSAGES[kind].load_items(wire[2:], kind.name.lower())
    return Payload(round_number, message)  # type: ignore[arg-type]


def _dump(payload: Payload) -> list[object]:
    if not isinstance(payload, Payload):
        _refuse(WireRefusal.BAD_FIELD, "payload", f"a Payload, not {type_name(payload)}")
    kind = KIND_OF.get(type(payload.message))
    if kind is None:
        _refuse(WireRefusal.BAD_FIELD, "message", f"{type_name(payload.message)} is not sent")
    number = ROUND.dump(payload.round, "round")
    return [int(kind), number, *MESSAGES[kind].dump_items(payload.message, kind.name.lower())]


def _pack(wire: list[object]) -> bytes:
    packed: bytes = msgpack.packb(wire, use_bin_type=True)
    return packed


def decode(data: bytes) -> Payload:
    """The payload ``data`` encodes; WireError (and nothing else) if it breaks a rule."""
    wire = _parse(data)
    try:
        payload = _load(wire)
    except ProtocolError as exc:  # a generic field's refusal: the same code
        raise WireError(WireRefusal(exc.reason.value), exc.detail) from None
    if _pack(wire) != data:  # type: ignore[arg-type]
        _refuse(WireRefusal.NON_CANONICAL, "payload", "not the shortest encoding")
    return payload


def encode(payload: Payload) -> bytes:
    """The one encoding of ``payload``; WireError if a peer would refuse it."""
    try:
        data = _pack(_dump(payload))
    except ProtocolError as exc:
        raise WireError(WireRefusal(exc.reason.value), exc.detail) from None
    if len(data) > MAX_GAME_PAYLOAD:
        _refuse(WireRefusal.OVERSIZE, "payload", f"{len(data)} bytes > {MAX_GAME_PAYLOAD}")
    return data


def receive(data: bytes, sender: int) -> Payload | Cheat:
    """M-23: what seat ``sender`` sent in a GAME body, or the cheat it is: a payload the wire
    refuses, or a message that speaks for another seat (M-22)."""
    try:
        payload = decode(data)
    except WireError as refused:
        return Cheat(sender, CheatKind.BAD_MESSAGE, str(refused))
    seat = getattr(payload.message, "seat", sender)
    if isinstance(payload.message, Give) or seat == sender:  # a Give names its receiver
        return payload
    return Cheat(sender, CheatKind.BAD_MESSAGE, f"speaks for seat {seat}")
