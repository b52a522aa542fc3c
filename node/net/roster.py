"""Who may talk to a seat: the keys it has learnt, and which of them it lets in.

Every ZeroMQ connection to a seat's table ROUTER is CURVE, and the ZAP
handler asks ``allows_curve`` about the client's key before the connection
opens; the transport then asks ``allows`` about every message's sender, so a
key taken off the roster (a lobby guest once the game starts) is cut off at
once. A key is only ever learnt together with the node id it claims, and kept
only if the id is really that key's (``node_id_of``); a mismatch is counted.

Where a key comes from (``Source``) decides whether it is let in:

* an open table (no passphrase) lets in any key learnt from the door exchange,
  a zeroconf advert, a HELLO peer list, or a local seat in this process;
* a private table lets in only keys admitted through the door's passphrase
  handshake (``PAKE``), keys listed in the HELLO of a peer already let in (a
  member who knows the phrase vouches for whom it lists), and local seats;
  an advert or a plain door exchange only teaches a key, never lets it in;
* once the game has started (``seat_only``), only the seated players are let
  in, whatever they were learnt from; a seated player whose node restarts comes
  back with the same key and is let in again. The keys a lobby would let in
  still connect, but only to watch: the transport takes nothing but WATCH from
  them (``may_watch``; spec/protocol.md P-216).

The roster is plain data and sans-IO; the transport and the seat drive it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum

from dutchblitz.protocol.wire.auth import PUBLIC_KEY_SIZE, curve_public_of, node_id_of


class Source(Enum):
    """How a key was learnt."""

    LOCAL = "local"  # our own seat, or a local bot seat in this process
    PAKE = "pake"  # the door's passphrase handshake succeeded with it
    DOOR = "door"  # the door exchange, with no passphrase
    ADVERT = "advert"  # a zeroconf TXT record
    HELLO = "hello"  # the peer list of a HELLO from a peer we let in


PRIVATE_SOURCES = frozenset({Source.LOCAL, Source.PAKE, Source.HELLO})


@dataclass(slots=True)
class RosterStats:
    learnt: int = 0
    """keys learnt (each node once)"""
    mismatched: int = 0
    """a key offered with an id that is not its own, refused"""
    refused: int = 0
    """connections refused by the ZAP handler: the key is not let in"""


class Roster:
    """The keys one seat knows, by node id, and which of them may connect."""

    def __init__(self, private: bool = False) -> None:
        self.private = private
        self.keys: dict[bytes, bytes] = {}  # node id -> Ed25519 public key
        self._sources: dict[bytes, set[Source]] = {}
        self._by_curve: dict[bytes, bytes] = {}  # raw Curve25519 public key -> node id
        self._seated: frozenset[bytes] | None = None  # None: still in the lobby
        self._allowed: set[bytes] = set()
        self._watchers: set[bytes] = set()  # let in to watch: as the lobby would let them in
        self.stats = RosterStats()
        self.listeners: list[Callable[[bytes, bytes], None]] = []  # (node, key) when learnt

    # -- learning ------------------------------------------------------------------------

    def learn(self, node: bytes, key: bytes, source: Source) -> bool:
        """Take in ``key`` for ``node`` from ``source``; False if the id is not the key's."""
        known = self.keys.get(node)
        if known is not None and known == key:
            if source not in self._sources[node]:
                self._sources[node].add(source)
                self._update(node)
            return True
        if len(key) != PUBLIC_KEY_SIZE or node_id_of(key) != node:
            self.stats.mismatched += 1
            return False
        new = known is None
        if new:
            self.keys[node] = key
            self._by_curve[curve_public_of(key)] = node
            self._sources[node] = set()
            self.stats.learnt += 1
        self._sources[node].add(source)
        self._update(node)
        if new:
            for listener in list(self.listeners):
                listener(node, key)
        return True

    def key_of(self, node: bytes) -> bytes | None:
        return self.keys.get(node)

    def node_of_curve(self, curve_key: bytes) -> bytes | None:
        """The node id whose key converts to this raw Curve25519 key, if known."""
        return self._by_curve.get(curve_key)

    # -- the game starting and ending -------------------------------------------------------

    def seat_only(self, seated: Iterable[bytes]) -> None:
        """The game has started: only these nodes may connect (and the local seats)."""
        seated = frozenset(seated)
        if seated == self._seated:
            return
        self._seated = seated
        self._update_all()

    def reopen(self) -> None:
        """Back to a lobby: everyone learnt the right way may connect again."""
        if self._seated is None:
            return
        self._seated = None
        self._update_all()

    @property
    def started(self) -> bool:
        return self._seated is not None

    # -- asking ------------------------------------------------------------------------

    def allows(self, node: bytes) -> bool:
        """Whether ``node`` may send to us now."""
        return node in self._allowed

    def may_watch(self, node: bytes) -> bool:
        """Whether ``node`` may send us WATCH (a spectator's subscription) now."""
        return node in self._allowed or node in self._watchers

    def allows_curve(self, curve_key: bytes) -> bool:
        """Whether a connection from this raw Curve25519 client key is let in (counted if not).

        A key let in only to watch connects too; its other messages are dropped."""
        node = self._by_curve.get(curve_key)
        if node is not None and self.may_watch(node):
            return True
        self.stats.refused += 1
        return False

    @property
    def allowed(self) -> frozenset[bytes]:
        return frozenset(self._allowed)

    def _update_all(self) -> None:
        for node in self.keys:
            self._update(node)

    def _update(self, node: bytes) -> None:
        lobby = self._lobby_lets_in(node)
        if lobby if self._seated is None else self._seated_lets_in(node):
            self._allowed.add(node)
        else:
            self._allowed.discard(node)
        if lobby:
            self._watchers.add(node)
        else:
            self._watchers.discard(node)

    def _seated_lets_in(self, node: bytes) -> bool:
        seated = self._seated is not None and node in self._seated
        return seated or Source.LOCAL in self._sources.get(node, set())

    def _lobby_lets_in(self, node: bytes) -> bool:
        sources = self._sources.get(node, set())
        if Source.LOCAL in sources:
            return True
        if self.private:
            return bool(sources & PRIVATE_SOURCES)
        return bool(sources)
