"""Who the table waits for: "waiting for Ada: 3 s" on every screen, counting on (issue #15, 8)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

import pytest
from dutchblitz.client.presence import missing_line
from dutchblitz.client.words import game_on_text
from dutchblitz.node.api import GameOn, Missing, Snapshot
from dutchblitz.protocol.table.state import Game

from tests.client.driving import Clock, running, until
from tests.client.fakes import FakeSession, lobby_game, playing_session

pytestmark = pytest.mark.timeout(30)


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(coro, 20))


@pytest.mark.parametrize(
    ("missing", "later", "line"),
    [
        ((), 0.0, ""),
        ((Missing(1, "Ada", 3.2),), 0.0, "waiting for Ada: 3 s"),
        ((Missing(1, "Ada", 3.2),), 1.0, "waiting for Ada: 4 s"),
        (
            (Missing(1, "Ada", 1.0), Missing(2, "Bob", 2.5)),
            0.0,
            "waiting for Ada: 1 s, Bob: 2 s",
        ),
        (
            (Missing(1, "Ada", 4.0, away=True, grace=10.0),),
            0.0,
            "waiting for Ada: 4 s (removed; dealt in if back within 6 s)",
        ),
        ((Missing(1, "Ada", 12.0, away=True, grace=10.0),), 0.0, "waiting for Ada: 12 s (removed)"),
    ],
)
def test_the_waiting_line(missing: tuple[Missing, ...], later: float, line: str) -> None:
    assert missing_line(missing, later) == line


@dataclass
class QuietSession(FakeSession):
    """A fake whose node has not heard some players for a while."""

    missing: tuple[Missing, ...] = field(default_factory=tuple)
    game_on: GameOn | None = None

    def snapshot(self) -> Snapshot:
        snap = super().snapshot()
        return dataclasses.replace(snap, missing=self.missing, game_on=self.game_on)


@pytest.mark.parametrize("where", ["lobby", "table"])
def test_every_screen_shows_whom_it_waits_for_and_counts_on(where: str) -> None:
    if where == "lobby":
        session = QuietSession(lobby_game(3))
    else:
        played = playing_session(3)
        session = QuietSession(played.game, truth=played.truth)
    session.missing = (Missing(1, "Bob", 2.4),)
    clock = Clock()

    async def go() -> None:
        async with running(session, clock=clock) as drive:
            drive.state.refresh()
            await until(lambda: "waiting for Bob: 2 s" in "\n".join(drive.screen()), "the line")
            clock.advance(3.0)  # no new snapshot: the count goes on by itself
            await until(lambda: "waiting for Bob: 5 s" in "\n".join(drive.screen()), "counting")
            session.missing = ()
            drive.state.refresh()
            await until(lambda: "waiting for" not in "\n".join(drive.screen()), "the line gone")

    run(go())


@pytest.mark.parametrize(
    ("game", "said"),
    [
        (GameOn(4, 3), "a game is on at kitchen: 4 players, round 3"),
        (GameOn(1, 0), "a game is on at kitchen: 1 player"),
        (GameOn(0, 0), "a game is on at kitchen"),
    ],
)
def test_what_a_late_joiner_is_told(game: GameOn, said: str) -> None:
    assert game_on_text("kitchen", game) == said


def test_a_late_joiner_sees_the_game_on_instead_of_an_empty_lobby() -> None:
    session = QuietSession(Game(), game_on=GameOn(4, 3))

    async def go() -> None:
        async with running(session) as drive:
            drive.state.refresh()
            said = "A game is on at kitchen: 4 players, round 3."
            await until(lambda: said in "\n".join(drive.screen()), "the game on")
            text = "\n".join(drive.screen())
            assert "You sit down for the next game" in text
            assert "Alone?" not in text

    run(go())
