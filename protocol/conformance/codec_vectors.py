"""Conformance cases for the codec, from spec/vectors/codec.json.

The file has five lists, and every entry names the requirement it checks (``spec``):

* ``valid``: an ``envelope`` written as JSON and its one encoding, ``bytes``.
* ``invalid``: ``bytes`` a receiver must refuse, and the ``reason`` code it must give.
* ``unencodable``: an ``envelope`` a sender must refuse to encode (``reason``: bad_field).
* ``moves``: a Play body and the sender's ``seat``: the ``move`` it stands for, or ``reason``;
  the move of the table's default game (``games.registry``), read and written by the game
  (``TableGame.move_from_play``, ``play_from_move``) and compared in its JSON form.
* ``identities``: an Ed25519 public ``key`` and the ``node`` id it gives (P-184).

In JSON every message object carries its class name in ``type``; bytes are hex strings; enum
members are their names; a card is its code. ``bytes`` is a hex string, or a list of pieces,
each a hex string or ``[hex, count]`` for ``count`` copies, so a 64 KiB vector stays short.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, Field, fields, is_dataclass
from enum import IntEnum
from functools import partial
from typing import Any, get_args, get_origin, get_type_hints

from ..games.registry import DEFAULT_GAME, game_for
from ..limits import MAX_PLAYERS
from ..wire import messages
from ..wire.auth import node_id_of
from ..wire.codec import PLAY, ProtocolError, decode, encode
from ..wire.fields import ErrorReason, refuse
from ..wire.messages import Envelope, Play
from .case import Case

_CLASSES: dict[str, type] = {
    cls.__name__: cls
    for cls in vars(messages).values()
    if isinstance(cls, type) and is_dataclass(cls) and cls.__module__ == messages.__name__
}

_MESSAGES = frozenset(_CLASSES.values())


# -- JSON <-> messages --------------------------------------------------------------------


def from_json(value: Any, hint: Any = None) -> Any:
    """A message or field from its JSON form; values of the wrong type pass unchanged."""
    if isinstance(value, dict):
        cls = _CLASSES[value["type"]]
        hints = get_type_hints(cls)
        given = [f for f in fields(cls) if f.name in value or f.default is MISSING]
        return cls(**{f.name: from_json(value[f.name], hints[f.name]) for f in given})
    if isinstance(value, list) and get_origin(hint) is tuple:
        return tuple(from_json(item, get_args(hint)[0]) for item in value)
    return _scalar(value, _without_none(hint))


def _without_none(hint: Any) -> Any:
    options = [arg for arg in get_args(hint) if arg is not type(None)]
    return options[0] if get_origin(hint) is not tuple and len(options) == 1 else hint


def _scalar(value: Any, hint: Any) -> Any:
    if hint is bytes and isinstance(value, str):
        return bytes.fromhex(value)
    if isinstance(hint, type) and issubclass(hint, IntEnum) and isinstance(value, str):
        return hint[value]
    return value


def to_json(value: Any) -> Any:
    """The JSON form of a message, move or field; a card (a value with an int ``code``,
    as ``table.rules.Card``) is its code."""
    if value is None or isinstance(value, bool | str):
        return value
    code = getattr(value, "code", None)
    if type(code) is int and not isinstance(value, IntEnum):
        return code
    if isinstance(value, IntEnum):
        return value.name
    if isinstance(value, int):
        return value
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    # A message's absent optional field (an ADMIT's game) is left out, as on the wire.
    names = [f.name for f in fields(value) if not _absent_on_wire(value, f)]
    return {"type": type(value).__name__, **{n: to_json(getattr(value, n)) for n in names}}


def _absent_on_wire(value: Any, f: Field[Any]) -> bool:
    return type(value) in _MESSAGES and f.default is None and getattr(value, f.name) is None


def vector_bytes(spec: str | list[Any]) -> bytes:
    """The bytes of a vector: hex, or a list of hex pieces and ``[hex, count]`` runs."""
    if isinstance(spec, str):
        return bytes.fromhex(spec)
    return b"".join(_piece(piece) for piece in spec)


def _piece(piece: Any) -> bytes:
    if isinstance(piece, str):
        return bytes.fromhex(piece)
    hex_text, count = piece
    return bytes.fromhex(hex_text) * int(count)


# -- the checks ------------------------------------------------------------------------------


def _check_valid(vector: Mapping[str, Any]) -> str | None:
    expected = from_json(vector["envelope"], Envelope)
    data = vector_bytes(vector["bytes"])
    try:
        decoded = decode(data)
        encoded = encode(expected)
    except ProtocolError as exc:
        return f"refused a valid message: {exc}"
    if decoded != expected:
        return f"decoded {to_json(decoded)}"
    if encoded != data:
        return f"encoded as {encoded.hex()}"
    return None


def _check_invalid(vector: Mapping[str, Any]) -> str | None:
    return _expect_refusal(partial(decode, vector_bytes(vector["bytes"])), vector["reason"])


def _check_unencodable(vector: Mapping[str, Any]) -> str | None:
    envelope = from_json(vector["envelope"], Envelope)
    return _expect_refusal(partial(encode, envelope), vector["reason"])


def read_move(play: Play, seat: int) -> object:
    """The default game's move that ``play`` stands for from ``seat`` (P-51, P-52), or
    ProtocolError(bad_field): a seat that is not one, a field out of its range, or a play
    that stands for no move of that seat."""
    if type(seat) is not int or not 0 <= seat < MAX_PLAYERS:
        refuse(ErrorReason.BAD_FIELD, "seat", f"{seat!r} is not a seat")
    try:
        PLAY.dump(play, "play")
        move: object = game_for(DEFAULT_GAME).move_from_play(play, seat)
    except ProtocolError as exc:
        raise ProtocolError(ErrorReason.BAD_FIELD, exc.detail) from None
    except ValueError as exc:
        raise ProtocolError(ErrorReason.BAD_FIELD, f"play: {exc}") from None
    return move


def _check_move(vector: Mapping[str, Any]) -> str | None:
    play = from_json(vector["play"], Play)
    if "reason" in vector:
        return _expect_refusal(partial(read_move, play, vector["seat"]), vector["reason"])
    try:
        move = read_move(play, vector["seat"])
    except ProtocolError as exc:
        return f"refused a valid play: {exc}"
    if to_json(move) != vector["move"]:
        return f"read the move {to_json(move)}"
    back = game_for(DEFAULT_GAME).play_from_move(move, play.round)
    return None if back == play else f"wrote the play {to_json(back)}"


def _check_identity(vector: Mapping[str, Any]) -> str | None:
    node = node_id_of(bytes.fromhex(vector["key"]))
    return None if node.hex() == vector["node"] else f"node id {node.hex()}"


def _expect_refusal(attempt: Callable[[], object], reason: str) -> str | None:
    try:
        attempt()
    except ProtocolError as exc:
        return None if exc.reason == reason else f"refused with {exc}, not {reason}"
    return f"accepted it, but it must be refused with {reason}"


def _guarded(
    check: Callable[[Mapping[str, Any]], str | None], vector: Mapping[str, Any]
) -> str | None:
    """Run one check; a vector the checker cannot read fails its case, not the whole run."""
    try:
        return check(vector)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return f"unreadable vector: {type(exc).__name__}: {exc}"


_CHECKS: dict[str, Callable[[Mapping[str, Any]], str | None]] = {
    "valid": _check_valid,
    "invalid": _check_invalid,
    "unencodable": _check_unencodable,
    "moves": _check_move,
    "identities": _check_identity,
}


def cases(data: Mapping[str, Any]) -> list[Case]:
    """One case per vector of codec.json, in file order."""
    return [
        Case(
            str(vector.get("spec", "?")),
            f"{group}: {vector.get('name', '?')}",
            partial(_guarded, check, vector),
        )
        for group, check in _CHECKS.items()
        for vector in data.get(group, [])
    ]
