"""The wire codec: an ``Envelope`` to bytes and back, with strict validation.

A message is one msgpack array ``[version, kind, table, sender, lamport, seq,
payload, auth]`` (spec/protocol.md, Encoding). The layout of every payload and
event body is data: a table of (field, validator) pairs per kind. ``decode``
refuses whatever a well-behaved node would not send and raises nothing but
``ProtocolError``; ``encode`` refuses the same things, so a node cannot emit
what its peers would drop. One envelope has exactly one encoding.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import NoReturn

import msgpack

from ..limits import (
    DECK_CODES,
    DIGEST_SIZE,
    HASH_SIZE,
    MAX_ENDPOINT,
    MAX_GAME_ID,
    MAX_GAME_PAYLOAD,
    MAX_GAME_ROUNDS,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_SECRET,
    MAX_TARGET,
    NODE_ID_SIZE,
)
from ..version import PROTOCOL_VERSION
from . import quick as codec_quick
from .auth import PUBLIC_KEY_SIZE
from .fields import (
    Blob,
    Choice,
    ErrorReason,
    Field,
    Flag,
    Int,
    ListOf,
    Maybe,
    ProtocolError,
    Record,
    Text,
    refuse,
    type_name,
)
from .messages import (
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
from .wholes import (
    MAX_REPAIR_EVENTS,
    NONE,
    RoundKind,
    check_deal,
    check_heartbeat,
    check_hello,
    check_play,
    check_play_fits,
    check_repair_request,
    check_reveal,
    check_watch,
)

__all__ = [
    "MAX_MESSAGE_SIZE",
    "ErrorReason",
    "ProtocolError",
    "decode",
    "encode",
]

MAX_MESSAGE_SIZE = 65536
MAX_DEPTH = 4  # envelope > payload > peers or acks > one peer or ack
MAX_UINT63 = 2**63 - 1
MAX_ROUND = 2**32 - 1
MAX_AUTH = 128
MAX_PEERS = 64
MAX_WATCHERS = 64  # names in a FEED's list of those a member feeds
MAX_CARD = MAX_PLAYERS * DECK_CODES - 1
MAX_SLOT = 4  # a PLAY's Post stack (P-50): the longest Post row has five
MAX_PILE = MAX_PLAYERS * 4 - 1  # a PLAY's centre pile (P-50): four centre piles a seat
START_NIL_FROM = 3  # a START's event array: [4, target, post-stacking, rounds, game, data]

# The parser's own bounds: no declared length can make it allocate more than these.
_UNPACKER_LIMITS = {
    "max_buffer_size": MAX_MESSAGE_SIZE,
    "max_bin_len": MAX_MESSAGE_SIZE,
    "max_str_len": MAX_ENDPOINT,  # the longest str field
    "max_array_len": MAX_REPAIR_EVENTS,  # the longest list field
    "max_map_len": 0,
    "max_ext_len": 0,
}
_LENGTH_LIMITS = ("max_bin_len", "max_str_len", "max_array_len")


# -- the tables: every payload and body, field by field --------------------------------------

UINT63 = Int(0, MAX_UINT63)
SEQ = Int(1, MAX_UINT63)
NODE = Blob((NODE_ID_SIZE,))
DIGEST = Blob((0, DIGEST_SIZE))
NAME = Text(1, MAX_NAME)
ENDPOINT = Text(1, MAX_ENDPOINT)
ROUND = Int(0, MAX_ROUND)
CARD = Int(0, MAX_CARD)
PLAY_CARD = Int(NONE, MAX_CARD)
SECRET = Blob(range(MAX_SECRET + 1))
AUTH = Blob(range(MAX_AUTH + 1))
HASH = Blob((HASH_SIZE,))
REPAIRED = Blob(range(1, MAX_MESSAGE_SIZE + 1))

PUBLIC_KEY = Blob((PUBLIC_KEY_SIZE,))
PEER = Record(PeerAddress, (("node", NODE), ("endpoint", ENDPOINT), ("key", PUBLIC_KEY)))
ACK = Record(Ack, (("node", NODE), ("held", UINT63)))
PLAY = Record(
    Play,
    (
        ("round", ROUND),
        ("move", Choice(MoveKind)),
        ("source", Int(0, 2)),
        ("slot", Int(0, MAX_SLOT)),
        ("card", PLAY_CARD),
        ("pile", Int(NONE, MAX_PILE)),
        ("shows", PLAY_CARD),
    ),
    check_play,
)

BODIES: dict[BodyKind, Record] = {
    BodyKind.ADMIT: Record(Admit, (("node", NODE), ("first_seq", SEQ), ("game", NAME)), optional=1),
    BodyKind.PROFILE: Record(Profile, (("name", NAME), ("back", NAME))),
    BodyKind.READY: Record(Ready, (("ready", Flag()),)),
    BodyKind.START: Record(
        Start,
        (
            ("target", Int(1, MAX_TARGET)),
            ("post_stacking", Flag()),
            ("rounds", Maybe(Int(1, MAX_GAME_ROUNDS))),  # nil before a game (P-240)
            ("game", Maybe(NAME)),  # nil before the data (P-291)
            ("data", HASH),  # the digest of the game's data, when it has some (P-291)
        ),
        optional=3,
    ),
    BodyKind.OPTIONS: Record(
        Options,
        (
            ("target", Int(1, MAX_TARGET)),
            ("post_stacking", Flag()),
            ("rounds", Int(0, MAX_GAME_ROUNDS)),
            ("game", NAME),
        ),
        optional=1,
    ),
    BodyKind.DEAL: Record(
        Deal,
        (("round", ROUND), ("visible", ListOf(CARD, 4, 6)), ("commitment", SECRET)),
        check_deal,
    ),
    BodyKind.PLAY: PLAY,
    BodyKind.REVEAL: Record(
        Reveal,
        (("round", ROUND), ("secret", SECRET), ("order", ListOf(CARD, DECK_CODES, DECK_CODES))),
        check_reveal,
    ),
    BodyKind.SUSPECT: Record(Suspect, (("node", NODE), ("held", UINT63))),
    BodyKind.BYE: Record(Bye, ()),
    BodyKind.CUT: Record(Cut, (("node", NODE), ("seq", UINT63))),
    BodyKind.COMMIT: Record(
        Commit, (("round", ROUND), ("secret_hash", HASH), ("share_hash", HASH))
    ),
    BodyKind.SHARE: Record(Share, (("round", ROUND), ("share", HASH))),
    BodyKind.BACKDATED: Record(
        Backdated,
        (("node", NODE), ("seq", SEQ), ("lamport", UINT63), ("announced", UINT63)),
    ),
    BodyKind.GAME: Record(
        GameBody,
        (("game", Int(1, MAX_GAME_ID)), ("payload", Blob(range(1, MAX_GAME_PAYLOAD + 1)))),
    ),
    BodyKind.UNSUSPECT: Record(Unsuspect, (("node", NODE),)),
}
BODY_KIND: dict[object, BodyKind] = {record.cls: kind for kind, record in BODIES.items()}


@dataclass(frozen=True, slots=True)
class EventPayload:
    """``[body_kind, ...body fields]``."""

    def load(self, value: object, where: str) -> object:
        if type(value) is not list:
            refuse(ErrorReason.BAD_FIELD, where, f"an array, not {type_name(value)}")
        if not value:
            refuse(ErrorReason.BAD_LENGTH, where, "an event needs a body kind")
        head = value[0]
        if type(head) is not int or head not in set(BodyKind):
            refuse(ErrorReason.UNKNOWN_BODY, where, f"body kind {head!r}")
        return Event(BODIES[BodyKind(head)].load_items(value[1:], where))  # type: ignore[arg-type]

    def dump(self, value: object, where: str) -> object:
        if not isinstance(value, Event):
            refuse(ErrorReason.BAD_FIELD, where, f"an Event, not {type_name(value)}")
        kind = BODY_KIND.get(type(value.body))
        if kind is None:
            refuse(ErrorReason.BAD_FIELD, where, f"{type_name(value.body)} is not a body")
        return [int(kind), *BODIES[kind].dump_items(value.body, where)]


PAYLOADS: dict[Kind, Field] = {
    Kind.HELLO: Record(
        Hello,
        (
            ("name", NAME),
            ("back", NAME),
            ("endpoint", ENDPOINT),
            ("peers", ListOf(PEER, 0, MAX_PEERS)),
            ("epoch", DIGEST),
            ("resume_seq", UINT63),
        ),
        check_hello,
    ),
    Kind.HEARTBEAT: Record(
        Heartbeat,
        (
            ("last_seq", UINT63),
            ("acks", ListOf(ACK, 0, MAX_PEERS)),
            ("digest_index", UINT63),
            ("digest", DIGEST),
            ("view", UINT63),  # only at a table that runs rounds (P-287)
        ),
        check_heartbeat,
        optional=1,
    ),
    Kind.EVENT: EventPayload(),
    Kind.REPAIR_REQUEST: Record(
        RepairRequest, (("origin", NODE), ("first", SEQ), ("last", SEQ)), check_repair_request
    ),
    Kind.REPAIR: Record(
        Repair, (("origin", NODE), ("events", ListOf(REPAIRED, 1, MAX_REPAIR_EVENTS)))
    ),
    Kind.ROUND: Record(
        Round,
        (
            ("op", Choice(RoundOp)),
            ("view", UINT63),
            ("ballot", UINT63),
            ("coordinator", NODE),
            ("cuts", ListOf(ACK, 0, MAX_PEERS)),
            ("accepted_ballot", UINT63),
            ("accepted_by", NODE),
            ("accepted_cuts", ListOf(ACK, 0, MAX_PEERS)),
        ),
    ),
    Kind.WATCH: Record(
        Watch,
        (
            ("op", Choice(WatchOp)),
            ("epoch", DIGEST),
            ("index", UINT63),
            ("name", NAME),
            ("endpoint", ENDPOINT),
            ("watchers", ListOf(NAME, 0, MAX_WATCHERS)),
            ("events", ListOf(REPAIRED, 0, MAX_REPAIR_EVENTS)),
        ),
        check_watch,
    ),
}
KIND_OF: dict[type, Kind] = {
    Hello: Kind.HELLO,
    Heartbeat: Kind.HEARTBEAT,
    Event: Kind.EVENT,
    RepairRequest: Kind.REPAIR_REQUEST,
    Repair: Kind.REPAIR,
    Round: Kind.ROUND,
    Watch: Kind.WATCH,
}
HEADER: tuple[tuple[str, Field], ...] = (
    ("table", NAME),
    ("sender", NODE),
    ("lamport", UINT63),
    ("seq", UINT63),
)
ENVELOPE_LENGTH = 8


# -- bytes to msgpack values ---------------------------------------------------------------


class _ExtRefused(ValueError):
    pass


def _refuse_ext(code: int, data: bytes) -> NoReturn:
    raise _ExtRefused(f"ext type {code} is not allowed")


def _parse(data: bytes) -> object:
    """One msgpack value from ``data``, within every limit, or ProtocolError."""
    if not isinstance(data, bytes | bytearray):
        refuse(ErrorReason.MALFORMED, "message", f"bytes, not {type_name(data)}")
    if len(data) > MAX_MESSAGE_SIZE:
        refuse(ErrorReason.OVERSIZE, "message", f"{len(data)} bytes > {MAX_MESSAGE_SIZE}")
    unpacker = msgpack.Unpacker(
        None, raw=False, strict_map_key=True, ext_hook=_refuse_ext, **_UNPACKER_LIMITS
    )
    try:
        unpacker.feed(data)
        value: object = unpacker.unpack()
    except Exception as exc:  # any parser failure at all is the sender's fault
        raise ProtocolError(*_parse_failure(exc)) from None
    if unpacker.tell() != len(data):
        refuse(ErrorReason.TRAILING_BYTES, "message", f"{len(data) - unpacker.tell()} extra")
    _check_shape(value)
    return value


def _parse_failure(exc: Exception) -> tuple[ErrorReason, str]:
    if isinstance(exc, msgpack.StackError):
        return ErrorReason.TOO_DEEP, "message: nested beyond the parser's stack"
    if isinstance(exc, UnicodeDecodeError):
        return ErrorReason.MALFORMED, "message: a str is not valid UTF-8"
    if isinstance(exc, msgpack.OutOfData):
        return ErrorReason.MALFORMED, "message: truncated"
    if isinstance(exc, msgpack.FormatError):
        return ErrorReason.MALFORMED, "message: a byte that starts no msgpack value"
    if isinstance(exc, ValueError) and any(word in str(exc) for word in _LENGTH_LIMITS):
        return ErrorReason.BAD_LENGTH, f"message: {exc}"
    return ErrorReason.MALFORMED, f"message: {str(exc) or type_name(exc)}"


_SCALARS = (bool, int, str, bytes)


def _check_shape(value: object) -> None:
    """Only int, bool, str, bin and arrays nested at most MAX_DEPTH deep; and nil only as a
    START's rounds, game or data (P-6, P-240, P-291), for the START's own record to judge."""
    may_be_nil = _start_body(value)
    for item, depth, parent in _walk(value):
        if isinstance(item, list):
            if depth > MAX_DEPTH:
                refuse(ErrorReason.TOO_DEEP, "message", f"arrays nested {depth} deep")
        elif item is None and parent is not None and parent is may_be_nil:
            continue  # a START's record refuses it where it may not be (bad_field)
        elif type(item) not in _SCALARS:
            refuse(ErrorReason.MALFORMED, "message", f"msgpack {type_name(item)} not allowed")


def _start_body(wire: object) -> list[object] | None:
    """The event array of a START (its body kind, then its fields), if ``wire`` is an
    envelope of one with no nil before its rounds (P-240); a nil from there on is left to
    the START's record (bad_field where it ends the record, bad_length past its fields)."""
    if type(wire) is not list or len(wire) != ENVELOPE_LENGTH or wire[1] != Kind.EVENT:
        return None
    body = wire[6]
    if type(body) is not list or not body or type(body[0]) is not int:
        return None
    if body[0] != BodyKind.START:
        return None
    if any(item is None for item in body[:START_NIL_FROM]):
        return None  # a nil before the rounds is malformed as anywhere else
    return body


