"""A knock with a wrong passphrase reaches the screen of the player at a private table.

One node runs in this process on 127.0.0.1 with a passphrase; strangers knock at its
real door, over ZeroMQ, with a wrong phrase and with none. The player's session gets
one notice in player words, not one per knock (node/net/doorbell.py).
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest
import zmq.asyncio
from dutchblitz.client.games.blitz.words import notice_text
from dutchblitz.node.api import News
from dutchblitz.node.net.door import DoorRefused, knock
from dutchblitz.node.runtime import Node, Options
from dutchblitz.node.session import NodeSession
from dutchblitz.protocol.door.codec import Card
from dutchblitz.protocol.wire.auth import Signer

from tests.lan.test_session import run, until

pytestmark = [pytest.mark.lan, pytest.mark.timeout(60)]


def test_knocks_with_a_wrong_phrase_show_once_on_the_table_screen(tmp_path: Path) -> None:
    async def scenario() -> None:
        node = Node(
            Options(
                name="Ada",
                interface="127.0.0.1",
                discovery=False,
                state_dir=tmp_path,
                passphrase="correct horse",
            )
        )
        await node.start()
        session = NodeSession(node)
        context = zmq.asyncio.Context()
        try:
            assert node.door is not None
            for n, phrase in enumerate(["battery staple", None, "staple battery"]):
                stranger = Signer(bytes([n + 1]) * 32)
                card = Card(stranger.node_id, stranger.public_key, "tcp://127.0.0.1:9", "eve")
                with contextlib.suppress(DoorRefused):
                    await knock(
                        context,
                        node.door.endpoint,
                        signer=stranger,
                        table="blitz",
                        passphrase=phrase,
                        mine=card,
                    )
            told: list[str] = []

            def door_news() -> bool:
                told.extend(
                    notice_text(n)
                    for n in session.take_notices()
                    if n.told is not None and n.told.news == News.DOOR_WRONG_PHRASE
                )
                return bool(told)

            await until(session, door_news, "the door's notice")
            assert told == ["your door turned away a knock with a wrong passphrase from 127.0.0.1"]
            assert node.door.stats.refused >= 3, "every knock was turned away"
            door_news()
            assert len(told) == 1, "one notice, not one a knock"
        finally:
            context.destroy(linger=0)
            await session.leave()

    run(scenario())


def test_a_node_turned_away_at_a_private_door_tells_its_own_player(tmp_path: Path) -> None:
    """The other way round: the knocker's player learns which door turned them away, and why,
    though the refusal came while the node was still starting, before its table was up."""

    async def scenario() -> None:
        private = Options(
            name="Ada",
            interface="127.0.0.1",
            discovery=False,
            state_dir=tmp_path / "ada",
            passphrase="correct horse",
        )
        ada = Node(private)
        await ada.start()
        assert ada.door is not None
        door = ada.door.endpoint.split("://", 1)[1]
        ada_session = NodeSession(ada)  # Ada's table is up when Eve knocks
        eve = Node(
            Options(
                name="Eve",
                interface="127.0.0.1",
                discovery=False,
                state_dir=tmp_path / "eve",
                passphrase="battery staple",
                peers=(door,),
            )
        )
        await eve.start()
        sessions = [ada_session, NodeSession(eve)]
        try:
            told: list[list[str]] = [[], []]

            def door_news() -> bool:
                for kept, session in zip(told, sessions, strict=True):
                    kept.extend(notice_text(n) for n in session.take_notices() if n.told)
                return all(told)

            changed = asyncio.Event()
            for session in sessions:
                session.subscribe(changed.set)
            async with asyncio.timeout(20):
                while not door_news():
                    changed.clear()
                    await changed.wait()
            assert told[1] == [f"{door} turned you away: wrong passphrase"]
            assert told[0] == [
                "your door turned away a knock with a wrong passphrase from 127.0.0.1"
            ]
        finally:
            for session in sessions:
                await session.leave()

    run(scenario())


def test_a_seated_player_who_knocks_at_a_door_with_another_phrase_is_not_told_off(
    tmp_path: Path,
) -> None:
    """Seated at the table her phrase opened, Ada knocks at a stranger's door (found on the
    LAN) that has another phrase: her screen says a knock with a wrong passphrase was turned
    away, and where, not that she was turned away."""

    async def scenario() -> None:
        nodes = [
            Node(
                Options(
                    name=name,
                    interface="127.0.0.1",
                    discovery=False,
                    state_dir=tmp_path / name,
                    passphrase=phrase,
                )
            )
            for name, phrase in (("Ada", "correct horse"), ("Eve", "battery staple"))
        ]
        for node in nodes:
            await node.start()
        ada, eve = nodes
        session = NodeSession(ada)
        try:
            async with asyncio.timeout(20):  # both found a table of their own
                while not all(n.main is not None and n.main.replica for n in nodes):
                    await asyncio.sleep(0.05)
            assert eve.door is not None
            eve_door = eve.door.endpoint
            ada._knock_later(eve_door)  # what a private table does with a door it finds
            told: list[str] = []

            def door_news() -> bool:
                told.extend(notice_text(n) for n in session.take_notices() if n.told)
                return bool(told)

            await until(session, door_news, "the door's notice")
            where = eve_door.split("://", 1)[1]
            assert told == [f"your door turned away a knock with a wrong passphrase from {where}"]
        finally:
            await session.leave()
            await eve.stop(goodbye=False)

    run(scenario())
