"""A node that arrives while a game is on says so, and sits down once it can (issue #15, 12).

Two bot nodes play at table "kitchen"; a third node, a person's, arrives mid-game.
The table admits new players only in its lobby (P-117), so the newcomer waits: its
screen says "a game is on at kitchen: 2 players, round N" instead of an empty lobby,
and so do its refusals. When the game's players leave, it is not left waiting on a
table that has gone: it sits down at a table of its own, ready for the next game.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from dutchblitz.node.runtime import Node, Options
from dutchblitz.node.session import NodeSession
from dutchblitz.protocol.game import Phase

from tests.lan.nodes import free_ports

pytestmark = [pytest.mark.lan, pytest.mark.timeout(90)]

WAIT_S = 30.0


async def until(session: NodeSession, check: Callable[[], bool], what: str) -> None:
    changed = asyncio.Event()
    unsubscribe = session.subscribe(changed.set)
    try:
        async with asyncio.timeout(WAIT_S):
            while not check():
                changed.clear()
                await changed.wait()
    except TimeoutError:
        raise AssertionError(f"no {what} in {WAIT_S}s") from None
    finally:
        unsubscribe()


def test_a_late_joiner_is_told_the_game_is_on_and_sits_down_after_it(tmp_path: Path) -> None:
    ports = free_ports(3)
    door = f"127.0.0.1:{ports[0]}"

    def options(name: str, index: int, **more: object) -> Options:
        return Options(
            name=name,
            table="kitchen",
            interface="127.0.0.1",
            discovery=False,
            target=300,
            state_dir=tmp_path / name,
            port=ports[index],
            peers=() if index == 0 else (door,),
            **more,  # type: ignore[arg-type]
        )

    bot = {"bot": True, "bot_level": "normal", "headless": True, "players": 2}

    async def scenario() -> None:
        first = Node(options("Ann", 0, **bot))
        await first.start()
        second = Node(options("Ben", 1, **bot))
        await second.start()
        ben = NodeSession(second)
        late = None
        try:
            playing = lambda: ben.snapshot().stable.phase == Phase.PLAYING  # noqa: E731
            await until(ben, playing, "the game to start")
            late = Node(options("Cat", 2))
            await late.start()
            cat = NodeSession(late)
            told = lambda: cat.snapshot().game_on is not None  # noqa: E731
            await until(cat, told, "a word that a game is on")
            game_on = cat.snapshot().game_on
            assert game_on is not None and game_on.players == 2 and game_on.round >= 1
            refusal = cat.set_ready(True) or ""
            assert refusal.startswith("a game is on at kitchen: 2 players, round ")
            assert refusal.endswith("you sit down for the next game")
            assert cat.snapshot().my_seat is None
        finally:
            await ben.leave()
            await first.stop()
        try:
            seated = lambda: cat.snapshot().my_seat is not None  # noqa: E731
            await until(cat, seated, "the late joiner seated at a table of its own")
            snap = cat.snapshot()
            assert snap.game_on is None and snap.stable.phase == Phase.LOBBY
        finally:
            await cat.leave()

    asyncio.run(asyncio.wait_for(scenario(), 80))
