"""Self-play: random legal bots play whole rounds in-process, and a seed replays them."""

from __future__ import annotations

import random

import pytest
from dutchblitz.protocol.games.blitz.digest import full_digest

from tests.rigs import selfplay


@pytest.mark.parametrize("players", [2, 3, 4, 8])
def test_every_round_ends_and_replays_to_the_same_table(players: int) -> None:
    played = selfplay.play_round(players, random.Random(players))
    assert played.table.over
    assert full_digest(selfplay.replay(played)) == full_digest(played.table)


def test_a_seed_plays_the_same_rounds() -> None:
    first, _ = selfplay.play_rounds(3, 4, seed=7)
    again, _ = selfplay.play_rounds(3, 4, seed=7)
    assert [full_digest(p.table) for p in first] == [full_digest(p.table) for p in again]


def test_the_command_prints_rounds_and_moves_per_second(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert selfplay.main(["--rounds", "2", "--players", "3", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "rounds/s" in out and "moves/s" in out
