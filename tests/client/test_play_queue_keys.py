"""Two play keys typed back to back, through the real key processor, on a real node.

The terminal application runs on a pipe input over the session of a node in this
process (ZeroMQ on loopback), against one local bot. When two cards can both go to the
centre (a Post card and the Wood top at best, `a` then `w`; else two Post cards, or the
Blitz top and a Post card), the test types their two keys in one write: the second key is
never refused because the first card is still on its way, and both cards land
(spec/protocol.md P-151, P-154).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from dutchblitz.client.games.blitz import keymap
from dutchblitz.protocol.games.blitz.intents import Action

from tests.client.driving import running
from tests.lan.test_play_queue import (
    BUDGET_S,
    Patient,
    _centre_cards,
    _changes,
    _seated_game,
    _two_at_once,
    _until_playing,
    run,
)
from tests.lan.test_session import until

pytestmark = [pytest.mark.lan, pytest.mark.timeout(120)]


def _key(action: Action, slot: int) -> str:
    if action == Action.POST_TO_CENTRE:
        return keymap.POST_KEYS[slot]
    return keymap.BLITZ_TO_CENTRE if action == Action.BLITZ_TO_CENTRE else keymap.WOOD_TO_CENTRE


def test_a_then_w_typed_at_once_moves_both_cards(tmp_path: Path) -> None:
    async def scenario() -> None:
        session = await _seated_game(tmp_path)
        player = Patient(session)
        try:
            async with running(session) as drive, asyncio.timeout(BUDGET_S):
                while True:
                    snap = await _until_playing(session)
                    pair = _two_at_once(snap)
                    if pair is None:
                        await player.step(snap)
                        continue
                    if snap.pending_moves:  # flips still on their way: once they land
                        await _changes(session, lambda: session.snapshot().pending_moves == 0)
                        continue
                    keys = "".join(_key(action, slot) for action, slot, _ in pair)
                    drive.state.board.flashes.clear()
                    await drive.press(keys)  # one write: the two keys back to back
                    shown = drive.state.board.flashes
                    refused = [f.notice for f in shown if f.notice.kind == "refused"]
                    assert not refused, (keys, refused)
                    await until(session, lambda: session.snapshot().pending_moves == 0, "final")
                    centre = _centre_cards(session.snapshot())
                    if all(top in centre for _, _, top in pair):
                        return
                    drive.state.refresh()  # the notices that came since
                    notices = [f.notice for f in drive.state.board.flashes]
                    # The bot got to one first: try again.
                    assert "lost_race" in {n.kind for n in notices}, (keys, pair, notices)
        except TimeoutError:
            raise AssertionError(f"no two plays at once in {BUDGET_S}s: {player}") from None
        finally:
            await session.leave()

    run(scenario())
