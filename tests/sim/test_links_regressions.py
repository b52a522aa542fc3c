"""Seeds of the links fault plan (tests/rigs/links.py) kept as regression cases.

Each broke agreement before the rules named with it; the sweep found them
(``python -m tests.rigs.sim --faults links --seeds 388``). Three still break: their cases
say what is left (spec/protocol.md section 12, Known limits), and fail once it is closed,
so that a fix shows. With rounds on (spec/protocol.md section 12, Agreeing by a round) all
three hold.
"""

from __future__ import annotations

import pytest
from dutchblitz.protocol.replica.viewchange import ViewChange

from tests.rigs import sim
from tests.rigs.sim import run_seed
from tests.rigs.watch import InvariantViolated

# seed, what it did, the rules that close it
HELD = [
    # A removed member still applied the order: a survivor's acknowledgement past its
    # SUSPECT's held (it had learnt the cut, and skipped to the member's new stay) made an
    # event of X final there that the cut drops everywhere else (P-268).
    (112, "final at a removed node, cut elsewhere", "P-268"),
    # Two members agreed on different cuts of one stay (14 and 15): one counted the word of
    # a member that the other already knew to be suspected (P-269).
    (252, "two cuts of one stay", "P-269"),
    # A removed node lowered its cut to its own SUSPECT, past its own cut, under a draft
    # that lowered an agreed cut to any promise held below it: P-269 lowers only to a CUT.
    (374, "a cut lowered to a promise past its sender's cut", "P-269"),
]

# seed, what it does, what is left (spec/protocol.md section 12, Known limits)
LEFT = [
    (191, "diverged", "a CUT past its sender's own agreed cut, adopted before that cut"),
    (5, "stalled", "two removals 0.3 s apart: no consensus round yet"),
    (383, "stalled", "a SUSPECT past its sender's cut, which this node never learns (P-268)"),
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("seed", "what", "rule"), HELD, ids=[str(case[0]) for case in HELD])
def test_links_seed_holds_every_invariant_P303_P304(seed: int, what: str, rule: str) -> None:
    """P-268, P-269: the seed that broke agreement ({what}) now holds every invariant."""
    summary = run_seed(seed, "links")
    assert summary["rounds"] >= 1, (what, rule)


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("seed", "kind", "left"), LEFT, ids=[str(case[0]) for case in LEFT])
def test_links_seed_still_breaks_as_known_limits_say(seed: int, kind: str, left: str) -> None:
    """Known limits of section 12: these seeds still break, each in its own way; when one of
    them holds, the rule that closed it belongs in HELD, and Known limits shrinks."""
    with pytest.raises(InvariantViolated) as caught:
        run_seed(seed, "links")
    assert caught.value.kind == kind, (left, str(caught.value))


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("seed", "kind", "left"), LEFT, ids=[str(case[0]) for case in LEFT])
def test_links_seed_holds_with_a_round_per_view_P279(seed: int, kind: str, left: str) -> None:
    """P-275 to P-283 (Agreeing by a round): with rounds on, each seed Known limits keeps
    holds every invariant: its cuts are decided one view after another."""
    ViewChange.switch(True)
    try:
        summary = run_seed(seed, "links")
    finally:
        ViewChange.switch(False)
    assert summary["rounds"] >= 1, (kind, left)


@pytest.mark.timeout(120)
def test_a_sweep_ends_with_one_line_to_collect(capsys: pytest.CaptureFixture[str]) -> None:
    """The sweep takes ``--start`` and ends with one line that names the plan, the seeds and
    the counts, so that sweeps split over many machines add up."""
    assert sim.main(["--faults", "links", "--start", "112", "--seeds", "1", "--workers", "1"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith(
        "sweep faults=links seeds=112..112 workers=1 held=1 stalled=0 diverged=0"
    )
