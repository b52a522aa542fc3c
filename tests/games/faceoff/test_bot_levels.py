"""A Blitz! bot at a real table plays at the level its player chose (spec/faceoff.md, "Bots"):
the node hands ``seat_bot`` Blitz!'s own level (``level_for(game, level)``), and the bot's
skill (misses, slips, contests, abstentions) and its thinking time before an answer
(``race_hold``) are that level's. F-18: only face-off players answer."""

from __future__ import annotations

from dataclasses import replace

import pytest
from dutchblitz.protocol.games.faceoff import TAG, bots, host
from dutchblitz.protocol.games.faceoff.host import GAME
from dutchblitz.protocol.games.faceoff.seat import (
    ANSWER_FLOOR_S,
    ANSWER_HOLD_S,
    ANSWER_SPREAD_S,
    MOVE_HOLD_S,
)
from dutchblitz.protocol.games.faceoff.state import Phase
from dutchblitz.protocol.games.faceoff.table import FaceoffTable
from dutchblitz.protocol.games.registry import level_for, level_in
from dutchblitz.protocol.table.rules import SeatSecrets

from tests.games.faceoff.hostrig import dealt, duties
from tests.games.faceoff.test_hosting import _turn_until

# (the level a player chose, in any game's words; the face-off level it plays)
CHOSEN = [
    ("easy", "easy"),
    ("sharp", "sharp"),
    ("careful", "sharp"),  # Dutch's second level: Blitz!'s second
    ("forgetful", "easy"),
    ("flat-out", "sharp"),  # Dutch Blitz's fourth: Blitz!'s last
]


@pytest.mark.parametrize(("chosen", "played"), CHOSEN)
def test_the_level_the_node_hands_the_bot_is_the_chosen_one(chosen: str, played: str) -> None:
    """What the node hands ``seat_bot`` (protocol/seat/duties.py) is the level itself."""
    assert level_in(TAG, chosen) is bots.LEVELS[played]
    assert level_for(GAME, chosen) is bots.LEVELS[played]


def _faceoff() -> tuple[FaceoffTable, list[SeatSecrets]]:
    table, keys = dealt()
    duties(table, keys)
    _turn_until(table, keys, Phase.FACEOFF)
    return table, keys


@pytest.mark.parametrize("name", ["easy", "sharp"])
def test_f18_seat_bot_plays_the_level_it_is_handed(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The level reaches the bot's move (``bots.bot_move``), not the default one."""
    table, keys = _faceoff()
    duel = table.game.faceoff
    assert duel is not None
    seen: list[bots.Level] = []
    real = bots.bot_move

    def spy(state: object, seat: int, level: bots.Level, rng: bots.Rng) -> object:
        seen.append(level)
        return real(state, seat, level, rng)  # type: ignore[arg-type]

    monkeypatch.setattr(host.bots, "bot_move", spy)
    seat = table.seats[duel.a]
    GAME.seat_bot(table, seat, keys[seat], bots.LEVELS[name])
    assert seen == [bots.LEVELS[name]]


def test_f18_an_easy_bot_misses_more_than_a_sharp_one_at_the_table() -> None:
    """Accuracy by level: over many looks, an easy bot finds an answer less often."""
    table, keys = _faceoff()
    duel = table.game.faceoff
    assert duel is not None
    seat = table.seats[duel.a]
    found = {}
    for name in ("easy", "sharp"):
        secrets = replace(keys[seat], memo={})
        looks = [GAME.seat_bot(table, seat, secrets, bots.LEVELS[name]) for _ in range(200)]
        found[name] = sum(body is not None for body in looks)
    assert found["easy"] < found["sharp"]


def test_f18_race_hold_is_the_level_s_thinking_time() -> None:
    """Thinking time by level: a face-off player waits a person's chance and then its
    level's answer time; anyone else only glances; no level given keeps the old hold."""
    table, _ = _faceoff()
    duel = table.game.faceoff
    assert duel is not None
    player = table.seats[duel.a]
    other = next(seat for seat in table.seats if seat not in (player, table.seats[duel.b]))
    for level in bots.LEVELS.values():
        low, high = level.answer
        hold = GAME.race_hold(table, player, level)
        assert ANSWER_FLOOR_S + low <= hold <= ANSWER_FLOOR_S + high
        assert GAME.race_hold(table, other, level) == MOVE_HOLD_S
    unnamed = GAME.race_hold(table, player)
    assert ANSWER_HOLD_S <= unnamed <= ANSWER_HOLD_S + ANSWER_SPREAD_S


def test_f18_an_easy_bot_thinks_longer_than_a_sharp_one() -> None:
    """Over many face-offs (the hold's share differs by seat and moment), easy is slower."""
    table, _ = _faceoff()
    totals = {"easy": 0.0, "sharp": 0.0}
    for moves in range(64):
        moved = replace_moves(table, moves)
        duel = moved.game.faceoff
        assert duel is not None
        for name in totals:
            totals[name] += GAME.race_hold(moved, moved.seats[duel.a], bots.LEVELS[name])
    assert totals["easy"] > totals["sharp"]


def replace_moves(table: FaceoffTable, moves: int) -> FaceoffTable:
    moved = table.copy()
    moved.moves = moves
    return moved
