"""P-92, P-199: a SUSPECT about an earlier stay of a player who has come back does not remove it."""

from __future__ import annotations

from dutchblitz.protocol.table.state import Game
from dutchblitz.protocol.wire.messages import Admit, Suspect

A, B, C = (bytes([n]) * 16 for n in (1, 2, 3))


def _table() -> Game:
    game = Game()
    assert game.apply(A, Admit(A, 1)).accepted
    assert game.apply(A, Admit(B, 1)).accepted
    assert game.apply(A, Admit(C, 1)).accepted
    return game


def test_a_suspect_removes_a_present_member_P92() -> None:
    game = _table()
    assert game.apply(A, Suspect(C, 4)).accepted
    assert not game.members[C].present


def test_a_suspect_of_an_earlier_stay_is_stale_P92() -> None:
    game = _table()
    assert game.apply(A, Suspect(C, 4)).accepted  # C (4 events held) is removed
    assert game.apply(B, Admit(C, 6)).accepted  # and comes back, its stream resuming at 6
    assert game.members[C].since == 6
    outcome = game.apply(B, Suspect(C, 4))  # B's suspicion of C's first stay, ordered late
    assert outcome.refusal == "stale"
    assert game.members[C].present
    assert game.apply(B, Suspect(C, 5)).accepted  # about this stay: it removes C
    assert not game.members[C].present
