"""``blitz-node`` enters client.main: the node's options, with or without the table."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

import pytest
from dutchblitz.client import main as entry
from dutchblitz.client.app import run_app
from dutchblitz.node.cli import main as cli
from dutchblitz.node.runtime import Options

pytestmark = pytest.mark.timeout(30)


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Stand-ins for the node's two ways to run, recording how they were called."""
    seen: list[Any] = []

    def fake_main(argv: Sequence[str] | None = None) -> int:
        seen.append(("cli.main", list(argv or [])))
        return 7

    async def fake_run_node(options: Options | argparse.Namespace, attach_ui: Any = None) -> int:
        seen.append(("run_node", options, attach_ui))
        return 3

    monkeypatch.setattr(cli, "main", fake_main)
    monkeypatch.setattr(cli, "run_node", fake_run_node)
    monkeypatch.setattr(entry, "no_terminal", lambda: None)  # as if run in a terminal
    return seen


def test_join_runs_the_node_with_the_table_on_its_loop(calls: list[Any]) -> None:
    assert entry.main(["--join", "--name", "Ada", "--port", "5555", "--no-discovery"]) == 3
    [(what, options, attach_ui)] = calls
    assert what == "run_node" and attach_ui is run_app
    assert isinstance(options, Options)
    assert (options.name, options.port, options.discovery, options.headless) == (
        "Ada",
        5555,
        False,
        False,
    )


def test_headless_is_exactly_the_node_command(calls: list[Any]) -> None:
    argv = ["--join", "--headless", "--bot"]
    assert entry.main(argv) == 7
    assert calls == [("cli.main", argv)]


def test_without_join_the_node_prints_its_help(
    calls: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert entry.main([]) == 0
    assert calls == []
    assert "--join" in capsys.readouterr().out


def test_a_wrong_flag_is_the_node_parser_error(calls: list[Any]) -> None:
    with pytest.raises(SystemExit) as stopped:
        entry.main(["--join", "--port", "nope"])
    assert stopped.value.code == 2
    assert calls == []


def test_without_a_terminal_the_table_is_one_line_and_exit_code_2(
    calls: list[Any], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(entry, "no_terminal", lambda: "the table needs a terminal")
    assert entry.main(["--join"]) == cli.EXIT_USAGE
    assert calls == []
    assert capsys.readouterr().err == "blitz-node: the table needs a terminal\n"


def test_no_terminal_names_the_stream_that_is_not_one(monkeypatch: pytest.MonkeyPatch) -> None:
    class Stream:
        def __init__(self, tty: bool) -> None:
            self.tty = tty

        def isatty(self) -> bool:
            return self.tty

    monkeypatch.setattr(entry.sys, "stdin", Stream(True))
    monkeypatch.setattr(entry.sys, "stdout", Stream(True))
    assert entry.no_terminal() is None
    monkeypatch.setattr(entry.sys, "stdout", Stream(False))
    assert "this output is none" in (entry.no_terminal() or "")
    monkeypatch.setattr(entry.sys, "stdin", Stream(False))
    assert "this input is none" in (entry.no_terminal() or "")


def test_headless_needs_no_terminal(calls: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(entry, "no_terminal", lambda: "no terminal")
    assert entry.main(["--join", "--headless", "--bot"]) == 7
