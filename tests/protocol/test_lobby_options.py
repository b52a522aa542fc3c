"""The lobby's options, one for the whole table (spec/protocol.md P-261): an OPTIONS in the
log sets what every screen shows and what a START then carries."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.seat.duties import Wishes, adopt_options, our_start, table_options
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.wire.messages import Admit, Body, Options, Ready, Start

NODES = [bytes([n]) * 16 for n in range(1, 4)]


def lobby(founded: str | None = None) -> Game:
    game = Game()
    assert game.apply(NODES[0], Admit(NODES[0], 1, founded)).accepted
    assert game.apply(NODES[0], Admit(NODES[1], 1)).accepted
    return game


@pytest.mark.parametrize(
    ("founded", "options", "refusal", "shown"),
    [
        pytest.param(None, Options(50, False), None, (50, False, None, None), id="P-261 length"),
        pytest.param(
            None,
            Options(75, True, 2, "dutch"),
            None,
            (75, True, 2, "dutch"),
            id="P-261 Dutch in 2 rounds",
        ),
        pytest.param(None, Options(75, True, 0, "blitz"), "bad_game", None, id="P-261 own game"),
        pytest.param(None, Options(75, True, 0, "chess"), "unknown_game", None, id="P-261 unknown"),
        pytest.param(None, Options(75, True, 3), "bad_rounds", None, id="P-261 blitz rounds"),
        pytest.param("dutch", Options(40, True, 3), None, (40, True, 3, None), id="P-261 dutch"),
    ],
)
def test_P261_an_options_sets_the_lobbys_options_or_changes_nothing(
    founded: str | None,
    options: Options,
    refusal: str | None,
    shown: tuple[int, bool, int | None, str | None] | None,
) -> None:
    game = lobby(founded)
    before = game.copy().public_form()
    outcome = game.apply(NODES[1], options)
    assert outcome.refusal == refusal
    if shown is None:
        assert game.public_form()[: -0 or None] == [*before[:12], game.refused, *before[13:]]
        return
    assert (game.target, game.post_stacking, game.rounds, game.offered) == shown
    assert game.copy().public_form() == game.public_form()


def test_P261_options_only_in_the_lobby_and_a_start_carries_them() -> None:
    game = lobby()
    events: list[tuple[int, Body]] = [
        (0, Options(75, True, 2, "dutch")),
        (1, Options(30, False)),  # the latest one counts, whoever sent it
        (0, Ready(True)),
        (1, Ready(True)),
    ]
    assert [game.apply(NODES[n], body).refusal for n, body in events] == [None] * 4
    wishes = Wishes("Bo", target=99, game="dutch")  # its command line, not the table's
    adopt_options(wishes, game)
    assert table_options(wishes, game) is None
    start = our_start(wishes, game)
    assert start == Start(30, False)
    assert game.apply(NODES[1], start).accepted and game.phase == Phase.DEALING
    assert game.apply(NODES[0], Options(50, True)).refusal == "not_in_dealing"


def test_P261_a_changed_wish_is_an_options_naming_only_what_the_table_does_not_hold() -> None:
    game = lobby("dutch")
    wishes = Wishes("Ada")
    adopt_options(wishes, game)
    assert table_options(wishes, game) is None
    wishes.rounds = 2
    assert table_options(wishes, game) == Options(75, True, 2, None)
    wishes.game = "blitz"  # Dutch Blitz offers no rounds: none go with it
    assert table_options(wishes, game) == Options(75, True, 0, "blitz")
