"""A seat watching a game as a spectator (spec/protocol.md section 26): its ``Follower``."""

from __future__ import annotations

from collections.abc import Sequence

from dutchblitz.protocol.replica.core import Replica
from dutchblitz.protocol.replica.effects import Effect
from dutchblitz.protocol.seat.duties import Wishes
from dutchblitz.protocol.seat.follower import Follower

from ..net.contacts import Contacts
from .ticks import Ticker, now

FOLLOW_TICK_S = 0.5  # a watching seat ticks at least this often (its renewals)


class Following:
    """The seat's ``Follower`` while it watches a game, and the subscriptions it renews.

    A seat kept out by a game may watch it (``watch``) until that game is over or the seat
    is seated. A spectator's seat (``blitz-node --watch``, ``spectator``) follows from the
    start, never sits down, and greets a peer by subscribing to it: a HELLO would ask for
    a seat.
    """

    def __init__(self, table: str, node_id: bytes, wishes: Wishes, contacts: Contacts) -> None:
        self.table = table
        self.node_id = node_id
        self.wishes = wishes
        self.contacts = contacts
        self.follower: Follower | None = None
        self.spectator = False  # a spectator's seat: it follows and plays nothing

    def watch(self, ticker: Ticker) -> None:
        """Follow the table's game, subscribing at once (``ticker`` ticks now)."""
        if self.follower is None:
            endpoint = self.contacts.endpoint
            self.follower = Follower(self.table, self.node_id, self.wishes.name, endpoint)
        ticker.by(now())

    def watch_only(self) -> None:
        """A spectator's seat: follow from the start, and greet by subscribing."""
        self.spectator = True
        endpoint = self.contacts.endpoint
        self.follower = Follower(self.table, self.node_id, self.wishes.name, endpoint)

    def live_epoch(self, at: float) -> bytes | None:
        """The table we watch, while its members feed us (``Follower.live_epoch``)."""
        return self.follower.live_epoch(at) if self.follower is not None else None

    def greet(self, node: bytes, force: bool = False) -> Sequence[Effect]:
        """A spectator's greeting: a WATCH SUBSCRIBE (``force``: even if renewed lately)."""
        follower = self.follower
        if follower is None:
            return ()
        if force:
            follower.renewed.pop(node, None)
        return follower.subscribe([node], now())

    def tick(self, replica: Replica | None, at: float, ticker: Ticker) -> Sequence[Effect]:
        """Watching: renew our subscription with the members (or every peer, before any
        is known); the timer comes back within ``FOLLOW_TICK_S``. A seat that watches the game
        that keeps it waiting stops once that game is over, or once it is seated."""
        follower = self.follower
        if follower is None:
            return ()
        if replica is not None and (replica.is_member() or follower.ended is not None):
            self.follower = None
            return follower.end()  # we sit down after it
        members = [n for n in follower.members() if n in self.contacts.endpoints]
        effects = follower.subscribe(members or self.contacts.everyone(), at)
        ticker.soon(at + FOLLOW_TICK_S)
        return effects

    def end(self) -> Sequence[Effect]:
        """Stop watching: tell the members (a WATCH END)."""
        return () if self.follower is None else self.follower.end()
