"""A player who leaves with a goodbye and starts again on the same state directory comes
back to the same table, with the log it left (spec/protocol.md P-257): in the lobby, and
at a game's end, where the rematch then plays. A fresh log there could never hold this
node's own earlier events (no peer hands a node its own), so its screen would wedge on a
state without them: "player 2", not ready, and `r` doing nothing.

Two nodes in this process, Ada and Bo, on 127.0.0.1, Bo finding Ada at her door.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest
from dutchblitz.node.runtime import Node, Options
from dutchblitz.node.session import NodeSession
from dutchblitz.protocol.table.state import Phase

from tests.client.test_tmux_e2e import free_port
from tests.lan.test_rematch import press_until
from tests.lan.test_session import run, until

pytestmark = [pytest.mark.lan, pytest.mark.timeout(90)]


def two_players(root: Path, target: int) -> tuple[Options, Options]:
    port = free_port()
    common = {"interface": "127.0.0.1", "discovery": False, "target": target}
    ada = Options(name="Ada", state_dir=root / "ada", port=port, **common)  # type: ignore[arg-type]
    bo = Options(  # type: ignore[arg-type]
        name="Bo", state_dir=root / "bo", peers=(f"127.0.0.1:{port}",), **common
    )
    return ada, bo


async def seated(options: Options) -> tuple[Node, NodeSession]:
    node = Node(options)
    await node.start()
    assert node.main is not None
    node.main.game_over_hooks.append(lambda: node.write_summary())  # as blitz-node does
    return node, NodeSession(node)


def names_and_ready(session: NodeSession) -> list[tuple[str, bool]]:
    """The table as this node's stable log has it: every present player's name and wish."""
    members = session.snapshot().stable.members.values()
    return sorted((m.name, m.ready) for m in members if m.present)


async def all_see(sessions: list[NodeSession], table: list[tuple[str, bool]], what: str) -> None:
    await asyncio.gather(
        *(until(s, lambda s=s: names_and_ready(s) == table, what) for s in sessions)
    )


def test_a_player_who_leaves_the_lobby_and_comes_back_is_at_the_table_again(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        ada_options, bo_options = two_players(tmp_path, target=10)
        _ada, sa = await seated(ada_options)
        _bo, sb = await seated(bo_options)
        try:
            await all_see([sa, sb], [("Ada", False), ("Bo", False)], "both seated")
            assert sb.set_ready(True) is None
            await all_see([sa, sb], [("Ada", False), ("Bo", True)], "Bo ready")
            await sb.leave()
            await until(sa, lambda: names_and_ready(sa) == [("Ada", False)], "Bo gone")
            _bo, sb = await seated(bo_options)
            await all_see([sa, sb], [("Ada", False), ("Bo", False)], "Bo back, by his name")
            assert sa.set_ready(True) is None and sb.set_ready(True) is None
            await all_see([sa, sb], [("Ada", True), ("Bo", True)], "both ready")
        finally:
            await asyncio.gather(sb.leave(), sa.leave())

    run(scenario())


def test_a_player_who_leaves_at_the_end_and_comes_back_plays_the_rematch(tmp_path: Path) -> None:
    """Ada asks for a rematch (`r`), Bo leaves (`q`) and starts again while Yul decides: Bo
    is back at the game's end, and once he and Yul press `r` the rematch starts on every
    screen."""

    async def scenario() -> None:
        ada_options, bo_options = two_players(tmp_path, target=1)
        yul_options = replace(bo_options, name="Yul", state_dir=tmp_path / "yul")
        ada, sa = await seated(ada_options)
        bo, sb = await seated(bo_options)
        yul, sy = await seated(yul_options)
        everyone = [sa, sb, sy]
        try:
            table = [("Ada", False), ("Bo", False), ("Yul", False)]
            await all_see(everyone, table, "all three seated")
            assert all(s.set_ready(True) is None for s in everyone)
            await until(sa, lambda: sa.snapshot().can_start, "everyone ready")
            assert sa.start() is None
            nodes = [ada, bo, yul]

            def over() -> bool:
                return all(n.main is not None and n.main.game_over.is_set() for n in nodes)

            await asyncio.gather(*(press_until(s, over, "the game's end") for s in everyone))
            assert sa.set_ready(True) is None
            await sb.leave()
            await all_see([sa, sy], [("Ada", True), ("Yul", False)], "Bo gone")
            bo, sb = await seated(bo_options)
            everyone = [sa, sb, sy]
            table = [("Ada", True), ("Bo", False), ("Yul", False)]
            await all_see(everyone, table, "Bo back at the end, by his name")
            assert sb.snapshot().stable.phase == Phase.OVER
            # As a person would, each presses `r` again while their last step is on its way.
            await until(sb, lambda: sb.set_ready(True) is None, "Bo's r taken")
            await until(sy, lambda: sy.set_ready(True) is None, "Yul's r taken")

            def rematch(session: NodeSession) -> bool:
                stable = session.snapshot().stable
                return stable.game_number == 2 and stable.phase != Phase.OVER

            await asyncio.gather(
                *(until(s, lambda s=s: rematch(s), "the rematch") for s in everyone)
            )
        finally:
            await asyncio.gather(*(s.leave() for s in everyone))

    run(scenario())


def test_the_last_player_left_after_the_end_is_back_in_the_lobby(tmp_path: Path) -> None:
    """P-258: Bo leaves at the game's end, and Ada, alone, is not left waiting for a rematch
    nobody can play: her table is a lobby again, where a bot sits down and a game starts."""

    async def scenario() -> None:
        ada_options, bo_options = two_players(tmp_path, target=1)
        ada, sa = await seated(ada_options)
        _bo, sb = await seated(bo_options)
        try:
            await all_see([sa, sb], [("Ada", False), ("Bo", False)], "both seated")
            assert sa.set_ready(True) is None and sb.set_ready(True) is None
            await until(sa, lambda: sa.snapshot().can_start, "both ready")
            assert sa.start() is None
            over = lambda: ada.main is not None and ada.main.game_over.is_set()  # noqa: E731
            await asyncio.gather(
                press_until(sa, over, "the game's end"), press_until(sb, over, "the game's end")
            )
            assert sa.set_ready(True) is None  # "it starts once everyone does"
            await sb.leave()
            lobby = lambda: sa.snapshot().stable.phase == Phase.LOBBY  # noqa: E731
            await until(sa, lobby, "the lobby again")
            assert ada.main is not None and not ada.main.game_over.is_set()
            assert sa.add_bot("flat-out") is None
            await until(sa, lambda: len(names_and_ready(sa)) == 2, "a bot seated")
            assert sa.set_ready(True) is None
            await until(sa, lambda: sa.snapshot().can_start, "Ada and the bot ready")
            assert sa.start() is None
            began = lambda: sa.snapshot().stable.phase != Phase.LOBBY  # noqa: E731
            await until(sa, began, "the next game")
            assert sa.snapshot().stable.game_number == 2 and sa.snapshot().game.round == 1
        finally:
            await sa.leave()

    run(scenario())
