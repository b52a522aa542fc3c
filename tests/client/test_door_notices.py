"""Who the door turned away shows on the lobby screen, in player words (node/net/doorbell.py)."""

from __future__ import annotations

import asyncio

import pytest
from dutchblitz.client.words import tell
from dutchblitz.node.api import News, Notice, NoticeKind, Told

from tests.client.driving import running, until
from tests.client.fakes import FakeSession, lobby_game

pytestmark = pytest.mark.timeout(30)


@pytest.mark.parametrize(
    ("told", "said"),
    [
        (
            Told(News.DOOR_WRONG_PHRASE, count=1),
            "your door turned away a knock with a wrong passphrase",
        ),
        (
            Told(News.DOOR_WRONG_PHRASE, count=7),
            "your door turned away 7 knocks with a wrong passphrase",
        ),
        (
            Told(News.DOOR_WRONG_PHRASE, count=1, what="127.0.0.1:5555"),
            "your door turned away a knock with a wrong passphrase from 127.0.0.1:5555",
        ),
        (
            Told(News.DOOR_WRONG_PHRASE, count=2, what="127.0.0.1"),
            "your door turned away 2 knocks with a wrong passphrase from 127.0.0.1",
        ),
        (
            Told(News.DOOR_GUESSING, count=3),
            "someone keeps guessing this table's passphrase: your door slows them down",
        ),
        (
            Told(News.DOOR_OTHER_VERSION, count=1),
            "your door turned away a knock from another version of the game",
        ),
        (
            Told(News.DOOR_REFUSED_US, what="127.0.0.1:5555", detail="wrong passphrase"),
            "127.0.0.1:5555 turned you away: wrong passphrase",
        ),
        (
            Told(News.DOOR_REFUSED_US, what="127.0.0.1:5555", detail="other table"),
            "127.0.0.1:5555 turned you away: another table (check --table)",
        ),
    ],
)
def test_the_words_for_a_knock_turned_away(told: Told, said: str) -> None:
    assert tell(told) == said


def test_the_lobby_shows_a_wrong_passphrase_at_the_door() -> None:
    session = FakeSession(lobby_game(2), private=True)

    async def go() -> None:
        async with running(session) as drive:
            told = Told(News.DOOR_WRONG_PHRASE, count=1)
            session.notices.append(Notice(NoticeKind.INFO, told=told))
            session.notify()
            said = "your door turned away a knock with a wrong passphrase"
            await until(lambda: said in "\n".join(drive.screen()), "the door's notice")

    asyncio.run(asyncio.wait_for(go(), 20))
