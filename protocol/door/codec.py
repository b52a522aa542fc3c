"""The door's messages: a strict msgpack codec, the cards the two sides swap, and why a
card is refused (spec/protocol.md section 17, P-121 to P-123).

Every message is one canonical msgpack array ``[version, kind, fields...]``::

    KNOCK    table, private, nonce_K, pake_K, card_K
    ANSWER   nonce_D, pake_D, card_D, sig_D(T), mac_D(T)
    CONFIRM  sig_K(T), mac_K(T)
    WELCOME
    REFUSED  reason

On an open table pake and mac are empty.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import msgpack

from ..limits import MAX_ENDPOINT, MAX_NAME, NODE_ID_SIZE
from ..wire.auth import PUBLIC_KEY_SIZE, SIGNATURE_SIZE, node_id_of

DOOR_VERSION = 1
MAX_DOOR_MESSAGE = 1024
"""No door message is longer; anything longer is malformed."""
NONCE_SIZE = 32
PAKE_SIZE = 33
"""A SPAKE2 message: one side byte and a 32-byte group element."""
MAC_SIZE = 32
MAX_TABLE = MAX_NAME
MAX_REASON = 32


class Kind(IntEnum):
    KNOCK = 1
    ANSWER = 2
    CONFIRM = 3
    WELCOME = 4
    REFUSED = 5


REASONS = frozenset(
    {
        "wrong passphrase",
        "other table",
        "timeout",
        "bad card",
        "busy",
        "self",
        "malformed",
        "version",
        "refused",
    }
)
"""What a refusal may say. Either side reads any other word as "refused"."""


def reason_of(word: str) -> str:
    """A refusal's reason as this side reports it: one of ``REASONS``."""
    return word if word in REASONS else "refused"


@dataclass(frozen=True)
class Card:
    """What one node tells another at the door."""

    node_id: bytes
    public_key: bytes
    table_endpoint: str
    name: str


class Malformed(ValueError):
    """A door message that does not parse or does not fit its grammar."""


def pack(value: list[Any]) -> bytes:
    """The canonical msgpack of ``value``: what the door writes, and all it reads."""
    packed: bytes = msgpack.packb(value, use_bin_type=True)
    return packed


def card_fields(card: Card) -> list[Any]:
    return [card.node_id, card.public_key, card.table_endpoint, card.name]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bin(value: Any, *sizes: int) -> bytes:
    if not isinstance(value, bytes) or len(value) not in sizes:
        raise Malformed("bad bin")
    return value


def _str(value: Any, longest: int) -> str:
    if not isinstance(value, str) or not 1 <= len(value.encode("utf-8")) <= longest:
        raise Malformed("bad str")
    return value


def _card(value: Any) -> Card:
    """A card from the wire: its shape only; ``card_problem`` checks what it says."""
    if not isinstance(value, list) or len(value) != 4:
        raise Malformed("bad card shape")
    return Card(
        node_id=_bin(value[0], NODE_ID_SIZE),
        public_key=_bin(value[1], PUBLIC_KEY_SIZE),
        table_endpoint=_str(value[2], MAX_ENDPOINT),
        name=_str(value[3], MAX_NAME),
    )


def card_problem(card: Card) -> str | None:
    """Why a well-formed card cannot be accepted (P-123), or None."""
    if node_id_of(card.public_key) != card.node_id:
        return "its node id is not its key's"
    endpoint = card.table_endpoint
    address, sep, port = endpoint.removeprefix("tcp://").rpartition(":")
    if not endpoint.startswith("tcp://") or not sep or not address or not port.isdigit():
        return "its endpoint is not tcp://HOST:PORT"
    return None


def check_table(table: str) -> None:
    """Raise ``ValueError`` for a table name the door cannot carry."""
    if not 1 <= len(table.encode("utf-8")) <= MAX_TABLE:
        raise ValueError(f"a table name is 1 to {MAX_TABLE} bytes, got {table!r}")


