"""The node: one asyncio loop running the player's seat, any local bot seats, and discovery.

``Node.start`` picks the interface, opens the state directory and the seat's
ZeroMQ transport (a CURVE server on a free port), opens the node's door on
``--port``, announces the node on the LAN (zeroconf) unless told not to, knocks
at the doors of the ``--peer`` seeds, and lets the seat find its table
(``seat``). Every node met at a door or found by discovery goes on the seat's
roster and is greeted; a lost advert changes nothing, because whether a player
has left is the protocol's call, not the network's.

On a private table (``--passphrase``) a key gets on the roster only through the
door's passphrase handshake (ours or theirs), or from the HELLO of a peer that
did; a node found by discovery is knocked on, not taken at its word.

Local bot seats are full peers in the same process: each has its own node id,
key, state subdirectory (``bots/<n>``), roster, transport on the same
interface, and replica. They have no door and advertise nothing: they greet the
player's seat, and the HELLO peer lists introduce them to everyone else.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import getpass
import logging
import socket
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import zmq
import zmq.asyncio
from dutchblitz.protocol.games.registry import (
    DEFAULT_GAME,
    game_for,
)
from dutchblitz.protocol.limits import DEFAULT_TARGET
from dutchblitz.protocol.limits import MAX_NAME as MAX_NAME_BYTES
from dutchblitz.protocol.replica.core import Settings
from dutchblitz.protocol.seat.duties import Wishes
from dutchblitz.protocol.seat.pace import COUNT_IN_S
from dutchblitz.protocol.wire.auth import Signer

from .local_bots import LocalBots
from .net.discovery import Advert, Discovery, Found
from .net.door import Card, Door, knock
from .net.doorbell import Refusals
from .net.interfaces import Interface, choose_interface
from .net.knocks import Knocks
from .net.roster import Roster, Source
from .net.transport import Transport
from .seat.config import SeatConfig
from .seat.ending import game_summary
from .seat.local import LocalSeat
from .seat.spectator import WatchSeat
from .store.lock import StateLock, claim_state_dir
from .store.state import StateDir, StoreError, write_json
from .store.tablesocket import remember, remembered
from .tv.address import WebAddress

log = logging.getLogger("dutchblitz.node")

SEED_WAIT_S = 3.0  # how long the seat waits for the seeds' doors before looking for a table


class StartError(Exception):
    """The node cannot start with these options; the text is for the player."""


@dataclass(frozen=True, slots=True)
class Options:
    """What the command line (or a test, or the client) asks of a node."""

    table: str = "blitz"
    name: str | None = None
    peers: tuple[str, ...] = ()  # "HOST:PORT" of a door
    interface: str | None = None
    port: int = 0  # the door's port (0: any free port)
    passphrase: str | None = None  # a private table: only those who know it sit down
    typed: bool = False  # the phrase was typed at a hidden prompt: founding, ask it again
    bot: bool = False
    bot_level: str = "normal"
    headless: bool = False
    players: int | None = None
    target: int = DEFAULT_TARGET
    rounds: int | None = None  # a game this node starts lasts this many rounds (P-237)
    post_stacking: bool = True  # the table option this node's START carries
    seed: int | None = None
    state_dir: Path | None = None
    summary_json: Path | None = None
    suspect_after: float = 2.0
    discovery: bool = True
    join_window: float = 1.5
    # Every seat's count-in before it plays a round (spec/rules.md R-55). Not a flag: a
    # table is fair when every honest node counts the same; a bench may set 0.
    count_in_s: float = COUNT_IN_S
    web: WebAddress | None = None  # --web: where the TV view is served (None: not served)
    watch: bool = False  # a spectator follows the table's game (node/seat/spectator.py)
    game: str = DEFAULT_GAME  # the game this node's table hosts (protocol/games/registry.py)


def default_name(bot: bool, node_id: bytes, profile: int = 1) -> str:
    """The login name; a second profile on the same login is told apart: ``ada-2``."""
    if bot:
        return f"bot-{node_id.hex()[:4]}"
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = ""
    user = user.strip() or "player"
    suffix = f"-{profile}" if profile > 1 else ""
    room = MAX_NAME_BYTES - len(suffix)
    return (user.encode()[:room].decode(errors="ignore") or "player") + suffix


def resolve_peer(spec: str) -> str:
    """``HOST:PORT`` as a ZeroMQ endpoint with an IPv4 address: ``tcp://192.0.2.7:5555``."""
    host, sep, port = spec.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise StartError(f"--peer {spec!r}: expected HOST:PORT")
    try:
        infos = socket.getaddrinfo(host, int(port), socket.AF_INET, socket.SOCK_STREAM)
    except OSError:
        raise StartError(
            f"--peer {spec}: no machine named {host!r} is known here: check the name, "
            "or give its address"
        ) from None
    return f"tcp://{infos[0][4][0]}:{int(port)}"


