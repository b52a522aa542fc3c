"""The screens of a game night: the stalemate made visible, the rematch offer, help that
teaches, the first game's hint line, the minimum size, and the words (issue parts 10-15)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

import pytest
from dutchblitz.client.games.blitz.play import play
from dutchblitz.client.layout import body_text
from dutchblitz.client.size import MIN_COLUMNS, MIN_ROWS
from dutchblitz.node.api import NoticeKind
from dutchblitz.protocol.games.blitz.intents import Action
from dutchblitz.protocol.table.state import Phase, RoundResult
from dutchblitz.protocol.wire.messages import Ready
from prompt_toolkit.formatted_text import to_plain_text

from tests.client.driving import Clock, running, until, width
from tests.client.fakes import NAMES, FakeSession, playing_session

pytestmark = pytest.mark.timeout(30)


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(coro, 20))


def game_over(players: int = 3) -> FakeSession:
    """A finished game of two rounds, as the end leaves it: nobody ready yet (R-49)."""
    session = playing_session(players)
    game = session.game
    for number in (1, 2):
        game.results.append(RoundResult(number, {s: 40 - 5 * s for s in range(players)}, 0))
    game.totals = {s: 80 - 10 * s for s in range(players)}
    game.phase, game.winner, game.table = Phase.OVER, 0, None
    for member in game.members.values():
        member.ready = False
    session.stable = game.copy()
    return session


def test_R49_game_over_offers_a_rematch_and_r_asks_for_one() -> None:
    session = game_over()

    async def go() -> None:
        async with running(session) as drive:
            text = "\n".join(drive.screen())
            assert "GAME OVER" in text and "r: rematch, same table and players" in text
            assert f"Still deciding: {NAMES[1]}, {NAMES[2]}" in text
            assert " r rematch" in drive.screen()[-1]
            await drive.press("r")
            assert ("set_ready", True) in session.calls
            text = "\n".join(drive.screen())
            assert "You want a rematch: it starts once everyone does" in text
            session.game.apply(session.game.node_of(1) or b"", Ready(True))
            session.stable = session.game.copy()
            session.notify()
            text = "\n".join(drive.screen())
            assert f"Wants a rematch: {NAMES[1]}; still deciding: {NAMES[2]}" in text
            await drive.press("r")  # a change of mind
            assert ("set_ready", False) in session.calls

    run(go())


def test_R52_a_rematch_counts_its_rounds_from_1_and_no_screen_says_round_0() -> None:
    session = playing_session(2)
    game = session.game
    game.rounds_before, game.game_number, game.round = 3, 2, 4  # the rematch's first round
    session.stable = game.copy()

    async def go() -> None:
        async with running(session) as drive:
            assert "round 1" in drive.screen()[0]
            game.phase, game.table = Phase.DEALING, None
            game.results = []
            session.notify()
            await drive.press("\t")
            text = "\n".join(drive.screen())
            assert "round 0" not in text.lower() and "round 4" not in text.lower()

    run(go())


def test_no_results_yet_reads_scores_not_round_0() -> None:
    session = playing_session(2)
    session.game.phase, session.game.table = Phase.DEALING, None
    session.game.results = [RoundResult(1, {0: 3, 1: -2}, None)]
    session.stable = session.game.copy()

    async def go() -> None:
        async with running(session) as drive:
            text = "\n".join(drive.screen())
            assert "Scores after round 1" in text and "R1" in text
            session.game.results = []
            session.game.phase = Phase.OVER
            session.notify()
            assert "round 0" not in "\n".join(drive.screen()).lower()

    run(go())


def test_everyone_else_stuck_names_the_way_out() -> None:
    session = playing_session(3)
    table = session.game.table
    assert table is not None

    async def go() -> None:
        async with running(session) as drive:
            assert "Everyone else is stuck" not in "\n".join(drive.screen())
            for seat in (1, 2):
                table.areas[seat].stuck = True
            session.notify()
            text = "\n".join(drive.screen())
            assert "Everyone else is stuck: play, or press x for a stalemate." in text
            table.areas[2].active = False  # a player who left does not count
            table.areas[1].stuck = False
            session.notify()
            assert "Everyone else is stuck" not in "\n".join(drive.screen())

    run(go())


def test_a_rotation_notice_shows() -> None:
    session = playing_session(2)

    async def go() -> None:
        async with running(session) as drive:
            session.push(NoticeKind.INFO, "stalemate: everyone's hand moved one card")
            assert "stalemate: everyone's hand moved one card" in "\n".join(drive.screen())

    run(go())


def test_help_teaches_the_goal_the_end_of_a_round_and_the_scoring_before_the_keys() -> None:
    session = playing_session(2)

    async def go() -> None:
        async with running(session) as drive:
            await drive.press("?")
            text = "\n".join(drive.screen())
            goal, end, score = text.find("Goal:"), text.find("Blitz!"), text.find("+1")
            keys = text.find("At the table")
            assert -1 < goal < end < keys and -1 < score < keys, text
            assert "-2" in text and "rematch" in text
            body = to_plain_text(body_text(drive.state)).rstrip("\n").split("\n")
            assert len(body) <= MIN_ROWS - 4 and max(map(width, body)) <= MIN_COLUMNS

    run(go())


def test_the_hint_line_guides_until_the_first_card_is_played() -> None:
    session = playing_session(2)

    async def go() -> None:
        async with running(session) as drive:
            assert any(line.startswith(" Hint: ") for line in drive.screen())
            await drive.press(" ")  # a flip is not a card played
            hint = next(line for line in drive.screen() if line.startswith(" Hint: "))
            for key in "easdfgw":
                if f"press {key}" in hint:
                    await drive.press(key)
                    break
            else:
                pytest.skip("no centre play in this deal")
            assert drive.state.played_a_card
            assert not any(line.startswith(" Hint: ") for line in drive.screen())

    run(go())


@pytest.mark.parametrize(("rows", "columns"), [(20, 60), (23, 80), (24, 79)])
def test_below_80x24_the_screen_says_what_size_it_needs(rows: int, columns: int) -> None:
    session = playing_session(8)

    async def go() -> None:
        async with running(session, rows=rows, columns=columns) as drive:
            frames = drive.app.render_counter
            drive.app.invalidate()
            await until(lambda: drive.app.render_counter > frames, "a frame")
            assert drive.state.terminal == drive.app.output.get_size()  # set before each frame
            text = " ".join(" ".join(drive.screen(rows, columns)).split())
            assert f"at least {MIN_COLUMNS} x {MIN_ROWS}" in text
            assert f"this one is {columns} x {rows}" in text
            assert "Centre" not in text

    run(go())


def test_80x24_shows_everything_and_a_wider_terminal_gives_names_room() -> None:
    session = playing_session(8)
    long_name = "Bartholomew-Longname"
    next(m for m in session.game.members.values() if m.seat == 1).name = long_name

    async def go() -> None:
        async with running(session, rows=24, columns=80) as drive:
            text = "\n".join(drive.screen())
            assert "Centre" in text and long_name not in text and f"{long_name[:14]}… " in text
            drive.state.terminal = type(drive.state.terminal)(rows=30, columns=100)
            assert long_name in "\n".join(drive.screen(30, 100))

    run(go())


def test_bots_are_labelled_with_their_level_on_every_node() -> None:
    session = game_over(3)
    bot = next(m for m in session.game.members.values() if m.seat == 2)
    bot.name = "fast bot 3f9"  # a bot another node hosts: no local flag
    session.stable = session.game.copy()
    session.game.phase, session.game.table = Phase.PLAYING, playing_session(3).game.table
    session.game.winner = None

    async def go() -> None:
        async with running(session) as drive:
            await drive.press("\t")
            assert "fast bot 3f9" in "\n".join(drive.screen())

    run(go())


def test_a_flip_is_not_a_card_played() -> None:
    session = playing_session(2)

    async def go() -> None:
        async with running(session) as drive:
            play(drive.state, Action.FLIP)
            assert not drive.state.played_a_card

    run(go())


def test_the_node_tells_every_screen_of_each_stalemate_rotation_once() -> None:
    """R-24 made visible: the session turns each rise of the table's stalemate count into
    one notice; a new round starts counting again."""
    from types import SimpleNamespace

    from dutchblitz.client.games.blitz.words import tell
    from dutchblitz.node.notices import SessionNotices
    from dutchblitz.protocol.games.registry import DEFAULT_GAME, game_for

    said: list[str] = []
    fake = SimpleNamespace(
        _stalemates_seen=(0, 0, 0),
        notice=lambda kind, told: said.append(tell(told)),
        player=game_for(DEFAULT_GAME),
    )
    game = playing_session(2).game
    table = game.table
    assert table is not None
    notice = SessionNotices._notice_stalemate
    notice(fake, 1, game)  # type: ignore[arg-type]
    table.stalemates += 1
    notice(fake, 1, game)  # type: ignore[arg-type]
    notice(fake, 1, game)  # type: ignore[arg-type]
    assert said == ["stalemate: everyone's hand moved one card"]
    game.round += 1
    notice(fake, 1, game)  # type: ignore[arg-type]
    assert len(said) == 1


def test_8_players_with_the_stalemate_and_hint_lines_fit_80x24() -> None:
    session = playing_session(8)
    table = session.game.table
    assert table is not None
    for seat in range(1, 8):
        table.areas[seat].stuck = True

    async def go() -> None:
        async with running(session, rows=24, columns=80) as drive:
            shown = drive.screen()
            body = to_plain_text(body_text(drive.state)).rstrip("\n").split("\n")
            assert len(body) <= MIN_ROWS - 4 and max(map(width, body)) <= MIN_COLUMNS
            assert any("Everyone else is stuck" in line for line in shown)
            assert any(line.startswith(" Hint: ") for line in shown)
            assert shown[-1].strip(), "the key bar is still on the last line"

    run(go())


@pytest.mark.parametrize("winner", [0, 1])
def test_game_over_says_you_win_for_your_own_win(winner: int) -> None:
    session = game_over()
    session.game.winner = session.stable.winner = winner
    said = "You win" if winner == session.me else f"{NAMES[winner]} wins"

    async def go() -> None:
        async with running(session) as drive:
            text = "\n".join(drive.screen())
            assert f"GAME OVER: {said} with {80 - 10 * winner} points!" in text, text

    run(go())


def test_r_flipping_as_the_last_round_ends_asks_for_no_rematch_R49() -> None:
    session = playing_session(3)
    clock = Clock()

    async def go() -> None:
        async with running(session, clock) as drive:
            over = game_over()  # the last round ends while the player flips with r
            session.game, session.stable = over.game, over.stable
            session.push(NoticeKind.GAME_OVER, "Ada wins")
            assert "r: rematch" not in "\n".join(drive.screen())
            await drive.press("r")
            assert ("set_ready", True) not in session.calls, "a flip meant for the table"
            clock.advance(1.0)
            assert "r: rematch" in "\n".join(drive.screen())
            await drive.press("r")
            assert ("set_ready", True) in session.calls

    run(go())
