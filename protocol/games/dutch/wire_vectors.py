"""Conformance cases for Dutch on the table's wire, from spec/vectors/dutch_wire.json
(spec/dutch-deal.md sections 6 and 7). Every entry names its requirement in ``spec``.

* ``valid``: a ``payload`` written as JSON and its one encoding, ``bytes`` (hex).
* ``invalid``: ``bytes`` a receiver must refuse, and the ``reason`` code it must give.
* ``unencodable``: a ``payload`` a sender must refuse to encode, and the ``reason``.
* ``seals``: seat 0's share of the card whose ``c1`` is given (``token`` in the deck of
  ``round``), its key from ``key_seed`` (M-5), encrypted with ``seed`` to the key of
  ``to_seed``: ``a``, ``b`` and the proof's ``e``, ``s1``, ``s2``; the proof holds, the
  recipient unseals the share ``point``, and a changed ``b`` fails (M-25, M-26).

In JSON a message is an object with its class name in ``type``; bytes are hex; a missing
``to`` is null; a tuple is an array.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from functools import partial
from typing import Any, get_args, get_type_hints

from ...conformance.case import Case
from ...table.masked import checks, elgamal, group, seal
from . import moves, wire

_CLASSES: dict[str, type] = {
    cls.__name__: cls
    for module in (checks, elgamal, moves, seal, wire)
    for cls in vars(module).values()
    if isinstance(cls, type) and is_dataclass(cls) and cls.__module__ == module.__name__
}


def from_json(value: Any, hint: Any = None) -> Any:
    """A payload, message or field from its JSON form."""
    if isinstance(value, dict):
        cls = _CLASSES[value["type"]]
        hints = get_type_hints(cls)
        return cls(**{f.name: from_json(value[f.name], hints[f.name]) for f in fields(cls)})
    if isinstance(value, list):
        items = get_args(hint)[:1] or (None,)
        return tuple(from_json(item, items[0]) for item in value)
    if isinstance(value, str) and "bytes" in str(hint):
        return bytes.fromhex(value)
    return value


def to_json(value: Any) -> Any:
    """The JSON form of a payload, message or field."""
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    if is_dataclass(value) and not isinstance(value, type):
        found = {f.name: to_json(getattr(value, f.name)) for f in fields(value)}
        return {"type": type(value).__name__, **found}
    return value


def _valid(vector: Mapping[str, Any]) -> str | None:
    payload, data = from_json(vector["payload"]), bytes.fromhex(vector["bytes"])
    if wire.decode(data) != payload:
        return "decodes to another payload"
    return None if wire.encode(payload) == data else "encodes to other bytes"


def _refused(action: Callable[[], object], reason: str) -> str | None:
    try:
        action()
    except wire.WireError as exc:
        return None if exc.reason == reason else f"refused {exc.reason}, not {reason}"
    return "accepted"


def _invalid(vector: Mapping[str, Any]) -> str | None:
    return _refused(partial(wire.decode, bytes.fromhex(vector["bytes"])), vector["reason"])


def _unencodable(vector: Mapping[str, Any]) -> str | None:
    return _refused(partial(wire.encode, from_json(vector["payload"])), vector["reason"])


def _seal(vector: Mapping[str, Any]) -> str | None:
    secret, to_secret = (
        elgamal.key_secret(bytes.fromhex(vector[k])) for k in ("key_seed", "to_seed")
    )
    recipient = elgamal.public_key(to_secret)
    card = elgamal.Masked(bytes.fromhex(vector["c1"]), group.IDENTITY)
    context = elgamal.opening_context(
        bytes.fromhex(vector["table"]), vector["round"], vector["token"]
    )
    sealed = seal.seal_share(secret, card, recipient, context, bytes.fromhex(vector["seed"]))
    proof = sealed.proof
    made = (sealed.a, sealed.b, proof.e, proof.s1, proof.s2)
    if tuple(v.hex() for v in made) != tuple(vector[k] for k in ("a", "b", "e", "s1", "s2")):
        return "sealed to other bytes"
    public = elgamal.public_key(secret)
    if not seal.check_sealed(public, recipient, card, sealed, context):
        return "its proof does not hold"
    if seal.unseal(to_secret, sealed).hex() != vector["point"]:
        return "the recipient does not unseal the share"
    changed = seal.SealedShare(sealed.a, sealed.a, proof)
    if seal.check_sealed(public, recipient, card, changed, context):
        return "a changed share passes"
    return None


def cases(data: Mapping[str, Any]) -> list[Case]:
    by_group: dict[str, Callable[[Mapping[str, Any]], str | None]] = {
        "valid": _valid,
        "invalid": _invalid,
        "unencodable": _unencodable,
        "seals": _seal,
    }
    return [
        Case(str(v.get("spec", "?")), f"{group}: {v.get('name', '?')}", partial(check, v))
        for group, check in by_group.items()
        for v in data.get(group, [])
    ]
