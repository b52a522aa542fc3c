"""What a seat reads of a message before (or instead of) decoding it.

The kind and the named sender sit at fixed places in the envelope's first bytes
(spec/protocol.md section 5), so a seat can drop a forged or foreign message
without a decode; and what a kept log holds (a START, our BYE, our last sequence number)
is read from its records.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable

from .codec import ProtocolError, decode
from .messages import Bye, Event, Kind, Start

_ENVELOPE_START = b"\x98\x01"  # fixarray of 8, version 1: the kind is the next byte


def message_kind(data: bytes) -> int | None:
    """The kind of a message, read from its third byte without decoding it."""
    if len(data) > 2 and data[:2] == _ENVELOPE_START:
        return data[2]
    return None


def message_sender(data: bytes) -> bytes | None:
    """The sender a message names, read from its header without decoding the rest.

    The seat compares it with the sender the transport authenticated.
    """
    if message_kind(data) is None or len(data) < 4:
        return None
    head = data[3]
    if 0xA0 <= head <= 0xBF:  # fixstr
        start, length = 4, head & 0x1F
    elif head == 0xD9 and len(data) > 4:  # str 8
        start, length = 5, data[4]
    else:
        return None
    at = start + length
    if data[at : at + 2] != b"\xc4\x10" or len(data) < at + 18:
        return None
    return data[at + 2 : at + 18]


def holds_a_start(raws: Iterable[bytes]) -> bool:
    """Whether a game was started in this log (a START event is among the records)."""
    for raw in raws:
        if message_kind(raw) != Kind.EVENT:
            continue
        with contextlib.suppress(ProtocolError):
            payload = decode(raw).payload
            if isinstance(payload, Event) and isinstance(payload.body, Start):
                return True
    return False


def said_goodbye(raws: Iterable[bytes], node: bytes) -> bool:
    """Whether ``node`` left the table in this log (a BYE of its own is among the records)."""
    for raw in raws:
        if message_kind(raw) != Kind.EVENT or message_sender(raw) != node:
            continue
        with contextlib.suppress(ProtocolError):
            payload = decode(raw).payload
            if isinstance(payload, Event) and isinstance(payload.body, Bye):
                return True
    return False


def own_last_seq(raws: Iterable[bytes], node: bytes) -> int:
    """The highest sequence number ``node`` used in these records (0 if none)."""
    last = 0
    for raw in raws:
        with contextlib.suppress(ProtocolError):
            envelope = decode(raw)
            if envelope.sender == node:
                last = max(last, envelope.seq)
    return last
