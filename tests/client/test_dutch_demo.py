"""The local Dutch table (client/games/dutch/local.py, demo.py): keys become moves through
the rules, a refused key says why in words, the bots play their turns and race, a round
ends in the reveal and the next is dealt as the rules say (D-33, D-34); the app runs on a
pipe and leaves on q."""

from __future__ import annotations

import asyncio

import pytest
from dutchblitz.client.games.dutch.demo import DemoState, Pace, build_app, parse
from dutchblitz.client.games.dutch.local import LocalGame
from dutchblitz.protocol.games.dutch.scoring import DutchResult, GameLength
from dutchblitz.protocol.games.dutch.views import Phase
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

BOUND = 2000  # far more bot moves than a round takes


def demo(seed: int = 5, rounds: int = 2) -> DemoState:
    return DemoState(LocalGame("Ada", 3, seed, length=GameLength(rounds=rounds)), Pace(0, 0))


def run_bots(state: DemoState, until) -> None:  # type: ignore[no-untyped-def]
    for step in range(BOUND):
        if until(state):
            return
        state.tick(float(step))
    raise AssertionError("the bots never got there")


def test_keys_peek_draw_and_discard_through_the_rules() -> None:
    state = demo()
    state.key("1")
    assert state.typed == "1" and not state.game.state.peeked
    state.key("2")
    run_bots(state, lambda s: s.game.table().view.my_turn)
    view = state.game.table().view
    assert [c.face is not None for c in view.mine.hand] == [True, True, False, False]
    state.key("x")  # nothing drawn yet: the rules refuse, in words
    assert state.notice == "not now: draw a card first"
    state.key("d")
    assert state.game.state.phase is Phase.DECIDE and state.notice == ""
    state.key("x")
    assert state.game.state.drawn is None


def test_a_late_call_and_a_stray_key_read_as_words() -> None:
    state = demo()
    state.key("9")
    assert state.notice == "you have no card with that number"
    state.key("x")
    assert state.notice == "that key does nothing now (? shows the keys)"
    state.key("1")
    state.key("2")
    run_bots(state, lambda s: s.game.table().view.my_turn)
    state.key("c")
    assert state.notice == "call Dutch just after your own turn, before the next draw"


def test_a_called_round_ends_in_the_reveal_and_the_next_is_dealt() -> None:
    state = demo(rounds=2)
    state.key("1")
    state.key("2")
    run_bots(state, lambda s: s.game.table().view.my_turn)
    state.key("d")
    state.key("x")
    if state.game.state.phase is Phase.ACTION:
        state.key("s")
    state.key("c")
    assert state.game.state.caller == 0
    run_bots(state, lambda s: s.game.round_over)
    table = state.game.table()
    score = table.view.score
    assert score is not None and not table.game_over
    assert all(c is None or c.face is not None for p in table.view.players for c in p.hand)
    state.key("?")
    assert state.helping
    state.key("?")
    state.key("space")
    assert state.game.round_number == 2 and state.game.state.phase is Phase.PEEK
    fifth = score.result is DutchResult.FAILURE
    assert len(state.game.state.hands[0]) == (5 if fifth else 4)  # D-33
    assert state.game.state.starter == score.next_starter  # D-34
    assert state.game.totals == list(score.scores)


def test_the_app_runs_on_a_pipe_and_leaves_on_q() -> None:
    async def play() -> None:
        state = demo()
        with create_pipe_input() as pipe:
            app = build_app(state, pipe, DummyOutput())
            task = asyncio.ensure_future(app.run_async())
            pipe.send_text("12")
            for _ in range(200):
                if state.game.state.peeked:
                    break
                await asyncio.sleep(0.01)
            assert 0 in state.game.state.peeked
            pipe.send_text("q")
            await asyncio.wait_for(task, 5)

    asyncio.run(play())


@pytest.mark.parametrize(
    "argv",
    [["--bots", "9"], ["--rounds", "0"], ["--rounds", "2", "--target", "50"], ["--pace", "-1"]],
)
def test_bad_flags_are_refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        parse(argv)
    assert exit.value.code == 2
    assert "Traceback" not in capsys.readouterr().err
