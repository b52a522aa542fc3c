"""A person's `r` is for the lobby they pressed it in: a lobby met again after a game
(the last player left at its end, P-258) waits for them to say so again, while a bot or
a node started ready from the command line is ready in every lobby."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.seat.duties import Wishes, lobby_duty
from dutchblitz.protocol.table.state import Game
from dutchblitz.protocol.wire.messages import Admit, Ready

A = b"a" * 16

pytestmark = pytest.mark.timeout(30)


@pytest.mark.parametrize(
    ("ready_for", "game_number", "sent"),
    [
        (None, 1, Ready(True)),  # a bot, a headless node: every lobby
        (None, 3, Ready(True)),
        (1, 1, Ready(True)),  # pressed in this lobby
        (1, 2, None),  # pressed before the last game: not for this lobby
    ],
)
def test_a_ready_wish_holds_for_the_lobby_it_was_made_in_P258(
    ready_for: int | None, game_number: int, sent: Ready | None
) -> None:
    game = Game()
    assert game.apply(A, Admit(A, 1)).accepted
    game.game_number = game_number
    me = game.members[A]
    wishes = Wishes(me.name, me.back or None, ready=True, ready_for=ready_for)
    assert lobby_duty(game, me, wishes, game) == sent
