"""Drive the real application with a pipe input, and read what it would draw.

Keys go through the pipe and the real key processor. Tests wait on conditions
with a deadline, never on fixed sleeps: ``settle`` sends a key bound only in
tests and waits until it has been handled, so every key before it has been too.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

from dutchblitz.client.app import BlitzApp, build_app
from dutchblitz.client.state import ClientState
from dutchblitz.node.api import Session
from prompt_toolkit.application.current import set_app
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent, merge_key_bindings
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Char, Screen, WritePosition
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.utils import get_cwidth

WAIT_S = 3.0
SENTINEL = "\x1b[34~"  # F20: bound in tests only
ESCAPE = "\x1b"
CTRL_C = "\x03"
ENTER = "\r"
TAB = "\t"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class SizedOutput(DummyOutput):
    """A dummy output with a terminal size: the app lays itself out for it."""

    def __init__(self, rows: int = 24, columns: int = 80) -> None:
        self.size = Size(rows=rows, columns=columns)

    def get_size(self) -> Size:
        return self.size


async def until(condition: Callable[[], bool], what: str = "condition") -> None:
    deadline = asyncio.get_running_loop().time() + WAIT_S
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)


@dataclass
class Driver:
    app: BlitzApp
    pipe: PipeInput
    handled: list[int]
    task: asyncio.Future[None]

    @property
    def finished(self) -> bool:
        """The application has ended (the player left)."""
        return self.task.done()

    @property
    def state(self) -> ClientState:
        return self.app.state

    async def press(self, keys: str) -> None:
        """Send keys and wait until the application has handled every one of them."""
        before = len(self.handled)
        self.pipe.send_text(keys + SENTINEL)
        await until(lambda: len(self.handled) > before, f"keys {keys!r} to be handled")

    def screen(self, rows: int = 24, columns: int = 80) -> list[str]:
        return screen_text(self.app, rows, columns)


@asynccontextmanager
async def running(
    session: Session, clock: Callable[[], float] | None = None, rows: int = 24, columns: int = 80
) -> AsyncIterator[Driver]:
    with create_pipe_input() as pipe:
        output = SizedOutput(rows, columns)
        app = build_app(session, pipe, output, clock=clock or Clock())
        handled: list[int] = []
        extra = KeyBindings()

        @extra.add("f20")
        def _sentinel(event: KeyPressEvent) -> None:
            handled.append(1)

        assert app.key_bindings is not None
        app.key_bindings = merge_key_bindings([app.key_bindings, extra])
        task = asyncio.ensure_future(app.run_async())
        await until(lambda: app.is_running, "the app to run")
        try:
            yield Driver(app, pipe, handled, task)
        finally:
            if app.is_running and not app.is_done:
                app.exit()
            await asyncio.wait_for(task, WAIT_S)


def screen_text(app: BlitzApp, rows: int = 24, columns: int = 80) -> list[str]:
    """The characters the application would draw on a ``rows`` x ``columns`` terminal."""
    screen = Screen(default_char=Char(" ", ""))
    app.take_changes()  # as a real frame does first: what the node changed since the last
    app.render_counter += 1  # controls cache their text per frame: this is a new frame
    with set_app(app):
        app.layout.container.write_to_screen(
            screen,
            MouseHandlers(),
            WritePosition(0, 0, columns, rows),
            parent_style="",
            erase_bg=False,
            z_index=None,
        )
        screen.draw_all_floats()
    return [
        "".join(screen.data_buffer[y][x].char for x in range(columns)).rstrip() for y in range(rows)
    ]


def width(line: str) -> int:
    return sum(get_cwidth(ch) for ch in line)
