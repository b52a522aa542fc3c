"""What a player reads when a round of Dutch waits for, or gives up on, a crashed player
(spec/dutch.md D-46, spec/rules.md R-57, R-61): the round as players count it, a void round
told as void (never as everyone scoring 0), and a game that ends without a winner."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from dutchblitz.client.words import tell
from dutchblitz.node.notices import SessionNotices
from dutchblitz.protocol.games.registry import game_for
from dutchblitz.protocol.replica.effects import Delivered, LogEntry
from dutchblitz.protocol.table.records import ACCEPTED
from dutchblitz.protocol.wire.messages import Body

from tests.games.dutch.tablerig import Rig
from tests.games.dutch.test_crash import _crash, _grace_over, _in_play, _stalls


def _told(rig: Rig, me: int, feed: list[tuple[bytes, Body]]) -> list[str]:
    """The notices ``me``'s session gives for ``feed``, each applied to the rig in turn."""
    replica = SimpleNamespace(stable=rig.game, streams={}, ended=None)
    seating = SimpleNamespace(reloaded=[])
    seat = SimpleNamespace(replica=replica, node_id=rig.nodes[me], seating=seating)
    notices = SessionNotices("table", seat, game_for("dutch"))  # type: ignore[arg-type]

    async def go() -> None:
        for index, (sender, body) in enumerate(feed):
            rig.apply(sender, body)
            entry = LogEntry(10_000 + index, sender, 10_000 + index, 0, body, ACCEPTED)
            notices.on_effect(Delivered(entry), live=True)

    asyncio.run(go())
    return [tell(n.told) for n in notices.take() if n.told is not None]


def test_d46_r61_a_void_round_is_told_as_void_and_the_game_ends_with_no_winner() -> None:
    """D-46, R-61, D-45: three players, one gone for good in round 1."""
    rig = Rig(players=3, seed=71, rounds=2)
    _in_play(rig, 1)
    _crash(rig, 2)
    _stalls(rig)
    said = _told(rig, 0, [(rig.nodes[1], _grace_over(rig))])
    void = [line for line in said if " is void: " in line]
    assert void == [
        "round 1 is void: player 3 left holding cards only their key could open;"
        " it is not scored and not counted"
    ]
    assert not any("0 points" in line or ("round 1: " in line and "+0" in line) for line in said)
    rig.play()
    assert rig.game.phase.value == "over" and rig.game.winner is None  # nobody scored


def test_r57_the_round_that_goes_on_is_counted_as_players_count_it() -> None:
    """R-57, R-52: in a rematch, round numbers keep counting in the log; the notice counts
    from this game's first round, and a deal left with too few ends the game instead."""
    rig = Rig(players=4, seed=72, rounds=2)
    _in_play(rig, 1)
    _crash(rig, 3)
    _stalls(rig)
    # As if a game of two rounds was played before: the log counts this round as the 3rd.
    rig.game.round += 2
    rig.game.rounds_before = 2
    start = _grace_over(rig)
    said = _told(rig, 0, [(rig.nodes[1], start)])
    assert next(line for line in said if " is void: " in line).startswith("round 1 is void")
    assert [line for line in said if "goes on without" in line] == [
        "round 2 goes on without player 4"
    ]
