"""The node: one asyncio loop running the player's seat, any local bot seats, and discovery.

``Node.start`` picks the interface, opens the state directory and the seat's
ZeroMQ transport, announces the node on the LAN (zeroconf) unless told not to,
greets the ``--peer`` seeds, and lets the seat find its table (``seat``). Every
node found by discovery is greeted; a lost advert changes nothing, because
whether a player has left is the protocol's call, not the network's.

Local bot seats are full peers in the same process: each has its own node id,
state subdirectory (``bots/<n>``), transport on the same interface, and
replica. They advertise nothing: they greet the player's seat, and the HELLO
peer lists introduce them to everyone else.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import logging
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import zmq
from dutchblitz.protocol.core import Settings
from dutchblitz.protocol.game import Game, Phase
from dutchblitz.protocol.scoring import DEFAULT_TARGET

from .bots import LEVELS, Level
from .discovery import Advert, Discovery, Found
from .duties import Wishes
from .interfaces import Interface, choose_interface
from .seat import LocalSeat, SeatConfig
from .store import StateDir, StoreError, default_state_dir, write_json
from .transport import Transport

log = logging.getLogger("dutchblitz.node")

MAX_NAME_BYTES = 32


class StartError(Exception):
    """The node cannot start with these options; the text is for the player."""


@dataclass(frozen=True, slots=True)
class Options:
    """What the command line (or a test, or the client) asks of a node."""

    table: str = "blitz"
    name: str | None = None
    peers: tuple[str, ...] = ()  # "HOST:PORT"
    interface: str | None = None
    port: int = 0
    bot: bool = False
    bot_level: str = "normal"
    headless: bool = False
    players: int | None = None
    target: int = DEFAULT_TARGET
    seed: int | None = None
    state_dir: Path | None = None
    summary_json: Path | None = None
    suspect_after: float = 2.0
    discovery: bool = True
    join_window: float = 1.5


def default_name(bot: bool, node_id: bytes) -> str:
    if bot:
        return f"bot-{node_id.hex()[:4]}"
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = ""
    user = user.strip() or "player"
    return user.encode()[:MAX_NAME_BYTES].decode(errors="ignore") or "player"


def resolve_peer(spec: str) -> str:
    """``HOST:PORT`` as a ZeroMQ endpoint with an IPv4 address: ``tcp://192.0.2.7:5555``."""
    host, sep, port = spec.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise StartError(f"--peer {spec!r}: expected HOST:PORT")
    try:
        infos = socket.getaddrinfo(host, int(port), socket.AF_INET, socket.SOCK_STREAM)
    except OSError as error:
        raise StartError(f"--peer {spec!r}: cannot resolve {host!r}: {error}") from None
    return f"tcp://{infos[0][4][0]}:{int(port)}"


@dataclass(slots=True)
class BotSeat:
    number: int
    seat: LocalSeat
    level: str


