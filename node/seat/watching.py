"""A seat watching a game as a spectator (spec/protocol.md section 26): its ``Follower``,
held by the seat's machine, which renews the subscriptions on each tick."""

from __future__ import annotations

from collections.abc import Sequence

from dutchblitz.protocol.replica.effects import Effect
from dutchblitz.protocol.seat.duties import Wishes
from dutchblitz.protocol.seat.follower import Follower
from dutchblitz.protocol.seat.machine import SeatMachine

from ..net.contacts import Contacts
from .ticks import Ticker, now


class Following:
    """The seat's ``Follower`` while it watches a game.

    A seat kept out by a game may watch it (``watch``) until that game is over or the seat
    is seated. A spectator's seat (``blitz-node --watch``, ``spectator``) follows from the
    start, never sits down, and greets a peer by subscribing to it: a HELLO would ask for
    a seat.
    """

    def __init__(
        self, table: str, node_id: bytes, wishes: Wishes, contacts: Contacts, machine: SeatMachine
    ) -> None:
        self.table = table
        self.node_id = node_id
        self.wishes = wishes
        self.contacts = contacts
        self.machine = machine
        self.spectator = False  # a spectator's seat: it follows and plays nothing

    @property
    def follower(self) -> Follower | None:
        return self.machine.standing.follower

    def _follow(self) -> None:
        endpoint = self.contacts.endpoint
        self.machine.standing.follower = Follower(
            self.table, self.node_id, self.wishes.name, endpoint
        )

    def watch(self, ticker: Ticker) -> None:
        """Follow the table's game, subscribing at once (``ticker`` ticks now)."""
        if self.machine.standing.follower is None:
            self._follow()
        ticker.by(now())

    def watch_only(self) -> None:
        """A spectator's seat: follow from the start, and greet by subscribing."""
        self.spectator = True
        self._follow()

    def greet(self, node: bytes, force: bool = False) -> Sequence[Effect]:
        """A spectator's greeting: a WATCH SUBSCRIBE (``force``: even if renewed lately)."""
        follower = self.machine.standing.follower
        if follower is None:
            return ()
        if force:
            follower.renewed.pop(node, None)
        return follower.subscribe([node], now())

    def end(self) -> Sequence[Effect]:
        """Stop watching: tell the members (a WATCH END)."""
        follower = self.machine.standing.follower
        return () if follower is None else follower.end()
