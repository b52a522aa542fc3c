"""Signed events: the ``auth`` of an EVENT envelope and its check.

``auth`` is the origin's Ed25519 public key ‖ its signature over the canonical
encoding of the same envelope with ``auth`` empty. Encodings are canonical and
``auth`` is the envelope's last element, so the bytes that were signed are the
received bytes with the auth bin replaced by an empty one; nothing needs to be
re-encoded to sign or to check.
"""

from __future__ import annotations

from .auth import AUTH_SIZE, Signer, check_auth

EMPTY_AUTH = b"\xc4\x00"  # bin 8 of length 0
_AUTH_HEADER = b"\xc4" + bytes([AUTH_SIZE])  # bin 8 of length 96


def sign_encoded(signer: Signer, unsigned: bytes) -> bytes:
    """The message ``unsigned`` (encoded with an empty auth) with its auth filled in."""
    if not unsigned.endswith(EMPTY_AUTH):
        raise ValueError("an envelope to sign must be encoded with an empty auth")
    return unsigned[: -len(EMPTY_AUTH)] + _AUTH_HEADER + signer.auth(unsigned)


def signed_part(raw: bytes, auth: bytes) -> bytes | None:
    """The bytes ``auth`` must sign: ``raw`` with its auth emptied; None if it has none."""
    if len(auth) != AUTH_SIZE or not raw.endswith(_AUTH_HEADER + auth):
        return None
    return raw[: -(len(auth) + len(_AUTH_HEADER))] + EMPTY_AUTH


def authentic(origin: bytes, raw: bytes, auth: bytes) -> bool:
    """Whether ``raw`` (a decoded, canonical message) carries ``origin``'s valid signature."""
    signed = signed_part(raw, auth)
    return signed is not None and check_auth(origin, signed, auth)