def check_own_card(card: Card, node_id: bytes, public_key: bytes) -> None:
    """Raise ``ValueError`` unless this node's ``card`` fits the door and carries its key."""
    try:
        _card(card_fields(card))
    except Malformed as error:
        raise ValueError(f"this node's card does not fit the door's limits: {card!r}") from error
    if card.node_id != node_id or card.public_key != public_key:
        raise ValueError("this node's card does not carry its own key")
    problem = card_problem(card)
    if problem is not None:
        raise ValueError(f"this node's card is bad: {problem}")


_FIELDS = {
    Kind.KNOCK: 7,
    Kind.ANSWER: 7,
    Kind.CONFIRM: 4,
    Kind.WELCOME: 2,
    Kind.REFUSED: 3,
}


def _unpack(data: bytes) -> list[Any]:
    if len(data) > MAX_DOOR_MESSAGE:
        raise Malformed("oversize")
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            use_list=True,
            strict_map_key=True,
            max_str_len=MAX_DOOR_MESSAGE,
            max_bin_len=MAX_DOOR_MESSAGE,
            max_array_len=16,
            max_map_len=0,
            max_ext_len=0,
        )
    except Exception as error:
        raise Malformed("not msgpack") from error
    if not isinstance(value, list) or len(value) < 2:
        raise Malformed("not an array")
    if pack(value) != data:
        raise Malformed("not canonical")
    return value


def _kind(value: list[Any]) -> Kind:
    version, kind = value[0], value[1]
    if not _is_int(version):
        raise Malformed("bad version")
    if version != DOOR_VERSION:
        raise Malformed("version")
    if not _is_int(kind) or kind not in _FIELDS:
        raise Malformed("unknown kind")
    kind = Kind(kind)
    if len(value) != _FIELDS[kind]:
        raise Malformed("bad length")
    return kind


def _check_knock(fields: list[Any]) -> None:
    table, private, nonce, pake, card = fields
    _str(table, MAX_TABLE)
    if not isinstance(private, bool):
        raise Malformed("bad bool")
    _bin(nonce, NONCE_SIZE)
    _bin(pake, PAKE_SIZE if private else 0)
    fields[4] = _card(card)


def _check_answer(fields: list[Any]) -> None:
    nonce, pake, card, sig, mac = fields
    _bin(nonce, NONCE_SIZE)
    _bin(pake, 0, PAKE_SIZE)
    fields[2] = _card(card)
    _bin(sig, SIGNATURE_SIZE)
    _bin(mac, 0 if not pake else MAC_SIZE)


def _check_confirm(fields: list[Any]) -> None:
    sig, mac = fields
    _bin(sig, SIGNATURE_SIZE)
    _bin(mac, 0, MAC_SIZE)


def _check_welcome(fields: list[Any]) -> None:
    pass


def _check_refused(fields: list[Any]) -> None:
    _str(fields[0], MAX_REASON)


_CHECKS = {
    Kind.KNOCK: _check_knock,
    Kind.ANSWER: _check_answer,
    Kind.CONFIRM: _check_confirm,
    Kind.WELCOME: _check_welcome,
    Kind.REFUSED: _check_refused,
}


def decode(data: bytes) -> tuple[Kind, list[Any]]:
    """Parse one door message strictly: its kind and its fields after version and kind.

    Raises ``Malformed`` for anything that is not exactly one canonical msgpack
    array of the right shape; its text says what was wrong, and is "version"
    for a message of another version than ``DOOR_VERSION``.
    """
    value = _unpack(data)
    kind = _kind(value)
    fields = value[2:]
    _CHECKS[kind](fields)
    return kind, fields


def encode(kind: Kind, *fields: Any) -> bytes:
    """One door message; cards are written as their four fields."""
    return pack(
        [DOOR_VERSION, int(kind), *(card_fields(f) if isinstance(f, Card) else f for f in fields)]
    )
