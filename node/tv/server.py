"""Serving the TV view: aiohttp on the node's own event loop, read-only.

Routes, every one a GET (aiohttp answers any other method with 405):

- ``/``: the page (static/index.html), which loads ``/static/tv.css`` and ``/static/tv.js``;
- ``/state``: the public table now, as JSON (``public.public_view``);
- ``/events``: the same JSON pushed as server-sent events, one frame per change.

Nothing a page sends reaches the node: the server reads the session's snapshot and never
calls an action. Its cost is bounded: at most ``MAX_TV_VIEWERS`` streams, and each
viewer's queue is one flag ("the table changed"): a viewer is sent the latest table when
it is ready for it, so a slow one skips states instead of piling them up, and one that
takes no data for ``SEND_TIMEOUT_S`` is dropped. The listening socket is bound before the
node joins its table, so a port that is taken stops the node before anyone sees it.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from aiohttp import web
from aiohttp_sse import EventSourceResponse, sse_response
from dutchblitz.protocol.limits import MAX_TV_VIEWERS

from ..api import Snapshot
from .address import WebAddress
from .public import public_view

log = logging.getLogger("dutchblitz.node.tv")  # the node's log: node.log under a table

STATIC = Path(__file__).resolve().parent / "static"
FRAME_GAP_S = 0.1  # at most ten frames a second to each viewer: a TV needs no more
SEND_TIMEOUT_S = 10.0  # a viewer that takes no data this long is dropped
PING_S = 5.0  # a comment line this often: a closed page frees its place within it
RETRY_MS = 2000  # how soon a page tries again when the node has gone (restarted)
STARTING = json.dumps({"phase": "starting"})
HEADERS = {
    # The page loads nothing from elsewhere: it works with no internet, and a name a
    # player chose cannot pull in a script.
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class Watched(Protocol):
    """What the TV reads of a node's ``Session`` (node/api.py): a player's or a watcher's."""

    def snapshot(self) -> Snapshot: ...

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]: ...


def bind_error(address: WebAddress, error: OSError) -> str:
    """Why the page cannot be served at ``address``, in one line for the player."""
    where = f"--web {address.host}:{address.port}"
    if isinstance(error, socket.gaierror):
        return f"{where}: no machine named {address.host!r} is known here"
    if error.errno == errno.EADDRINUSE:
        return f"{where}: port {address.port} is taken: pick another, or 0 for any"
    if error.errno == errno.EACCES:
        return f"{where}: port {address.port} is reserved: pick one above 1023"
    if error.errno == errno.EADDRNOTAVAIL:
        return f"{where}: {address.host} is not an address of this machine"
    return f"{where}: cannot listen there: {error.strerror or error}"


@dataclass(slots=True, eq=False)
class _Viewer:
    """One open page: its queue is a single flag, set when the table changes."""

    changed: asyncio.Event = field(default_factory=asyncio.Event)
    stream: EventSourceResponse | None = None


class TvServer:
    """The page's server. ``await TvServer.open(address)``, ``watch(session)``, ``close()``."""

    def __init__(self, address: WebAddress) -> None:
        self.address = address  # once open, the port bound (when 0 was asked for)
        self._runner: web.AppRunner | None = None
        self._session: Watched | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._frame = STARTING
        self._stale = False
        self.viewers: set[_Viewer] = set()
        self.turned_away = 0  # pages refused because MAX_TV_VIEWERS were open

    @classmethod
    async def open(cls, address: WebAddress) -> TvServer:
        """Bind and serve; raises ``OSError`` (see ``bind_error``) when it cannot."""
        server = cls(address)
        app = web.Application()
        server._routes(app)
        runner = web.AppRunner(
            app, access_log=None, logger=log, handle_signals=False, shutdown_timeout=1.0
        )
        await runner.setup()
        site = web.TCPSite(runner, address.host, address.port)
        try:
            await site.start()
        except OSError:
            await runner.cleanup()
            raise
        server._runner = runner
        bound = runner.addresses[0][1] if runner.addresses else address.port
        server.address = WebAddress(address.host, bound)
        return server

    def _routes(self, app: web.Application) -> None:
        app.router.add_get("/", self._page)
        app.router.add_get("/state", self._state)
        app.router.add_get("/events", self._events)
        app.router.add_static("/static", STATIC, follow_symlinks=False)
        app.on_response_prepare.append(_add_headers)

    def watch(self, session: Watched) -> None:
        """Show ``session``'s table from now on."""
        self._session = session
        self._unsubscribe = session.subscribe(self._changed)
        self._changed()

    def frame(self) -> str:
        """The public table as JSON, made once per change whatever the number of viewers."""
        if self._stale and self._session is not None:
            self._frame = json.dumps(
                public_view(self._session.snapshot()), ensure_ascii=False, separators=(",", ":")
            )
            self._stale = False
        return self._frame

    def _changed(self) -> None:
        self._stale = True
        for viewer in self.viewers:
            viewer.changed.set()

    async def _page(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    async def _state(self, request: web.Request) -> web.Response:
        return web.Response(text=self.frame(), content_type="application/json")

    async def _events(self, request: web.Request) -> web.StreamResponse:
        if len(self.viewers) >= MAX_TV_VIEWERS:
            self.turned_away += 1
            raise web.HTTPServiceUnavailable(
                text=f"the TV view has {MAX_TV_VIEWERS} viewers already: close one\n"
            )
        viewer = _Viewer()
        self.viewers.add(viewer)
        try:
            async with sse_response(
                request, send_timeout=SEND_TIMEOUT_S, ping_interval=PING_S
            ) as stream:
                viewer.stream = stream
                await self._stream(viewer, stream)
        except (ConnectionError, TimeoutError, RuntimeError):
            pass  # the page went away, or stopped taking data
        finally:
            self.viewers.discard(viewer)
        return stream

    async def _stream(self, viewer: _Viewer, stream: EventSourceResponse) -> None:
        sent = ""
        first = True
        while stream.is_connected():
            frame = self.frame()
            if frame != sent:
                await stream.send(frame, retry=RETRY_MS if first else None)
                sent, first = frame, False
            # Wait for a change, or for the stream to end (its pings fail).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(viewer.changed.wait(), PING_S)
            viewer.changed.clear()
            await asyncio.sleep(FRAME_GAP_S)

    def url(self, interface_address: str = "") -> str:
        return self.address.url(interface_address)

    async def close(self) -> None:
        """Stop serving: every page is told the stream ended (it will try again)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        for viewer in list(self.viewers):
            if viewer.stream is not None:
                with contextlib.suppress(RuntimeError):
                    viewer.stream.stop_streaming()
            viewer.changed.set()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


async def _add_headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(HEADERS)
    if not isinstance(response, EventSourceResponse):
        response.headers["Cache-Control"] = "no-store"
