"""The table's masked deck: hidden cards with no dealer, as one small typed interface.

A game that hides cards names how many card values its deck holds (``MaskedDeck(size)``)
and gives them their meaning; the deck does the rest (spec/dutch-deal.md): every seat
publishes a key, every seat in turn masks and shuffles the deck, and a card is opened to
one seat (each other seat's share sealed to that seat's key) or to all (each seat's share
in the clear), every share checked by every node the moment it arrives. After the round the
shufflers reveal their permutations and masks, and the audit names any that lied.

Everything here is a pure function of bytes handed in: secrets and seeds come from the
seat, contexts bind a proof to the table, the round and the card (``key_context``,
``opening_context``). The game carries the messages in its own bodies; ``MaskedRecord``
(record.py) keeps the round's record of them. The group (``group.py``), the masking and
shares (``elgamal.py``), the sealed shares (``seal.py``) and the messages' checks
(``checks.py``) sit behind this interface.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import checks, elgamal, seal
from .checks import AuditMessage, Cheat, ShuffleMessage
from .elgamal import MAX_VALUES, Deck, Masked, Proof, Share, ShuffleStep
from .seal import SealedShare

key_context = elgamal.key_context
opening_context = elgamal.opening_context


@dataclass(frozen=True, slots=True)
class MaskedDeck:
    """A deck of ``size`` card values, 0 to ``size - 1``, masked and shuffled by every seat in
    turn; card ``i`` of a smaller deck is card ``i`` of a larger one (M-4)."""

    size: int

    def __post_init__(self) -> None:
        if not 0 < self.size <= MAX_VALUES:
            raise ValueError(f"a masked deck holds 1 to {MAX_VALUES} card values, not {self.size}")

    # A seat's part: its key, its turn at the shuffle, its shares, its audit.

    def secret(self, seed: bytes) -> bytes:
        """M-5: a seat's key secret for the round, from 32 bytes of its own."""
        return elgamal.key_secret(seed)

    def public(self, secret: bytes) -> bytes:
        return elgamal.public_key(secret)

    def prove_key(self, secret: bytes, context: bytes) -> Proof:
        """M-7: the proof that goes with the public key (``key_context``)."""
        return elgamal.prove_key(secret, context)

    def initial(self) -> Deck:
        """M-9: the deck before the first shuffle; every node builds it, it never travels."""
        return elgamal.initial_deck(self.size)

    def shuffle(self, before: Deck, joint: bytes, seed: bytes) -> ShuffleStep:
        """M-10, M-11: this seat's turn: ``before`` re-masked and permuted from its seed."""
        return elgamal.shuffle(before, joint, seed)

    def revealed(self, seed: bytes) -> tuple[tuple[int, ...], tuple[bytes, ...]]:
        """M-20: what a shuffler reveals after the round: its permutation and masks."""
        return elgamal.permutation_from(seed, self.size), elgamal.masks_from(seed, self.size)

    def share(self, secret: bytes, card: Masked, context: bytes) -> Share:
        """M-13: this seat's share of ``card``, to open it to all (``opening_context``)."""
        return elgamal.decryption_share(secret, card, context)

    def seal(
        self, secret: bytes, card: Masked, recipient: bytes, context: bytes, seed: bytes
    ) -> SealedShare:
        """M-25: this seat's share of ``card`` sealed to one seat's public key."""
        return seal.seal_share(secret, card, recipient, context, seed)

    def unseal(self, secret: bytes, sealed: SealedShare) -> bytes:
        """M-26: a share sealed to this seat, opened with its key secret."""
        return seal.unseal(secret, sealed)

    # Every node's part: the checks, the joint key, a card opened, the audit.

    def joint(self, publics: Sequence[bytes]) -> bytes:
        """M-8: the joint key of every seat's public key, in seat order."""
        return elgamal.joint_key(publics)

    def check_key(self, public: bytes, proof: Proof, context: bytes) -> bool:
        return elgamal.check_key(public, proof, context)

    def check_deck(self, deck: Sequence[Masked]) -> str | None:
        """M-12: why a published deck is refused, or None."""
        return elgamal.check_deck(deck, self.size)

    def check_share(self, public: bytes, card: Masked, share: Share, context: bytes) -> bool:
        return elgamal.check_share(public, card, share, context)

    def check_sealed(
        self, public: bytes, recipient: bytes, card: Masked, sealed: SealedShare, context: bytes
    ) -> bool:
        return seal.check_sealed(public, recipient, card, sealed, context)

    def open(self, card: Masked, shares: Sequence[bytes]) -> int | None:
        """M-15: the card value under ``card`` from every seat's share point, or None."""
        return elgamal.open_card(card, shares, self.size)

    def audit(
        self,
        joint: bytes,
        shuffles: Sequence[ShuffleMessage],
        reveals: Sequence[AuditMessage],
        excused: frozenset[int] = frozenset(),
    ) -> list[Cheat]:
        """M-21: every shuffle replayed from what its shuffler revealed; the cheats found."""
        return checks.audit(joint, self.size, shuffles, reveals, excused)
