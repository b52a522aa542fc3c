"""Knocking at --peer doors (node/net/knocks.py): a door that never answers is named once it has
been silent a few seconds, and a door that answers, even to say no, is not."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest
from dutchblitz.node.api import Session
from dutchblitz.node.cli import main as cli
from dutchblitz.node.net.door import DoorRefused
from dutchblitz.node.net.knocks import SILENT_AFTER_S, Knocks
from dutchblitz.node.runtime import Options

pytestmark = pytest.mark.timeout(60)


class Door:
    """A fake door: each knock gets the next answer (an exception, or None: let in)."""

    def __init__(self, *answers: BaseException | None) -> None:
        self.answers = list(answers)
        self.knocks = 0
        self.now = 0.0  # the fake clock: each knock takes 3 s, as a real one that times out

    async def knock(self, endpoint: str) -> object:
        self.knocks += 1
        self.now += 3.0
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if answer is not None:
            raise answer
        return "card"


def run(door: Door, knocks_wanted: int) -> tuple[list[tuple[str, ...]], Knocks]:
    """Knock until ``knocks_wanted`` knocks were made; what ``unanswered`` said at each change."""
    said: list[tuple[str, ...]] = []

    async def main() -> Knocks:
        knocks = Knocks(door.knock, lambda: door.now, lambda: said.append(knocks.unanswered()),
                        retry=0.001)  # fmt: skip
        task = knocks.start("tcp://127.0.0.1:9")
        while door.knocks < knocks_wanted and not task.done():
            await asyncio.sleep(0.001)
        knocks.cancel()
        return knocks

    return said, asyncio.run(main())


def test_a_door_that_never_answers_is_named_after_a_few_seconds() -> None:
    door = Door(DoorRefused("timeout"))
    said, _ = run(door, 4)
    assert said and said[0] == ("tcp://127.0.0.1:9",)
    assert door.now >= SILENT_AFTER_S


def test_a_door_that_answers_no_is_never_named() -> None:
    said, _ = run(Door(DoorRefused("busy")), 4)
    assert all(not names for names in said)


def test_a_door_named_then_letting_us_in_is_named_no_more() -> None:
    timeout = DoorRefused("timeout")
    said, knocks = run(Door(timeout, timeout, timeout, None), 10)
    assert said[0] == ("tcp://127.0.0.1:9",) and said[-1] == ()
    assert knocks.unanswered() == ()


def test_a_final_refusal_stops_the_knocking() -> None:
    door = Door(DoorRefused("wrong passphrase"))
    run(door, 5)
    assert door.knocks == 1


def test_a_node_says_which_peer_never_answers(tmp_path: Path) -> None:
    """A real node, --peer naming a port nobody listens on: its snapshot names the door,
    and the node tells its subscribers so (the screen is not redrawn otherwise)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead = probe.getsockname()[1]  # closed again at once: nothing listens there
    named: list[tuple[str, ...]] = []

    async def screen(session: Session) -> None:
        told = asyncio.Event()

        def changed() -> None:
            if session.snapshot().unanswered:
                told.set()

        session.subscribe(changed)
        assert session.snapshot().unanswered == ()
        await asyncio.wait_for(told.wait(), 30)
        named.append(session.snapshot().unanswered)

    options = Options(interface="127.0.0.1", discovery=False, state_dir=tmp_path / "ada",
                      peers=(f"127.0.0.1:{dead}",))  # fmt: skip
    assert asyncio.run(cli.run_node(options, attach_ui=screen)) == cli.EXIT_OK
    assert named == [(f"tcp://127.0.0.1:{dead}",)]
