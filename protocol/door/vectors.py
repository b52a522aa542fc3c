"""Conformance cases for the door, from spec/vectors/door.json (spec/protocol.md section 17).

The file has two lists; every entry names the requirements it checks in ``spec``, and
bytes are hex.

* ``exchanges``: one whole door exchange for fixed secrets: the ``table``, the
  ``passphrase`` (null on an open table), each side's Ed25519 key ``seed``, ``card``
  (``node``, ``key``, ``endpoint``, ``name``), ``nonce`` and, on a private table, SPAKE2
  ``entropy`` (the 64 random bytes of P-206) and ``scalar`` (x, 32 bytes little-endian);
  then the SPAKE2 ``password`` and ``identity`` (P-128), the password scalar ``w``
  (little-endian), the shared point ``K`` (P-208), the shared key ``k``, the MAC key
  ``m``, the transcript ``t``, both signatures, both MACs, and the four messages
  ``knock``, ``answer``, ``confirm`` and ``welcome``.
* ``messages``: door message ``bytes`` and what a door makes of them: ``kind`` (a name of
  section 17.2) when it reads them, or ``malformed`` with the problem.

The cases replay each step with the vector's secrets and compare every byte; the four
messages come from this implementation's own ``Knocker`` and ``Keeper``
(protocol/door/), given the vector's nonces and SPAKE2 entropy as their randomness.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from spake2 import SPAKE2_Symmetric
from spake2.parameters.ed25519 import ParamsEd25519

from ..conformance.case import Case
from ..wire.auth import Signer, check_signature
from .codec import Card, Malformed, decode
from .handshake import (
    DOOR_LABEL,
    KNOCKER_LABEL,
    mac,
    pake_identity,
    pake_password,
    transcript,
)
from .keeper import Admit, Keeper, Send
from .knocker import Admitted, Knocker, Say


def card_of(fields: Mapping[str, Any]) -> Card:
    return Card(
        bytes.fromhex(fields["node"]),
        bytes.fromhex(fields["key"]),
        fields["endpoint"],
        fields["name"],
    )


def pake_side(password: bytes, identity: bytes, entropy: bytes) -> SPAKE2_Symmetric:
    """One side of P-206 with the given 64 random bytes."""
    return SPAKE2_Symmetric(password, idSymmetric=identity, entropy_f=lambda n: entropy[:n])


def _little(number: int) -> str:
    return number.to_bytes(32, "little").hex()


def replay(vector: Mapping[str, Any]) -> dict[str, str]:
    """Every derived value of an exchange, from the vector's inputs, as hex."""
    knocker, door = vector["knocker"], vector["door"]
    table, phrase = vector["table"], vector["passphrase"]
    private = phrase is not None
    card_k, card_d = card_of(knocker["card"]), card_of(door["card"])
    nonce_k, nonce_d = bytes.fromhex(knocker["nonce"]), bytes.fromhex(door["nonce"])
    found: dict[str, str] = {}
    pake_k = pake_d = b""
    key: bytes | None = None
    if private:
        password, identity = pake_password(phrase), pake_identity(table)
        side_k = pake_side(password, identity, bytes.fromhex(knocker["entropy"]))
        side_d = pake_side(password, identity, bytes.fromhex(door["entropy"]))
        pake_k, pake_d = side_k.start(), side_d.start()
        key = side_d.finish(pake_k)
        if side_k.finish(pake_d) != key:
            found["k"] = "the two sides disagree"
            return found
        params = ParamsEd25519
        other = params.group.bytes_to_element(pake_d[1:])
        shared = other.add(params.S.scalarmult(-side_k.pw_scalar)).scalarmult(side_k.xy_scalar)
        found |= {
            "K": shared.to_bytes().hex(),
            "password": password.hex(),
            "identity": identity.hex(),
            "w": _little(side_k.pw_scalar),
            "knocker.scalar": _little(side_k.xy_scalar),
            "door.scalar": _little(side_d.xy_scalar),
            "knocker.pake": pake_k.hex(),
            "door.pake": pake_d.hex(),
            "k": key.hex(),
            "s": ParamsEd25519.S.to_bytes().hex(),
        }
    digest = transcript(table, private, nonce_k, pake_k, card_k, nonce_d, pake_d, card_d)
    signer_k = Signer(bytes.fromhex(knocker["seed"]))
    signer_d = Signer(bytes.fromhex(door["seed"]))
    sig_d, sig_k = signer_d.sign(DOOR_LABEL + digest), signer_k.sign(KNOCKER_LABEL + digest)
    mac_d, mac_k = mac(key, DOOR_LABEL, digest), mac(key, KNOCKER_LABEL, digest)
    found |= {
        "t": digest.hex(),
        "door.signature": sig_d.hex(),
        "knocker.signature": sig_k.hex(),
        "door.mac": mac_d.hex(),
        "knocker.mac": mac_k.hex(),
        **{name: data.hex() for name, data in exchange(vector).items()},
    }
    if key is not None:  # the MAC key m of P-129, written out for readers
        found["m"] = hashlib.blake2b(key, digest_size=32, person=b"blitz-door-mac").hexdigest()
    return found


