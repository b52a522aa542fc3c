"""The test-only fault layer: reading BLITZ_FAULTS and drawing each message's fate."""

from __future__ import annotations

import pytest

from tests.rigs.faults import (
    FaultConfig,
    Faults,
    FaultSpecError,
    faults_from_env,
    parse_faults,
)

pytestmark = pytest.mark.timeout(10)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("", None),
        ("   ", None),
        ("loss=0.1,delay=20,seed=7", FaultConfig(loss=0.1, delay_ms=20.0, seed=7)),
        (" loss = 0.1 , seed=7 ", FaultConfig(loss=0.1, seed=7)),
        ("delay=5.5,jitter=2", FaultConfig(delay_ms=5.5, jitter_ms=2.0)),
        ("seed=-3", FaultConfig(seed=-3)),
    ],
)
def test_parse_faults_reads_a_spec(spec: str, expected: FaultConfig | None) -> None:
    assert parse_faults(spec) == expected


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("loss", "expected key=value, got 'loss'"),
        ("=3", "expected key=value"),
        ("speed=3", "unknown key 'speed' (known: loss, delay, jitter, seed)"),
        ("loss=abc", "loss must be a number, got 'abc'"),
        ("loss=", "loss must be a number, got ''"),
        ("seed=1.5", "seed must be an integer, got '1.5'"),
        ("loss=nan", "loss must be finite"),
        ("delay=inf", "delay must be finite"),
        ("loss=1", "loss must be in [0, 1)"),
        ("loss=-0.1", "loss must be in [0, 1)"),
        ("delay=-1", "delay and jitter must not be negative"),
        ("loss=0.1,loss=0.2", "'loss' given twice"),
        ("loss=0.1,", "expected key=value, got ''"),
    ],
)
def test_parse_faults_says_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(FaultSpecError) as error:
        parse_faults(spec)
    assert str(error.value).startswith("BLITZ_FAULTS: ")
    assert message in str(error.value)


def test_faults_from_env() -> None:
    assert faults_from_env({}) is None
    assert faults_from_env({"BLITZ_FAULTS": "loss=0.2"}) == FaultConfig(loss=0.2)


def test_a_config_that_does_nothing_is_not_active() -> None:
    assert not FaultConfig(seed=9).is_active
    assert FaultConfig(delay_ms=1).is_active


def test_loss_is_about_the_configured_share_and_repeats_with_the_seed() -> None:
    config = FaultConfig(loss=0.1, delay_ms=20, seed=7)
    first, second = Faults(config), Faults(config)
    fates = [first.fate() for _ in range(10_000)]
    assert fates == [second.fate() for _ in range(10_000)]
    dropped = fates.count(None)
    assert 900 < dropped < 1100
    assert {fate for fate in fates if fate is not None} == {0.02}


def test_jitter_stays_within_its_bound() -> None:
    faults = Faults(FaultConfig(delay_ms=10, jitter_ms=5, seed=1))
    delays = [faults.fate() for _ in range(1000)]
    assert all(delay is not None and 0.010 <= delay <= 0.015 for delay in delays)
