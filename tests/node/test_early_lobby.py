"""Under a screen the lobby shows at once, while the seat still finds its table
(docs/performance.md, start-up); the first keys a player presses are kept until the seat
holds its table and are made then; a seat that finds no table is a failed start."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest
from dutchblitz.node.api import Session
from dutchblitz.node.cli import main as cli
from dutchblitz.node.seat.local import LocalSeat

pytestmark = pytest.mark.timeout(60)

BASE = ["--join", "--no-discovery", "--interface", "127.0.0.1", "--name", "Ada"]


def test_the_screen_starts_before_the_seat_and_keeps_what_is_chosen_meanwhile(
    tmp_path: Path,
) -> None:
    """The screen starts before the player's row is there; a name and a bot asked for at
    once are taken, not refused for want of a seat, and made once the seat holds its table."""
    first: list[int] = []

    async def table(session: Session) -> None:
        first.append(len(session.snapshot().players))
        assert session.set_name("Grace") is None
        assert session.add_bot("normal") is None
        while [p.name for p in session.snapshot().players if p.is_me or p.is_local_bot][:1] != [
            "Grace"
        ] or len(session.snapshot().players) < 2:
            await asyncio.sleep(0.01)  # waits on the seat, within the test's timeout

    options = cli.parse_options([*BASE, "--state-dir", str(tmp_path)])
    assert options is not None
    options = replace(options, join_window=3.0)  # the screen is surely up before it ends
    assert asyncio.run(cli.run_node(options, attach_ui=table)) == cli.EXIT_OK
    assert first == [0]


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
