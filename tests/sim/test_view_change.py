"""The consensus round on membership changes (protocol/replica/viewchange.py), behind its switch.

With ``ViewChange.switch(True)`` a round of single-decree Paxos per view decides each cut;
off (the default) the cut is agreed as P-89 says and ROUND stays refused on the wire (P-18).
The links plan's seeds that broke agreement under the rules of section 12 hold with it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from dutchblitz.protocol.replica.viewchange import ViewChange
from dutchblitz.protocol.wire.codec import ProtocolError, decode, encode
from dutchblitz.protocol.wire.messages import Ack, Envelope, Round, RoundOp

from tests.rigs.sim import run_seed

NODE = bytes(range(16))

# Links-plan seeds that broke agreement (different event at an index, final at one node and
# cut elsewhere) under the rules without a round, and hold every invariant with it.
HELD_WITH_ROUNDS = [191, 818, 3238, 5733, 7874, 8736]


@pytest.fixture
def rounds() -> Iterator[None]:
    ViewChange.switch(True)
    try:
        yield
    finally:
        ViewChange.switch(False)


def _round() -> bytes:
    cuts = (Ack(NODE, 7),)
    return encode(Envelope("kitchen", NODE, 3, 0, Round(RoundOp.ACCEPT, 2, 5, NODE, cuts)))


@pytest.mark.timeout(30)
def test_round_is_refused_while_the_switch_is_off_P18() -> None:
    """P-18: off, a ROUND (kind 6) is refused as an unknown kind, as before."""
    with pytest.raises(ProtocolError) as caught:
        decode(_round())
    assert caught.value.reason.value == "unknown_kind"


@pytest.mark.timeout(30)
def test_round_goes_through_the_codec_with_the_switch_on(rounds: None) -> None:
    """A ROUND decodes to what was encoded once the rounds are on."""
    envelope = decode(_round())
    assert isinstance(envelope.payload, Round)
    assert envelope.payload.op is RoundOp.ACCEPT
    assert envelope.payload.cuts == (Ack(NODE, 7),)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("seed", HELD_WITH_ROUNDS, ids=str)
def test_links_seed_holds_with_a_round_per_view(rounds: None, seed: int) -> None:
    """Overlapping removals decided one view after another keep every invariant."""
    summary = run_seed(seed, "links")
    assert summary["rounds"] >= 1
