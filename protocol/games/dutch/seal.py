"""A decryption share for one player only, sealed to that player's node key (M-25 to M-27).

Table events reach every member, so a share meant for one seat travels inside a libsodium
sealed box to the X25519 key of the recipient's Ed25519 node key: the ephemeral public key,
then ``crypto_box`` of the share under the nonce BLAKE2b-192(ephemeral key || recipient
key). That is exactly the layout of ``crypto_box_seal``, so the recipient opens it with
``crypto_box_seal_open``. Only the ephemeral key pair differs: libsodium draws it from its
own generator, here it comes from a 32-byte seed handed in (pure, and fixed vectors), hashed
with the recipient and the share so that a seed used twice repeats a box, never a nonce
with another message.
"""

from __future__ import annotations

from hashlib import blake2b
from typing import Final

from nacl import bindings as sodium
from nacl.exceptions import CryptoError

from ...auth import curve_public_of
from .group import POINT_BYTES, SCALAR_BYTES, canonical_scalar, valid_point
from .mental import DEAL_SEED_BYTES, Proof, Share
from .wire import SEALED_SHARE_BYTES

SEAL_PERSON: Final = b"dutch-seal-v1"
NONCE_BYTES: Final = sodium.crypto_box_NONCEBYTES
SHARE_BYTES: Final = POINT_BYTES + 2 * SCALAR_BYTES  # d, then the proof's e and s
assert sodium.crypto_box_SEALBYTES + SHARE_BYTES == SEALED_SHARE_BYTES


def share_bytes(share: Share) -> bytes:
    """M-25: the sealed plaintext: the share's point, then its proof's e and s."""
    return share.point + share.proof.e + share.proof.s


def share_from_bytes(plain: bytes) -> Share | None:
    """The share ``plain`` holds, or None unless a point of the group and canonical scalars."""
    if len(plain) != SHARE_BYTES:
        return None
    point, e, s = plain[:POINT_BYTES], plain[POINT_BYTES:64], plain[64:]
    if not (valid_point(point) and canonical_scalar(e) and canonical_scalar(s)):
        return None
    return Share(point, Proof(e, s))


def recipient_key(node_key: bytes) -> bytes:
    """The X25519 key a share is sealed to: the one that goes with the Ed25519 node key."""
    try:
        return curve_public_of(node_key)
    except (CryptoError, TypeError, ValueError) as exc:
        raise ValueError(f"not an Ed25519 node key: {exc}") from exc


def seal_share(share: Share, node_key: bytes, seed: bytes) -> bytes:
    """M-25: ``share`` sealed to the node whose Ed25519 public key is ``node_key``, the
    ephemeral key made from ``seed`` (32 random bytes, fresh for each share)."""
    if len(seed) != DEAL_SEED_BYTES:
        raise ValueError(f"a seal seed is {DEAL_SEED_BYTES} bytes, not {len(seed)}")
    plain, to = share_bytes(share), recipient_key(node_key)
    ephemeral_seed = blake2b(to + plain, digest_size=32, key=seed, person=SEAL_PERSON).digest()
    public, secret = sodium.crypto_box_seed_keypair(ephemeral_seed)
    nonce = blake2b(public + to, digest_size=NONCE_BYTES).digest()
    sealed = bytes(public) + bytes(sodium.crypto_box(plain, nonce, to, secret))
    assert len(sealed) == SEALED_SHARE_BYTES
    return sealed


def open_share(sealed: bytes, curve_public: bytes, curve_secret: bytes) -> Share | None:
    """M-26: the share sealed to the X25519 key pair given (the node key's, ``Signer``'s
    ``curve_public`` and ``curve_secret()``), or None when it does not open to a share."""
    if len(sealed) != SEALED_SHARE_BYTES:
        return None
    try:
        plain = bytes(sodium.crypto_box_seal_open(sealed, curve_public, curve_secret))
    except (CryptoError, TypeError, ValueError):
        return None
    return share_from_bytes(plain)
