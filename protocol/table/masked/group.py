"""The prime-order group that hides a masked deck's cards: Ed25519 points through libsodium.

Every operation is libsodium's (PyNaCl's bindings); nothing here does big-integer
arithmetic. Points are 32-byte encodings. ``crypto_core_ed25519_is_valid_point`` accepts
only canonical points of the prime-order subgroup that are not of small order, so a point
that passes it carries no cofactor component (spec/dutch-deal.md M-2). Scalars are 32-byte
little-endian integers below the group order, made from 64 bytes by
``crypto_core_ed25519_scalar_reduce``.
"""

from __future__ import annotations

from hashlib import blake2b
from typing import Final

from nacl import bindings as sodium
from nacl.exceptions import CryptoError

POINT_BYTES: Final = sodium.crypto_core_ed25519_BYTES
SCALAR_BYTES: Final = sodium.crypto_core_ed25519_SCALARBYTES
GENERATOR: Final = bytes.fromhex("58" + "66" * 31)  # the Ed25519 base point
IDENTITY: Final = bytes([1]) + bytes(31)  # the neutral element, (0, 1)


class GroupError(ValueError):
    """A point or scalar that libsodium refused: the sender's data is bad."""


def valid_point(point: bytes) -> bool:
    """M-2: a canonical point of the prime-order subgroup, not of small order."""
    return len(point) == POINT_BYTES and bool(sodium.crypto_core_ed25519_is_valid_point(point))


def canonical_scalar(scalar: bytes) -> bool:
    """M-1: 32 bytes encoding a number below the group order, so a proof has one encoding."""
    if len(scalar) != SCALAR_BYTES:
        return False
    return bytes(sodium.crypto_core_ed25519_scalar_reduce(scalar + bytes(32))) == scalar


def hash_to_scalar(person: bytes, *parts: bytes, key: bytes = b"") -> bytes:
    """BLAKE2b-512 of the length-prefixed parts, reduced modulo the group order (M-3)."""
    digest = blake2b(digest_size=64, person=person, key=key)
    for part in parts:
        digest.update(len(part).to_bytes(4, "big") + part)
    return bytes(sodium.crypto_core_ed25519_scalar_reduce(digest.digest()))


def hash_to_point(person: bytes, data: bytes) -> bytes:
    """Elligator 2 on BLAKE2b-256 of ``data``, cofactor cleared by libsodium: a point of
    the prime-order subgroup whose discrete logarithm nobody knows (M-4)."""
    uniform = blake2b(data, digest_size=32, person=person).digest()
    return bytes(sodium.crypto_core_ed25519_from_uniform(uniform))


def times_base(scalar: bytes) -> bytes:
    try:
        return bytes(sodium.crypto_scalarmult_ed25519_base_noclamp(scalar))
    except (CryptoError, TypeError, ValueError) as exc:
        raise GroupError(f"scalar refused: {exc}") from exc


def times(scalar: bytes, point: bytes) -> bytes:
    try:
        return bytes(sodium.crypto_scalarmult_ed25519_noclamp(scalar, point))
    except (CryptoError, TypeError, ValueError) as exc:
        raise GroupError(f"point or scalar refused: {exc}") from exc


def add(first: bytes, second: bytes) -> bytes:
    try:
        return bytes(sodium.crypto_core_ed25519_add(first, second))
    except (CryptoError, TypeError, ValueError) as exc:
        raise GroupError(f"point refused: {exc}") from exc


def sub(first: bytes, second: bytes) -> bytes:
    try:
        return bytes(sodium.crypto_core_ed25519_sub(first, second))
    except (CryptoError, TypeError, ValueError) as exc:
        raise GroupError(f"point refused: {exc}") from exc


def scalar_add(first: bytes, second: bytes) -> bytes:
    return bytes(sodium.crypto_core_ed25519_scalar_add(first, second))


def scalar_mul(first: bytes, second: bytes) -> bytes:
    return bytes(sodium.crypto_core_ed25519_scalar_mul(first, second))


class Stream:
    """Numbers drawn from a 32-byte seed: BLAKE2b-512 blocks keyed by the seed, each over a
    label and a block counter, read as 32-bit big-endian words (M-6)."""

    def __init__(self, seed: bytes, label: bytes) -> None:
        self._seed, self._label = seed, label
        self._block, self._words = 0, list[int]()

    def _word(self) -> int:
        if not self._words:
            block = blake2b(
                self._label + self._block.to_bytes(4, "big"),
                digest_size=64,
                key=self._seed,
                person=b"dutch-stream-v1",
            ).digest()
            self._words = [int.from_bytes(block[i : i + 4], "big") for i in range(60, -1, -4)]
            self._block += 1
        return self._words.pop()

    def below(self, bound: int) -> int:
        """A uniform number in ``range(bound)``: words at or above the largest multiple of
        ``bound`` are drawn again."""
        limit = (1 << 32) - (1 << 32) % bound
        while (word := self._word()) >= limit:
            pass
        return word % bound