@dataclass(slots=True)
class Node:
    """A running node. ``await start()``, then read ``main``; ``await stop()`` at the end."""

    options: Options
    interface: Interface | None = None
    main: LocalSeat | None = None
    bots: list[BotSeat] = field(default_factory=list)
    discovery: Discovery | None = None
    state_root: Path | None = None
    started_at: float = 0.0
    _tasks: list[asyncio.Task[None]] = field(default_factory=list)
    _seeds: list[str] = field(default_factory=list)
    watchers: list[Callable[[], None]] = field(default_factory=list)

    async def start(self) -> None:
        options = self.options
        loop = asyncio.get_running_loop()
        self.started_at = loop.time()
        self._seeds = [resolve_peer(spec) for spec in options.peers]
        try:
            self.interface = choose_interface(options.interface)
        except LookupError as error:
            raise StartError(str(error)) from None
        self.state_root = options.state_dir or default_state_dir()
        store = StateDir(self.state_root)
        node_id = store.node_id()
        transport = await self._open_transport(node_id, options.port)
        name = options.name or default_name(options.bot, node_id)
        wishes = Wishes(
            name=name,
            ready=options.headless,
            start_at=options.players if options.headless else None,
            target=options.target,
        )
        level = LEVELS[options.bot_level] if options.bot else None
        self.main = LocalSeat(self._config(wishes, level), store, transport, node_id)
        self.main.watchers.append(self._notify)
        log.info(
            "%s: node %s listening on %s (%s)",
            name,
            node_id.hex()[:8],
            transport.endpoint,
            self.interface.describe(),
        )
        for endpoint in self._seeds:
            self.main.add_seed(endpoint)
        if options.discovery:
            await self._start_discovery(node_id, name, transport.endpoint)
        await self.main.start()

    def _config(self, wishes: Wishes, level: Level | None) -> SeatConfig:
        options = self.options
        settings = Settings(suspect_after=options.suspect_after)
        return SeatConfig(options.table, wishes, settings, level, options.seed, options.join_window)

    async def _open_transport(self, node_id: bytes, port: int) -> Transport:
        assert self.interface is not None
        try:
            return await Transport.open(node_id, self.interface.address, port)
        except zmq.ZMQError as error:
            where = f"{self.interface.address}:{port or 'any'}"
            raise StartError(f"cannot listen on {where}: {error.strerror}") from None

    async def _start_discovery(self, node_id: bytes, name: str, endpoint: str) -> None:
        assert self.interface is not None
        port = int(endpoint.rpartition(":")[2])
        advert_name = name.encode()[:MAX_NAME_BYTES].decode(errors="ignore") or "player"
        discovery = Discovery(
            Advert(node_id, advert_name, self.options.table, port), self.interface.address
        )
        try:
            await discovery.start()
        except Exception as error:  # zeroconf raises many kinds; the game can go on
            log.warning("%s: LAN discovery is off: %s", name, error)
            with contextlib.suppress(Exception):
                await discovery.close()
            return
        self.discovery = discovery
        self._tasks.append(asyncio.ensure_future(self._discovery_loop(discovery)))

    async def _discovery_loop(self, discovery: Discovery) -> None:
        while True:
            event = await discovery.events.get()
            if isinstance(event, Found) and self.main is not None:
                try:
                    self.main.meet(event.node_id, event.endpoint, announced=True)
                except Exception:
                    log.exception("discovery: cannot greet %s", event.endpoint)

    # -- local bot seats ----------------------------------------------------------------

    async def add_bot(self, level: str) -> LocalSeat:
        """Seat a bot of ``level`` at our table, as a peer of its own in this process."""
        main = self.main
        assert main is not None and self.interface is not None and self.state_root is not None
        used = {bot.number for bot in self.bots}
        number = next(n for n in range(1, 1000) if n not in used)
        store = StateDir(self.state_root / "bots" / str(number))
        node_id = store.node_id()
        transport = await self._open_transport(node_id, 0)
        wishes = Wishes(name=f"bot-{node_id.hex()[:4]}", ready=True, target=self.options.target)
        config = self._config(wishes, LEVELS[level])
        config.restore = False  # a bot seated in the lobby sits down afresh
        seat = LocalSeat(config, store, transport, node_id)
        seat.watchers.append(self._notify)
        self.bots.append(BotSeat(number, seat, level))
        seat.meet(main.node_id, main.endpoint)
        main.meet(node_id, transport.endpoint)
        await seat.start()
        return seat

    async def remove_bot(self) -> bool:
        """Take the most recently seated local bot away (it says goodbye)."""
        if not self.bots:
            return False
        bot = self.bots.pop()
        await bot.seat.leave()
        self._notify()
        return True

    def local_bot_nodes(self) -> set[bytes]:
        return {bot.seat.node_id for bot in self.bots}

    def _notify(self) -> None:
        for watcher in list(self.watchers):
            watcher()

    # -- the end ------------------------------------------------------------------------

    def summary(self) -> dict[str, Any] | None:
        """The finished game, as every node at the table reports it; None before the end."""
        main = self.main
        if main is None or main.replica is None or main.replica.ended is None:
            return None
        _index, digest, game = main.replica.ended
        return game_summary(self.options.table, game, digest)

    def write_summary(self) -> dict[str, Any] | None:
        """Write the summary to the state directory and ``--summary-json``; None on failure."""
        summary = self.summary()
        main = self.main
        if summary is None or main is None or main.replica is None:
            return None
        written = True
        targets = [("results", lambda: main.store.save_results(main.replica.me.epoch, summary))]
        if self.options.summary_json is not None:
            path = self.options.summary_json
            targets.append(("summary", lambda: write_json(path, summary)))
        for what, write in targets:
            try:
                where = write()
                log.info("%s: %s written to %s", main.label, what, where)
            except StoreError as error:
                log.error("%s: %s", main.label, error)
                written = False
        return summary if written else None

    async def stop(self, goodbye: bool = True) -> None:
        """Leave the table (a goodbye unless told not to) and close everything."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        seats = [bot.seat for bot in self.bots] + ([self.main] if self.main else [])
        if goodbye:
            await asyncio.gather(*(seat.leave() for seat in seats), return_exceptions=True)
        else:
            await asyncio.gather(*(seat.close() for seat in seats), return_exceptions=True)
        if self.discovery is not None:
            with contextlib.suppress(Exception):
                await self.discovery.close()


def _names(game: Game) -> dict[int, str]:
    """Seat to display name; a name two players share gets its seat added."""
    by_seat = game.by_seat()
    names = {seat: member.name for seat, member in by_seat.items()}
    counts: dict[str, int] = {}
    for name in names.values():
        counts[name] = counts.get(name, 0) + 1
    return {
        seat: name if counts[name] == 1 else f"{name} (seat {seat + 1})"
        for seat, name in names.items()
    }


def game_summary(table: str, game: Game, digest: bytes) -> dict[str, Any]:
    names = _names(game)
    by_seat = game.by_seat()

    def named(scores: dict[int, int]) -> dict[str, int]:
        return {names[seat]: points for seat, points in sorted(scores.items())}

    return {
        "table": table,
        "players": [
            {"name": names[seat], "node_id": by_seat[seat].node.hex(), "back": by_seat[seat].back}
            for seat in game.players
        ],
        "rounds": [
            {
                "scores": named(result.scores),
                "blitz_by": None if result.blitz_by is None else names[result.blitz_by],
            }
            for result in game.results
        ],
        "final_scores": named(game.totals),
        "winner": None if game.winner is None else names[game.winner],
        "log_digest": digest.hex(),
        "races_lost": game.races_lost,
        "refused": game.refused,
        "over": game.phase == Phase.OVER,
        "flags": [
            {
                "round": flag.round,
                "name": names.get(flag.seat, f"seat {flag.seat + 1}"),
                "node_id": flag.node.hex(),
                "kind": flag.kind.value,
                "detail": flag.detail,
            }
            for flag in game.flags
        ],
    }
