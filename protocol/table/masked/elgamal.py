"""Mental poker with no dealer (spec/dutch-deal.md): a deck of ``size`` card values masked
and shuffled by every player in turn, so that nobody knows the order, and each card opened
to one player or to all by decryption shares that carry a proof. What a value means is the
game's; the table knows only how many there are.

ElGamal over the prime-order group of group.py, in the style of Barnett and Smart: every
player holds a key share x_i and publishes Y_i = x_i G with a Schnorr proof; the joint key
is Y = sum Y_i. A masked card is (c1, c2) = (r G, M + r Y). A shuffler re-masks every card
with fresh r and permutes the deck. To open a card, each player sends d_i = x_i c1 with a
Chaum-Pedersen proof that log_G Y_i = log_c1 d_i; then M = c2 - sum d_i.

Pure: every secret and every bit of randomness is handed in as bytes (a node draws them
with its operating system's generator). Proof nonces are derived from the prover's secret
and the transcript, so a proof is a function of its inputs and vectors are fixed. The hash
personalisations keep the names Dutch gave them (``dutch-key-v1``...): they are wire bytes
(spec/dutch-deal.md M-3 to M-7), the same for every game that uses the deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from . import group
from .group import GENERATOR, IDENTITY, GroupError, Stream, hash_to_scalar

DEAL_SEED_BYTES: Final = 32  # a key secret or a shuffle seed, handed in
MAX_VALUES: Final = 256  # a card value is one byte in the hash that makes its point (M-4)
KEY_PERSON: Final = b"dutch-key-v1"
SHARE_PERSON: Final = b"dutch-share-v1"
NONCE_PERSON: Final = b"dutch-nonce-v1"
MASK_PERSON: Final = b"dutch-mask-v1"
CARD_PERSON: Final = b"dutch-card-v1"


@dataclass(frozen=True, slots=True)
class Masked:
    """One masked card: ElGamal's pair (c1, c2), both points."""

    c1: bytes
    c2: bytes


Deck = tuple[Masked, ...]


@dataclass(frozen=True, slots=True)
class Proof:
    """A Fiat-Shamir proof: the challenge ``e`` and the response ``s`` (two scalars)."""

    e: bytes
    s: bytes


@cache
def card_points(size: int) -> tuple[bytes, ...]:
    """M-4: card value ``code`` of a deck of ``size`` is the point hashed from
    ``"card" || code`` (one byte); value ``i`` of a smaller deck is value ``i`` of a larger."""
    if not 0 < size <= MAX_VALUES:
        raise ValueError(f"a masked deck holds 1 to {MAX_VALUES} card values, not {size}")
    return tuple(group.hash_to_point(CARD_PERSON, b"card" + bytes([c])) for c in range(size))


@cache
def _card_of_point(size: int) -> dict[bytes, int]:
    return {point: code for code, point in enumerate(card_points(size))}


def _canonical(proof: Proof) -> bool:
    return group.canonical_scalar(proof.e) and group.canonical_scalar(proof.s)


def key_secret(seed: bytes) -> bytes:
    """M-5: a key share's secret scalar, from 32 handed-in bytes."""
    return hash_to_scalar(KEY_PERSON, b"secret", key=_seed(seed))


def public_key(secret: bytes) -> bytes:
    return group.times_base(secret)


def _seed(seed: bytes) -> bytes:
    if len(seed) != DEAL_SEED_BYTES:
        raise ValueError(f"a seed is {DEAL_SEED_BYTES} bytes, not {len(seed)}")
    return seed


def _nonce(secret: bytes, *parts: bytes) -> bytes:
    return hash_to_scalar(NONCE_PERSON, *parts, key=secret)


def prove_key(secret: bytes, context: bytes) -> Proof:
    """M-7: a Schnorr proof that the sender knows the secret of its public key."""
    public = public_key(secret)
    k = _nonce(secret, b"key", context)
    e = hash_to_scalar(KEY_PERSON, context, GENERATOR, public, group.times_base(k))
    return Proof(e, group.scalar_add(k, group.scalar_mul(e, secret)))


def check_key(public: bytes, proof: Proof, context: bytes) -> bool:
    """M-7: R = s G - e Y, and e is the hash of the transcript with R."""
    if not (group.valid_point(public) and _canonical(proof)):
        return False
    try:
        commitment = group.sub(group.times_base(proof.s), group.times(proof.e, public))
    except GroupError:
        return False
    return hash_to_scalar(KEY_PERSON, context, GENERATOR, public, commitment) == proof.e


def joint_key(publics: Sequence[bytes]) -> bytes:
    """M-8: the sum of every player's public key, in seat order."""
    if not publics or not all(group.valid_point(p) for p in publics):
        raise GroupError("a public key is not a point of the group")
    joint = publics[0]
    for public in publics[1:]:
        joint = group.add(joint, public)
    return joint


def initial_deck(size: int) -> Deck:
    """M-9: the deck before any shuffle, card ``i`` at position ``i``, masked with r = 0:
    (identity, M_i). Every node builds it; it never travels."""
    return tuple(Masked(IDENTITY, point) for point in card_points(size))


