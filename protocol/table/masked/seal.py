"""A decryption share for one player only, encrypted to that player's round key with a proof
every node checks (spec/dutch-deal.md M-25, M-26).

Table events reach every member, so a share ``d = x c1`` meant for seat ``p`` travels as
ElGamal on the group to p's public key ``Y_p`` (M-7): ``A = a G``, ``B = d + a Y_p``. Only
p, who knows ``x_p``, gets ``d = B - x_p A``. The sender proves, to anyone, that one pair
``(x, a)`` gives its own key ``Y = x G``, ``A = a G`` and ``B = x c1 + a Y_p``: a sigma
protocol for a linear relation (Chaum-Pedersen's, with two secrets), made non-interactive
by Fiat-Shamir. So a false share is caught the moment it arrives, on every node, and names
its sender, while nobody but p learns it. The nonces and the mask ``a`` are derived from the
prover's secrets and the transcript: the same inputs give the same bytes (the vectors).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from . import group
from .elgamal import NONCE_PERSON, Masked, public_key
from .group import GENERATOR, GroupError, canonical_scalar, hash_to_scalar, valid_point

SEAL_PERSON: Final = b"dutch-seal-v1"  # the mask a, from the seal's seed (M-36)
SEALED_PERSON: Final = b"dutch-sealed-v1"  # the proof's challenge


@dataclass(frozen=True, slots=True)
class SealProof:
    """M-25: the challenge ``e`` and the responses for ``x`` and ``a`` (three scalars)."""

    e: bytes
    s1: bytes
    s2: bytes


@dataclass(frozen=True, slots=True)
class SealedShare:
    """M-25: a decryption share encrypted to one seat's round key, ``(A, B)``, with its proof."""

    a: bytes
    b: bytes
    proof: SealProof


def _challenge(context: bytes, *points: bytes) -> bytes:
    """M-25: the hash of the context, then G, Y, Y_p, c1, A, B, T1, T2, T3."""
    return hash_to_scalar(SEALED_PERSON, context, GENERATOR, *points)


def seal_share(
    secret: bytes, card: Masked, recipient: bytes, context: bytes, seed: bytes
) -> SealedShare:
    """M-25: this player's share of ``card`` (``secret`` is its key, M-5) encrypted to the
    public key ``recipient``, with the mask drawn from ``seed`` (32 bytes, M-36)."""
    mask = hash_to_scalar(SEAL_PERSON, b"mask", context, recipient, key=seed)
    point = group.times(secret, card.c1)
    a = group.times_base(mask)
    b = group.add(point, group.times(mask, recipient))
    k1 = hash_to_scalar(NONCE_PERSON, b"sealed", context, card.c1, recipient, key=secret)
    k2 = hash_to_scalar(NONCE_PERSON, b"sealed", context, card.c1, recipient, key=mask)
    t1, t2 = group.times_base(k1), group.times_base(k2)
    t3 = group.add(group.times(k1, card.c1), group.times(k2, recipient))
    e = _challenge(context, public_key(secret), recipient, card.c1, a, b, t1, t2, t3)
    s1 = group.scalar_add(k1, group.scalar_mul(e, secret))
    s2 = group.scalar_add(k2, group.scalar_mul(e, mask))
    return SealedShare(a, b, SealProof(e, s1, s2))


def check_sealed(
    public: bytes, recipient: bytes, card: Masked, sealed: SealedShare, context: bytes
) -> bool:
    """M-26: T1 = s1 G - e Y, T2 = s2 G - e A, T3 = s1 c1 + s2 Y_p - e B, and ``e`` is the
    hash of the transcript; every point passes M-2 and every scalar M-1."""
    proof = sealed.proof
    if not all(valid_point(p) for p in (public, recipient, card.c1, sealed.a, sealed.b)):
        return False
    if not all(canonical_scalar(s) for s in (proof.e, proof.s1, proof.s2)):
        return False
    try:
        t1 = group.sub(group.times_base(proof.s1), group.times(proof.e, public))
        t2 = group.sub(group.times_base(proof.s2), group.times(proof.e, sealed.a))
        both = group.add(group.times(proof.s1, card.c1), group.times(proof.s2, recipient))
        t3 = group.sub(both, group.times(proof.e, sealed.b))
    except GroupError:
        return False
    transcript = (public, recipient, card.c1, sealed.a, sealed.b, t1, t2, t3)
    return _challenge(context, *transcript) == proof.e


def unseal(secret: bytes, sealed: SealedShare) -> bytes:
    """M-26: the share's point, for the recipient whose key is ``secret``: B - x_p A."""
    return group.sub(sealed.b, group.times(secret, sealed.a))
