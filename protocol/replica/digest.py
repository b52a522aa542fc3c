"""Canonical bytes and the log's digest: its chain, and the public state it leaves.

Every node that has applied the same log holds the same digest (spec/protocol.md P-96).
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgpack

from ..limits import DIGEST_SIZE


def canonical_bytes(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)  # type: ignore[no-any-return]


def chain_step(chain: bytes, sender: bytes, seq: int, raw: bytes) -> bytes:
    """The log's chain once the event ``raw`` (sender's ``seq``) has entered it (P-96, P-158)."""
    return hashlib.blake2b(
        chain + sender + seq.to_bytes(8, "big") + raw, digest_size=DIGEST_SIZE
    ).digest()


def log_digest(chain: bytes, public_state: list[Any]) -> bytes:
    """The digest of a log: its chain and the public state it leaves (P-96)."""
    return hashlib.blake2b(canonical_bytes([chain, public_state]), digest_size=DIGEST_SIZE).digest()
