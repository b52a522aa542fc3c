"""Overlapping faults that once stalled the table for good, replayed from their seeds.

- 144: two members suspected at once (one behind a one-way partition, one crashed). Each
  cut needs the other's word, which does not count (P-89); the suspecters withdraw once they
  hear both again (P-88), and the SUSPECTs, applied in order, remove them (P-92).
- 228: a member that comes back from a partition to learn its own cut joined a SUSPECT of a
  node whose cut was agreed already, and held back its acknowledgements of it for ever (P-87).
- 278: a restart replays two cuts of one player's two stays; the later CUT was dropped while
  the earlier cut stood, so after the ADMIT between them the node waited for a number the
  player skipped (P-90, P-91). Since rounds count in, the crash falls at the game's end: the
  restart learns the later stay's CUT before the earlier one's, and must let it wait for its
  ADMIT (P-90).
- 280: a player admitted, removed before it sent anything and admitted again at the same
  first-seq: the CUT of the empty stay, ordered before the second ADMIT, must not cut the
  new one (P-91).
- 2151: a node crashes while another is partitioned, and is removed; on its restart it
  learnt the CUT of a later, empty stay of another player before its game reached the
  ADMIT that began that stay, took it as the cut of the earlier one, and waited in
  `dealing` for ever for the number that player skipped when it came back (P-84, P-90).
- 1612: two one-way partitions and a crash at a table of three. A member withdraws its
  suspicion of the restarted node (P-88) after the third member, cut off, has already
  agreed on that node's cut from it. Had the UNSUSPECT made the node unsuspected again, its
  word would have counted towards the cut of the third member, and two nodes would have
  applied different logs: a withdrawn SUSPECT still counts as a suspicion (P-227).
"""

from __future__ import annotations

import pytest

from tests.rigs.sim import run_seed


@pytest.mark.timeout(300)
@pytest.mark.parametrize("seed", [144, 228, 278, 280, 1612, 2151])
def test_overlapping_faults_that_stalled_finish_the_game(seed: int) -> None:
    summary = run_seed(seed, "overlapping")
    assert summary["rounds"] >= 1