def remask(card: Masked, joint: bytes, mask: bytes) -> Masked:
    """M-10: (c1 + r G, c2 + r Y)."""
    return Masked(
        group.add(card.c1, group.times_base(mask)), group.add(card.c2, group.times(mask, joint))
    )


@dataclass(frozen=True, slots=True)
class ShuffleStep:
    """One shuffler's step: the deck it publishes, and what it keeps for the audit."""

    deck: Deck
    permutation: tuple[int, ...]
    masks: tuple[bytes, ...]


def permutation_from(seed: bytes, size: int) -> tuple[int, ...]:
    """M-11: Fisher-Yates from the end, each swap index from the seed's stream."""
    order = list(range(size))
    stream = Stream(_seed(seed), b"permutation")
    for i in range(size - 1, 0, -1):
        j = stream.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def masks_from(seed: bytes, size: int) -> tuple[bytes, ...]:
    """M-11: mask ``j`` is the hash of ``"mask" || j`` keyed by the seed."""
    return tuple(
        hash_to_scalar(MASK_PERSON, b"mask", j.to_bytes(2, "big"), key=_seed(seed))
        for j in range(size)
    )


def apply_shuffle(
    deck: Deck, joint: bytes, permutation: Sequence[int], masks: Sequence[bytes]
) -> Deck:
    """M-10: position ``j`` of the new deck is card ``permutation[j]`` of the old one,
    re-masked with ``masks[j]``."""
    if sorted(permutation) != list(range(len(deck))) or len(masks) != len(deck):
        raise ValueError("not a permutation of the deck, or not one mask per card")
    return tuple(remask(deck[p], joint, mask) for p, mask in zip(permutation, masks, strict=True))


def shuffle(deck: Deck, joint: bytes, seed: bytes) -> ShuffleStep:
    """One player's turn at the shuffle, its randomness from a 32-byte handed-in seed."""
    permutation, masks = permutation_from(seed, len(deck)), masks_from(seed, len(deck))
    return ShuffleStep(apply_shuffle(deck, joint, permutation, masks), permutation, masks)


def check_deck(deck: Sequence[Masked], size: int) -> str | None:
    """M-12: why a received deck is refused (not ``size`` cards, a point not in the group),
    or None."""
    if len(deck) != size:
        return f"{len(deck)} cards, not {size}"
    for position, card in enumerate(deck):
        if not (group.valid_point(card.c1) and group.valid_point(card.c2)):
            return f"card {position} is not a pair of points of the group"
    return None


@dataclass(frozen=True, slots=True)
class Share:
    """A decryption share d = x c1 of one card, and its Chaum-Pedersen proof."""

    point: bytes
    proof: Proof


def _share_challenge(context: bytes, *points: bytes) -> bytes:
    """M-14: the hash of the context, then G, Y, c1, d, A1, A2."""
    return hash_to_scalar(SHARE_PERSON, context, GENERATOR, *points)


def decryption_share(secret: bytes, card: Masked, context: bytes) -> Share:
    """M-13: d = x c1, with a proof that log_G Y = log_c1 d. The nonce is the hash of the
    transcript keyed by the secret, so the share is a function of its inputs."""
    point = group.times(secret, card.c1)
    k = _nonce(secret, b"share", context, card.c1)
    a1, a2 = group.times_base(k), group.times(k, card.c1)
    e = _share_challenge(context, public_key(secret), card.c1, point, a1, a2)
    return Share(point, Proof(e, group.scalar_add(k, group.scalar_mul(e, secret))))


def check_share(public: bytes, card: Masked, share: Share, context: bytes) -> bool:
    """M-14: A1 = s G - e Y, A2 = s c1 - e d, and e is the hash of the transcript."""
    if not (group.valid_point(share.point) and group.valid_point(card.c1)):
        return False
    if not _canonical(share.proof):
        return False
    try:
        a1 = group.sub(group.times_base(share.proof.s), group.times(share.proof.e, public))
        a2 = group.sub(group.times(share.proof.s, card.c1), group.times(share.proof.e, share.point))
    except GroupError:
        return False
    return _share_challenge(context, public, card.c1, share.point, a1, a2) == share.proof.e


def open_card(card: Masked, shares: Sequence[bytes], size: int) -> int | None:
    """M-15: the card value under ``card`` (of a deck of ``size``) given every player's
    share point, or None when the result is no card (a share was wrong)."""
    point = card.c2
    try:
        for share in shares:
            point = group.sub(point, share)
    except GroupError:
        return None
    return _card_of_point(size).get(point)


def opening_context(table: bytes, round_number: int, token: int) -> bytes:
    """M-16: what a share's proof is bound to: the table's epoch, the round, the token."""
    return table + round_number.to_bytes(4, "big") + token.to_bytes(1, "big")


def key_context(table: bytes, round_number: int, seat: int) -> bytes:
    """M-7: what a key proof is bound to: the table's epoch, the round, the seat."""
    return table + round_number.to_bytes(4, "big") + seat.to_bytes(1, "big")
