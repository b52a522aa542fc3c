"""How fast a private door takes guesses (P-133): a bucket per source and one for the door."""

from __future__ import annotations

from dutchblitz.protocol.door.guesses import DoorLimits, Guesses


def test_a_source_spends_its_burst_then_earns_a_guess_every_period() -> None:
    guesses = Guesses(DoorLimits(source_burst=2, source_every=10.0, global_burst=100))
    assert [guesses.take("a", 0.0) for _ in range(3)] == [True, True, False]
    assert guesses.take("b", 0.0), "another source has its own bucket"
    assert not guesses.take("a", 9.0)
    assert guesses.take("a", 10.0)


def test_the_door_bucket_holds_every_source_and_a_refusal_spends_neither() -> None:
    guesses = Guesses(DoorLimits(source_burst=1, global_burst=2, global_every=100.0))
    assert guesses.take("a", 0.0) and guesses.take("b", 0.0)
    assert not guesses.take("c", 0.0)
    guesses.give_back("a")
    assert guesses.take("c", 0.0), "the refusal did not spend c's one guess"
    assert not guesses.take("d", 0.0), "the door's bucket is empty again"


def test_a_period_of_zero_is_no_limit() -> None:
    guesses = Guesses(DoorLimits(source_burst=1, source_every=0.0, global_every=0.0))
    assert all(guesses.take("a", 0.0) for _ in range(100))


def test_sources_are_remembered_in_bounded_memory() -> None:
    """Beyond ``max_sources`` a source whose bucket is full is forgotten; else new ones wait."""
    guesses = Guesses(DoorLimits(max_sources=2, source_burst=1, source_every=10.0))
    assert guesses.take("a", 0.0) and guesses.take("b", 0.0)
    assert not guesses.take("c", 5.0), "no room: a and b still owe a guess"
    assert guesses.take("c", 10.0), "a and b are full again and forgotten"
    assert guesses.take("a", 10.0), "a starts afresh"
