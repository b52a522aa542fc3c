"""One seat this process plays at the table: the person's own, or a local bot's.

A ``LocalSeat`` is a whole peer: its node id, state directory, ZeroMQ transport and
``SeatMachine`` (protocol/seat/machine.py), which decides everything the seat does, with
the parts that carry out its effects (``SeatParts``, parts.py). This is their shell, as
aioquic's ``datagram_received``: one call into the machine per input, then the effects
it returns carried out in order (``Carrier.carry``): each message of a batch (``receive``,
then ``acknowledge`` once), a tick (``tick``), a change (``duties``, after a bot's
``think_pause``), the player (``submit``, ``act``, ``leave``). A seat with no log to
reload greets its peers and hands the machine ``listen``; it settles on a table in a
later call, and ``start`` returns once it holds a log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from dutchblitz.protocol.seat.effects import Out
from dutchblitz.protocol.wire.messages import Body

from ..net.transport import Transport
from ..store.state import StateDir, StoreError
from .config import SeatConfig
from .parts import SeatParts
from .ticks import now

log = logging.getLogger("dutchblitz.node")

MAX_BATCH = 256  # messages handled before the acknowledgement and a yield
SIT_DOWN_S = 10.0  # how long a seat taken away while it joins waits to sit, to say goodbye


class LocalSeat(SeatParts):
    """A peer at the table, run on the caller's asyncio loop: the shell of its machine."""

    def __init__(
        self, config: SeatConfig, store: StateDir, transport: Transport, node_id: bytes
    ) -> None:
        super().__init__(config, store, transport, node_id, self._pause_over)
        self._changed = asyncio.Event()  # the duties are due a look
        self._closed = False

    # -- life ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Find the table (restore, join or found), then run until ``close``."""
        self.spawn(self._receive_loop(), "receive")
        self.spawn(self._timer_loop(), "timer")
        if not self.seating.restore():
            self.carrier.execute(self.peers.greet_all(self.replica, force=True))
            self._run("listening", self.machine.listen, now())
            await self.tasks.until(self.placed)  # or the seat stops
            if self.replica is None and self.failure is not None:
                raise self.failure
        self.spawn(self._duty_loop(), "duties")

    def spawn(self, work: Awaitable[None], name: str) -> None:
        """Run ``work`` beside the seat's own loops, until ``close``; an error in it is
        counted as the seat's own (a test rig adds its misbehaviour this way)."""
        self.tasks.spawn(work, name)

    async def close(self) -> None:
        """Stop every task and close the sockets and files (no goodbye: see ``leave``)."""
        if self._closed:
            return
        self._closed = True
        self.placed.set()  # a start under way stops waiting
        log.info("%s: counters: %s", self.label, self.counters())
        self.ticker.cancel()
        await self.tasks.cancel()
        self.transport.close()
        self.store.close()

    async def sit_down_first(self, limit: float = SIT_DOWN_S) -> None:
        """Wait, at most ``limit`` seconds, until the seat has sat down. A seat taken away
        while it asks to join leaves with no goodbye, yet the table admits it all the same:
        a member nobody answers for, never ready, whose acknowledgements every event then
        waits for. Once seated, its goodbye takes the seat away again."""
        changed = asyncio.Event()
        self.watchers.append(changed.set)
        try:
            async with asyncio.timeout(limit):
                while self.sitting_down() and not self._closed and self.failure is None:
                    changed.clear()
                    await changed.wait()
        except TimeoutError:
            log.info("%s: not seated after %.0f s: leaving all the same", self.label, limit)
        finally:
            self.watchers.remove(changed.set)

    async def leave(self, linger: float = 0.3) -> None:
        """Say goodbye to the table (a BYE) if still playing, then close."""
        if self.failure is None:
            with contextlib.suppress(StoreError):
                self._run("leaving", self.machine.leave, now())
        await asyncio.sleep(linger)  # let ZeroMQ hand the last messages over
        await self.close()

    # -- the loops: one call into the machine per input, then its effects -----------------

    async def _receive_loop(self) -> None:
        transport, machine = self.transport, self.machine
        while True:
            batch = [await transport.recv()]
            while len(batch) < MAX_BATCH and (more := transport.try_recv()) is not None:
                batch.append(more)
            at = now()
            for sender, data in batch:
                self._run("handling a message", machine.receive, sender, data, at, notify=False)
            self._run("acknowledging", machine.acknowledge, at)
            await asyncio.sleep(0)

    async def _timer_loop(self) -> None:
        while True:
            self._run("ticking", self.machine.tick, await self.ticker.due())

    async def _duty_loop(self) -> None:
        while True:
            await self._changed.wait()
            self._changed.clear()
            pause = self.machine.think_pause(self.config.settings.game)
            if pause > 0:
                await asyncio.sleep(pause)
            if self.failure is None:
                self._run("choosing a move", self.machine.duties, now(), notify=None)
            await asyncio.sleep(0)

    def _run(
        self, what: str, step: Callable[..., list[Out]], *args: Any, notify: bool | None = True
    ) -> bool:
        """Hand the machine one input (``step(*args)``) and carry out its effects, then look
        at the duties again and tell the screen (``notify``; None: if there were effects).
        A failed write stops the seat (raised); any other error is counted."""
        outs: list[Out] = []
        try:
            outs = step(*args)
            self.carrier.carry(outs)
        except StoreError:
            self.machine.failed = True
            raise
        except Exception:
            self.tasks.loop_error(what)
            return False
        finally:
            if notify or (notify is None and outs):
                self._changed.set()
                self._notify()
        return True

    def _notify(self) -> None:
        for watcher in list(self.watchers):
            try:
                watcher()
            except Exception:
                self.tasks.loop_error("telling the screen")

    def _pause_over(self) -> None:  # the scores' timeout or the count-in ended
        self.poke()
        self._notify()

    # -- the node's and the player's inputs ------------------------------------------------

    def poke(self) -> None:
        """Look again at what the seat owes the table (after the person changed a wish)."""
        self._changed.set()

    def submit(self, body: Body) -> bool:
        """Send one event of ours; False if it could not be written down (see ``failure``)."""
        return self.act(self.machine.submit, body)

    def act(self, step: Callable[..., list[Out]], *args: Any) -> bool:
        """A person's input (``SeatMachine.submit``, ``offer``, ``pump``), with the time;
        False if it could not go or be written down (see ``failure``)."""
        if self.replica is None or self.failure is not None:
            return False
        try:
            return self._run("sending", step, *args, now())
        except StoreError as error:
            self.tasks.fail(error)
            return False
