"""The lobby's options are the table's (spec/protocol.md P-261): Ada hosts with
``--target 50``, Bo joins with his own defaults, and both screens show the same length,
Post stacking and game, whoever changes them; the START carries them."""

from __future__ import annotations

from pathlib import Path

import pytest
from dutchblitz.node.runtime import Node, Options
from dutchblitz.node.session import NodeSession
from dutchblitz.protocol.table.state import Phase

from tests.client.test_tmux_e2e import free_port
from tests.lan.test_session import run, until

pytestmark = [pytest.mark.lan, pytest.mark.timeout(60)]


def shown(session: NodeSession) -> tuple[object, ...]:
    snap = session.snapshot()
    return (snap.length, snap.option, snap.game_tag)


def test_every_screen_shows_the_tables_lobby_options(tmp_path: Path) -> None:
    async def scenario() -> None:
        port = free_port()
        common = {"interface": "127.0.0.1", "discovery": False}
        ada = Node(Options(name="Ada", state_dir=tmp_path / "a", port=port, target=50, **common))  # type: ignore[arg-type]
        await ada.start()
        sa = NodeSession(ada)
        bo = Node(
            Options(name="Bo", state_dir=tmp_path / "b", peers=(f"127.0.0.1:{port}",), **common)
        )  # type: ignore[arg-type]
        await bo.start()
        sb = NodeSession(bo)
        both = [sa, sb]

        async def both_show(options: tuple[object, ...], what: str) -> None:
            for session in both:
                await until(session, lambda s=session: shown(s) == options, what)

        try:
            await both_show(((50, None), True, "blitz"), "the host's target on both screens")
            assert sa.set_game("dutch") is None and sa.set_length(75, 2) is None
            await both_show(((75, 2), True, "dutch"), "Dutch in 2 rounds on both screens")
            assert sb.set_game("blitz") is None and sb.set_option(False) is None
            assert sb.set_length(30) is None
            await both_show(((30, None), False, "blitz"), "Bo's choice on both screens")
            assert sa.set_ready(True) is None and sb.set_ready(True) is None
            await until(sa, lambda: sa.snapshot().can_start, "both ready")
            assert sa.start() is None
            await until(sa, lambda: sa.snapshot().stable.phase != Phase.LOBBY, "the game")
            stable = sa.snapshot().stable
            assert (stable.target, stable.post_stacking, stable.rounds) == (30, False, None)
        finally:
            await sb.leave()
            await sa.leave()

    run(scenario())
