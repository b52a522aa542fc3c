"""Keys, node ids and signatures: the pure part of the table's security.

Every node holds a long-lived Ed25519 key pair. Its node id is the first 16
bytes of BLAKE2b over the 32-byte public key, so anyone holding a key can check
the id it goes with, and no node can take another's id without its secret.

Everything here is deterministic: a ``Signer`` is made from a 32-byte seed that
the node layer draws and keeps; signing and checking are pure functions.
"""

from __future__ import annotations

import hashlib

import nacl.bindings
import nacl.exceptions
import nacl.signing

from ..limits import NODE_ID_SIZE

PUBLIC_KEY_SIZE = 32
SEED_SIZE = 32
SIGNATURE_SIZE = 64
AUTH_SIZE = PUBLIC_KEY_SIZE + SIGNATURE_SIZE
"""An event's ``auth``: the signer's public key, then the signature."""


def node_id_of(public_key: bytes) -> bytes:
    """The node id that goes with an Ed25519 public key."""
    return hashlib.blake2b(public_key, digest_size=NODE_ID_SIZE, person=b"blitz-node-id").digest()


def fingerprint(public_key: bytes) -> str:
    """A short form of a key for people to compare aloud: ``3F9A-C21B-77D0-5E4B``."""
    digest = hashlib.blake2b(public_key, digest_size=8, person=b"blitz-print").hexdigest().upper()
    return "-".join(digest[i : i + 4] for i in range(0, len(digest), 4))


def check_signature(public_key: bytes, data: bytes, signature: bytes) -> bool:
    """True if ``signature`` is ``public_key``'s Ed25519 signature of ``data``."""
    if len(public_key) != PUBLIC_KEY_SIZE or len(signature) != SIGNATURE_SIZE:
        return False
    try:
        nacl.signing.VerifyKey(public_key).verify(data, signature)
    except (nacl.exceptions.BadSignatureError, nacl.exceptions.ValueError, ValueError):
        return False
    return True


def check_auth(node: bytes, data: bytes, auth: bytes) -> bool:
    """True if ``auth`` (public key ‖ signature) signs ``data`` as ``node``."""
    if len(auth) != AUTH_SIZE:
        return False
    public_key = auth[:PUBLIC_KEY_SIZE]
    if node_id_of(public_key) != node:
        return False
    return check_signature(public_key, data, auth[PUBLIC_KEY_SIZE:])


def curve_public_of(public_key: bytes) -> bytes:
    """The Curve25519 public key (raw 32 bytes) that goes with an Ed25519 one."""
    return bytes(nacl.bindings.crypto_sign_ed25519_pk_to_curve25519(public_key))


class Signer:
    """An Ed25519 key pair made from a 32-byte seed."""

    __slots__ = ("_key", "_secret", "node_id", "public_key")

    def __init__(self, seed: bytes) -> None:
        if len(seed) != SEED_SIZE:
            raise ValueError(f"a key seed is {SEED_SIZE} bytes, got {len(seed)}")
        self._key = nacl.signing.SigningKey(seed)
        self._secret = bytes(nacl.bindings.crypto_sign_seed_keypair(seed)[1])
        self.public_key: bytes = bytes(self._key.verify_key)
        self.node_id: bytes = node_id_of(self.public_key)

    def sign(self, data: bytes) -> bytes:
        """The 64-byte signature of ``data``."""
        return bytes(self._key.sign(data).signature)

    def auth(self, data: bytes) -> bytes:
        """Public key ‖ signature of ``data``: what ``check_auth`` accepts."""
        return self.public_key + self.sign(data)

    def curve_secret(self) -> bytes:
        """The Curve25519 secret key (raw 32 bytes) that goes with this key pair."""
        return bytes(nacl.bindings.crypto_sign_ed25519_sk_to_curve25519(self._secret))

    @property
    def curve_public(self) -> bytes:
        return curve_public_of(self.public_key)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)
