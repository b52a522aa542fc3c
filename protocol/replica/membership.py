"""The replica's membership: who says hello, where peers listen, whom we admit.

A HELLO names its sender's endpoint, the peers it knows (with their keys), its table's
log and, from a node asking to be seated, the number its new stream starts at. A member
answers such a HELLO by sending an ADMIT event into the order, once per stay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..wire.auth import node_id_of
from ..wire.codec import MAX_PEERS, encode
from ..wire.messages import Admit, Envelope, Hello, PeerAddress
from .effects import Effect, PeerSeen, Send
from .guard import MAX_ADMITTING, MAX_ENDPOINTS, MAX_NEW_PEERS_PER_HELLO, endpoint_ok

if TYPE_CHECKING:
    from .core import Replica


class Membership:
    """The peers' endpoints and keys, our HELLOs, and the admissions we offered."""

    def __init__(self, replica: Replica) -> None:
        self.replica = replica
        self.endpoints: dict[bytes, str] = {}
        self.keys: dict[bytes, bytes] = {}  # node -> public key, for the HELLO peer lists
        self.admitted: set[tuple[bytes, int]] = set()
        self.last_hello = -1e18

    def know_key(self, node: bytes, key: bytes) -> None:
        """Learn a peer's public key (checked against its id), to list it in our HELLOs."""
        if node_id_of(key) == node:
            self.keys[node] = key

    def hello(self, to: bytes | None, unlisted: bool = False) -> Send:
        """Our HELLO for one peer, or every peer: where we listen, whom we know, which log.
        ``unlisted``: ``to`` is left out of the list, so that it answers (P-201, P-264)."""
        replica = self.replica
        me = replica.me
        endpoints = sorted(self.endpoints.items())
        known = [(n, e, self.keys.get(n)) for n, e in endpoints if not (unlisted and n == to)]
        # The spectators we feed too, after the peers: the other members then let them in,
        # to feed them once we leave (P-260).
        watching = sorted(replica.spectators.watching.items())
        known += [(n, s.endpoint, self.keys.get(n)) for n, s in watching if n not in self.endpoints]
        peers = tuple(PeerAddress(n, e, k) for n, e, k in known if k is not None)[:MAX_PEERS]
        # Skip one number past anything used, so a stale CUT of our old stream (which ends at
        # most at my_seq) can never be mistaken for one of the new stream.
        resume = replica.my_seq + 2 if replica.rejoining or not replica.is_member() else 0
        hello = Hello(me.name, me.back, me.endpoint, peers, me.epoch, resume)
        return Send(to, encode(Envelope(me.table, me.node, replica.clock.time, 0, hello)))

    def take_hello(self, envelope: Envelope, hello: Hello, now: float) -> list[Effect]:
        sender = envelope.sender
        effects: list[Effect] = []
        if self.endpoints.get(sender) != hello.endpoint and self.may_learn(sender, hello.endpoint):
            self.endpoints[sender] = hello.endpoint
            effects.append(PeerSeen(sender, hello.endpoint))
        learnt = 0
        for peer in hello.peers:
            known = peer.node in self.endpoints
            if known or learnt < MAX_NEW_PEERS_PER_HELLO:
                fresh = peer.node not in self.keys and len(self.keys) < 4 * MAX_ENDPOINTS
                if fresh and node_id_of(peer.key) == peer.node:
                    self.keys[peer.node] = peer.key
            if known or learnt >= MAX_NEW_PEERS_PER_HELLO:
                continue
            if not self.may_learn(peer.node, peer.endpoint):
                continue
            learnt += 1
            self.endpoints[peer.node] = peer.endpoint
            effects.append(PeerSeen(peer.node, peer.endpoint))
        if hello.resume_seq > 0 and hello.epoch in (b"", self.replica.me.epoch):
            effects += self.admit(sender, hello.resume_seq, now)
        return effects

    def admit(self, node: bytes, first_seq: int, now: float) -> list[Effect]:
        replica = self.replica
        if not replica.is_member() or (node, first_seq) in self.admitted:
            return []
        if len(self.admitted) >= MAX_ADMITTING:
            replica.counters.drop("too_many_admissions")
            return []
        member = replica.order.stable.members.get(node)
        if member is not None and member.present:
            return []
        if member is None and not replica.order.stable.admits_newcomers():
            return []  # while a game is on only players who were seated come back (P-117)
        self.admitted.add((node, first_seq))
        return replica.send_event(Admit(node, first_seq), now)

    def forget_offer(self, node: bytes) -> None:
        """An ADMIT of ``node`` has had its turn: a later hello may need a new offer."""
        self.admitted = {pair for pair in self.admitted if pair[0] != node}

    def may_learn(self, node: bytes, endpoint: str) -> bool:
        """Whether to take ``endpoint`` for ``node`` from a HELLO (and tell the shell)."""
        replica = self.replica
        if node == replica.me.node or not endpoint_ok(endpoint, replica.me.endpoint):
            return False
        if node in self.endpoints or len(self.endpoints) < MAX_ENDPOINTS:
            return True
        strangers = [n for n in self.endpoints if n not in replica.order.stable.members]
        if not strangers:
            return False
        del self.endpoints[strangers[0]]  # the oldest learnt of those never at the table
        return True
