"""P-266: a member admitted again whose back another present member took meanwhile gets
a free one, so that a START can still be accepted (spec/rules.md R-5)."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.wire.messages import Admit, Bye, Profile, Ready, Start

A, B, C = b"a" * 16, b"b" * 16, b"c" * 16


def lobby_of_three() -> Game:
    game = Game()
    assert game.apply(A, Admit(A, 1)).accepted
    assert game.apply(A, Admit(B, 1)).accepted
    assert game.apply(A, Admit(C, 1)).accepted
    return game


@pytest.mark.parametrize(
    ("taken_by_c", "back_again"),
    [
        ("wagon", "pump"),  # A's own back is still free: A keeps it
        ("pump", "bucket"),  # C took A's back while A was away: the first free one
    ],
)
def test_a_member_back_again_gets_a_free_back(taken_by_c: str, back_again: str) -> None:
    game = lobby_of_three()
    assert [m.back for m in game.members.values()] == ["pump", "wagon", "bucket"]
    assert game.apply(A, Bye()).accepted
    if taken_by_c != "wagon":
        assert game.apply(C, Profile("c", taken_by_c)).accepted  # only the present count
    assert game.apply(B, Admit(A, 3)).accepted
    assert game.members[A].back == back_again
    backs = [m.back for m in game.members.values() if m.present]
    assert len(set(backs)) == len(backs)
    for node in (A, B, C):
        assert game.apply(node, Ready(True)).accepted
    assert game.apply(A, Start(12, True)).accepted
    assert game.phase == Phase.DEALING