def _walk(value: object) -> Iterator[tuple[object, int, list[object] | None]]:
    stack: list[tuple[object, int, list[object] | None]] = [(value, 1, None)]
    while stack:
        item, depth, parent = stack.pop()
        yield item, depth, parent
        if isinstance(item, list):
            stack.extend((child, depth + 1, item) for child in item)


def _pack(wire: list[object]) -> bytes:
    return bytes(msgpack.packb(wire, use_bin_type=True))  # the same object: packb gives bytes


# -- envelopes --------------------------------------------------------------------------------


def _load_envelope(wire: object, kinds: frozenset[Kind]) -> Envelope:
    if type(wire) is not list:
        refuse(ErrorReason.MALFORMED, "message", f"an array, not {type_name(wire)}")
    if not wire:
        refuse(ErrorReason.BAD_LENGTH, "message", "an empty array")
    if type(wire[0]) is not int or wire[0] != PROTOCOL_VERSION:
        refuse(ErrorReason.BAD_VERSION, "version", f"{wire[0]!r}, not {PROTOCOL_VERSION}")
    if len(wire) != ENVELOPE_LENGTH:
        refuse(ErrorReason.BAD_LENGTH, "message", f"{len(wire)} items, not {ENVELOPE_LENGTH}")
    kind = _load_kind(wire[1], kinds)
    fields = [
        field.load(value, name) for (name, field), value in zip(HEADER, wire[2:6], strict=True)
    ]
    fields += [PAYLOADS[kind].load(wire[6], "payload"), AUTH.load(wire[7], "auth")]
    envelope = Envelope(*fields)  # type: ignore[arg-type]
    _check_envelope(envelope)
    return envelope


