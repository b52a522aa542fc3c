"""Whom a seat knows: peers' endpoints and epochs, when each was last heard, and greetings.

A peer is known by node id and endpoint once it has said HELLO, or discovery
found it. A ``--peer`` seed is known only by address: it gets a stand-in id
(its DEALER must have some key) until a peer at that endpoint says who it is,
and then the stand-in connection is closed, because two connections from one
node to one ROUTER under one routing id would keep taking over from each other.

The epoch a peer named in its last HELLO says which table log it holds; a seat
keeps nothing else from a peer's HELLO here (the replica reads the rest).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from dutchblitz.protocol.codec import encode
from dutchblitz.protocol.guard import MAX_ENDPOINTS, MAX_NEW_PEERS_PER_HELLO, endpoint_ok
from dutchblitz.protocol.messages import Envelope, Hello, PeerAddress

from .transport import Transport

GREET_GAP_S = 0.25  # at most one HELLO to a peer per this long
MAX_PEERS = 64


def seed_id(endpoint: str) -> bytes:
    """A stand-in id for a peer known only by address (``--peer``) until it says hello."""
    return b"\xffseed" + hashlib.blake2b(endpoint.encode(), digest_size=11).digest()


class Contacts:
    """The peers of one seat, and the connections it holds to them."""

    def __init__(self, node_id: bytes, table: str, transport: Transport) -> None:
        self.node_id = node_id
        self.table = table
        self.transport = transport
        self.endpoints: dict[bytes, str] = {}
        self.seeds: dict[str, bytes] = {}  # endpoint -> stand-in id
        self.epochs: dict[bytes, bytes] = {}
        self.heard: dict[bytes, float] = {}
        self._greeted: dict[bytes, float] = {}

    @property
    def endpoint(self) -> str:
        return self.transport.endpoint

    def add_seed(self, endpoint: str) -> bytes | None:
        """Connect to an address; the stand-in id to greet it under, or None if known."""
        if endpoint == self.endpoint or endpoint in self.endpoints.values():
            return None
        stand_in = seed_id(endpoint)
        self.seeds[endpoint] = stand_in
        self.transport.add_peer(stand_in, endpoint)
        return stand_in

    def connect(self, node: bytes, endpoint: str) -> bool:
        """Hold a connection to ``node`` at ``endpoint``; True if it is new or moved."""
        if node == self.node_id or self.endpoints.get(node) == endpoint:
            return False
        if not endpoint_ok(endpoint, self.endpoint) or not self._room_for(node):
            return False  # spec/protocol.md P-120: never anywhere a peer names
        stand_in = self.seeds.pop(endpoint, None)
        if stand_in is not None:
            self.transport.remove_peer(stand_in)
        try:
            self.transport.add_peer(node, endpoint)
        except ValueError:
            return False  # not a tcp://HOST:PORT endpoint: nothing to connect to
        self.endpoints[node] = endpoint
        return True

    def forget(self, node: bytes) -> None:
        """Stop sending to ``node`` (it floods us); a later HELLO connects again."""
        self.transport.remove_peer(node)
        self.endpoints.pop(node, None)

    def everyone(self) -> list[bytes]:
        """Every id we hold a connection under, stand-ins included."""
        return [*self.endpoints, *self.seeds.values()]

    def may_greet(self, node: bytes, now: float, force: bool = False) -> bool:
        """Whether to send ``node`` a HELLO now (at most one per ``GREET_GAP_S``)."""
        if not force and now - self._greeted.get(node, -1e9) < GREET_GAP_S:
            return False
        self._greeted[node] = now
        return True

    def forget_greetings(self) -> None:
        self._greeted.clear()

    def note_hello(self, sender: bytes, hello: Hello) -> bool:
        """Take in a peer's HELLO; True when it does not list us where we are (answer it)."""
        self.epochs[sender] = hello.epoch
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

    def same_table(self, sender: bytes, epoch: bytes) -> bool:
        """Whether ``sender``'s last HELLO named ``epoch`` (or it has sent none)."""
        return self.epochs.get(sender, epoch) == epoch

    def live_epochs(self, now: float, window: float) -> list[bytes]:
        """The epochs named by peers heard within ``window`` seconds."""
        return [
            epoch
            for node, epoch in self.epochs.items()
            if epoch and now - self.heard.get(node, -1e9) <= window
        ]

    def probe_hello(self, name: str, back: str) -> bytes:
        """A HELLO from a seat that holds no log yet: no epoch, and not asking to join."""
        peers = tuple(PeerAddress(n, e) for n, e in sorted(self.endpoints.items())[:MAX_PEERS])
        hello = Hello(name, back, self.endpoint, peers, b"", 0)
        return encode(Envelope(self.table, self.node_id, 0, 0, hello))
