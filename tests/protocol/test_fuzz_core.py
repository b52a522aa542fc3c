"""Hostile input to the replica's receive path (P-98, P-99, P-113 to P-117).

The targets are in ``fuzz_targets``. Here they run with a few dozen examples each, so
that CI stays fast; for a long run set ``BLITZ_FUZZ_EXAMPLES``:

    BLITZ_FUZZ_EXAMPLES=20000 PYTHONPATH=... python -m pytest -q -p no:randomly \\
        --timeout 0 tests/protocol/test_fuzz_core.py

or drive the same targets with atheris: ``python tests/fuzz/atheris_core.py``.
"""

from __future__ import annotations

import json
import os
from importlib import resources

from dutchblitz.protocol.replica.guard import MAX_CLOCK_JUMP
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.protocol.fuzz_targets import (
    PLAYERS,
    STRANGERS,
    Message,
    Step,
    feed_bytes,
    feed_hostile,
)

EXAMPLES = int(os.environ.get("BLITZ_FUZZ_EXAMPLES", "40"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _valid_vectors() -> list[bytes]:
    text = resources.files("dutchblitz.vectors").joinpath("codec.json").read_text("utf-8")
    return [bytes.fromhex(v["bytes"]) for v in json.loads(text)["valid"]]


VALID = _valid_vectors()

# Small numbers count from a reference (the sender's held seq, the target's clock); the
# rest are the edges a hostile peer would try.
wild = st.one_of(
    st.integers(0, 15),
    st.sampled_from([16, 4095, 4096, 4097, 2**32, MAX_CLOCK_JUMP, MAX_CLOCK_JUMP + 1]),
    st.sampled_from([2**62, 2**63 - 2, 2**63 - 1]),
    st.integers(16, 2**63 - 1),
)
endpoints = st.sampled_from(
    [
        "tcp://198.18.0.9:5555",
        "tcp://127.0.0.1:22",
        "tcp://0.0.0.0:1",
        "tcp://224.0.0.1:5353",
        "tcp://255.255.255.255:9",
        "tcp://example.org:80",
        "ipc:///tmp/blitz",
        "tcp://10.0.0.1:0",
        "tcp://10.0.0.1:99999",
        "x",
    ]
)


def messages(senders: st.SearchStrategy[int]) -> st.SearchStrategy[Message]:
    return st.builds(
        Message,
        sender=senders,
        drawn_id=st.binary(min_size=16, max_size=16),
        table_ok=st.sampled_from([True, True, True, False]),
        lamport=wild,
        kind=st.sampled_from(["event", "heartbeat", "hello", "request", "repair"]),
        seq=wild,
        body=st.sampled_from(
            ["admit", "profile", "ready", "play", "suspect", "cut", "unsuspect", "bye"]
        ),
        node=st.integers(0, 8),
        number=wild,
        count=st.integers(0, 80),
        epoch=st.integers(0, 3),
        endpoint=endpoints,
    )


def plans(senders: st.SearchStrategy[int]) -> st.SearchStrategy[list[Step]]:
    step = st.one_of(
        messages(senders).map(lambda m: Step("message", m)),
        messages(senders).map(lambda m: Step("message", m)),
        st.integers(1, 40).map(lambda n: Step("flights", amount=n)),
        st.integers(0, 7).map(lambda n: Step("tick", amount=n)),
    )
    return st.lists(step, max_size=40)


# The attacker (replica 3, a member) and the strangers; no forged ids of the honest.
UNFORGED = st.sampled_from([3, *range(PLAYERS, PLAYERS + len(STRANGERS)), 8])
ANYONE = st.integers(0, 8)


@FUZZ
@given(plans(UNFORGED))
def test_hostile_members_and_strangers_change_nothing_for_the_rest(steps: list[Step]) -> None:
    """P-113 to P-117: nothing raises or hangs, everything stays bounded, the honest agree."""
    feed_hostile(steps)


@FUZZ
@given(plans(ANYONE))
def test_forged_senders_never_raise_nor_grow_without_bound(steps: list[Step]) -> None:
    """Messages that claim any sender, this node included: dropped or taken, never raised."""
    feed_hostile(steps, forge=True)


@FUZZ
@given(st.binary(max_size=2048))
def test_arbitrary_bytes_are_refused_without_a_trace(data: bytes) -> None:
    """P-98, P-99: refused with a reason and counted; the state is as before."""
    feed_bytes(data)


@FUZZ
@given(st.sampled_from(VALID), st.lists(st.tuples(st.integers(0, 2**16), st.integers(0, 255))))
def test_changed_valid_messages_are_refused_or_taken(
    valid: bytes, changes: list[tuple[int, int]]
) -> None:
    data = bytearray(valid)
    for at, byte in changes:
        data[at % len(data)] = byte
    feed_bytes(bytes(data))