def _load_kind(value: object, kinds: frozenset[Kind]) -> Kind:
    off = value == Kind.ROUND and not RoundKind.enabled  # refused as before (P-18)
    if type(value) is not int or value not in set(Kind) or off:
        refuse(ErrorReason.UNKNOWN_KIND, "kind", repr(value))
    if value not in kinds:
        refuse(ErrorReason.BAD_FIELD, "kind", f"{Kind(value).name} is not allowed here")
    return Kind(value)


def _dump_envelope(envelope: Envelope) -> list[object]:
    if not isinstance(envelope, Envelope):
        refuse(ErrorReason.BAD_FIELD, "message", f"an Envelope, not {type_name(envelope)}")
    kind = KIND_OF.get(type(envelope.payload))
    if kind is None:
        refuse(ErrorReason.BAD_FIELD, "payload", f"{type_name(envelope.payload)} has no kind")
    header = [field.dump(getattr(envelope, name), name) for name, field in HEADER]
    payload = PAYLOADS[kind].dump(envelope.payload, "payload")
    auth = AUTH.dump(envelope.auth, "auth")
    _check_envelope(envelope)
    return [PROTOCOL_VERSION, int(kind), *header, payload, auth]


def _check_envelope(envelope: Envelope) -> None:
    """The rules that join the header to the payload."""
    if isinstance(envelope.payload, Event):
        if envelope.seq < 1:
            refuse(ErrorReason.BAD_FIELD, "seq", "an Event is numbered from 1")
        if envelope.lamport < 1:
            refuse(ErrorReason.BAD_FIELD, "lamport", "an Event is stamped from 1")
    elif envelope.seq != 0:
        refuse(ErrorReason.BAD_FIELD, "seq", "must be 0 outside an Event")
    if isinstance(envelope.payload, Repair):
        _check_repaired(envelope.table, envelope.payload)
    if isinstance(envelope.payload, Watch):
        _check_fed(envelope.table, envelope.payload)


