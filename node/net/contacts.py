"""Whom a seat knows: peers' endpoints and epochs, when each was last heard, and greetings.

A peer is known by node id, public key and endpoint once its key is on the
seat's ``Roster`` (learnt at the door, from an advert, or from a HELLO peer
list) and we know where its table ROUTER listens. Every connection is a CURVE
client of the peer's key, so a peer we hold no key for cannot be connected to.

The epoch a peer named in its last HELLO says which table log it holds; a seat
keeps nothing else from a peer's HELLO here (the replica reads the rest).
"""

from __future__ import annotations

from collections.abc import Iterable

from dutchblitz.protocol.replica.guard import MAX_ENDPOINTS, MAX_NEW_PEERS_PER_HELLO, endpoint_ok
from dutchblitz.protocol.seat.arrival import probe_hello
from dutchblitz.protocol.wire.messages import Hello, PeerAddress

from .roster import Roster, Source
from .transport import Transport

GREET_GAP_S = 0.25  # at most one HELLO to a peer per this long


class Contacts:
    """The peers of one seat, and the connections it holds to them."""

    def __init__(self, node_id: bytes, table: str, transport: Transport) -> None:
        self.node_id = node_id
        self.table = table
        self.transport = transport
        self.roster: Roster = transport.roster
        self.endpoints: dict[bytes, str] = {}
        self.epochs: dict[bytes, bytes] = {}
        self.heard: dict[bytes, float] = {}
        self._greeted: dict[bytes, float] = {}

    @property
    def endpoint(self) -> str:
        return self.transport.endpoint

    def connect(self, node: bytes, endpoint: str) -> bool:
        """Hold a connection to ``node`` at ``endpoint``; True if it is new or moved.

        Only a peer whose key the roster holds can be connected to.
        """
        if node == self.node_id or self.endpoints.get(node) == endpoint:
            return False
        key = self.roster.key_of(node)
        if key is None:
            return False
        if not endpoint_ok(endpoint, self.endpoint) or not self._room_for(node):
            return False  # spec/protocol.md P-116: never anywhere a peer names
        try:
            self.transport.add_peer(node, endpoint, key)
        except ValueError:
            return False  # not a tcp://HOST:PORT endpoint: nothing to connect to
        self.endpoints[node] = endpoint
        return True

    def forget(self, node: bytes) -> None:
        """Stop sending to ``node`` (it floods us); a later HELLO connects again."""
        self.transport.remove_peer(node)
        self.endpoints.pop(node, None)

    def everyone(self) -> list[bytes]:
        """Every id we hold a connection under."""
        return list(self.endpoints)

    def may_greet(self, node: bytes, now: float, force: bool = False) -> bool:
        """Whether to send ``node`` a HELLO now (at most one per ``GREET_GAP_S``)."""
        if not force and now - self._greeted.get(node, -1e9) < GREET_GAP_S:
            return False
        self._greeted[node] = now
        return True

    def forget_greetings(self) -> None:
        self._greeted.clear()

    def note_hello(self, sender: bytes, hello: Hello) -> bool:
        """Take in a peer's HELLO; True when it does not list us where we are (answer it).

        The keys it lists are learnt (the transport only lets a HELLO through from
        a peer the roster lets in, so on a private table that peer vouches for them).
        """
        self.epochs[sender] = hello.epoch
        for peer in hello.peers:
            if peer.node != self.node_id:
                self.roster.learn(peer.node, peer.key, Source.HELLO)
        listed = {peer.node: peer.endpoint for peer in hello.peers}
        if listed.get(self.node_id) == self.endpoint:
            return False
        self.connect(sender, hello.endpoint)
        return True

    def learn(self, peers: Iterable[PeerAddress]) -> None:
        learnt = 0
        for peer in peers:
            if learnt >= MAX_NEW_PEERS_PER_HELLO:
                break
            known = peer.node in self.endpoints
            learnt += self.connect(peer.node, peer.endpoint) and not known

    def _room_for(self, node: bytes) -> bool:
        """At most ``MAX_ENDPOINTS`` connections: the longest unheard one makes room."""
        if node in self.endpoints or len(self.endpoints) < MAX_ENDPOINTS:
            return True
        oldest = min(self.endpoints, key=lambda n: self.heard.get(n, -1e18))
        self.forget(oldest)
        return True

    def probe_hello(self, name: str, back: str, unlisted: bytes | None = None) -> bytes:
        """A HELLO from a seat that holds no log yet: no epoch, and not asking to join.
        The ``unlisted`` peer is left out of the list, so that it answers (P-201, P-264)."""
        keys = self.roster.keys
        endpoints = sorted(self.endpoints.items())
        peers = [PeerAddress(n, e, keys[n]) for n, e in endpoints if n in keys and n != unlisted]
        return probe_hello(self.table, self.node_id, name, back, self.endpoint, peers)
