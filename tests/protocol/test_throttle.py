"""The per-peer flood control: token buckets, drops, cut-offs and cool-offs (P-118)."""

from __future__ import annotations

from dutchblitz.protocol.replica.bucket import TokenBucket
from dutchblitz.protocol.replica.throttle import MAX_TRACKED, Limits, Throttle, Verdict

A, B = b"a" * 16, b"b" * 16


def test_a_bucket_spends_its_burst_then_refills_at_its_rate() -> None:
    bucket = TokenBucket(rate=10.0, burst=5.0, tokens=5.0, stamp=0.0)
    assert [bucket.take(1.0, 0.0) for _ in range(6)] == [True] * 5 + [False]
    assert bucket.take(1.0, 0.1)  # one token back after a tenth of a second
    assert not bucket.take(1.0, 0.1)
    assert bucket.take(5.0, 100.0)  # never more than the burst
    assert not bucket.take(1.0, 100.0)


def test_honest_rates_are_never_dropped() -> None:
    """A peer at the honest peak, far below the limits, for a minute: nothing dropped."""
    throttle = Throttle()
    now = 0.0
    for _ in range(60 * 100):
        now += 0.01
        assert throttle.check(A, 400, now) is Verdict.TAKE
    assert throttle.stats.dropped == 0
    assert throttle.stats.peak_messages_per_s <= 101


def test_a_burst_over_the_limit_is_dropped_and_counted() -> None:
    limits = Limits()
    throttle = Throttle(limits)
    verdicts = [throttle.check(A, 10, 0.0) for _ in range(int(limits.message_burst) + 10)]
    assert verdicts.count(Verdict.DROP) == 10
    assert throttle.stats.dropped == 10
    assert throttle.stats.dropped_by_peer == {A.hex()[:8]: 10}
    assert throttle.check(B, 10, 0.0) is Verdict.TAKE, "another peer has its own buckets"


def test_bytes_are_limited_too() -> None:
    throttle = Throttle(Limits(byte_burst=100_000, bytes_per_s=10_000))
    assert throttle.check(A, 65_536, 0.0) is Verdict.TAKE
    assert throttle.check(A, 65_536, 0.0) is Verdict.DROP
    assert throttle.check(A, 65_536, 10.0) is Verdict.TAKE


def test_a_sustained_flood_is_cut_off_for_the_cool_off_then_starts_afresh() -> None:
    limits = Limits(messages_per_s=100, message_burst=100, sustain=3.0, cool_off=30.0)
    throttle = Throttle(limits)
    now, verdicts = 0.0, []
    while now < 10.0:
        verdicts.append((now, throttle.check(A, 10, now)))
        now += 0.001  # a thousand a second: ten times the limit
    cut = [t for t, v in verdicts if v is Verdict.CUT_OFF]
    assert len(cut) == 1 and 3.0 <= cut[0] < 3.5, cut
    assert all(v is Verdict.DROP for t, v in verdicts if t > cut[0])
    assert throttle.cut_off(A, 20.0)
    assert throttle.check(B, 10, 20.0) is Verdict.TAKE
    assert throttle.check(A, 10, cut[0] + 30.1) is Verdict.TAKE, "a fresh start after it"
    assert throttle.stats.cut_offs == 1


def test_excess_with_pauses_is_not_cut_off() -> None:
    """Bursts over the limit with a pause of over a second between them: dropped only."""
    limits = Limits(messages_per_s=100, message_burst=100, sustain=3.0, quiet=1.0)
    throttle = Throttle(limits)
    for burst in range(10):
        start = burst * 2.5
        for i in range(300):
            assert throttle.check(A, 10, start + i * 0.001) is not Verdict.CUT_OFF
    assert throttle.stats.dropped > 0
    assert throttle.stats.cut_offs == 0


def test_many_peers_are_tracked_in_bounded_memory() -> None:
    throttle = Throttle()
    for n in range(5 * MAX_TRACKED):
        throttle.check(n.to_bytes(16, "big"), 10, float(n))
    assert len(throttle._peers) <= MAX_TRACKED


def test_a_pardoned_peer_is_throttled_but_not_cut_off() -> None:
    limits = Limits(messages_per_s=100, message_burst=100, sustain=1.0, cool_off=30.0)
    throttle = Throttle(limits)
    now = 0.0
    while throttle.check(A, 10, now) is not Verdict.CUT_OFF:
        now += 0.001
    throttle.pardon(A)
    assert not throttle.cut_off(A, now)
    taken = 0
    for _ in range(2000):  # two more seconds at ten times the limit
        now += 0.001
        verdict = throttle.check(A, 10, now)
        taken += verdict is Verdict.TAKE
        if verdict is Verdict.CUT_OFF:
            throttle.pardon(A)
    assert 150 <= taken <= 250, "the rate gets through, the excess does not"
