"""A rematch at the end of a game (spec/rules.md R-49 to R-52), as a table of cases."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.table.fairdeal import RoundRecord
from dutchblitz.protocol.table.state import Game, Member, Phase, RoundResult
from dutchblitz.protocol.wire.messages import Admit, Body, Bye, Ready, Start, Suspect

NODES = [bytes([n]) * 16 for n in range(1, 4)]
BACKS = ["pump", "wagon", "bucket"]


def game_over(players: int = 3) -> Game:
    """A game just over after three rounds, every round revealed: the audit is complete."""
    game = Game()
    for seat in range(players):
        game.members[NODES[seat]] = Member(NODES[seat], seat, f"p{seat}", BACKS[seat], ready=True)
    game.players = tuple(range(players))
    game.target, game.post_stacking = 40, True
    game.round = 3
    game.results = [RoundResult(n, {s: 15 for s in game.players}, 0) for n in (1, 2, 3)]
    game.totals = {seat: 45 - seat for seat in game.players}
    game.phase, game.winner = Phase.OVER, 0
    for member in game.members.values():
        member.ready = False  # as _end_round leaves them
    return game


def run(game: Game, events: list[tuple[int, Body]]) -> list[str | None]:
    return [game.apply(NODES[who], body).refusal for who, body in events]


ALL_READY = [(0, Ready(True)), (1, Ready(True)), (2, Ready(True))]


@pytest.mark.parametrize(
    ("events", "refusals", "rematch"),
    [
        pytest.param([(0, Start(40, True))], ["not_all_ready"], False, id="R-50 nobody ready"),
        pytest.param(
            [(0, Ready(True)), (1, Ready(True)), (0, Start(40, True))],
            [None, None, "not_all_ready"],
            False,
            id="R-50 one still deciding",
        ),
        pytest.param(
            [*ALL_READY, (2, Start(40, True))], [None] * 3 + [None], True, id="R-50 all want one"
        ),
        pytest.param(
            [*ALL_READY, (0, Start(75, True))],
            [None] * 3 + ["not_same_table"],
            False,
            id="R-50 another target",
        ),
        pytest.param(
            [*ALL_READY, (0, Start(40, False))],
            [None] * 3 + ["not_same_table"],
            False,
            id="R-50 other post stacking",
        ),
        pytest.param(
            [(0, Ready(True)), (1, Ready(True)), (2, Bye()), (1, Start(40, True))],
            [None] * 4,
            True,
            id="R-51 who leaves is not waited for",
        ),
        pytest.param(
            [*ALL_READY, (1, Ready(False)), (0, Start(40, True))],
            [None] * 4 + ["not_all_ready"],
            False,
            id="R-49 a change of mind",
        ),
    ],
)
def test_rematch_table(
    events: list[tuple[int, Body]], refusals: list[str | None], rematch: bool
) -> None:
    game = game_over()
    assert run(game, events) == refusals
    if not rematch:
        assert game.phase == Phase.OVER and game.winner == 0 and len(game.results) == 3
        return
    present = [m.seat for m in sorted(game.members.values(), key=lambda m: m.seat) if m.present]
    # the present players, totals at 0, no results, no winner; R-52: round 4 is round 1.
    assert game.phase == Phase.DEALING
    assert game.players == tuple(present)
    assert game.totals == {seat: 0 for seat in present}
    assert game.results == [] and game.winner is None
    assert (game.round, game.shown_round(), game.game_number) == (4, 1, 2)
    assert game.shown_round(5) == 2


def test_R49_the_end_of_a_game_clears_ready_and_ready_means_rematch() -> None:
    game = game_over()
    assert not any(m.ready for m in game.members.values())
    assert game.rematch_ready() == []
    run(game, ALL_READY)
    assert [m.seat for m in game.rematch_ready()] == [0, 1, 2]


def test_R50_no_rematch_before_the_audit_is_complete() -> None:
    game = game_over()
    game.records[3] = RoundRecord(3, 3, True, (0, 1, 2), {}, {}, {}, b"", frozenset(), ())
    assert run(game, [*ALL_READY, (0, Start(40, True))]) == [None] * 3 + ["audit_open"]
    assert game.rematch_ready() == []
    game.revealed |= {(3, 0), (3, 1), (3, 2)}
    assert run(game, [(0, Start(40, True))]) == [None]


def test_R52_a_copy_keeps_the_game_number() -> None:
    game = game_over()
    run(game, [*ALL_READY, (0, Start(40, True))])
    copied = game.copy()
    assert (copied.game_number, copied.rounds_before) == (2, 3)
    assert copied.public_form() == game.public_form()


def test_a_ready_in_the_lobby_still_means_ready_to_start() -> None:
    game = Game()
    game.members[NODES[0]] = Member(NODES[0], 0, "p0", "pump")
    assert run(game, [(0, Ready(True))]) == [None]
    assert game.members[NODES[0]].ready and game.game_number == 1


def test_R52_screens_show_this_games_flags_with_rounds_counted_from_1() -> None:
    from dutchblitz.protocol.table.state import Flag, FlagKind

    game = game_over()
    game.flags = [Flag(2, 1, NODES[1], FlagKind.BACKDATED, "old game")]
    assert [f.round for f in game.game_flags()] == [2]
    run(game, [*ALL_READY, (0, Start(40, True))])
    assert game.game_flags() == []
    game.flags.append(Flag(5, 2, NODES[2], FlagKind.BACKDATED, "this game"))
    assert [(f.round, f.detail) for f in game.game_flags()] == [(2, "this game")]


@pytest.mark.parametrize(
    "leaving",
    [
        pytest.param([(1, Bye()), (2, Bye())], id="P-258 both others say goodbye"),
        pytest.param([(1, Bye()), (0, Suspect(NODES[2], 0))], id="P-258 the last other removed"),
    ],
)
def test_P258_alone_after_the_end_the_table_is_a_lobby_again(
    leaving: list[tuple[int, Body]],
) -> None:
    """No rematch can be played alone (R-50): the last player is not left waiting for one,
    the table is a lobby again, where a newcomer sits down and a new game starts."""
    game = game_over()
    assert run(game, [(0, Ready(True)), *leaving]) == [None] * (1 + len(leaving))
    assert game.phase == Phase.LOBBY and game.players == ()
    assert game.results == [] and game.winner is None and game.totals == {}
    assert not game.members[NODES[0]].ready
    assert (game.game_number, game.rounds_before) == (2, 3)
    assert game.copy().public_form() == game.public_form()
    newcomer = bytes([9]) * 16
    events = [Admit(newcomer, 1), Ready(True)]
    assert [game.apply(NODES[0], body).refusal for body in events] == [None, None]
    assert game.apply(newcomer, Ready(True)).refusal is None
    assert game.apply(NODES[0], Start(40, True)).refusal is None
    assert game.phase == Phase.DEALING and game.players == (0, 3)
    assert (game.round, game.shown_round(), game.game_number) == (4, 1, 2)


def test_P258_two_left_after_the_end_still_decide_on_a_rematch() -> None:
    game = game_over()
    assert run(game, [(2, Bye())]) == [None]
    assert game.phase == Phase.OVER and game.game_number == 1
