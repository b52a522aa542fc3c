"""Blitz!'s bodies on the wire (spec/faceoff.md F-46 onwards): the payload of a GAME body
whose game id is 3.

A payload is the round (4 bytes, big-endian), a kind (1 byte) and the kind's fields, each
of a fixed size but a text, which is the rest of the payload in UTF-8. Nothing else reads:
a payload of an unknown kind, of the wrong length or with a text that is not UTF-8 is
refused with ``WireError``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, TypeAlias

from ...table.openings import LINK_SIZE

GAME_ID: Final = 3  # Blitz!'s id in a GAME body (F-46); 1 is Dutch Blitz's, 2 Dutch's
PACK_DIGEST_SIZE: Final = 32  # a pack's SHA-256 digest (F-33)
MAX_ANSWER_BYTES: Final = 120  # bytes of an answer's UTF-8 at most (F-50)


class WireError(ValueError):
    """A payload that does not read; ``reason`` is a stable code (F-46)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Chain:
    """F-47: a seat's chain end for the round's openings, and the digest of its pack."""

    digest: bytes
    end: bytes


@dataclass(frozen=True, slots=True)
class Link:
    """F-48: a seat's part of opening ``number``."""

    number: int
    link: bytes


@dataclass(frozen=True, slots=True)
class Wish:
    """F-49: the turning player asks for the top card of draw pile ``pile``."""

    pile: int


@dataclass(frozen=True, slots=True)
class Said:
    """F-50: a typed answer; ``seen`` counts the moves its sender had seen (F-53)."""

    seen: int
    text: str


@dataclass(frozen=True, slots=True)
class Claimed:
    """F-50: a spoken claim; ``seen`` as for ``Said``."""

    seen: int


@dataclass(frozen=True, slots=True)
class Conceded:
    """F-50: the sender concedes the face-off."""


@dataclass(frozen=True, slots=True)
class Contested:
    """F-50: the sender contests what waits."""


@dataclass(frozen=True, slots=True)
class Voted:
    """F-50: the sender's vote."""

    accept: bool


@dataclass(frozen=True, slots=True)
class Closed:
    """F-52: window ``window`` of the round has closed."""

    window: int


Message: TypeAlias = Chain | Link | Wish | Said | Claimed | Conceded | Contested | Voted | Closed
_KINDS: Final[tuple[type, ...]] = (
    Chain, Link, Wish, Said, Claimed, Conceded, Contested, Voted, Closed
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Payload:
    round: int
    message: Message


def _u32(value: int) -> bytes:
    return value.to_bytes(4, "big")


def _fields(message: Message) -> bytes:
    if isinstance(message, Chain):
        return message.digest + message.end
    if isinstance(message, Link):
        return message.number.to_bytes(2, "big") + message.link
    if isinstance(message, Wish):
        return bytes([message.pile])
    if isinstance(message, Said):
        return _u32(message.seen) + message.text.encode()
    if isinstance(message, Claimed):
        return _u32(message.seen)
    if isinstance(message, Voted):
        return bytes([message.accept])
    if isinstance(message, Closed):
        return _u32(message.window)
    return b""


def encode(payload: Payload) -> bytes:
    """A payload's bytes; an answer too long to read is refused ``long_text``."""
    if isinstance(payload.message, Said) and len(payload.message.text.encode()) > MAX_ANSWER_BYTES:
        raise WireError("long_text")
    kind = _KINDS.index(type(payload.message))
    return _u32(payload.round) + bytes([kind]) + _fields(payload.message)


def _sized(fields: bytes, size: int) -> bytes:
    if len(fields) != size:
        raise WireError("bad_length")
    return fields


def _read(kind: type, fields: bytes) -> Message:
    if kind is Chain:
        _sized(fields, PACK_DIGEST_SIZE + LINK_SIZE)
        return Chain(fields[:PACK_DIGEST_SIZE], fields[PACK_DIGEST_SIZE:])
    if kind is Link:
        _sized(fields, 2 + LINK_SIZE)
        return Link(int.from_bytes(fields[:2], "big"), fields[2:])
    if kind is Wish:
        return Wish(_sized(fields, 1)[0])
    if kind is Said:
        return Said(int.from_bytes(fields[:4], "big"), _text(fields[4:]))
    if kind is Claimed:
        return Claimed(int.from_bytes(_sized(fields, 4), "big"))
    if kind is Voted:
        flag = _sized(fields, 1)[0]
        if flag > 1:
            raise WireError("bad_vote")
        return Voted(bool(flag))
    if kind is Closed:
        return Closed(int.from_bytes(_sized(fields, 4), "big"))
    _sized(fields, 0)
    return Conceded() if kind is Conceded else Contested()


def _text(raw: bytes) -> str:
    if len(raw) > MAX_ANSWER_BYTES:
        raise WireError("long_text")
    try:
        return raw.decode()
    except UnicodeDecodeError:
        raise WireError("not_utf8") from None


def decode(raw: bytes) -> Payload:
    if len(raw) < 5:
        raise WireError("short")
    if raw[4] >= len(_KINDS):
        raise WireError("unknown_kind")
    if _KINDS[raw[4]] is Said and len(raw) < 9:
        raise WireError("bad_length")
    return Payload(int.from_bytes(raw[:4], "big"), _read(_KINDS[raw[4]], raw[5:]))
