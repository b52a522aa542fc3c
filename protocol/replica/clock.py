"""The Lamport clock and the total-order key."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

OrderKey = tuple[int, int, bytes]


@dataclass(slots=True)
class LamportClock:
    """A pure Lamport clock: ``tick`` before sending an event, ``observe`` on receipt."""

    time: int = 0

    def tick(self) -> int:
        self.time += 1
        return self.time

    def observe(self, time: int) -> int:
        if time > self.time:
            self.time = time
        return self.time


def tiebreak(seed: bytes, lamport: int, node: bytes) -> int:
    """A per-(time, node) draw that favours no fixed player when two events tie."""
    digest = hashlib.blake2b(seed + lamport.to_bytes(8, "big") + node, digest_size=16).digest()
    return int.from_bytes(digest[:8], "big")


def order_key(seed: bytes, lamport: int, node: bytes) -> OrderKey:
    """Events are ordered by Lamport time, then by the tie-break draw, then by node id."""
    return (lamport, tiebreak(seed, lamport, node), node)
