"""Find the other players at the table with zeroconf (mDNS/DNS-SD), on one interface.

Each node registers one ``_blitz._tcp.local.`` service. Its instance name is
``"<player name>-<first 8 hex digits of the node id>"``, its host name
``blitz-<first 12 hex digits>.local.`` (so several nodes on one machine never
fight over the machine's own name), its port is the node's door (the port a
player names with ``--peer``), and its TXT record carries plain ASCII keys:

``id``
    the node id, 32 lowercase hex digits
``key``
    the node's Ed25519 public key, 64 lowercase hex digits; the id must be
    the key's (``node_id_of``), or the advert is refused and counted
``v``
    the protocol version (``PROTOCOL_VERSION``)
``table``
    the table name; nodes only see nodes at the same table
``name``
    the player's name, UTF-8
``port``
    the port of the node's table ROUTER (CURVE, roster only)
``door``
    the door's port again, equal to the service port

``Discovery`` browses the same type and puts a ``Found`` on its ``events``
queue for every node at our table, and a ``Lost`` when its service goes away.
It skips itself, other tables, other protocol versions and adverts it cannot
read, and counts each in ``stats``. ``Lost`` is a hint: a node that crashes
sends no goodbye, and only its record's TTL or the membership layer's
heartbeats notice it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from dutchblitz.protocol.limits import MAX_NAME as MAX_TEXT_BYTES
from dutchblitz.protocol.limits import NODE_ID_SIZE
from dutchblitz.protocol.version import PROTOCOL_VERSION
from dutchblitz.protocol.wire.auth import PUBLIC_KEY_SIZE, node_id_of
from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

SERVICE_TYPE = "_blitz._tcp.local."
# Shorter than zeroconf's 75-minute default so a node that vanished without a
# goodbye drops out of everyone's cache within a couple of minutes.
RECORD_TTL_S = 120
RESOLVE_TIMEOUT_MS = 3000
_UNSAFE_IN_LABEL = re.compile(r"[\x00-\x1f\x7f.]")


class AdvertError(ValueError):
    """A TXT record that is not a valid blitz advert; says which field."""


@dataclass(frozen=True, slots=True)
class Advert:
    """What one node tells the LAN about itself."""

    node_id: bytes
    name: str
    table: str
    port: int
    key: bytes
    door: int
    version: int = PROTOCOL_VERSION

    def __post_init__(self) -> None:
        if len(self.node_id) != NODE_ID_SIZE:
            raise AdvertError(f"id must be {NODE_ID_SIZE} bytes, got {len(self.node_id)}")
        if len(self.key) != PUBLIC_KEY_SIZE:
            raise AdvertError(f"key must be {PUBLIC_KEY_SIZE} bytes, got {len(self.key)}")
        for field, port in (("port", self.port), ("door", self.door)):
            if not 0 < port < 65536:
                raise AdvertError(f"{field} must be in 1..65535, got {port}")
        for field, text in (("name", self.name), ("table", self.table)):
            if not text or len(text.encode()) > MAX_TEXT_BYTES:
                raise AdvertError(f"{field} must be 1 to {MAX_TEXT_BYTES} bytes of UTF-8")

    @property
    def short_id(self) -> str:
        return self.node_id.hex()[:8]

    @property
    def instance(self) -> str:
        """The service instance name: a DNS label of at most 41 bytes.

        python-zeroconf splits names at dots without escaping them, so a dot
        (like a control code) becomes a dash.
        """
        return f"{_UNSAFE_IN_LABEL.sub('-', self.name)}-{self.short_id}"

    @property
    def host(self) -> str:
        return f"blitz-{self.node_id.hex()[:12]}.local."

    def properties(self) -> dict[str, str]:
        return {
            "id": self.node_id.hex(),
            "key": self.key.hex(),
            "v": str(self.version),
            "table": self.table,
            "name": self.name,
            "port": str(self.port),
            "door": str(self.door),
        }


def parse_advert(properties: Mapping[bytes, bytes | None]) -> Advert:
    """Read a TXT record as an ``Advert``; raises ``AdvertError`` naming the bad field."""

    def text(key: str) -> str:
        raw = properties.get(key.encode())
        if raw is None:
            raise AdvertError(f"TXT key {key!r} missing or empty")
        try:
            return raw.decode()
        except UnicodeDecodeError:
            raise AdvertError(f"TXT key {key!r} is not UTF-8") from None

    def number(key: str) -> int:
        raw = text(key)
        if not raw.isascii() or not raw.isdigit():
            raise AdvertError(f"TXT key {key!r} is not a number: {raw!r}")
        return int(raw)

    raw_id = text("id")
    if len(raw_id) != 2 * NODE_ID_SIZE or not re.fullmatch(r"[0-9a-fA-F]+", raw_id):
        raise AdvertError(f"TXT key 'id' is not {2 * NODE_ID_SIZE} hex digits: {raw_id!r}")
    raw_key = text("key")
    if len(raw_key) != 2 * PUBLIC_KEY_SIZE or not re.fullmatch(r"[0-9a-fA-F]+", raw_key):
        raise AdvertError(f"TXT key 'key' is not {2 * PUBLIC_KEY_SIZE} hex digits: {raw_key!r}")
    return Advert(
        node_id=bytes.fromhex(raw_id),
        name=text("name"),
        table=text("table"),
        port=number("port"),
        key=bytes.fromhex(raw_key),
        door=number("door"),
        version=number("v"),
    )


def skip_reason(theirs: Advert, ours: Advert) -> str | None:
    """Why we ignore a node (a ``DiscoveryStats`` field name), or ``None`` to meet it."""
    if theirs.node_id == ours.node_id:
        return "ignored_self"
    if node_id_of(theirs.key) != theirs.node_id:
        return "wrong_id"
    if theirs.version != ours.version:
        return "other_version"
    if theirs.table != ours.table:
        return "other_table"
    return None


@dataclass(frozen=True, slots=True)
class Found:
    """A node at our table: its key, where its table ROUTER listens, and its door."""

    node_id: bytes
    name: str
    endpoint: str
    key: bytes
    door: str


@dataclass(frozen=True, slots=True)
class Lost:
    """A node's service went away (goodbye or expiry)."""

    node_id: bytes


