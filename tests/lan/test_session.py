"""The client's API over a real node: lobby, local bot seats, moves refused locally, notices.

One node runs in this process on 127.0.0.1 with no discovery; the person's seat
is driven through ``NodeSession`` exactly as the terminal table drives it, and
the other players are local bot seats, full peers on their own sockets.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from dutchblitz.client.games.blitz.words import said
from dutchblitz.node.api import News, Session, Why
from dutchblitz.node.runtime import Node, Options
from dutchblitz.node.session import NodeSession
from dutchblitz.protocol.games.blitz.intents import Action, Intent
from dutchblitz.protocol.table.state import Phase

from tests.lan.nodes import free_ports

pytestmark = [pytest.mark.lan, pytest.mark.timeout(60)]

WAIT_S = 20.0


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(coro, 50))


async def until(session: Session, check: Callable[[], bool], what: str) -> None:
    """Wait, woken by the session's own change callbacks, until ``check`` holds."""
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


def options(tmp_path: Path) -> Options:
    return Options(
        name="Ada", interface="127.0.0.1", discovery=False, state_dir=tmp_path, target=10
    )


def test_a_person_and_two_local_bots_play_through_the_session(tmp_path: Path) -> None:
    async def scenario() -> None:
        node = Node(options(tmp_path))
        await node.start()
        session = NodeSession(node)
        try:
            await until(session, lambda: session.snapshot().players[0].name == "Ada", "profile")
            first = session.snapshot()
            assert first.my_seat == 0 and first.players[0].is_me
            assert first.endpoint.startswith("tcp://127.0.0.1:")
            assert said(session.start()) == "a game needs at least 2 players"
            assert session.add_bot("warp") is not None
            assert session.add_bot("flat-out") is None
            assert session.add_bot("flat-out") is None
            await until(session, lambda: len(session.snapshot().players) == 3, "two bots seated")
            sat: list[str] = []

            def sat_down() -> bool:
                told = [n.told for n in session.take_notices() if n.told is not None]
                sat.extend(t.who for t in told if t.news == News.SAT_DOWN)
                return len(sat) == 2

            await until(session, sat_down, "two 'sat down' notices")
            bots = [p for p in session.snapshot().players if p.is_local_bot]
            assert len(bots) == 2 and session.snapshot().peers_seen >= 2
            # Each bot is told by the name the table shows ("flat-out bot 3f9"), not "player 2".
            assert sorted(sat) == sorted(bot.name for bot in bots)
            assert all(" bot " in name for name in sat)
            assert said(session.set_name("x" * 40)) == "a name is 1 to 32 bytes"
            assert session.set_back("no-such-back") is not None
            assert (
                said(session.set_back(bots[0].back))
                == f"{bots[0].name} has the {bots[0].back} back"
            )
            assert session.set_name("Grace") is None
            renamed = lambda: session.snapshot().stable.seated()[0].name == "Grace"  # noqa: E731
            await until(session, renamed, "the new name")
            waiting = said(session.start())
            assert waiting.startswith("waiting for") and "Grace" in waiting
            assert said(session.play(Intent(Action.FLIP))) == "no round is being played"
            assert session.set_ready(True) is None
            await until(session, lambda: session.snapshot().can_start, "everyone ready")
            assert session.start() is None
            await until(session, lambda: session.snapshot().game.phase == Phase.PLAYING, "deal")
            assert said(session.add_bot("flat-out")) == "you can seat a bot only in the lobby"
            assert said(session.set_name("Ada")) == "you can change your name only in the lobby"
            await play_a_while(session)
            notices = session.take_notices()
            kinds = {notice.kind for notice in notices}
            assert kinds & {"round_over", "blitz", "lost_race", "refused"}
            told = [n.told for n in notices if n.told is not None]
            scores = [dict(t.scores) for t in told if t.news == News.ROUND_SCORES]
            assert scores, "the round's scores are told"
            for names in scores:  # this node's own player is "", which the words say "you"
                assert "" in names and "Grace" not in names
            assert session.remove_bot() is None
        finally:
            await session.leave()

    run(scenario())


KEYS = [
    (Action.BLITZ_TO_CENTRE, 0),
    *((Action.POST_TO_CENTRE, slot) for slot in range(5)),
    (Action.WOOD_TO_CENTRE, 0),
    (Action.BLITZ_TO_POST, 0),
    (Action.FLIP, 0),
    (Action.STUCK, 0),  # refused while there is a play; ends a stalemate otherwise
]


