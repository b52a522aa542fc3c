"""A node that arrives while a game is on says so, and sits down for the next game (issue #15, 12).

Ann (a person, her keys pressed by the test) and Ben (a bot node) play at table
"kitchen"; Cat's node arrives mid-game. The table admits newcomers only between
games (P-117, R-58), so Cat waits: her screen says "a game is on at kitchen: 2
players" (and the round, once an event names it) instead of an empty lobby, and so
do her refusals. Once the game is over she sits down with her own name, and when
everyone asks for the next game, the rematch seats her with the others.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from dutchblitz.client.games.blitz.words import notice_text, said
from dutchblitz.node.runtime import Node, Options
from dutchblitz.node.session import NodeSession
from dutchblitz.protocol.table.state import Phase

from tests.lan.nodes import free_ports
from tests.lan.test_rematch import press_until

pytestmark = [pytest.mark.lan, pytest.mark.timeout(150)]

WAIT_S = 45.0


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
            target=3,
            state_dir=tmp_path / name,
            port=ports[index],
            peers=() if index == 0 else (door,),
            **more,  # type: ignore[arg-type]
        )

    async def scenario() -> None:
        first = Node(options("Ann", 0))
        await first.start()
        ann = NodeSession(first)
        second = Node(options("Ben", 1, bot=True, bot_level="flat-out", headless=True, players=2))
        await second.start()
        late = Node(options("Cat", 2))
        try:
            await until(ann, lambda: len(ann.snapshot().players) == 2, "Ben seated")
            assert ann.set_ready(True) is None
            playing = lambda: ann.snapshot().stable.phase == Phase.PLAYING  # noqa: E731
            await until(ann, playing, "the game to start")
            await late.start()  # while Ann waits, the round cannot end
            cat = NodeSession(late)

            def told() -> bool:
                game_on = cat.snapshot().game_on
                return game_on is not None and game_on.players == 2

            await until(cat, told, "a word that a game is on, with 2 players")
            # Ann is idle: her node, the one that knows Cat, sends no event naming a round.
            refusal = said(cat.set_ready(True))
            assert refusal.startswith("a game is on at kitchen: 2 players")
            assert refusal.endswith("; you sit down for the next game")
            assert cat.snapshot().my_seat is None
            over = lambda: ann.snapshot().stable.phase == Phase.OVER  # noqa: E731
            await press_until(ann, over, "the end of the game")

            def seated() -> bool:
                snap = cat.snapshot()
                me = snap.stable.members.get(snap.my_node)
                return me is not None and me.name == "Cat"

            await until(cat, seated, "the newcomer seated, with her name, after the game")
            snap = cat.snapshot()
            assert snap.stable.phase == Phase.OVER and snap.game_on is None
            notices = [notice_text(n) for n in cat.take_notices()]
            assert "you sit down at kitchen for its next game: r when ready" in notices
            assert ann.set_ready(True) is None
            assert cat.set_ready(True) is None
            rematch = lambda: cat.snapshot().stable.game_number == 2  # noqa: E731
            await until(cat, rematch, "the next game, with the newcomer")
            stable = cat.snapshot().stable
            assert len(stable.players) == 3 and cat.snapshot().my_seat in stable.players
        finally:
            await late.stop()
            await second.stop()
            await ann.leave()

    asyncio.run(asyncio.wait_for(scenario(), 140))
