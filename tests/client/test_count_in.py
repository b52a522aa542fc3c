"""Between rounds on screen: the scores wait for a key (or count down), then 3, 2, 1.

spec/rules.md R-54 and R-55. The real application runs on a pipe input against a
fake node; the seconds come from the fake's snapshot, and the test's clock moves
them on by hand.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

import pytest
from dutchblitz.client.layout import body_text, title_text
from dutchblitz.client.state import ClientState, Screen
from dutchblitz.node.api import NoticeKind
from dutchblitz.protocol.games.blitz.intents import Action, Intent
from dutchblitz.protocol.table.state import Phase, RoundResult
from dutchblitz.protocol.wire.messages import Ready
from prompt_toolkit.formatted_text import to_plain_text

from tests.client.driving import Clock, running, width
from tests.client.fakes import FakeSession, node_id, playing_session


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(coro, 10))


def shown(lines: list[str]) -> str:
    return "\n".join(lines)


def test_the_table_counts_in_3_2_1_and_no_key_plays_before_the_end_R55() -> None:
    session = playing_session(2)
    session.count_in = 3.0
    clock = Clock()

    async def go() -> None:
        async with running(session, clock) as drive:
            text = shown(drive.screen())
            assert drive.state.screen == Screen.TABLE
            assert "Round 1 begins in 3..." in text and "█████" in text
            assert "Centre" not in text, "the count-in stands where the centre will be"
            assert "Blitz" in text, "your own cards show: look at them while it counts"
            clock.advance(1.2)
            assert "Round 1 begins in 2..." in shown(drive.screen())
            session.count_in = 1.8
            await drive.press("e")
            assert ("play", Intent(Action.BLITZ_TO_CENTRE, 0)) in session.calls
            text = shown(drive.screen())
            assert "wait for the count-in" in text and "begins in 2..." in text
            assert not session.pending, "nothing was played"
            clock.advance(0.9)
            assert "Round 1 begins in 1..." in shown(drive.screen())
            session.count_in = 0.0
            clock.advance(1.0)
            text = shown(drive.screen())
            assert "Round 1 begins in" not in text and "Centre" in text

    run(go())


@pytest.mark.parametrize("players", [2, 4, 8])
def test_the_count_in_and_the_scores_fit_80x24(players: int) -> None:
    for session in (playing_session(players), between_rounds(players)):
        session.count_in = 3.0

        async def go(session: FakeSession = session) -> None:
            async with running(session, Clock()) as drive:
                body = to_plain_text(body_text(drive.state)).rstrip("\n").split("\n")
                assert len(body) <= 24 - 4, "\n".join(body)
                assert max(width(line) for line in body) <= 80, "\n".join(body)

        run(go())


def test_when_the_next_round_counts_in_the_table_is_shown_not_the_scores_R55() -> None:
    session = playing_session(2)
    session.count_in = 3.0

    async def go() -> None:
        async with running(session, Clock()) as drive:
            session.game.results.append(RoundResult(1, {0: 5, 1: -3}, 0))
            session.push(NoticeKind.BLITZ, "Ada called Blitz!")
            assert drive.state.screen == Screen.TABLE

    run(go())


def between_rounds(players: int = 3) -> FakeSession:
    """Round 1 is over; round 2 is being dealt and nobody has said they saw the scores."""
    session = playing_session(players)
    game = session.game
    game.results.append(RoundResult(1, {seat: 4 - 3 * seat for seat in range(players)}, 0))
    game.totals = dict(game.results[0].scores)
    game.round, game.phase, game.table = 2, Phase.DEALING, None
    game.deals, game.commits, game.shares, game.joint = {}, {}, {}, None
    game.commits_closed = False
    for member in game.members.values():
        member.ready = False
    session.stable = game.copy()
    session.scores_left = 12.0
    return session


def test_the_scores_wait_for_any_key_and_say_who_is_still_looking_R54() -> None:
    session = between_rounds()
    clock = Clock()

    async def go() -> None:
        async with running(session, clock) as drive:
            text = shown(drive.screen())
            assert drive.state.screen == Screen.SCORES
            assert "Press any key when ready: next round in 12 s" in text
            assert "Still looking at the scores: Bob, Cy" in text
            assert "any key ready for the next round" in text
            clock.advance(5.0)
            assert "next round in 7 s" in shown(drive.screen())
            await drive.press("?")
            assert drive.state.help_shown, "a named key keeps its meaning"
            await drive.press("?")
            await drive.press("a")
            assert ("seen_scores",) in session.calls
            text = shown(drive.screen())
            assert "Press any key" not in text and "Still looking at the scores: Bob, Cy" in text
            assert "NO" not in text
            await drive.press("a")  # a second key changes nothing and says nothing
            assert "NO" not in shown(drive.screen())
            for seat in (1, 2):
                assert session.game.apply(node_id(seat), Ready(True)).accepted
            session.notify()
            text = shown(drive.screen())
            assert "Round 2 is being dealt..." in text and "Still looking" not in text

    run(go())


def test_a_key_pressed_as_the_round_ends_was_meant_for_the_table_not_the_scores_R54() -> None:
    session = playing_session(3)
    clock = Clock()

    async def go() -> None:
        async with running(session, clock) as drive:
            ended = between_rounds(3)  # the round ends while the player is pressing keys
            session.game, session.stable = ended.game, ended.stable
            session.scores_left = 15.0
            session.push(NoticeKind.BLITZ, "Bob called Blitz!")
            drive.screen()  # the next frame takes what the node told
            assert drive.state.screen == Screen.SCORES
            assert "Press any key" not in shown(drive.screen())
            await drive.press("a")
            assert ("seen_scores",) not in session.calls, "a late play key says nothing"
            clock.advance(1.0)
            assert "Press any key when ready: next round in 14 s" in shown(drive.screen())
            await drive.press("a")
            assert ("seen_scores",) in session.calls

    run(go())


def test_the_title_names_the_round_whose_scores_are_shown_not_the_one_being_dealt() -> None:
    session = between_rounds()
    state = ClientState(session)
    assert state.screen == Screen.SCORES
    assert "round 1" in to_plain_text(title_text(state))  # round 2 is dealt behind them
    assert "round 2" not in to_plain_text(title_text(state))
