"""Who the table waits for: "waiting for Ada: 3 s" on every screen, counting on (issue #15, 8)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

import pytest
from dutchblitz.client.presence import missing_line
from dutchblitz.node.api import Missing, Snapshot

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

    def snapshot(self) -> Snapshot:
        return dataclasses.replace(super().snapshot(), missing=self.missing)


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