def _randomness(side: Mapping[str, Any]) -> Callable[[int], bytes]:
    """A side's random source: its nonce, then its SPAKE2 entropy, in the order it draws."""
    left = [bytes.fromhex(side["nonce"]) + bytes.fromhex(side.get("entropy", ""))]

    def draw(size: int) -> bytes:
        if size > len(left[0]):
            raise ValueError(f"the vector gives fewer random bytes than the {size} drawn")
        drawn, left[0] = left[0][:size], left[0][size:]
        return drawn

    return draw


def exchange(vector: Mapping[str, Any]) -> dict[str, bytes]:
    """The four messages of a whole exchange between this implementation's two sides."""
    knocker, door = vector["knocker"], vector["door"]
    card_d = card_of(door["card"])
    keeper = Keeper(
        Signer(bytes.fromhex(door["seed"])),
        vector["table"],
        vector["passphrase"],
        lambda: card_d,
        entropy=_randomness(door),
    )
    knocking = Knocker(
        Signer(bytes.fromhex(knocker["seed"])),
        vector["table"],
        vector["passphrase"],
        card_of(knocker["card"]),
        entropy=_randomness(knocker),
    )
    found = {"knock": knocking.knock()}
    found["answer"] = _only_send(keeper.receive(b"k", "vector", [found["knock"]], 0.0))
    step = knocking.receive(found["answer"])
    if not isinstance(step, Say):
        raise ValueError(f"the knocker refused the ANSWER: {step}")
    found["confirm"] = step.data
    admit = keeper.receive(b"k", "vector", [step.data], 0.0)
    if not any(isinstance(effect, Admit) for effect in admit):
        raise ValueError(f"the door refused the CONFIRM: {admit}")
    found["welcome"] = _only_send(keeper.admitted(b"k", True))
    if knocking.receive(found["welcome"]) != Admitted(card_d):
        raise ValueError("the knocker did not take the WELCOME")
    return found


def _only_send(effects: Sequence[object]) -> bytes:
    sent = [effect.data for effect in effects if isinstance(effect, Send)]
    if len(sent) != 1:
        raise ValueError(f"expected one message, got {effects}")
    return sent[0]


def _wanted(vector: Mapping[str, Any], name: str) -> Any:
    where: Any = vector
    for part in name.split("."):
        where = where[part]
    return where


def _check_exchange(vector: Mapping[str, Any]) -> str | None:
    found = replay(vector)
    for name, value in found.items():
        if _wanted(vector, name) != value:
            return f"{name}: {value}, not {_wanted(vector, name)}"
    for side in ("knocker", "door"):
        card = card_of(vector[side]["card"])
        signer = Signer(bytes.fromhex(vector[side]["seed"]))
        if (signer.node_id, signer.public_key) != (card.node_id, card.public_key):
            return f"the {side}'s card is not its key's"
    label = {"door": DOOR_LABEL, "knocker": KNOCKER_LABEL}
    for side in ("knocker", "door"):
        key = bytes.fromhex(vector[side]["card"]["key"])
        signed = label[side] + bytes.fromhex(vector["t"])
        if not check_signature(key, signed, bytes.fromhex(vector[side]["signature"])):
            return f"the {side}'s signature does not check"
    kinds = [decode(bytes.fromhex(vector[m]))[0].name for m in ("knock", "answer", "confirm")]
    return None if kinds == ["KNOCK", "ANSWER", "CONFIRM"] else f"read as {kinds}"


def _check_message(vector: Mapping[str, Any]) -> str | None:
    try:
        kind, _fields = decode(bytes.fromhex(vector["bytes"]))
    except Malformed as problem:
        got = f"malformed: {problem}"
        return None if got == f"malformed: {vector.get('malformed')}" else got
    return None if kind.name == vector.get("kind") else f"read as {kind.name}"


_CHECKS: dict[str, Callable[[Mapping[str, Any]], str | None]] = {
    "exchanges": _check_exchange,
    "messages": _check_message,
}


def cases(data: Mapping[str, Any]) -> list[Case]:
    found: list[Case] = []
    for group, check in _CHECKS.items():
        for vector in data.get(group, []):
            specs = vector.get("spec", "?")
            for spec_id in [specs] if isinstance(specs, str) else specs:
                name = f"door {group}: {vector.get('name', '?')}"
                found.append(Case(str(spec_id), name, partial(_guarded, check, vector)))
    return found


def _guarded(
    check: Callable[[Mapping[str, Any]], str | None], vector: Mapping[str, Any]
) -> str | None:
    try:
        return check(vector)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return f"unreadable vector: {type(exc).__name__}: {exc}"
