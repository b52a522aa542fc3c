"""A rematch over a real node (spec/rules.md R-49 to R-52): a person and two local bot
seats, full peers on their own sockets on 127.0.0.1, play a game, then the same table
plays again. Each game keeps its own summary in the state directory."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from dutchblitz.client.games.blitz.words import notice_text
from dutchblitz.node.runtime import Node, Options
from dutchblitz.node.session import NodeSession
from dutchblitz.protocol.games.blitz.intents import Intent
from dutchblitz.protocol.table.state import Phase

from tests.lan.test_session import KEYS, run, until

pytestmark = [pytest.mark.lan, pytest.mark.timeout(90)]

GAME_S = 40.0


async def press_until(session: NodeSession, check: Callable[[], bool], what: str) -> None:
    """Press keys like an impatient person until ``check`` holds."""
    changed = asyncio.Event()
    unsubscribe = session.subscribe(changed.set)
    try:
        async with asyncio.timeout(GAME_S):
            while not check():
                for action, slot in KEYS:
                    session.play(Intent(action, slot))
                changed.clear()
                await changed.wait()
    except TimeoutError:
        raise AssertionError(f"no {what} in {GAME_S}s") from None
    finally:
        unsubscribe()


def test_a_rematch_plays_with_the_same_table_and_keeps_the_first_result(tmp_path: Path) -> None:
    async def scenario() -> None:
        node = Node(
            Options(
                name="Ada", interface="127.0.0.1", discovery=False, state_dir=tmp_path, target=3
            )
        )
        await node.start()
        session = NodeSession(node)
        assert node.main is not None
        node.main.game_over_hooks.append(lambda: node.write_summary())  # as blitz-node does
        try:
            for _ in range(2):
                assert session.add_bot("flat-out") is None
            await until(session, lambda: len(session.snapshot().players) == 3, "two bots")
            assert session.set_ready(True) is None
            await until(session, lambda: session.snapshot().can_start, "everyone ready")
            assert session.start() is None
            over = lambda: node.main is not None and node.main.game_over.is_set()  # noqa: E731
            await press_until(session, over, "end of the first game")
            snap = session.snapshot()
            bots = [p for p in snap.players if p.is_local_bot]
            assert all(p.name.startswith("flat-out bot ") for p in bots)
            bots_keen = lambda: all(  # noqa: E731
                p.ready for p in session.snapshot().players if p.is_local_bot
            )
            await until(session, bots_keen, "the bots asking for a rematch by themselves")
            assert session.snapshot().stable.game_number == 1  # it waits for us
            assert session.set_ready(True) is None
            again = lambda: session.snapshot().stable.game_number == 2  # noqa: E731
            await until(session, again, "the rematch")
            stable = session.snapshot().stable
            assert stable.players == (0, 1, 2) and stable.phase != Phase.OVER
            assert set(stable.totals.values()) == {0} and stable.round == 1
            notices = [notice_text(n) for n in session.take_notices()]
            assert any(text.startswith("Rematch!") for text in notices), notices
            assert any(text.endswith("wants a rematch") for text in notices), notices
            assert "Ada called Blitz!" not in notices  # our own Blitz reads "You called Blitz!"
            assert not any("round 0" in text for text in notices)
            await press_until(session, over, "end of the rematch")
            results = sorted((tmp_path / "results").glob("*.json"))
            assert len(results) == 2, results
            games = [json.loads(path.read_text()) for path in results]
            assert sorted(g["game"] for g in games) == [1, 2]
            assert all(g["over"] and g["winner"] and g["rounds"] for g in games)
        finally:
            await session.leave()

    run(scenario())


def one_round_game(state_dir: Path) -> Options:
    return Options(
        name="Ada", interface="127.0.0.1", discovery=False, state_dir=state_dir, target=1
    )


async def play_to_the_end(options: Options) -> tuple[Node, NodeSession]:
    """A person and two flat-out bots play a game to its end; the node and its session."""
    node = Node(options)
    await node.start()
    session = NodeSession(node)
    try:
        for _ in range(2):
            assert session.add_bot("flat-out") is None
        await until(session, lambda: len(session.snapshot().players) == 3, "two bots")
        assert session.set_ready(True) is None
        await until(session, lambda: session.snapshot().can_start, "everyone ready")
        assert session.start() is None
        assert node.main is not None
        await press_until(session, node.main.game_over.is_set, "end of the first game")
        node.write_summary()
    except BaseException:
        await node.stop(goodbye=False)
        raise
    return node, session


def test_a_node_that_crashes_after_the_end_comes_back_to_the_rematch_offer(
    tmp_path: Path,
) -> None:
    """No goodbye (a crash leaves the log as it was: every record is written at once): the
    node restarts on the same state directory at the game-over screen, with its bots, and
    the rematch plays."""

    async def scenario() -> None:
        options = one_round_game(tmp_path)
        node, session = await play_to_the_end(options)
        try:
            before = session.snapshot()
        finally:
            await node.stop(goodbye=False)
        node = Node(options)
        await node.start()
        session = NodeSession(node)
        try:
            assert node.main is not None and node.main.replica is not None, "restored"
            back = lambda: session.snapshot().stable.phase == Phase.OVER  # noqa: E731
            await until(session, back, "the game-over screen again")
            snap = session.snapshot()
            assert snap.my_seat == before.my_seat and snap.game_on is None
            assert [p.node for p in snap.players] == [p.node for p in before.players]
            assert snap.stable.totals == before.stable.totals
            # r, pressed again while "wait: your last step is on its way" (the restored log's)
            taken = lambda: session.set_ready(True) is None  # noqa: E731
            await until(session, taken, "r for a rematch taken")
            again = lambda: session.snapshot().stable.game_number == 2  # noqa: E731
            await until(session, again, "the rematch")
            assert session.snapshot().stable.players == before.stable.players
        finally:
            await session.leave()

    run(scenario())


def test_a_player_who_left_after_the_end_starts_afresh(tmp_path: Path) -> None:
    """q on the game-over screen is a goodbye (a BYE in the log): started again, the node
    does not sit back down at that table, and its bots left with it."""

    async def scenario() -> None:
        options = one_round_game(tmp_path)
        node, session = await play_to_the_end(options)
        assert node.main is not None and node.main.replica is not None
        epoch = node.main.replica.me.epoch
        await node.stop()  # as blitz-node does after q
        node = Node(options)
        await node.start()
        session = NodeSession(node)
        try:
            assert node.main is not None and node.main.replica is not None
            assert node.main.replica.me.epoch != epoch, "a table of its own, not the old one"
            snap = session.snapshot()
            assert snap.stable.phase == Phase.LOBBY and len(snap.players) == 1
        finally:
            await session.leave()

    run(scenario())
