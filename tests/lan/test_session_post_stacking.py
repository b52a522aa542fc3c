"""Post stacking through the client's API over a real node (P-142, P-144): the lobby's choice
is what this node's START carries, and once the game is on the snapshot shows the game's."""

from __future__ import annotations

from pathlib import Path

import pytest
from dutchblitz.client.games.blitz.words import said
from dutchblitz.node.runtime import Node
from dutchblitz.node.session import NodeSession
from dutchblitz.protocol.games.blitz.intents import Action, Intent
from dutchblitz.protocol.table.state import Phase

from tests.lan.test_session import options, run, until

pytestmark = [pytest.mark.lan, pytest.mark.timeout(60)]


def test_the_lobby_choice_starts_a_game_without_post_stacking(tmp_path: Path) -> None:
    async def scenario() -> None:
        node = Node(options(tmp_path))
        await node.start()
        session = NodeSession(node)
        try:
            assert session.snapshot().option
            assert session.add_bot("fast") is None
            await until(session, lambda: len(session.snapshot().players) == 2, "a bot seated")
            assert session.set_option(False) is None
            assert not session.snapshot().option
            assert session.set_ready(True) is None
            await until(session, lambda: session.snapshot().can_start, "everyone ready")
            assert session.start() is None
            playing = lambda: session.snapshot().stable.phase == Phase.PLAYING  # noqa: E731
            await until(session, playing, "the deal")
            snap = session.snapshot()
            assert not snap.option and not snap.stable.post_stacking
            assert (
                said(session.play(Intent(Action.BLITZ_TO_POST, 0)))
                == "Post stacking is off at this table"
            )
            assert session.set_option(True) is not None  # the lobby only
        finally:
            await session.leave()

    run(scenario())
