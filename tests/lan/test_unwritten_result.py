"""A game's result that cannot be written is one line on stderr and exit code 1.

At the table (``run_node`` with a table attached, as ``blitz-node`` runs it) the
person plays a short game against two local bots and leaves from the game-over
screen; headless, a bot node ends its game on its own. Either way ``--summary-json``
names a place that cannot take a file, and the node says so and exits with
``EXIT_FAILED`` instead of 0.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from dutchblitz.node.api import Session
from dutchblitz.node.cli import main as cli
from dutchblitz.node.runtime import Options
from dutchblitz.node.session import NodeSession

from tests.lan.nodes import BlitzNode, free_ports, loopback_args, stop_all
from tests.lan.test_rematch import press_until
from tests.lan.test_session import until

pytestmark = [pytest.mark.lan, pytest.mark.timeout(120)]


def test_at_the_table_an_unwritable_summary_is_one_line_and_exit_code_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    summary = blocker / "summary.json"

    async def table(session: Session) -> None:
        assert isinstance(session, NodeSession)
        for _ in range(2):
            assert session.add_bot("flat-out") is None
        await until(session, lambda: len(session.snapshot().players) == 3, "two bots")
        assert session.set_ready(True) is None
        await until(session, lambda: session.snapshot().can_start, "everyone ready")
        assert session.start() is None
        await press_until(session, session.seat.game_over.is_set, "the end of the game")
        await asyncio.sleep(0)  # the game-over hooks (the summary) run on this loop
        await session.leave()  # q on the game-over screen

    options = Options(
        name="Ada",
        interface="127.0.0.1",
        discovery=False,
        state_dir=tmp_path / "state",
        target=1,
        summary_json=summary,
    )
    assert asyncio.run(cli.run_node(options, attach_ui=table)) == cli.EXIT_FAILED
    err = capsys.readouterr().err
    assert err == f"blitz-node: cannot write {summary}: Not a directory\n"
    assert list((tmp_path / "state" / "results").glob("*.json")), "the state dir's copy is kept"


def test_headless_an_unwritable_summary_is_said_and_exit_code_1(tmp_path: Path) -> None:
    ports = free_ports(2)
    (tmp_path / "bot1-summary.json").mkdir()  # a folder where bot1's summary should go
    nodes = [
        BlitzNode(f"bot{i}", tmp_path / f"node{i}", loopback_args(i, ports, 2, "--target", "1"))
        for i in range(2)
    ]
    try:
        codes = [node.finish() for node in nodes]
    finally:
        stop_all(nodes)
    assert codes == [cli.EXIT_OK, cli.EXIT_FAILED], "\n\n".join(n.output() for n in nodes)
    output = nodes[1].output()
    assert f"cannot write {nodes[1].summary_path}: Is a directory" in output
    assert "Traceback" not in output