def _joins(envelope: Envelope) -> bool:
    """Whether the quick path's envelope keeps the rules that join its header to its payload
    (if not, the reference path names the broken rule)."""
    try:
        _check_envelope(envelope)
    except ProtocolError:
        return False
    return True


def _check_fed(table: str, watch: Watch) -> None:
    """Each event a FEED carries is a complete, valid Event message of this table."""
    for index, data in enumerate(watch.events):
        where = f"payload.events[{index}]"
        try:
            event = decode(data)  # the quick path first: a feed carries many events
        except ProtocolError as exc:
            refuse(ErrorReason.BAD_FIELD, where, str(exc))
        if not isinstance(event.payload, Event):
            refuse(ErrorReason.BAD_FIELD, where, "not an event")
        if event.table != table:
            refuse(ErrorReason.BAD_FIELD, where, "an event of another table")


def _check_repaired(table: str, repair: Repair) -> None:
    """Each relayed event is a complete, valid Event message of ``origin``, in stream order."""
    last_seq = 0
    for index, data in enumerate(repair.events):
        where = f"payload.events[{index}]"
        try:
            event = _decode(data, frozenset({Kind.EVENT}))
        except ProtocolError as exc:
            refuse(ErrorReason.BAD_FIELD, where, str(exc))
        if event.sender != repair.origin or event.table != table:
            refuse(ErrorReason.BAD_FIELD, where, "not an event of origin at this table")
        if event.seq <= last_seq:
            refuse(ErrorReason.BAD_FIELD, where, "sequence numbers must increase")
        last_seq = event.seq