async def play_a_while(session: NodeSession) -> None:
    """Press keys like an impatient person until a round has ended."""
    refusals: set[str] = set()
    sent = 0
    last = ""
    changed = asyncio.Event()
    unsubscribe = session.subscribe(changed.set)
    try:
        async with asyncio.timeout(WAIT_S):
            while not session.snapshot().stable.results:
                last = describe(session)
                for action, slot in KEYS:
                    why = session.play(Intent(action, slot))
                    if why is None:
                        sent += 1
                    else:
                        refusals.add(said(why))
                changed.clear()
                await changed.wait()
    except TimeoutError:
        raise AssertionError(f"no round ended; refusals {refusals}; {last}") from None
    finally:
        unsubscribe()
    assert sent > 0
    assert all(isinstance(reason, str) and reason for reason in refusals)


def test_snapshot_before_the_table_is_found(tmp_path: Path) -> None:
    async def scenario() -> None:
        node = Node(options(tmp_path))
        await node.start()
        try:
            snapshot = NodeSession(node).snapshot()
            assert snapshot.table == "blitz" and snapshot.pending_moves == 0
            assert "127.0.0.1" in snapshot.interface
            assert snapshot.bot_levels == ("easy", "normal", "fast", "flat-out")
        finally:
            await node.stop()

    run(scenario())


def describe(session: NodeSession) -> str:
    snapshot = session.snapshot()
    table = snapshot.game.table
    if table is None:
        return f"phase {snapshot.game.phase}"
    areas = {
        seat: (area.stuck, area.active, area.hand, len(area.wood), len(area.blitz))
        for seat, area in table.areas.items()
    }
    return f"pending {snapshot.pending_moves}, areas {areas}, piles {len(table.piles)}"


def test_a_bot_taken_off_while_it_sits_down_leaves_no_seat_behind(tmp_path: Path) -> None:
    """`-` pressed while the bot `+` seated still asks to join: the table admits it all the
    same, so it says goodbye once seated. No member nobody answers for is left, never ready,
    holding back every event: the player's READY becomes final."""

    async def scenario() -> None:
        node = Node(options(tmp_path))
        await node.start()
        session = NodeSession(node)
        try:
            await until(session, lambda: session.snapshot().players[0].name == "Ada", "profile")
            assert session.add_bot("normal") is None
            main = node.main
            assert main is not None and main.replica is not None
            table = main.replica

            def admitting() -> bool:  # the player's node admits the bot, not yet seated
                return (
                    len(node.bots.seats) == 1
                    and node.bots.seats[0].seat.node_id in table.optimistic().members
                )

            await until(session, admitting, "the bot's ADMIT")
            assert session.remove_bot() is None

            def alone(ready: bool) -> bool:
                replica = main.replica
                assert replica is not None
                present = [m for m in replica.stable.members.values() if m.present]
                return [m.node for m in present if m.ready == ready] == [main.node_id]

            await until(session, lambda: alone(False), "the bot gone from the table")
            assert session.set_ready(True) is None
            await until(session, lambda: alone(True), "Ada's READY final")
        finally:
            await session.leave()

    run(scenario())


def test_a_bot_taken_off_before_it_exists_goes_all_the_same(tmp_path: Path) -> None:
    """`-` pressed at once after `+`, while this node still opens the bot's own transport:
    the `-` is not refused for want of a bot, and takes that bot away once it is seated."""

    async def scenario() -> None:
        node = Node(options(tmp_path))
        await node.start()
        session = NodeSession(node)
        try:
            await until(session, lambda: session.snapshot().players[0].name == "Ada", "profile")
            assert session.add_bot("normal") is None
            assert not node.bots.seats, "the bot is still on its way"
            assert session.remove_bot() is None
            main = node.main
            assert main is not None

            def seated_and_gone() -> bool:
                replica = main.replica
                assert replica is not None
                members = replica.stable.members.values()
                present = [m.node for m in members if m.present]
                return not node.bots.seats and len(members) == 2 and present == [main.node_id]

            await until(session, seated_and_gone, "the bot seated, then gone: Ada alone")
            assert session.remove_bot() is not None, "no bot left to take away"
        finally:
            await session.leave()

    run(scenario())


