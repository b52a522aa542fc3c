"""Every key's ``Action`` (protocol/games/blitz/intents.py) is one the game's ``TableGame``
knows, and every refusal it gives is a code the client words: a ``Why`` of the table's
(client/words.py) or one of Dutch Blitz's own (client/games/blitz/words.py)."""

from __future__ import annotations

import pytest
from dutchblitz.client.games.blitz.words import REFUSALS
from dutchblitz.node.api import Why
from dutchblitz.protocol.games.blitz.cards import Colour, card
from dutchblitz.protocol.games.blitz.intents import Action
from dutchblitz.protocol.games.blitz.state import Area, Table
from dutchblitz.protocol.games.registry import DEFAULT_GAME, game_for
from dutchblitz.protocol.table.player import ActRefusal

EMPTY = Table((0,), {0: Area(0, [[], [], []], [], [], [])}, post_stacking=False)
FULL = Table((0,), {0: Area(0, [[card(0, Colour.RED, 2)]], [card(0, Colour.RED, 5)], [], [])})


@pytest.mark.parametrize("table", [EMPTY, FULL])
@pytest.mark.parametrize("action", list(Action))
def test_every_action_is_a_move_or_a_worded_refusal(action: Action, table: Table) -> None:
    player = game_for(DEFAULT_GAME)
    for slot in (0, 7):
        built = player.build(table, 0, action.value, slot)
        if isinstance(built, ActRefusal):
            assert built.code in set(Why) | set(REFUSALS), (action, built)
