"""Knocking at the ``--peer`` doors until each lets this node in, and which never answer.

A ``--peer`` that names an address its node does not listen on (it binds the interface of
the default route unless told otherwise, so ``127.0.0.1`` reaches nothing) never answers:
the knocks time out one after the other. ``Knocks.unanswered`` names such doors once they
have been silent for ``SILENT_AFTER_S``, for the screen to say so.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import zmq

from .door import DoorRefused

log = logging.getLogger(__name__)

KNOCK_RETRY_S = 1.0  # first wait between knocks at a seed's door that is not answering yet
KNOCK_RETRY_MAX_S = 8.0
# A door that says this will say it again: knocking on would only spend guesses.
FINAL_REFUSALS = frozenset({"wrong passphrase", "other table", "bad card", "version"})
SILENT_AFTER_S = 6.0  # a door that has not answered for this long is named on screen
NO_ANSWER = "timeout"  # the knock's reason when the door said nothing


class Knocks:
    """One knocking task per door; the doors that have not answered yet, and since when."""

    def __init__(
        self,
        knock: Callable[[str], Awaitable[object]],
        clock: Callable[[], float],
        on_change: Callable[[], None] = lambda: None,
        label: Callable[[], str] = lambda: "node",
        retry: float = KNOCK_RETRY_S,
        refused: Callable[[str, str], object] | None = None,
    ) -> None:
        self._knock = knock  # one knock; raises DoorRefused, OSError or ZMQError
        self._clock = clock
        self._on_change = on_change  # what ``unanswered`` gives may have changed
        self._label = label
        self._retry = retry  # the first wait between knocks; it doubles up to the most
        self._refused = refused or self._log_refusal  # a door turned us away for good
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._silent_since: dict[str, float] = {}  # doors knocked at that never answered

    def start(self, door_endpoint: str) -> asyncio.Task[None]:
        """Knock at a door in the background, unless we are knocking there already."""
        knocking = self._tasks.get(door_endpoint)
        if knocking is None or knocking.done():
            self._silent_since.setdefault(door_endpoint, self._clock())
            knocking = asyncio.ensure_future(self._until_in(door_endpoint))
            self._tasks[door_endpoint] = knocking
        return knocking

    def unanswered(self) -> tuple[str, ...]:
        """The doors still knocked at that have said nothing for ``SILENT_AFTER_S`` or more."""
        now = self._clock()
        return tuple(
            door
            for door, since in self._silent_since.items()
            if now - since >= SILENT_AFTER_S and not self._tasks[door].done()
        )

    def cancel(self) -> None:
        for task in self._tasks.values():
            task.cancel()

    async def _until_in(self, door_endpoint: str) -> None:
        """Knock until the door lets us in; give up only when it never will."""
        wait = self._retry
        while True:
            try:
                await self._knock(door_endpoint)
                self._answered(door_endpoint)
                return
            except DoorRefused as error:
                if error.reason == NO_ANSWER:
                    self._still_silent(door_endpoint)
                else:
                    self._answered(door_endpoint)  # if only to say no
                if error.reason == "self":
                    return  # our own door, under another address
                if error.reason in FINAL_REFUSALS:
                    self._refused(door_endpoint, error.reason)
                    return
                log.debug("%s: knocking at %s: %s", self._label(), door_endpoint, error.reason)
            except (OSError, zmq.ZMQError) as error:
                log.debug("%s: knocking at %s: %s", self._label(), door_endpoint, error)
                self._still_silent(door_endpoint)
            await asyncio.sleep(wait)
            wait = min(2 * wait, KNOCK_RETRY_MAX_S)

    def _log_refusal(self, door_endpoint: str, reason: str) -> None:
        log.error("%s: the door at %s refused us: %s", self._label(), door_endpoint, reason)

    def _answered(self, door_endpoint: str) -> None:
        if self._silent_since.pop(door_endpoint, None) is not None:
            self._on_change()

    def _still_silent(self, door_endpoint: str) -> None:
        since = self._silent_since.get(door_endpoint)
        if since is not None and self._clock() - since >= SILENT_AFTER_S:
            self._on_change()
