"""The application: state, layout and keys put together, with the I/O passed in."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

from dutchblitz.node.api import Session
from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from .games import DEFAULT_GAME, registry
from .keys import create_key_bindings
from .layout import STYLE, build_layout, sync_focus
from .state import ClientState

TICK_SECONDS = 0.25  # notices expire and the lobby's clock moves on this beat
LEAVE_SECONDS = 5.0  # how long leaving may take before the client stops waiting
ESCAPE_SECONDS = 0.1  # how long a lone Esc waits to be sure it starts no key sequence


class BlitzApp(Application[None]):
    """The prompt_toolkit application, holding its own state (no global application state)."""

    def __init__(self, state: ClientState, input: Input | None, output: Output | None) -> None:
        super().__init__(
            layout=build_layout(state),
            key_bindings=create_key_bindings(state),
            style=STYLE,
            full_screen=True,
            mouse_support=False,
            input=input,
            output=output,
        )
        self.state = state
        self.ttimeoutlen = ESCAPE_SECONDS
        self.before_render += lambda app: self.take_changes()
        self.before_render += lambda app: sync_focus(self.layout, state)
        self.before_render += lambda app: setattr(state, "terminal", self.output.get_size())
        self.pre_run_callables.append(self._started)
        self._unsubscribe: Callable[[], None] | None = None
        # The node said something changed since the last frame: the next frame takes the
        # new snapshot. The node's call ends here, so it never comes back into the node.
        self._changes = False

    def _started(self) -> None:
        self.state.refresh()
        if self._unsubscribe is None:
            self._unsubscribe = self.state.session.subscribe(self._changed)
        self.create_background_task(self._tick())

    def _changed(self) -> None:
        self._changes = True
        self.invalidate()

    def take_changes(self) -> None:
        """Before a frame: the node's snapshot and notices, if it said they changed."""
        if self._changes:
            self._changes = False
            self.state.refresh()

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            self.state.tick()
            self.invalidate()

    def unsubscribe(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None


def build_app(
    session: Session,
    input: Input | None = None,
    output: Output | None = None,
    *,
    clock: Callable[[], float] = time.monotonic,
    game: str = DEFAULT_GAME,
) -> BlitzApp:
    """The table, drawn with the face of ``game`` (a tag in ``games/registry.py``)."""
    return BlitzApp(ClientState(session, clock, game, registry.words()), input, output)


async def run_app(
    session: Session,
    input: Input | None = None,
    output: Output | None = None,
    *,
    game: str = DEFAULT_GAME,
) -> None:
    """Run the table on the running event loop until the player leaves, then leave the table."""
    app = build_app(session, input, output, game=game)
    try:
        await app.run_async()
    finally:
        app.unsubscribe()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(session.leave(), LEAVE_SECONDS)
