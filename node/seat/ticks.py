"""When the seat's timer loop next ticks its replica, and the one wake-up a pause asks for."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

TICK_S = 1.0  # the longest the replica goes without a tick


def now() -> float:
    """The seat's clock: the running asyncio loop's."""
    return asyncio.get_running_loop().time()


class Ticker:
    """The timer loop's schedule: the next tick (``TICK_S`` after the last, or sooner when
    the replica asks with a ``Timer``), and a wake-up at the end of the pace's pause."""

    def __init__(self) -> None:
        self.next_tick = now()
        self._wake = asyncio.Event()
        self._pause_ends: asyncio.TimerHandle | None = None

    def by(self, at: float) -> None:
        """Tick no later than ``at``, waking the loop if it sleeps past it."""
        if at < self.next_tick:
            self.next_tick = at
            self._wake.set()

    def soon(self, at: float) -> None:
        """Tick again no later than ``at`` (asked from within a tick: the loop is awake)."""
        self.next_tick = min(self.next_tick, at)

    async def due(self) -> float:
        """Wait for the next tick; the time it is, with the tick after set ``TICK_S`` on."""
        while (delay := self.next_tick - now()) > 0:
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), delay)
        ticked = now()
        self.next_tick = ticked + TICK_S  # unless the replica asks for sooner
        return ticked

    def wake_at(self, at: float, callback: Callable[[], None]) -> None:
        """Call ``callback`` at ``at``, in place of any wake-up asked for before."""
        self.cancel()

        def woken() -> None:
            self._pause_ends = None
            callback()

        self._pause_ends = asyncio.get_running_loop().call_at(at, woken)

    def cancel(self) -> None:
        if self._pause_ends is not None:
            self._pause_ends.cancel()
            self._pause_ends = None
