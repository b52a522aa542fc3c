"""The simulator's invariant watch (tests/rigs/watch.py): a cut ends one stay, known by its
ADMIT's place in the log, not by its first-seq.

Two stays of one player can begin at the same first-seq: one that sent nothing is cut at
first-seq - 1, and the player is admitted again at that same first-seq (P-84, P-198). A
node still in the first stay holds the first stay's cut; that cut says nothing of the
second stay's events (the links plan's seed 240 with rounds, and 3337 and 8901 without).
"""

from __future__ import annotations

import pytest
from dutchblitz.protocol.replica.effects import LogEntry
from dutchblitz.protocol.table.records import ACCEPTED
from dutchblitz.protocol.wire.messages import Admit, Body, Ready

from tests.rigs.watch import Diverged, Watch

pytestmark = pytest.mark.timeout(10)

ADMITTER = bytes(range(16))
PLAYER = bytes(range(1, 17))
FIRST = 28  # both stays begin here; the first, which sent nothing, is cut at 27


def _entry(index: int, sender: bytes, seq: int, body: Body) -> LogEntry:
    return LogEntry(index, sender, seq, index + 1, body, ACCEPTED)


def _two_stays(watch: Watch, nodes: range) -> None:
    """Every node in ``nodes`` applies the player's two ADMITs at log indexes 10 and 20."""
    for node in nodes:
        watch.delivered(node, _entry(10, ADMITTER, 5, Admit(PLAYER, FIRST)), ())
        watch.delivered(node, _entry(20, ADMITTER, 9, Admit(PLAYER, FIRST)), ())


# (the stays node 0 has applied, node 0's cut, whether event 28 of the second stay, final at
# node 1, breaks agreement with it)
CASES = [
    pytest.param(1, FIRST - 1, False, id="first stay's cut, node still in the first stay"),
    pytest.param(2, FIRST - 1, True, id="second stay cut below its final event"),
    pytest.param(2, FIRST, False, id="second stay cut at its final event"),
]


@pytest.mark.parametrize(("stays", "cut", "breaks"), CASES)
def test_a_cut_ends_the_stay_its_node_is_in_P84_P198(stays: int, cut: int, breaks: bool) -> None:
    """P-84, P-198, P-279: node 0's cut is of the stay its stable game is in."""
    watch = Watch()
    _two_stays(watch, range(1, 2))
    watch.delivered(0, _entry(10, ADMITTER, 5, Admit(PLAYER, FIRST)), ())
    if stays == 2:
        watch.delivered(0, _entry(20, ADMITTER, 9, Admit(PLAYER, FIRST)), ())
    final = _entry(21, PLAYER, FIRST, Ready(True))
    held = {PLAYER: cut}
    if breaks:
        with pytest.raises(Diverged):
            watch.delivered(1, final, [(0, held)])
        watch = Watch()  # and the other way round: the cut comes after the event is final
        _two_stays(watch, range(2))
        watch.delivered(1, final, [])
        with pytest.raises(Diverged):
            watch.cuts_held(0, held)
    else:
        watch.delivered(1, final, [(0, held)])
        watch.cuts_held(0, held)


@pytest.mark.timeout(10)
def test_a_node_that_takes_up_its_log_again_is_in_no_stay_until_it_applies_one() -> None:
    """A restart applies the log again from its start: the stays it was in before count no
    more, so a cut of an earlier stay, learnt early from the durable log, breaks nothing."""
    watch = Watch()
    _two_stays(watch, range(2))
    watch.delivered(1, _entry(21, PLAYER, FIRST, Ready(True)), [])
    watch.fresh_log(0)
    watch.delivered(0, _entry(10, ADMITTER, 5, Admit(PLAYER, FIRST)), ())
    watch.cuts_held(0, {PLAYER: FIRST - 1})
