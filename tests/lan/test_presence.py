"""Who is missing, and a crashed node's bots, over real ZeroMQ on loopback (issue #15, 8 and 9).

Two nodes run in this process. Ada's node hosts Ada and one bot; Bob's node hosts
Bob (a bot) and two more bots, so Bob's side is a majority that can remove Ada's.
Ada's node stops mid-game with no goodbye (as in a crash), and is started again
on the same state directory. Bob's screen counts the silence ("waiting for Ada"),
then tells the removal of Ada and her bot together, then their return; Ada's bot
comes back with her node, with the same identity, and Ada is never told she left.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest
from dutchblitz.client.games.blitz.words import notice_text
from dutchblitz.node.api import Notice
from dutchblitz.node.runtime import Node, Options
from dutchblitz.node.session import NodeSession
from dutchblitz.protocol.table.state import Phase

from tests.lan.nodes import free_ports

pytestmark = [pytest.mark.lan, pytest.mark.timeout(120)]

WAIT_S = 30.0


async def until(session: NodeSession, check: Callable[[], bool], what: str) -> None:
    """Wait, woken by the session's change callbacks (every timer tick), until ``check``."""
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


class Heard:
    """Every notice a session has given, kept as they are taken."""

    def __init__(self, session: NodeSession) -> None:
        self.session = session
        self.notices: list[Notice] = []

    def texts(self) -> list[str]:
        self.notices += self.session.take_notices()
        return [notice_text(notice) for notice in self.notices]

    def any(self, *words: str) -> bool:
        return any(all(word in text for word in words) for text in self.texts())


def test_a_crashed_nodes_bots_come_back_with_it_and_every_screen_says_so(tmp_path: Path) -> None:
    ports = free_ports(2)
    base = {"interface": "127.0.0.1", "discovery": False, "target": 300}
    ada = Options(name="Ada", state_dir=tmp_path / "ada", port=ports[0], **base)  # type: ignore[arg-type]
    bob = Options(
        name="Bob",
        state_dir=tmp_path / "bob",
        port=ports[1],
        peers=(f"127.0.0.1:{ports[0]}",),
        bot=True,
        bot_level="normal",
        headless=True,
        players=5,
        **base,  # type: ignore[arg-type]
    )

    async def scenario() -> None:
        first = Node(ada)
        await first.start()
        ada_screen = NodeSession(first)
        second = Node(bob)
        await second.start()
        bob_screen = NodeSession(second)
        heard = Heard(bob_screen)
        try:
            assert ada_screen.add_bot("normal") is None
            await second.bots.add("normal")
            await second.bots.add("normal")
            await until(ada_screen, lambda: len(first.bots.seats) == 1, "Ada's bot")
            bot_node = first.bots.seats[0].seat.node_id
            assert (tmp_path / "ada" / "bots.json").exists()
            seated = lambda: len(ada_screen.snapshot().stable.seated()) == 5  # noqa: E731
            await until(ada_screen, seated, "five players seated")
            assert ada_screen.set_ready(True) is None
            playing = lambda: bob_screen.snapshot().stable.phase == Phase.PLAYING  # noqa: E731
            await until(bob_screen, playing, "the game to start")
            bot_name = bob_screen.snapshot().stable.members[bot_node].name

            await first.stop(goodbye=False)  # a crash: no goodbye, the bots' record stays

            def waiting() -> bool:
                return any(m.name == "Ada" for m in bob_screen.snapshot().missing)

            await until(bob_screen, waiting, "'waiting for Ada' on Bob's screen")
            # Usually one notice names both; on a loaded machine the two removals can be
            # agreed a moment apart, and then each has its own.
            gone = lambda: heard.any("Ada", "removed") and heard.any(bot_name, "removed")  # noqa: E731
            await until(bob_screen, gone, "Ada and her bot removed")

            # With no LAN discovery here, Bob's door is named, as a player would with --peer.
            again = Node(dataclasses.replace(ada, peers=(f"127.0.0.1:{ports[1]}",)))
            await again.start()
            ada_again = NodeSession(again)
            mine = Heard(ada_again)
            try:
                back = lambda: heard.any("Ada is back") and heard.any(f"{bot_name} is back")  # noqa: E731
                try:
                    await until(bob_screen, back, "Ada and her bot back")
                except AssertionError:
                    print(
                        "HEARD",
                        heard.texts(),
                        "MINE",
                        mine.texts(),
                        [b.seat.node_id.hex()[:4] for b in again.bots.seats],
                    )
                    print(
                        {m.name: m.present for m in bob_screen.snapshot().stable.members.values()}
                    )
                    raise
                assert [bot.seat.node_id for bot in again.bots.seats] == [bot_node]
                members = bob_screen.snapshot().stable.members
                assert members[bot_node].present and members[first.main.node_id].present  # type: ignore[union-attr]
                told = lambda: mine.any("you were away, and are back")  # noqa: E731
                await until(ada_again, told, "Ada told she is back")
                assert not any("Ada left" in text or "Ada was" in text for text in mine.texts())
            finally:
                await ada_again.leave()
            assert not (tmp_path / "ada" / "bots.json").read_text().count("level")
        finally:
            await bob_screen.leave()

    asyncio.run(asyncio.wait_for(scenario(), 110))
