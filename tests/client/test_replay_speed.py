"""A replay starts at a speed that plays the whole game in about a minute; + and - change
it, and the status line says the speed and about how long is left."""

from __future__ import annotations

import asyncio

import pytest
from dutchblitz.client.replay import (
    REPLAY_SECONDS,
    SPEEDS,
    ReplayApp,
    ReplayState,
    first_speed,
    status_text,
)
from dutchblitz.node.replaying import ReplaySession
from prompt_toolkit.input import create_pipe_input

from tests.client.driving import Clock, SizedOutput, until
from tests.protocol.finished_games import finished

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize(
    ("stops", "speed"),
    [
        (1, 2.0),  # a short game: no faster than it needs
        (120, 2.0),
        (121, 4.0),
        (960, 16.0),  # a 4-round game: a minute, not 8
        (3840, 64.0),
        (100_000, 64.0),  # the fastest there is
    ],
)
def test_the_first_speed_plays_a_game_in_about_a_minute(stops: int, speed: float) -> None:
    assert SPEEDS[first_speed(stops)] == speed


def said(state: ReplayState) -> str:
    return "".join(text for _, text, *_ in status_text(state))


def test_a_real_game_starts_fast_enough_and_plus_and_minus_change_the_shown_speed() -> None:
    replay = ReplaySession.of(finished().data, "a game")
    state = ReplayState(replay, Clock())
    speed = SPEEDS[state.speed]
    assert replay.stops / speed <= REPLAY_SECONDS
    assert speed == SPEEDS[2] or replay.stops / (speed / 2) > REPLAY_SECONDS

    async def go() -> None:
        with create_pipe_input() as pipe:
            app = ReplayApp(state, pipe, SizedOutput())
            task = asyncio.ensure_future(app.run_async())
            await until(lambda: app.is_running, "the replay to run")
            assert f"{speed:g} moves a second when playing: about " in said(state)
            pipe.send_text("+")
            await until(lambda: SPEEDS[state.speed] == speed * 2, "faster")
            assert f"({speed * 2:g} moves a second" in said(state)
            pipe.send_text("--")
            await until(lambda: SPEEDS[state.speed] == speed / 2, "slower")
            assert f"({speed / 2:g} move" in said(state)
            pipe.send_text("q")
            await asyncio.wait_for(task, 10)

    asyncio.run(go())
