"""Dutch Blitz's side of a seat (protocol/games/blitz/player.py): a key's action turned
into a move on the table the player sees, or refused with a code; and the registry's
``game_for``."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.games import registry
from dutchblitz.protocol.games.blitz.cards import Colour, card
from dutchblitz.protocol.games.blitz.game import GAME as PLAYER
from dutchblitz.protocol.games.blitz.moves import CentrePlay, Source, StuckCall, WoodFlip
from dutchblitz.protocol.games.blitz.playqueue import CameBack
from dutchblitz.protocol.games.blitz.rules import Reason
from dutchblitz.protocol.games.blitz.state import Area, Table
from dutchblitz.protocol.table.player import ActRefusal

RED_3, BLUE_1, GREEN_5 = card(0, Colour.RED, 3), card(0, Colour.BLUE, 1), card(0, Colour.GREEN, 5)
YELLOW_7 = card(0, Colour.YELLOW, 7)
HAND = [card(0, Colour.RED, 8), card(0, Colour.RED, 9), card(0, Colour.RED, 10)]


def _table(*, wood: bool = False, stacking: bool = True, stuck: bool = False) -> Table:
    area = Area(0, [[RED_3], [BLUE_1], [GREEN_5]], [YELLOW_7], [], HAND[:], stuck=stuck)
    if wood:
        area.wood.append(area.hand.pop())
    return Table((0,), {0: area}, post_stacking=stacking)


REFUSED: list[tuple[str, int, Table, ActRefusal]] = [
    ("blitz_to_centre", 0, _table(), ActRefusal("no_pile_for", what=str(YELLOW_7))),
    ("post_to_centre", 5, _table(), ActRefusal("no_post", count=6)),
    ("wood_to_centre", 0, _table(), ActRefusal("wood_empty")),
    ("stuck", 0, _table(), ActRefusal("can_play", what=str(BLUE_1))),
    ("stuck", 0, _table(stuck=True), ActRefusal("already_stuck")),
    ("blitz_to_post", 0, _table(stacking=False), ActRefusal("stacking_off")),
    ("wood_to_post", 9, _table(), ActRefusal("no_post", count=10)),
    ("wood_to_post", 0, _table(), ActRefusal("empty_source")),
]


@pytest.mark.parametrize(("action", "slot", "table", "refusal"), REFUSED)
def test_an_action_the_table_refuses_names_why(
    action: str, slot: int, table: Table, refusal: ActRefusal
) -> None:
    assert PLAYER.build(table, 0, action, slot) == refusal


def test_an_action_that_can_go_is_its_move() -> None:
    move = PLAYER.build(_table(), 0, "post_to_centre", 1)
    assert isinstance(move, CentrePlay) and move.card == BLUE_1 and move.source == Source.POST
    assert isinstance(PLAYER.build(_table(), 0, "flip", 0), WoodFlip)


CHECKED: list[tuple[Table, int, str, str | None]] = [
    (_table(), 0, "flip", None),
    (_table(), 3, "flip", "not_playing"),
    (_table(stuck=True), 0, "flip", "stuck"),
    (_table(stuck=True), 0, "stuck", None),  # the rules say "already stuck", in build
]


@pytest.mark.parametrize(("table", "seat", "action", "code"), CHECKED)
def test_what_no_action_of_a_kind_may_do_now(
    table: Table, seat: int, action: str, code: str | None
) -> None:
    refusal = PLAYER.check(table, seat, action)
    assert (refusal.code if refusal is not None else None) == code


def test_an_absent_player_takes_no_action() -> None:
    table = _table()
    table.areas[0].active = False
    assert PLAYER.check(table, 0, "flip") == ActRefusal("not_active")


@pytest.mark.parametrize(
    ("returned", "refusal"),
    [
        (CameBack(StuckCall(0), Reason.NOT_ON_TOP), ActRefusal("play_before", held="stuck")),
        (
            CameBack(CentrePlay(0, Source.BLITZ, 0, BLUE_1, None, None), Reason.PILE_TAKEN),
            ActRefusal("pile_taken", held=str(BLUE_1)),
        ),
    ],
)
def test_a_held_play_that_came_back_says_what_and_why(
    returned: CameBack, refusal: ActRefusal
) -> None:
    assert PLAYER.came_back(returned) == refusal


def test_a_lost_race_and_its_card() -> None:
    assert PLAYER.lost_race(Reason.PILE_TAKEN) and not PLAYER.lost_race(Reason.NOT_ON_TOP)
    assert PLAYER.moved_card(CentrePlay(0, Source.BLITZ, 0, BLUE_1, None, None)) == str(BLUE_1)
    assert PLAYER.moved_card(StuckCall(0)) == ""
    assert PLAYER.stalemates(None) == 0


def test_the_registry_hands_out_each_games_player() -> None:
    assert registry.game_for(registry.DEFAULT_GAME) is PLAYER
    assert list(PLAYER.levels) == ["easy", "normal", "fast", "flat-out"]
    with pytest.raises(registry.UnknownGame):
        registry.game_for("no-such-game")
