"""The lobby keys, the help screen, leaving, and notices that come and go."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

import pytest
from dutchblitz.client.app import run_app
from dutchblitz.client.games import registry as faces
from dutchblitz.client.games.blitz import words as blitz_words
from dutchblitz.client.games.dutch import words as dutch_words
from dutchblitz.client.state import ALONE_HINT_SECONDS, Screen
from dutchblitz.node.api import NoticeKind, Refused
from dutchblitz.protocol.games import registry
from dutchblitz.protocol.wire.messages import Ready
from prompt_toolkit.input import create_pipe_input

from tests.client.driving import CTRL_C, ENTER, ESCAPE, Clock, SizedOutput, running, until
from tests.client.fakes import FakeSession, lobby_game, node_id, playing_session

pytestmark = pytest.mark.timeout(30)


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(coro, 20))


def lobby_session(players: int = 2, **options: Any) -> FakeSession:
    return FakeSession(lobby_game(players), **options)


# -- the lobby ---------------------------------------------------------------------------


def test_lobby_keys_ask_the_session() -> None:
    session = lobby_session()

    async def go() -> None:
        async with running(session) as drive:
            assert drive.state.screen == Screen.LOBBY
            await drive.press("r")
            assert session.calls[-1] == ("set_ready", True)
            await drive.press("r")
            assert session.calls[-1] == ("set_ready", False)
            await drive.press("b")
            assert session.calls[-1] == ("set_back", "bucket")  # pump is ours, wagon is Bob's
            await drive.press("+")
            assert session.calls[-1] == ("add_bot", "normal")
            await drive.press("l=")
            assert session.calls[-1] == ("add_bot", "fast")
            await drive.press("-")
            assert session.calls[-1] == ("remove_bot",)
            await drive.press("s")
            assert session.calls[-1] == ("start",)
            await drive.press(ENTER)
            assert session.calls[-1] == ("start",)

    run(go())


@pytest.mark.parametrize("game", registry.tags())
def test_choosing_a_bot_level_says_what_that_level_does(game: str) -> None:
    """Every game's levels, each worded in one line when l picks it (a game's face may word
    its own levels: ``GameWords.bot_levels``)."""
    levels = tuple(registry.game_for(game).levels)
    own = dict(faces.face_for(game).words.bot_levels)
    session = lobby_session(game_tag=game, bot_levels=levels)

    async def go() -> None:
        async with running(session) as drive:
            for _ in levels:
                await drive.press("l")
                level = drive.state.bot_level
                said = {**blitz_words.BOT_LEVELS, **dutch_words.BOT_LEVELS, **own}[level]
                assert said.startswith(f"{level} bot: ")
                assert drive.state.notices()[-1].text == said
                assert any(said in line for line in drive.screen()), said

    run(go())


def test_setting_a_name_takes_typing_and_enter_or_escape() -> None:
    session = lobby_session()

    async def go() -> None:
        async with running(session) as drive:
            await drive.press("n")
            assert drive.state.editing_name
            await drive.press("\x7f\x7f\x7fZoe rsq")  # the keys type, they do not act
            assert not [c for c in session.calls if c[0] != "set_name"]
            await drive.press(ENTER)
            assert session.calls == [("set_name", "Zoe rsq")]
            assert not drive.state.editing_name
            await drive.press("n" + "X" + ESCAPE)
            assert not drive.state.editing_name
            assert session.calls == [("set_name", "Zoe rsq")]
            await drive.press("r")  # the lobby keys work again
            assert session.calls[-1] == ("set_ready", True)

    run(go())


def test_the_lobby_shows_players_backs_ready_and_fingerprints() -> None:
    session = lobby_session(3, fingerprints={1: "3f2a 9c01"})
    session.game.apply(node_id(1), Ready(True))

    async def go() -> None:
        async with running(session) as drive:
            shown = "\n".join(drive.screen())
            for expected in ("kitchen", "127.0.0.1:5555", "lo 127.0.0.1", "Ada (you)", "Bob", "Cy"):
                assert expected in shown
            assert "3f2a 9c01" in shown
            bob = next(line for line in drive.screen() if "Bob" in line)
            assert "wagon" in bob and " ready" in bob
            ada = next(line for line in drive.screen() if "Ada" in line)
            assert "not ready" in ada

    run(go())


def test_a_full_private_lobby_shows_every_key_to_compare_and_fits_80_by_24() -> None:
    prints = {seat: f"{seat}F9A-C21B-77D0-5E4{seat}" for seat in range(8)}
    session = lobby_session(
        8, fingerprints=prints, door="tcp://127.0.0.1:7777", private=True, peers_seen=7
    )

    async def go() -> None:
        async with running(session) as drive:
            screen = drive.screen()
            assert len(screen) <= 24 and all(len(line) <= 80 for line in screen)
            shown = "\n".join(screen)
            assert "kitchen (private)" in shown
            assert "127.0.0.1:7777" in shown  # the door, what a friend's --peer names
            for fingerprint in prints.values():
                assert fingerprint in shown
            assert "Each Key must read the same on every player's screen" in shown

    run(go())


def test_alone_after_a_few_seconds_the_lobby_says_what_to_do() -> None:
    session = lobby_session(1, peers_seen=0)
    clock = Clock()

    async def go() -> None:
        async with running(session, clock) as drive:
            assert "--peer" not in "\n".join(drive.screen())
            assert "Alone? + adds a bot" in "\n".join(drive.screen())  # at once
            clock.advance(ALONE_HINT_SECONDS + 1)
            shown = "\n".join(drive.screen())
            assert "blitz-node --join --peer 127.0.0.1:5555" in shown
            assert "firewall" in shown and "client isolation" in shown
            await drive.press("+r")
            assert session.calls[-2:] == [("add_bot", "normal"), ("set_ready", True)]
            assert "press s to start" in "\n".join(drive.screen())

    run(go())


# -- help --------------------------------------------------------------------------------


def test_question_mark_shows_every_key_and_hides_it_again() -> None:
    session = playing_session(2)

    async def go() -> None:
        async with running(session) as drive:
            await drive.press("?")
            assert drive.state.help_shown
            shown = "\n".join(drive.screen())
            for words in ("Blitz top to the centre", "Post stack 1-5", "Wood top onto", "stuck",
                          "flip 3", "set your name", "add a bot", "Ctrl-C"):  # fmt: skip
                assert words in shown
            await drive.press("e")  # no play while the help covers the table
            assert session.calls == []
            await drive.press("?")
            assert not drive.state.help_shown
            await drive.press("?" + ESCAPE)
            assert not drive.state.help_shown

    run(go())


# -- leaving -----------------------------------------------------------------------------


def test_q_asks_before_leaving_a_running_game() -> None:
    session = playing_session(2)

    async def go() -> None:
        async with running(session) as drive:
            await drive.press("q")
            assert drive.state.asking_quit
            assert "Leave the game?" in "\n".join(drive.screen())
            await drive.press("e")  # no play while asked
            assert session.calls == []
            await drive.press("n")
            assert not drive.state.asking_quit and not drive.finished
            await drive.press("q")
            drive.pipe.send_text("y")
            await until(lambda: drive.finished, "the app to end")
            assert drive.state.leave_requested

    run(go())


def test_q_in_the_lobby_leaves_at_once() -> None:
    session = lobby_session()

    async def go() -> None:
        async with running(session) as drive:
            drive.pipe.send_text("q")
            await until(lambda: drive.finished, "the app to end")

    run(go())


def test_ctrl_c_asks_in_a_game_and_a_second_one_leaves() -> None:
    session = playing_session(2)

    async def go() -> None:
        async with running(session) as drive:
            await drive.press(CTRL_C)
            assert drive.state.asking_quit and not drive.finished
            drive.pipe.send_text(CTRL_C)
            await until(lambda: drive.finished, "the app to end")

    run(go())


@pytest.mark.parametrize(("game", "keys"), [("lobby", CTRL_C), ("lobby", "q"), ("playing", "qy")])
def test_run_app_leaves_the_table_when_the_player_goes(game: str, keys: str) -> None:
    session = lobby_session() if game == "lobby" else playing_session(2)

    async def go() -> None:
        with create_pipe_input() as pipe:
            task = asyncio.ensure_future(run_app(session, pipe, SizedOutput()))
            await until(lambda: bool(session.callbacks), "the app to subscribe")
            pipe.send_text(keys)
            await asyncio.wait_for(task, 5)
        assert session.left
        assert session.callbacks == []  # unsubscribed

    run(go())


# -- notices -----------------------------------------------------------------------------


def test_notices_flash_and_expire() -> None:
    session = playing_session(2)
    clock = Clock()

    async def go() -> None:
        async with running(session, clock) as drive:
            session.push(NoticeKind.LOST_RACE, "Bob beat you to 5R♂")
            shown = "\n".join(drive.screen())
            assert "Bob beat you to 5R♂" in shown and "RACE LOST" in shown
            session.push(NoticeKind.BLITZ, "Bob called Blitz!")
            assert "Bob called Blitz!" in "\n".join(drive.screen())
            clock.advance(3)  # a lost race is brief, a Blitz stays longer
            texts = [n.text for n in drive.state.notices()]
            assert texts == ["Bob called Blitz!"]
            clock.advance(10)
            assert drive.state.notices() == []
            assert "Blitz!" not in "\n".join(drive.screen()[-3:])

    run(go())


def test_a_refusal_code_from_the_node_reads_as_words() -> None:
    session = playing_session(2)

    async def go() -> None:
        async with running(session) as drive:
            session.push(NoticeKind.REFUSED, refused=Refused.of("same_gender"))
            drive.screen()  # the next frame takes what the node told
            said = ["a Post stack alternates boys and girls"]
            assert [n.text for n in drive.state.notices()] == said

    run(go())
