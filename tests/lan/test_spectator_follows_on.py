"""A spectator follows on when the member that let it in leaves (spec/protocol.md P-260).

Ada hosts; Bo and his local bot play with her; a spectator passes Ada's door only. Ada's
HELLO names the spectator to the others, so they let it in; when Ada's node dies mid-game,
the spectator follows through Bo or his bot, to the table's last event, not frozen on the
round she left in.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from dutchblitz.node.runtime import Node, Options
from dutchblitz.node.session import NodeSession
from dutchblitz.protocol.table.state import Phase

from tests.client.test_tmux_e2e import free_port
from tests.lan.test_rematch import press_until
from tests.lan.test_session import run, until

pytestmark = [pytest.mark.lan, pytest.mark.timeout(90)]


def test_a_spectator_follows_on_when_its_door_member_leaves(tmp_path: Path) -> None:
    async def scenario() -> None:
        port = free_port()
        common = {"interface": "127.0.0.1", "discovery": False, "target": 200}
        door = (f"127.0.0.1:{port}",)
        ada = Node(Options(name="Ada", state_dir=tmp_path / "ada", port=port, **common))  # type: ignore[arg-type]
        await ada.start()
        bo = Node(Options(name="Bo", state_dir=tmp_path / "bo", peers=door, **common))  # type: ignore[arg-type]
        await bo.start()
        sa, sb = NodeSession(ada), NodeSession(bo)
        fan = Node(
            Options(name="Fan", state_dir=tmp_path / "fan", peers=door, watch=True, **common)
        )  # type: ignore[arg-type]
        try:
            await until(sb, lambda: len(sb.snapshot().stable.members) == 2, "Bo seated")
            assert sb.add_bot("flat-out") is None
            await until(sa, lambda: len(sa.snapshot().stable.members) == 3, "Bo's bot seated")
            await fan.start()
            assert sa.set_ready(True) is None and sb.set_ready(True) is None
            await until(sa, lambda: sa.snapshot().can_start, "everyone ready")
            assert sa.start() is None
            playing = lambda: sb.snapshot().stable.phase == Phase.PLAYING  # noqa: E731
            await asyncio.gather(press_until(sa, playing, "play"), press_until(sb, playing, "play"))
            assert fan.main is not None and bo.main is not None
            follower = fan.main.following.follower
            assert follower is not None
            await until(sb, lambda: len(follower.log) > 0, "the spectator fed")
            await ada.stop(goodbye=False)  # her terminal closed
            table = bo.main.replica
            assert table is not None
            moved_on = len(table.log) + 30
            await press_until(sb, lambda: len(table.log) >= moved_on, "the game going on")
            await until(sb, lambda: len(follower.log) >= moved_on, "the spectator following on")
        finally:
            await asyncio.gather(sb.leave(), fan.stop(), return_exceptions=True)

    run(scenario())
