"""A seat connects only where P-116 allows, a few new peers per HELLO, and holds at most 64."""

from __future__ import annotations

from typing import Any, cast

from dutchblitz.node.net.contacts import Contacts
from dutchblitz.node.net.transport import Transport
from dutchblitz.protocol.replica.guard import MAX_ENDPOINTS, MAX_NEW_PEERS_PER_HELLO
from dutchblitz.protocol.wire.messages import PeerAddress


class EveryKey:
    """A roster that holds a key for every node."""

    def key_of(self, node: bytes) -> bytes:
        return bytes(32)


class FakeTransport:
    endpoint = "tcp://198.18.0.1:5555"

    def __init__(self) -> None:
        self.peers: dict[bytes, str] = {}
        self.roster = EveryKey()

    def add_peer(self, node: bytes, endpoint: str, key: bytes) -> None:
        self.peers[node] = endpoint

    def remove_peer(self, node: bytes) -> None:
        self.peers.pop(node, None)


def _contacts() -> tuple[Contacts, FakeTransport]:
    transport = FakeTransport()
    contacts = Contacts(b"me" * 8, "blitz", cast(Transport, cast(Any, transport)))
    return contacts, transport


def test_only_sane_endpoints_are_connected_P106() -> None:
    contacts, transport = _contacts()
    assert contacts.connect(b"a" * 16, "tcp://198.18.0.2:5555")
    for bad in ("tcp://127.0.0.1:22", "tcp://0.0.0.0:1", "tcp://224.0.0.1:9", "tcp://h:1"):
        assert not contacts.connect(b"b" * 16, bad), bad
    assert set(transport.peers) == {b"a" * 16}


def test_a_hello_teaches_a_few_peers_and_the_total_is_bounded_P106() -> None:
    contacts, transport = _contacts()
    peers = [
        PeerAddress(n.to_bytes(16, "big"), f"tcp://198.18.1.{n}:5555", bytes(32)) for n in range(64)
    ]
    contacts.learn(peers)
    assert len(transport.peers) == MAX_NEW_PEERS_PER_HELLO
    for n in range(1000):
        contacts.heard[(n + 100).to_bytes(16, "big")] = float(n)
        contacts.connect((n + 100).to_bytes(16, "big"), f"tcp://198.18.2.{n % 250 + 1}:5555")
    assert len(transport.peers) <= MAX_ENDPOINTS
    assert len(contacts.endpoints) <= MAX_ENDPOINTS