def test_a_bot_taken_off_and_put_back_is_a_fresh_ready_bot(tmp_path: Path) -> None:
    """`+`, `-`, `+` in the lobby: the new bot is ready, and no node sees its state differ."""

    async def scenario() -> None:
        node = Node(options(tmp_path))
        await node.start()
        session = NodeSession(node)
        try:
            await until(session, lambda: session.snapshot().players[0].name == "Ada", "profile")
            assert session.add_bot("normal") is None

            def one_bot_ready() -> bool:
                bots = [p for p in session.snapshot().players if p.is_local_bot]
                return len(bots) == 1 and bots[0].ready

            await until(session, one_bot_ready, "the bot seated and ready")
            first = next(p for p in session.snapshot().players if p.is_local_bot)
            assert session.remove_bot() is None

            def gone() -> bool:
                return all(
                    p.node != first.node or not p.present for p in session.snapshot().players
                )

            await until(session, gone, "the bot gone")
            assert session.add_bot("normal") is None

            def fresh_and_ready() -> bool:
                bots = [p for p in session.snapshot().players if p.is_local_bot]
                return len(bots) == 1 and bots[0].ready and bots[0].node != first.node

            await until(session, fresh_and_ready, "a fresh bot, ready")
            kinds = [n.kind for n in session.take_notices()]
            assert "alarm" not in [str(kind) for kind in kinds]
        finally:
            await session.leave()

    run(scenario())


def test_choices_made_before_the_seat_holds_its_table_are_made_once_it_does(
    tmp_path: Path,
) -> None:
    """The lobby shows while the seat still finds its table (``start(seat_behind=True)``):
    a name, a bot, ready and the game's length chosen then are kept and made once it holds
    one, and a choice the table refuses then is told, not lost."""

    async def scenario() -> None:
        node = Node(replace(options(tmp_path), join_window=1.0))
        await node.start(seat_behind=True)
        session = NodeSession(node)
        try:
            assert node.main is not None and node.main.replica is None  # still finding
            assert session.set_name("Ada Lovelace") is None
            assert session.add_bot("normal") is None
            assert session.set_length(20) is None
            assert session.set_ready(True) is None
            assert session.set_back("nowhere") is not None  # checked at once all the same
            assert session.remove_bot() is None  # after the `+` before it, whatever it seats
            assert session.start() is None  # kept too: refused then, with one player seated
            main = node.main
            await until(session, lambda: main.replica is not None, "a table")
            told: list[Why] = []

            def refused() -> bool:
                notices = session.take_notices()
                told.extend(n.refused.why for n in notices if n.refused is not None)
                return bool(told)

            await until(session, refused, "the START refused, told")
            assert told == [Why.TOO_FEW_PLAYERS]
            snap = session.snapshot
            names = ["Ada Lovelace"]
            await until(session, lambda: [p.name for p in snap().players] == names, "no bot left")
            await until(session, lambda: snap().length[0] == 20, "the length")

            def ready() -> bool:
                table = main.replica
                assert table is not None
                return all(m.ready for m in table.stable.members.values() if m.present)

            await until(session, ready, "ready")
        finally:
            await session.leave()

    run(scenario())


def test_a_name_chosen_while_asking_to_be_let_in_is_the_one_the_table_hears(
    tmp_path: Path,
) -> None:
    """Bo's seat joins Ada's table through her door; ``n`` pressed while Bo's node still
    finds the table and asks to be let in is kept, and made once Bo is seated: Ada's
    screen reads "Bo", never the default name."""
    port = free_ports(1)[0]

    async def scenario() -> None:
        ada = Node(replace(options(tmp_path / "ada"), port=port))
        await ada.start()
        hers = NodeSession(ada)
        bo = Node(replace(options(tmp_path / "bo"), name="", peers=(f"127.0.0.1:{port}",)))
        await bo.start(seat_behind=True)
        his = NodeSession(bo)
        try:
            assert his.set_name("Bo") is None
            assert his.set_ready(True) is None
            names = lambda: sorted(p.name for p in hers.snapshot().players)  # noqa: E731
            await until(hers, lambda: names() == ["Ada", "Bo"], "Bo by his name at Ada's")
            bos = lambda: [p for p in hers.snapshot().players if p.name == "Bo"]  # noqa: E731
            await until(hers, lambda: bool(bos()) and bos()[0].ready, "Bo ready at Ada's")
        finally:
            await his.leave()
            await hers.leave()

    run(scenario())
