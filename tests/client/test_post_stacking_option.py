"""Post stacking on screen (P-144): a lobby key, and the choice on every screen."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

import pytest

from tests.client.driving import TAB, running
from tests.client.fakes import FakeSession, lobby_game, playing_session

pytestmark = pytest.mark.timeout(30)


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(coro, 20))


def shown(lines: list[str]) -> str:
    return "\n".join(lines)


def test_the_lobby_key_toggles_post_stacking_and_the_start_carries_it() -> None:
    session = FakeSession(lobby_game(2, ready=True))

    async def go() -> None:
        async with running(session) as drive:
            assert "Post stacking: on" in shown(drive.screen())
            assert "lobby  ·  Post stacking on" in drive.screen()[0]
            await drive.press("p")
            assert session.calls[-1] == ("set_option", False)
            assert "Post stacking: off" in shown(drive.screen())
            await drive.press("p")
            assert session.calls[-1] == ("set_option", True)
            await drive.press("p")
            await drive.press("s")
            assert session.calls[-1] == ("start",)
            assert not session.game.post_stacking  # what the START carried

    run(go())


@pytest.mark.parametrize("stacking", [True, False])
def test_the_table_and_the_scores_show_the_games_choice(stacking: bool) -> None:
    session = playing_session(2)
    session.game.post_stacking = stacking
    word = "on" if stacking else "off"

    async def go() -> None:
        async with running(session) as drive:
            assert f"Post stacking {word}" in shown(drive.screen())
            assert ("b/v stack" in drive.screen()[-1]) == stacking  # the key bar
            await drive.press(TAB)
            assert f"Post stacking {word}" in shown(drive.screen())

    run(go())