PeerEvent = Found | Lost


@dataclass(slots=True)
class DiscoveryStats:
    found: int = 0
    lost: int = 0
    ignored_self: int = 0
    other_table: int = 0
    other_version: int = 0
    malformed: int = 0
    unresolved: int = 0
    wrong_id: int = 0  # the advert's id is not its key's


class Discovery:
    """Announce ``advert`` on the interface at ``address`` and report peers on ``events``."""

    def __init__(
        self,
        advert: Advert,
        address: str,
        on_skip: Callable[[str, str], None] | None = None,
    ) -> None:
        self.advert = advert
        self.address = address
        self._on_skip = on_skip  # (reason, service name) for each advert we skip
        self.events: asyncio.Queue[PeerEvent] = asyncio.Queue()
        self._stats = DiscoveryStats()
        self._zeroconf: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._resolving: dict[str, asyncio.Task[None]] = {}
        self._names: dict[str, bytes] = {}
        self._peers: dict[bytes, Found] = {}

    @property
    def stats(self) -> DiscoveryStats:
        return dataclasses.replace(self._stats)

    @property
    def peers(self) -> dict[bytes, Found]:
        """Every node at our table that is currently announced."""
        return dict(self._peers)

    async def start(self) -> None:
        """Browse for the others and register our own service."""
        zeroconf = AsyncZeroconf(interfaces=[self.address], ip_version=IPVersion.V4Only)
        self._zeroconf = zeroconf
        info = AsyncServiceInfo(
            SERVICE_TYPE,
            f"{self.advert.instance}.{SERVICE_TYPE}",
            port=self.advert.door,
            properties=self.advert.properties(),
            server=self.advert.host,
            parsed_addresses=[self.address],
            host_ttl=RECORD_TTL_S,
            other_ttl=RECORD_TTL_S,
        )
        self._browser = AsyncServiceBrowser(
            zeroconf.zeroconf, SERVICE_TYPE, handlers=[self._on_change]
        )
        # No probe for name conflicts (it waits more than a second before the first
        # announcement): the instance and host names carry the node id, which is
        # already unique, so we announce at once.
        await zeroconf.async_register_service(
            info, allow_name_change=True, cooperating_responders=True
        )

    async def close(self) -> None:
        """Say goodbye on the LAN and stop browsing."""
        for task in self._resolving.values():
            task.cancel()
        self._resolving.clear()
        if self._browser is not None:
            await self._browser.async_cancel()
            self._browser = None
        if self._zeroconf is not None:
            await self._zeroconf.async_close()
            self._zeroconf = None

    async def __aenter__(self) -> Discovery:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def _on_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        pending = self._resolving.pop(name, None)
        if pending is not None:
            pending.cancel()
        if state_change is ServiceStateChange.Removed:
            self._forget(name)
        else:
            task = asyncio.get_running_loop().create_task(self._resolve(zeroconf, name))
            self._resolving[name] = task

    async def _resolve(self, zeroconf: Zeroconf, name: str) -> None:
        try:
            info = AsyncServiceInfo(SERVICE_TYPE, name)
            if not await info.async_request(zeroconf, RESOLVE_TIMEOUT_MS):
                self._stats.unresolved += 1
                return
            found = self._admit(info, name)
            if found is None:
                self._forget(name)  # it may have moved to another table
            else:
                self._names[name] = found.node_id
                if self._peers.get(found.node_id) != found:
                    self._peers[found.node_id] = found
                    self._stats.found += 1
                    self.events.put_nowait(found)
        finally:
            if self._resolving.get(name) is asyncio.current_task():
                del self._resolving[name]

    def _admit(self, info: AsyncServiceInfo, name: str = "") -> Found | None:
        """The peer behind a resolved service, or ``None`` (counted) if we skip it."""
        try:
            advert = parse_advert(info.properties)
        except AdvertError:
            self._skip("malformed", name)
            return None
        reason = skip_reason(advert, self.advert)
        addresses = info.parsed_addresses(IPVersion.V4Only)
        if reason is None and (info.port != advert.door or not addresses):
            reason = "malformed"
        if reason is not None:
            self._skip(reason, name)
            return None
        address = addresses[0]
        return Found(
            advert.node_id,
            advert.name,
            f"tcp://{address}:{advert.port}",
            advert.key,
            f"tcp://{address}:{advert.door}",
        )

    def _skip(self, reason: str, name: str) -> None:
        setattr(self._stats, reason, getattr(self._stats, reason) + 1)
        if self._on_skip is not None:
            self._on_skip(reason, name)

    def _forget(self, name: str) -> None:
        node_id = self._names.pop(name, None)
        if node_id is None or node_id in self._names.values():
            return
        with contextlib.suppress(KeyError):
            del self._peers[node_id]
            self._stats.lost += 1
            self.events.put_nowait(Lost(node_id))
