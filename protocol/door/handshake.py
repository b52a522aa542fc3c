"""The door's cryptography: SPAKE2 on the passphrase, the transcript, its MACs and labels
(spec/protocol.md section 17, P-127 to P-129).

Both sides sign, and on a private table MAC, the transcript T: a hash of every field of
KNOCK and ANSWER, both cards and both nonces. A wrong phrase makes both MACs fail.
SPAKE2 draws its secret scalar from bytes the caller gives (``PAKE_ENTROPY`` of them),
so an exchange replays exactly from its inputs.
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata
from collections.abc import Callable

from .codec import DOOR_VERSION, MAC_SIZE, Card, card_fields, pack

DOOR_LABEL = b"blitz door door\x00"
"""What the door signs and MACs: this label, then T."""
KNOCKER_LABEL = b"blitz door knocker\x00"
"""What the knocker signs and MACs: this label, then T."""
PAKE_ENTROPY = 64
"""Random bytes one side of SPAKE2 draws for its scalar."""


def pake_password(passphrase: str) -> bytes:
    """P-128: the phrase in Unicode normal form NFC, as UTF-8."""
    return unicodedata.normalize("NFC", passphrase).encode("utf-8")


def pake_identity(table: str) -> bytes:
    """P-128: SPAKE2 is bound to the table's name."""
    return b"blitz-door/1/" + table.encode("utf-8")


def transcript(
    table: str,
    private: bool,
    nonce_k: bytes,
    pake_k: bytes,
    card_k: Card,
    nonce_d: bytes,
    pake_d: bytes,
    card_d: Card,
) -> bytes:
    """The 32-byte hash both sides sign and MAC: every field of KNOCK and ANSWER."""
    data = pack(
        [
            DOOR_VERSION,
            table,
            private,
            nonce_k,
            pake_k,
            card_fields(card_k),
            nonce_d,
            pake_d,
            card_fields(card_d),
        ]
    )
    return hashlib.blake2b(data, digest_size=32, person=b"blitz-door-tx").digest()


def mac(pake_key: bytes | None, label: bytes, digest: bytes) -> bytes:
    """P-129: the MAC of ``label`` and T keyed from the SPAKE2 key; empty on an open table."""
    if pake_key is None:
        return b""
    key = hashlib.blake2b(pake_key, digest_size=32, person=b"blitz-door-mac").digest()
    return hashlib.blake2b(label + digest, digest_size=MAC_SIZE, key=key).digest()


def mac_matches(got: bytes, pake_key: bytes | None, label: bytes, digest: bytes) -> bool:
    """Whether a received MAC is the one expected, compared in constant time."""
    return hmac.compare_digest(got, mac(pake_key, label, digest))


def _given(entropy: bytes) -> Callable[[int], bytes]:
    """SPAKE2's random source, serving ``entropy`` once and nothing more."""
    left = [entropy]

    def draw(size: int) -> bytes:
        if size > len(left[0]):
            raise ValueError(f"SPAKE2 wants {size} random bytes, {len(left[0])} were given")
        drawn, left[0] = left[0][:size], left[0][size:]
        return drawn

    return draw


class Pake:
    """One side of SPAKE2 on a table's passphrase: ``message`` to send, ``finish`` the key."""

    def __init__(self, passphrase: str, table: str, entropy: bytes) -> None:
        # Loaded here, at a private table's first knock: its group tables take a tenth
        # of a second to build, which a node at an open table never spends.
        from spake2 import SPAKE2_Symmetric

        self._side = SPAKE2_Symmetric(
            pake_password(passphrase), idSymmetric=pake_identity(table), entropy_f=_given(entropy)
        )
        self.message: bytes = self._side.start()

    def finish(self, inbound: bytes) -> bytes | None:
        """The shared key, or None when the other side's message is unusable."""
        try:
            key: bytes = self._side.finish(inbound)
        except Exception:  # a bad point, a reflected message, a wrong side byte
            return None
        return key
