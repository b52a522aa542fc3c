"""The tasks a seat runs, and what stops it: a failed write, or a loop that broke."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

from dutchblitz.protocol.seat.duties import Wishes

from ..net.transport import TransportClosed
from ..store.state import StoreError

log = logging.getLogger("dutchblitz.node")


class SeatTasks:
    """The seat's tasks, each guarded: an error in one is counted, and a failed write (a
    ``StoreError``) or a loop that stopped is the seat's ``failure``, which ends it.

    A task runs its work itself, with no wrapper around it: the seat's receive loop is
    the outermost call of everything it does (``python -m tests.structure --path``)."""

    def __init__(self, wishes: Wishes) -> None:
        self.wishes = wishes  # its name labels the log lines
        self.failure: StoreError | None = None
        self.failed = asyncio.Event()
        self.loop_errors = 0
        self._tasks: list[asyncio.Task[None]] = []

    def spawn(self, work: Awaitable[None], name: str) -> None:
        """Run ``work`` until ``cancel``, guarded: how it ends is looked at when it does."""
        task = asyncio.ensure_future(work)
        task.add_done_callback(lambda done: self._ended(done, name))
        self._tasks.append(task)

    def _ended(self, task: asyncio.Future[None], name: str) -> None:
        if task.cancelled():
            return
        error = task.exception()
        if error is None or isinstance(error, TransportClosed):
            return
        if isinstance(error, StoreError):
            self.fail(error)
            return
        log.error("%s: the %s loop stopped", self.wishes.name, name, exc_info=error)
        self.loop_errors += 1
        self.fail(StoreError(f"the {name} loop stopped unexpectedly"))

    def fail(self, error: StoreError) -> None:
        """The seat cannot go on: the first such error is kept, and ``failed`` is set."""
        if self.failure is None:
            self.failure = error
            log.error(
                "%s: %s; stopping (everything written so far is kept)", self.wishes.name, error
            )
        self.failed.set()

    def loop_error(self, what: str) -> None:
        """An error while doing ``what`` in a loop: counted, logged the first time, not fatal."""
        self.loop_errors += 1
        if self.loop_errors == 1:
            log.exception("%s: error while %s (counted, not fatal)", self.wishes.name, what)

    async def until(self, event: asyncio.Event) -> None:
        """Wait until ``event`` is set, or the seat has failed."""
        waits = [asyncio.ensure_future(e.wait()) for e in (event, self.failed)]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    async def cancel(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