def _decode(data: bytes, kinds: frozenset[Kind]) -> Envelope:
    wire = _parse(data)
    envelope = _load_envelope(wire, kinds)
    if _pack(wire) != data:  # type: ignore[arg-type]
        refuse(ErrorReason.NON_CANONICAL, "message", "not the shortest encoding")
    return envelope


ALL_KINDS = frozenset(Kind)


def decode(data: bytes) -> Envelope:
    """The envelope ``data`` encodes; ProtocolError (and nothing else) if it breaks a rule."""
    envelope = _quick_decode(data)
    if envelope is not None and (RoundKind.enabled or type(envelope.payload) is not Round):
        return envelope
    return _decode(data, ALL_KINDS)


def encode(envelope: Envelope) -> bytes:
    """The one encoding of ``envelope``; ProtocolError(bad_field) if peers would refuse it."""
    data = _quick_encode(envelope)
    if data is not None:
        return data
    try:
        data = _pack(_dump_envelope(envelope))
        if len(data) > MAX_MESSAGE_SIZE:
            refuse(ErrorReason.OVERSIZE, "message", f"{len(data)} bytes > {MAX_MESSAGE_SIZE}")
    except ProtocolError as exc:
        raise ProtocolError(ErrorReason.BAD_FIELD, f"cannot send: {exc}") from None
    return data


# -- the quick path: msgspec checks the same tables in C; the reference path decides the rest


_QUICK_BODIES = {int(kind): record for kind, record in BODIES.items()}
_QUICK_BODIES[BodyKind.PLAY] = Record(Play, PLAY.fields, check_play_fits)
_QUICK = codec_quick.EnvelopeCodec(
    Record(Envelope, (*HEADER, ("payload", codec_quick.Anything()), ("auth", AUTH))),
    PROTOCOL_VERSION,
    {  # a repair's events go the reference way
        int(kind): rec
        for kind, rec in PAYLOADS.items()
        if isinstance(rec, Record) and kind != Kind.REPAIR
    },
    int(Kind.EVENT),
    Event,
    _QUICK_BODIES,
    MAX_MESSAGE_SIZE,
)


def _quick_decode(data: bytes) -> Envelope | None:
    """The envelope the quick path reads, if it keeps the header's rules; None when unsure."""
    envelope: Envelope | None = _QUICK.decode(data)
    return envelope if envelope is not None and _joins(envelope) else None


def _quick_encode(envelope: Envelope) -> bytes | None:
    """The bytes the quick path makes, if the envelope keeps the header's rules."""
    data: bytes | None = _QUICK.encode(envelope)
    return data if data is not None and _joins(envelope) else None
