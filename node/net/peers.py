"""Whom a seat talks to: the peers it greets, who may connect to it, and who floods it.

Each seat answers a HELLO that does not list it (at its current endpoint) with its own,
so a peer that restarted, or learnt of us from a third node, gets to know us; a HELLO
that lists us is not answered, so greetings never ping-pong. A seat that holds no log
yet greets with a *probe*: a HELLO that names no epoch, which a member answers with its
own (the seat's machine then settles on a table, protocol/seat/arrival.py). The roster
follows the game: once it starts only the seated players may connect (``Roster.seat_only``).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence

from dutchblitz.protocol.replica.core import Replica
from dutchblitz.protocol.replica.effects import Effect, Send
from dutchblitz.protocol.seat.duties import Wishes
from dutchblitz.protocol.seat.machine import SeatMachine
from dutchblitz.protocol.wire.messages import Hello

from ..seat.ticks import now
from ..seat.watching import Following
from .contacts import Contacts

log = logging.getLogger("dutchblitz.node")


class Peers:
    """The seat's peers: met and greeted (HELLOs, rate-limited by ``Contacts``), let in by
    the roster as the game allows (``admit``), and cut off when they flood (``cut_off``):
    what the seat's machine decides of them, carried out. Greetings come back as effects
    for the seat to carry out."""

    def __init__(
        self,
        table: str,
        wishes: Wishes,
        contacts: Contacts,
        following: Following,
        alarms: Counter[str],
        machine: SeatMachine,
    ) -> None:
        self.table = table
        self.wishes = wishes  # our name and back for a probe; the name labels log lines
        self.contacts = contacts
        self.roster = contacts.roster
        self.following = following
        self.alarms = alarms
        self.machine = machine  # told when our peer list grows (``announce_due``)

    def meet(
        self,
        node: bytes,
        endpoint: str,
        replica: Replica | None,
        force: bool = False,
        announced: bool = False,
    ) -> Sequence[Effect]:
        """A peer met at the door, found by discovery or learnt from a HELLO: greet it.

        Its key must be on the roster already (``Roster.learn``). A peer that has just
        ``announced`` itself on the LAN is greeted even when we knew it there already:
        it may have restarted, and not know where we are.
        """
        if self.contacts.connect(node, endpoint) or force or announced:
            return self.greet(node, replica, force)
        return ()

    def peer_seen(self, node: bytes, endpoint: str, replica: Replica | None) -> Sequence[Effect]:
        """The replica learnt of a peer: greet it, and tell the others (``announce``)."""
        self.machine.standing.announce_due = True  # our peer list grew: tell the others too
        return self.meet(node, endpoint, replica)

    def greet(self, node: bytes, replica: Replica | None, force: bool = False) -> Sequence[Effect]:
        """Our HELLO to ``node`` (a probe while we hold no log), unless greeted just now."""
        if self.following.spectator:
            return self.following.greet(node, force)
        if not self.contacts.may_greet(node, now(), force):
            return ()
        if replica is not None:
            return replica.hello(node)
        wishes = self.wishes
        return (Send(node, self.contacts.probe_hello(wishes.name, wishes.back or "pump")),)

    def ask_hello(self, node: bytes, replica: Replica | None) -> Sequence[Effect]:
        """A message from ``node`` before any HELLO of its: we know no table it is at, so
        the message is dropped and ``node`` greeted with a HELLO that leaves it out of the
        list, which it answers with its own (P-264)."""
        if self.following.spectator or not self.contacts.may_greet(node, now()):
            return ()
        if replica is not None:
            return replica.hello(node, unlisted=True)
        wishes = self.wishes
        probe = self.contacts.probe_hello(wishes.name, wishes.back or "pump", unlisted=node)
        return (Send(node, probe),)

    def greet_all(self, replica: Replica | None, force: bool = False) -> list[Effect]:
        return [e for node in self.contacts.everyone() for e in self.greet(node, replica, force)]

    def hello_heard(self, sender: bytes, hello: Hello, replica: Replica | None) -> Sequence[Effect]:
        """A HELLO of our table: learn its peers; answer it if it does not list us."""
        answer = self.greet(sender, replica) if self.contacts.note_hello(sender, hello) else ()
        if replica is None:
            self.contacts.learn(hello.peers)
        return answer

    def admit(self, nodes: frozenset[bytes] | None) -> None:
        """While a game is on, let in only the seated players (``nodes``); in a lobby, or
        between games (a newcomer may sit down for the next one), all (None)."""
        if nodes is None:
            self.roster.reopen()
        else:
            self.roster.seat_only(nodes)

    def cut_off(self, peer: bytes, member: bool) -> None:
        """A peer floods us (replica/throttle.py): a member is throttled, others cut off."""
        if not member:
            self.contacts.forget(peer)
        self.alarms["flood"] += 1
        if self.alarms["flood"] == 1:
            what = "throttled" if member else "cut off for a while"
            log.warning("%s: peer %s floods us: %s", self.wishes.name, peer.hex()[:8], what)
