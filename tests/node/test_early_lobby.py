"""Under a screen the lobby shows once the seat holds its table, so that the first keys
a player presses find a seat to take them (docs/performance.md, start-up); a seat that finds
no table is a failed start."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from dutchblitz.node.api import Session
from dutchblitz.node.cli import main as cli
from dutchblitz.node.seat.local import LocalSeat

pytestmark = pytest.mark.timeout(60)

BASE = ["--join", "--no-discovery", "--interface", "127.0.0.1", "--name", "Ada"]


def test_the_screen_starts_with_the_player_seated(tmp_path: Path) -> None:
    """The screen starts with the player's own row: a name or a bot asked for at once is
    taken, not refused for want of a seat."""
    first: list[int] = []

    async def table(session: Session) -> None:
        first.append(len(session.snapshot().players))
        while not any(p.is_me and p.name == "Ada" for p in session.snapshot().players):
            await asyncio.sleep(0.01)  # waits on the seat, within the test's timeout

    options = cli.parse_options([*BASE, "--state-dir", str(tmp_path)])
    assert options is not None
    assert asyncio.run(cli.run_node(options, attach_ui=table)) == cli.EXIT_OK
    assert first == [1]


def test_a_seat_that_finds_no_table_stops_the_screen_as_a_failed_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def broken(self: LocalSeat) -> None:
        raise RuntimeError("no table")

    async def table(session: Session) -> None:
        await asyncio.Event().wait()  # the player never leaves: the failure ends it

    monkeypatch.setattr(LocalSeat, "start", broken)
    options = cli.parse_options([*BASE, "--state-dir", str(tmp_path)])
    assert options is not None
    assert asyncio.run(cli.run_node(options, attach_ui=table)) == cli.EXIT_FAILED
    said = capsys.readouterr().err
    assert said == "blitz-node: the node could not start: RuntimeError: no table\n"
    assert "no table" in (tmp_path / "node.log").read_text()