def listen_error(address: str, port: int, error: zmq.ZMQError) -> StartError:
    """Why this node cannot listen on ``address:port``, in the player's words."""
    if error.errno == errno.EADDRINUSE and port:
        return StartError(f"port {port} is taken: pick another with --port, or 0 for any")
    if error.errno == errno.EACCES and port:
        return StartError(f"port {port} is reserved: pick one above 1023 with --port, or 0 for any")
    if error.errno == errno.EADDRNOTAVAIL:
        return StartError(f"{address} is not an address of this machine: pick one with --interface")
    why = (error.strerror or str(error)).split(" (addr=")[0]  # ZeroMQ appends the endpoint
    return StartError(f"cannot listen on {address}:{port or 'any port'}: {why}")


@dataclass(slots=True)
class Node:
    """A running node. ``await start()``, then read ``main``; ``await stop()`` at the end."""

    options: Options
    interface: Interface | None = None
    main: LocalSeat | None = None
    bots: LocalBots = field(init=False)  # the bots this node seats at its table
    discovery: Discovery | None = None
    door: Door | None = None
    door_context: zmq.asyncio.Context | None = None  # the door's and our knocks' sockets
    signer: Signer | None = None
    state_root: Path | None = None
    lock: StateLock | None = None  # held from start to stop: no other node uses state_root
    started_at: float = 0.0
    _tasks: list[asyncio.Task[None]] = field(default_factory=list)
    seating: asyncio.Task[None] | None = None  # the seat finding its table (``listen``)
    _seeds: list[str] = field(default_factory=list)
    knocks: Knocks | None = None  # at the --peer doors, and a private table's found ones
    watchers: list[Callable[[], None]] = field(default_factory=list)
    refused_us: Refusals = field(default_factory=Refusals)  # doors that turned us away
    unwritten: str = ""  # why a game's result could not be written ("": every one was)

    def __post_init__(self) -> None:
        self.bots = LocalBots(self)

    async def start(self, seat_behind: bool = False) -> None:
        """Listen, then find the table: join one, restore ours, or found one. With
        ``seat_behind``, return once listening: the seat goes on finding the table in the
        background (``seated``), so that a screen can show the lobby meanwhile."""
        options = self.options
        loop = asyncio.get_running_loop()
        self.started_at = loop.time()
        self._seeds = [resolve_peer(spec) for spec in options.peers]
        self.knocks = Knocks(
            self.knock_at, loop.time, self.notify, self._label, refused=self._refused_us
        )
        try:
            self.interface = choose_interface(options.interface)
        except LookupError as error:
            raise StartError(str(error)) from None
        self.lock = claim_state_dir(options.state_dir)
        self.state_root = self.lock.root
        if self.lock.profile > 1:
            log.info("the default profile is in use: this node uses %s", self.state_root)
        store = StateDir(self.state_root)
        signer = self.signer = store.identity()
        node_id = signer.node_id
        transport = await self.open_transport(signer, self.state_root)
        kept = None if options.bot else store.name()  # n in the lobby, the last time
        name = options.name or kept or default_name(options.bot, node_id, self.lock.profile)
        wishes = Wishes(
            name=name,
            ready=options.headless,
            start_at=options.players if options.headless else None,
            target=options.target,
            post_stacking=options.post_stacking,
            rounds=options.rounds,
        )
        level = game_for(options.game).levels[options.bot_level] if options.bot else None
        kind = WatchSeat if options.watch else LocalSeat
        self.main = kind(self.seat_config(wishes, level), store, transport, node_id)
        self.main.watchers.append(self.notify)
        self.door = await self._open_door(transport, name)
        log.info(
            "%s: node %s (key %s) listening on %s, door %s (%s)",
            name,
            node_id.hex()[:8],
            signer.fingerprint,
            transport.endpoint,
            self.door.endpoint,
            self.interface.describe(),
        )
        seeds = [
            seed for seed in self._seeds if seed not in (self.door.endpoint, self.door.loopback)
        ]
        knocks = [self._knock_later(seed) for seed in seeds]
        if options.discovery:
            await self._start_discovery(signer, name, transport.endpoint)
        self.seating = asyncio.ensure_future(_sit_down(self, knocks))
        self._tasks.append(self.seating)
        if not seat_behind:
            await seated(self)

    def seat_config(self, wishes: Wishes, level: Any) -> SeatConfig:
        options = self.options
        # CURVE has proven the sender of every message that comes straight from its
        # origin (the seat checks the header names that key): only relayed events,
        # and those inside a REPAIR, need their signatures checked.
        game = options.game
        settings = Settings(suspect_after=options.suspect_after, verify_direct=False, game=game)
        return SeatConfig(
            options.table,
            wishes,
            settings,
            level,
            options.seed,
            options.join_window,
            count_in_s=options.count_in_s,
        )

    async def open_transport(self, signer: Signer, root: Path) -> Transport:
        """The seat's table socket, on the port it had last time if that is still free.

        Keeping the port lets peers' connections to a restarted node come back by
        themselves, and the keys it let in last time are let in again at once.
        """
        assert self.interface is not None
        roster = Roster(private=self.options.passphrase is not None)
        roster.learn(signer.node_id, signer.public_key, Source.LOCAL)
        port, keys = remembered(root)
        for node, key in keys.items():
            roster.learn(node, key, Source.HELLO)
        address = self.interface.address
        try:
            transport = await Transport.open(signer, address, port, roster=roster)
        except zmq.ZMQError:
            try:
                transport = await Transport.open(signer, address, 0, roster=roster)
            except zmq.ZMQError as error:
                raise listen_error(address, 0, error) from None
        remember(root, transport)
        roster.listeners.append(lambda node, key: remember(root, transport))
        return transport

    async def _open_door(self, transport: Transport, name: str) -> Door:
        assert self.interface is not None and self.signer is not None
        signer = self.signer
        port = self.options.port
        card = Card(signer.node_id, signer.public_key, transport.endpoint, name)
        # A context of its own: the table's ZAP handler admits only the roster, and the
        # door must let anyone knock.
        self.door_context = zmq.asyncio.Context()
        try:
            return await Door.open(
                self.door_context,
                self.interface.address,
                port,
                signer=signer,
                table=self.options.table,
                passphrase=self.options.passphrase,
                card=lambda: card,
                on_admit=self._admit,
            )
        except zmq.ZMQError as error:
            raise listen_error(self.interface.address, port, error) from None

    def _admit(self, card: Card) -> None:
        """A node passed our door (or we passed its): on the roster, and greet it."""
        main = self.main
        if main is None:
            return
        source = Source.PAKE if self.options.passphrase is not None else Source.DOOR
        if not main.roster.learn(card.node_id, card.public_key, source):
            log.warning("%s: a card whose id is not its key's, refused", main.label)
            return
        for bot in self.bots.seats:
            bot.seat.roster.learn(card.node_id, card.public_key, source)
        remember(main.store.root, main.transport)
        try:
            main.meet(card.node_id, card.table_endpoint, force=True)
        except Exception:
            log.exception("door: cannot greet %s", card.table_endpoint)

    def _card(self) -> Card:
        main, signer = self.main, self.signer
        assert main is not None and signer is not None
        return Card(signer.node_id, signer.public_key, main.endpoint, main.label)

    async def knock_at(self, door_endpoint: str) -> Card:
        """Pass a peer's door: exchange cards (and prove the passphrase); raises DoorRefused."""
        main = self.main
        assert main is not None and self.signer is not None
        assert self.door_context is not None
        card = await knock(
            self.door_context,
            door_endpoint,
            signer=self.signer,
            table=self.options.table,
            passphrase=self.options.passphrase,
            mine=self._card(),
        )
        self._admit(card)
        return card

    def _knock_later(self, door_endpoint: str) -> asyncio.Task[None]:
        """Knock at a door in the background until it lets us in (node/net/knocks.py)."""
        assert self.knocks is not None
        knocking = self.knocks.start(door_endpoint)
        if knocking not in self._tasks:
            self._tasks.append(knocking)
        return knocking

    def set_passphrase(self, passphrase: str) -> None:
        """The table's phrase from now on, for the door's knocks and ours."""
        self.options = replace(self.options, passphrase=passphrase)
        if self.door is not None:
            self.door.set_passphrase(passphrase)

    def _refused_us(self, door_endpoint: str, reason: str) -> None:
        # Seated at the table our phrase opened, a door with another phrase is a stranger's.
        seated = self.main is not None and self.main.replica is not None
        self.refused_us.add(self._label(), door_endpoint, reason, seated)

    def _label(self) -> str:
        return self.main.label if self.main is not None else "node"

    def unanswered_peers(self) -> tuple[str, ...]:
        """The --peer doors that have not answered a knock for a while (node/net/knocks.py)."""
        silent = self.knocks.unanswered() if self.knocks is not None else ()
        return tuple(door for door in silent if door in self._seeds)

    async def _start_discovery(self, signer: Signer, name: str, endpoint: str) -> None:
        assert self.interface is not None and self.door is not None
        port = int(endpoint.rpartition(":")[2])
        door_port = int(self.door.endpoint.rpartition(":")[2])
        advert_name = name.encode()[:MAX_NAME_BYTES].decode(errors="ignore") or "player"
        advert = Advert(
            signer.node_id, advert_name, self.options.table, port, signer.public_key, door_port
        )
        discovery = Discovery(advert, self.interface.address)
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
                if self.options.passphrase is not None:
                    # A private table takes nobody at their advert's word: knock.
                    if not self.main.roster.allows(event.node_id):
                        self._knock_later(event.door)
                    continue
                self.main.roster.learn(event.node_id, event.key, Source.ADVERT)
                try:
                    self.main.meet(event.node_id, event.endpoint, announced=True)
                except Exception:
                    log.exception("discovery: cannot greet %s", event.endpoint)

    def notify(self) -> None:
        for watcher in list(self.watchers):
            watcher()

    # -- the end ------------------------------------------------------------------------

    def summary(self) -> dict[str, Any] | None:
        """The finished game, as every node at the table reports it; None before the end."""
        ended = None if self.main is None else self.main.ended_game()
        return None if ended is None else game_summary(self.options.table, ended[1], ended[0])

    def write_summary(self) -> dict[str, Any] | None:
        """Write the summary to the state directory and ``--summary-json``; None on failure."""
        summary, main = self.summary(), self.main
        if summary is None or main is None:
            return None
        written, targets = True, []
        if main.replica is not None:  # a spectator keeps no results of its own
            epoch, game = main.replica.me.epoch, summary["game"]
            targets.append(("results", lambda: main.store.save_results(epoch, summary, game)))
        if self.options.summary_json is not None:
            path = self.options.summary_json
            targets.append(("summary", lambda: write_json(path, summary)))
        for what, write in targets:
            try:
                log.info("%s: %s written to %s", main.label, what, write())
            except StoreError as error:
                log.error("%s: %s", main.label, error)
                written, self.unwritten = False, str(error)
        return summary if written else None

    async def stop(self, goodbye: bool = True) -> None:
        """Leave the table (a goodbye unless told not to) and close everything."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.door is not None:
            with contextlib.suppress(Exception):
                self.door.close()
        if self.door_context is not None:
            self.door_context.destroy(linger=0)
        seats = [bot.seat for bot in self.bots.seats] + ([self.main] if self.main else [])
        if goodbye and self.main is not None:
            self.bots.seats.clear()
            self.bots.keep()  # the player leaves the table, and their bots with them
        if goodbye:
            await asyncio.gather(*(seat.leave() for seat in seats), return_exceptions=True)
        else:
            await asyncio.gather(*(seat.close() for seat in seats), return_exceptions=True)
        if self.discovery is not None:
            with contextlib.suppress(Exception):
                await self.discovery.close()
        if self.lock is not None:
            self.lock.release()  # last: nothing of ours writes to the directory any more


async def _sit_down(node: Node, knocks: list[asyncio.Task[None]]) -> None:
    """The seat finds its table, once the seeds' doors answered or the wait is over."""
    assert node.main is not None
    if knocks:
        await asyncio.wait(knocks, timeout=SEED_WAIT_S)
    await node.main.start()
    node._tasks += node.bots.seat_kept()


async def seated(node: Node) -> None:
    """Wait until the node's seat has found its table; raise what kept it from one."""
    assert node.seating is not None, "start first"
    await asyncio.shield(node.seating)  # a waiter that gives up stops no seating


async def unseated(node: Node) -> None:
    """Return only if the node's seat fails to find its table (``seated`` says why)."""
    with contextlib.suppress(Exception):
        await seated(node)
        await asyncio.get_running_loop().create_future()  # seated: never returns
