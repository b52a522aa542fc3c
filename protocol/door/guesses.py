"""How fast a private door takes guesses at its passphrase (P-133), with the time as input."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..replica.bucket import TokenBucket


@dataclass(frozen=True)
class DoorLimits:
    """How fast a door takes guesses at its passphrase, and how many knocks it holds.

    Each knock at a private table takes one token from its source's bucket and
    one from the door's global bucket; a knock that ends in admission gives
    them back, so only failed or abandoned guesses count. The source is the
    peer's IP address as ZeroMQ reports it; anyone who can use many addresses
    is still held by the global bucket.
    """

    source_burst: int = 10
    """guesses one source may make at once (a machine may run several nodes, and a
    table of eight may knock at one door all at once)"""
    source_every: float = 10.0
    """seconds for one source to earn one more guess"""
    global_burst: int = 30
    """guesses all sources together may make at once"""
    global_every: float = 3.0
    """seconds for the door to earn one more guess"""
    sessions: int = 64
    """knocks in progress at once"""
    session_timeout: float = 10.0
    """seconds a knocker has to CONFIRM after the ANSWER"""
    max_sources: int = 1024
    """sources whose buckets are remembered; beyond it new sources are busy"""


def _rate(every: float) -> float:
    """Tokens a second for one token every ``every`` seconds; 0 or less is no limit."""
    return 1.0 / every if every > 0 else math.inf


class Guesses:
    """A bucket per source and one for the door: ``take`` a guess, ``give_back`` on success."""

    def __init__(self, limits: DoorLimits) -> None:
        self._limits = limits
        self._global: TokenBucket | None = None
        self._sources: dict[str, TokenBucket] = {}

    def take(self, source: str, now: float) -> bool:
        """Spend one guess of ``source``'s and one of the door's, or neither if either is out."""
        door = self._door_bucket(now)
        bucket = self._source_bucket(source, now)
        if bucket is None or not (bucket.holds(1) and door.holds(1)):
            return False
        bucket.spend(1)
        door.spend(1)
        return True

    def give_back(self, source: str) -> None:
        if self._global is not None:
            self._global.give_back(1)
        bucket = self._sources.get(source)
        if bucket is not None:
            bucket.give_back(1)

    def _door_bucket(self, now: float) -> TokenBucket:
        limits = self._limits
        if self._global is None:
            self._global = TokenBucket.full(_rate(limits.global_every), limits.global_burst, now)
        self._global.refill(now)
        return self._global

    def _source_bucket(self, source: str, now: float) -> TokenBucket | None:
        """The source's bucket refilled to ``now``; None when no more sources fit."""
        limits = self._limits
        bucket = self._sources.get(source)
        if bucket is None:
            if len(self._sources) >= limits.max_sources:
                self._forget_full(now)
                if len(self._sources) >= limits.max_sources:
                    return None
            rate = _rate(limits.source_every)
            bucket = self._sources[source] = TokenBucket.full(rate, limits.source_burst, now)
        bucket.refill(now)
        return bucket

    def _forget_full(self, now: float) -> None:
        for source, bucket in list(self._sources.items()):
            bucket.refill(now)
            if bucket.is_full:
                del self._sources[source]
