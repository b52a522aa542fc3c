"""The token bucket: the one rate limit of the project, with the time given as input.

The door's guess limits (``protocol/door/guesses.py``) and the seat's per-peer flood
control (``protocol/replica/throttle.py``) both count with it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(slots=True)
class TokenBucket:
    """Tokens refill at ``rate`` a second up to ``burst``; ``take`` spends them.

    A ``rate`` of ``math.inf`` keeps the bucket full: no limit but the burst of one
    instant. Time never runs backwards for a bucket: an earlier ``now`` refills nothing.
    """

    rate: float
    burst: float
    tokens: float
    stamp: float

    @classmethod
    def full(cls, rate: float, burst: float, now: float) -> TokenBucket:
        return cls(rate, burst, burst, now)

    def refill(self, now: float) -> None:
        if self.rate == math.inf:
            self.tokens = self.burst
        elif now > self.stamp:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = max(self.stamp, now)

    def holds(self, amount: float) -> bool:
        return self.tokens >= amount

    def spend(self, amount: float) -> None:
        self.tokens -= amount

    def take(self, amount: float, now: float) -> bool:
        """Refill to ``now``, then spend ``amount`` if the bucket holds it."""
        self.refill(now)
        if not self.holds(amount):
            return False
        self.spend(amount)
        return True

    def give_back(self, amount: float) -> None:
        """Return tokens spent on something that turned out not to count."""
        self.tokens = min(self.burst, self.tokens + amount)

    @property
    def is_full(self) -> bool:
        return self.tokens >= self.burst
