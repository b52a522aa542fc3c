"""The one token bucket: refill, spend, give back, and time that never runs backwards."""

from __future__ import annotations

import math

from dutchblitz.protocol.replica.bucket import TokenBucket


def test_a_full_bucket_starts_with_its_burst() -> None:
    bucket = TokenBucket.full(rate=2.0, burst=3.0, now=5.0)
    assert (bucket.tokens, bucket.stamp, bucket.is_full) == (3.0, 5.0, True)


def test_an_earlier_time_refills_nothing_and_keeps_the_stamp() -> None:
    bucket = TokenBucket(rate=1.0, burst=5.0, tokens=0.0, stamp=10.0)
    assert not bucket.take(1.0, 9.0)
    assert bucket.stamp == 10.0
    assert bucket.take(1.0, 11.0)


def test_an_infinite_rate_keeps_the_bucket_full() -> None:
    bucket = TokenBucket.full(rate=math.inf, burst=2.0, now=0.0)
    assert [bucket.take(1.0, 0.0) for _ in range(5)] == [True] * 5


def test_given_back_tokens_never_pass_the_burst() -> None:
    bucket = TokenBucket.full(rate=0.001, burst=2.0, now=0.0)
    assert bucket.take(2.0, 0.0) and not bucket.holds(1.0)
    bucket.give_back(1.0)
    assert bucket.holds(1.0) and not bucket.is_full
    bucket.give_back(5.0)
    assert bucket.tokens == 2.0
