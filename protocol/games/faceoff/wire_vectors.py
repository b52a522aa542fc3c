"""Conformance cases for Blitz! on the table's wire, from spec/vectors/faceoff_wire.json
(spec/faceoff.md F-46 to F-48). Every entry names its requirement in ``spec``.

* ``valid``: a ``payload`` written as JSON and its one encoding, ``bytes`` (hex).
* ``invalid``: ``bytes`` a receiver must refuse, and the ``reason`` code it must give.
* ``chains``: a seat's chain from ``seed`` (hex): its ``end`` and ``link1`` (F-47, F-48),
  and the opening ``number`` of ``links`` (seat -> link, hex) as ``opened`` (F-48).

In JSON a message is an object with its class name in ``type`` and its fields; bytes are hex.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from functools import partial
from typing import Any

from ...conformance.case import Case
from ...table import openings
from . import wire
from .seat import CHAIN_CONTEXT

_CLASSES: dict[str, type] = {
    cls.__name__: cls
    for cls in vars(wire).values()
    if isinstance(cls, type) and is_dataclass(cls) and cls.__module__ == wire.__name__
}


def from_json(value: Any) -> Any:
    """A payload or message from its JSON form."""
    if isinstance(value, dict):
        cls = _CLASSES[value["type"]]
        return cls(**{f.name: _field(value[f.name], str(f.type)) for f in fields(cls)})
    return value


def _field(value: Any, hint: str) -> Any:
    return bytes.fromhex(value) if hint == "bytes" else from_json(value)


def to_json(value: Any) -> Any:
    """The JSON form of a payload, message or field."""
    if isinstance(value, bytes):
        return value.hex()
    if is_dataclass(value) and not isinstance(value, type):
        return {"type": type(value).__name__, **{f.name: to_json(getattr(value, f.name))
                                                  for f in fields(value)}}  # fmt: skip
    return value


def _valid(vector: Mapping[str, Any]) -> str | None:
    payload, data = from_json(vector["payload"]), bytes.fromhex(vector["bytes"])
    if wire.decode(data) != payload:
        return "decodes to another payload"
    return None if wire.encode(payload) == data else "encodes to other bytes"


def _invalid(vector: Mapping[str, Any]) -> str | None:
    try:
        wire.decode(bytes.fromhex(vector["bytes"]))
    except wire.WireError as exc:
        return None if exc.reason == vector["reason"] else f"refused {exc.reason}"
    return "accepted"


def _chain(vector: Mapping[str, Any]) -> str | None:
    links = openings.chain(bytes.fromhex(vector["seed"]), CHAIN_CONTEXT)
    if (links[0].hex(), links[1].hex()) != (vector["end"], vector["link1"]):
        return "another chain"
    if not openings.follows(links[1], links[0]):
        return "its first link does not follow its end"
    parts = {int(seat): bytes.fromhex(link) for seat, link in vector["links"].items()}
    value = openings.opened(vector["number"], parts, sorted(parts))
    return None if value.hex() == vector["opened"] else "another opening"


def cases(data: Mapping[str, Any]) -> list[Case]:
    checks: dict[str, Callable[[Mapping[str, Any]], str | None]] = {
        "valid": _valid,
        "invalid": _invalid,
        "chains": _chain,
    }
    return [
        Case(str(v.get("spec", "?")), f"{group}: {v.get('name', '?')}", partial(check, v))
        for group, check in checks.items()
        for v in data.get(group, [])
    ]
