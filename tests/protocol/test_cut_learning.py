"""Learning a cut: promises a node holds bound what becomes final, and of two cuts the lower
stands. spec/protocol.md section 12, P-268, P-269 and P-288.

The links fault plan's seeds 112 and 252 (tests/sim/test_links_regressions.py) show both
rules at work in whole tables; these cases set one replica's knowledge directly and ask
what it lets count.
"""

from __future__ import annotations

import pytest
from dutchblitz.protocol.replica.core import Replica
from dutchblitz.protocol.replica.liveness import Liveness
from dutchblitz.protocol.replica.order import MAX_SEQ
from dutchblitz.protocol.wire.messages import Bye, Cut, Ready

from tests.protocol.replicas import NODE_IDS, Net

A, B, C, X = range(4)


def _table() -> tuple[Net, Replica, int]:
    """A table of four; X has sent a few events everyone holds. Returns A's replica and the
    highest seq of X's stream."""
    net = Net(4)
    net.open_table()
    for ready in (True, False, True):
        net.submit(X, Ready(ready))
    net.settle()
    return net, net.replica(A), net.last_own(X)[0]


def _claim(replica: Replica, by: int, held: int, seq: int) -> None:
    """``by``'s standing SUSPECT of X, with ``held``, numbered ``seq`` in its stream."""
    replica.liveness.claims.setdefault(NODE_IDS[X], {})[NODE_IDS[by]] = held
    replica.liveness.claim_seqs[(NODE_IDS[X], NODE_IDS[by])] = seq


# who states the promise, whether it has left (its cut agreed) and where, the promise's
# own place in its stream relative to that cut, and the bound the node keeps
CASES = [
    ("present member", None, 0, "held"),
    ("member gone, promise within its stream", 0, 0, "held"),
    ("member gone, promise past its cut", 0, 1, "none"),
]


@pytest.mark.parametrize(("case", "gone_at", "past", "bound"), CASES, ids=[c[0] for c in CASES])
def test_a_promise_held_bounds_what_becomes_final_P303(
    case: str, gone_at: int | None, past: int, bound: str
) -> None:
    """P-268: an event of X above a standing SUSPECT's held does not become final, whether
    its sender is present or gone, unless the SUSPECT lies past its sender's cut."""
    _net, replica, last = _table()
    seq = 40
    _claim(replica, B, last - 1, seq)
    if gone_at is not None:
        replica.liveness.settled[NODE_IDS[B]] = seq - past
    expected = last - 1 if bound == "held" else MAX_SEQ
    assert replica.order.claimed_bound(NODE_IDS[X]) == expected, case


def test_an_acknowledgement_past_a_promise_counts_only_up_to_it_P303() -> None:
    """P-268: B acknowledges X past its SUSPECT's held (it learnt a cut this node has not):
    until a cut is agreed here, B's word counts up to the held."""
    _net, replica, last = _table()
    _claim(replica, B, last - 2, 40)
    stream = replica.streams[NODE_IDS[B]]
    stream.acks[NODE_IDS[X]] = last
    assert replica.order.acked(NODE_IDS[B], stream, NODE_IDS[X]) == last - 2
    replica.liveness.settled[NODE_IDS[X]] = last - 2
    assert replica.order.acked(NODE_IDS[B], stream, NODE_IDS[X]) == last


# the cut held, the CUT that arrives (relative to the last seq of X), the cut kept
ADOPTIONS = [
    ("a lower CUT of the same stay", 0, -1, -1),
    ("a higher CUT of the same stay waits", -1, 0, -1),
    ("the same CUT", -1, -1, -1),
]


@pytest.mark.parametrize(
    ("case", "held", "arrives", "kept"), ADOPTIONS, ids=[c[0] for c in ADOPTIONS]
)
def test_of_two_cuts_of_one_stay_the_lower_stands_P304(
    case: str, held: int, arrives: int, kept: int
) -> None:
    """P-269: a CUT below the cut a node holds lowers it; one above it does not raise it."""
    _net, replica, last = _table()
    replica.liveness.lower_cut(NODE_IDS[X], last + held)
    replica.liveness.note_cut(NODE_IDS[C], Cut(NODE_IDS[X], last + arrives))
    assert replica.liveness.settled[NODE_IDS[X]] == last + kept, case


@pytest.mark.parametrize("learns", [True, False], ids=["lower cut", "rules before P-288"])
def test_a_node_takes_a_lower_cut_of_itself_past_its_own_goodbye_P288(learns: bool) -> None:
    """P-288 (P-269 for a node's own stream): X's BYE reached nobody and the others agreed a
    cut of X below it. X, back from a restart, must take that cut and drop its BYE; under
    the rules before, it kept the cut its BYE gave it, made the BYE final on its own once
    the others had left, and its log differed from theirs (the people's seeds 37 and 43)."""
    net, _replica, last = _table()
    x = net.replica(X)
    x.submit(Bye(), net.now)  # taken in by X alone: its effects reach no peer
    assert x.liveness.settled[NODE_IDS[X]] == last + 1
    assert any(isinstance(body, Bye) for body in x.pending_own())
    old = Liveness.learns_cuts
    Liveness.learns_cuts = learns
    try:
        x.liveness.note_cut(NODE_IDS[C], Cut(NODE_IDS[X], last))
    finally:
        Liveness.learns_cuts = old
    kept = last if learns else last + 1
    assert x.liveness.settled[NODE_IDS[X]] == kept
    assert any(isinstance(body, Bye) for body in x.pending_own()) is not learns


# whether B, which states no SUSPECT of X, has left (its BYE held here), and whether A,
# with its own SUSPECT of X and C's, agrees X's cut
LEAVERS = [
    ("B still at the table: its word is waited for", False, False),
    ("B has left: A and C are the table", True, True),
]


@pytest.mark.parametrize(("case", "gone", "agreed"), LEAVERS, ids=[c[0] for c in LEAVERS])
def test_a_member_that_has_left_is_not_waited_for_P289(case: str, gone: bool, agreed: bool) -> None:
    """P-289: X is silent, A and C suspect it, and B has left: B's BYE cannot take its place
    in the order before X's cut, so B's word must not be needed for it (the people's seed 41:
    a bot removed before its ADMIT reached it, then a person left, and the lobby stalled)."""
    _net, replica, last = _table()
    x = NODE_IDS[X]
    replica.liveness.suspected[x] = last
    replica.liveness.claims[x] = {NODE_IDS[A]: last, NODE_IDS[C]: last}
    if gone:
        b = NODE_IDS[B]
        replica.liveness.settled[b] = replica.streams[b].held
    replica.liveness.settle_leaves()
    assert (replica.liveness.settled.get(x) == last) is agreed, case
