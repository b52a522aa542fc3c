"""A stalemate leaves a mark that lasts: the "Everyone else is stuck" line counts them.

A stalemate turns only face-down hands, and fast players call stuck again at once, so
without the count a stalemate that happened looks like an `x` that did nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

import pytest
from dutchblitz.client.games.blitz.guide import stalemate_line

from tests.client.driving import running
from tests.client.fakes import playing_session

pytestmark = pytest.mark.timeout(30)

LINE = "Everyone else is stuck: play, or press x for a stalemate."


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(coro, 20))


def test_the_line_counts_the_stalemates_of_the_round() -> None:
    session = playing_session(3)
    table = session.game.table
    assert table is not None

    async def go() -> None:
        async with running(session) as drive:
            for seat in (1, 2):
                table.areas[seat].stuck = True
            session.notify()
            text = "\n".join(drive.screen())
            assert LINE in text and "so far" not in text
            table.stalemates = 2  # two turned, and both others called stuck again
            session.notify()
            shown = [line for line in drive.screen() if "Everyone else" in line]
            assert shown == [
                " Everyone else is stuck: play, or press x for a stalemate (2 so far)."
            ]
            assert all(len(line) <= 80 for line in drive.screen())

    run(go())


def test_the_counted_line_fits_80_columns_even_late_in_a_dead_round() -> None:
    table = playing_session(3).game.table
    assert table is not None
    for seat in (1, 2):
        table.areas[seat].stuck = True
    table.stalemates = 29
    assert len(stalemate_line(table, 0)) <= 79
