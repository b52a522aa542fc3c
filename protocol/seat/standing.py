"""Where a seat stands with its table: the peers' tables, the table it watches, the lobby
merge and the wait after a game's end. Part of ``SeatMachine`` (machine.py): each call
takes the replica and the time, and gives back effects; nothing here sends or submits.

The decisions themselves are ``TableFinder``'s (finding.py); this feeds it what the seat
heard (the epoch each peer's last HELLO named, when each was last heard, the table a
spectator is fed by) and turns its steps into effects.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..replica.core import Replica
from ..replica.effects import Effect, Timer
from ..table.state import Phase
from ..wire.codec import ProtocolError, decode
from ..wire.messages import Envelope, Heartbeat, Kind
from .effects import Admits, AskHello, Finished, GameEnded, MoveTable, Out, Rematch
from .finding import AskAgain, JoinSmaller, Seating, TableFinder
from .follower import Follower
from .latecomer import GameNews, GameUnderWay

FOLLOW_TICK_S = 0.5  # a watching seat ticks at least this often (its renewals)


class Standing:
    """What a seat knows of the tables around it, and what it decides about them."""

    def __init__(self, node_id: bytes, finder: TableFinder, join_window: float) -> None:
        self.node_id = node_id
        self.finder = finder
        self.join_window = join_window
        self.heard: dict[bytes, float] = {}  # when each peer was last heard
        self.epochs: dict[bytes, bytes] = {}  # the epoch each peer's last HELLO named
        self.endpoints: Mapping[bytes, str] = {}  # the peers we hold connections to
        self.follower: Follower | None = None  # while it watches a game (section 26)
        self.announce_due = False  # we learnt of new peers: tell the others
        self.told = 0  # the game number of the last end told
        self.over = False  # the last game told is over (no rematch yet)
        self.done = False  # finished: the others have reached the end too
        # Whether links deliver in order, losses none (P-265: ZeroMQ over TCP): a message
        # before its sender's HELLO is then of our table; else it is dropped (P-264).
        self.ordered = True
        self.greeted_again: dict[bytes, float] = {}  # when each peer had our HELLO again
        self.news = GameNews()  # what we overhear of a game we arrived too late for

    def listen_time(self) -> float:
        """The longer of the suspicion timeout and the join window (section 12)."""
        return max(self.finder.suspect_after, self.join_window)

    def unplaced(self, sender: bytes, kind: int | None, at: float) -> bool:
        """Note that ``sender`` was heard; True when its message must be dropped and a
        HELLO asked of it: where links may lose or reorder messages, it has sent no HELLO
        yet (P-264), or none since a silence of the listen time, during which it may have
        moved to another table unheard (P-270)."""
        last = self.heard.get(sender)
        self.heard[sender] = at
        if self.ordered or kind in (Kind.HELLO, Kind.WATCH):
            return False
        if last is not None and at - last > self.listen_time():
            self.epochs.pop(sender, None)
        return sender not in self.epochs

    def sitting_down(self, replica: Replica | None) -> bool:
        """Whether the seat is still finding its table or waiting to be admitted to it."""
        return replica is None or (replica.rejoining and not replica.is_member())

    def ask_where(self, sender: bytes, every: float, at: float) -> list[Out]:
        """A message of ``sender``'s dropped, its last HELLO naming another table: ask it
        for a HELLO, at most once per ``every`` (P-285). It may have moved to ours, its
        HELLO naming ours lost (a full queue, a connection torn down), and read us at its
        table since: it then sends us all and greets us no more, and nothing becomes final
        while we drop what it sends."""
        if at - self.greeted_again.get(sender, -1e18) < every:
            return []
        self.greeted_again[sender] = at
        return [AskHello(sender)]

    def same_table(self, sender: bytes, epoch: bytes) -> bool:
        """Whether ``sender``'s last HELLO named ``epoch`` (or it has sent none: over links
        that deliver in order its HELLO comes first, P-264, P-265)."""
        return self.epochs.get(sender, epoch) == epoch

    def outside(self, replica: Replica | None) -> bool:
        """Asking to join a table that has never seated us (not a player coming back)."""
        return (
            replica is not None and replica.rejoining and self.node_id not in replica.stable.members
        )

    def live_epochs(self, at: float, window: float) -> list[bytes]:
        """The epochs named by peers heard within ``window`` seconds, and the table we
        watch, while its members feed us (P-205)."""
        fed = self.follower.live_epoch(at) if self.follower is not None else None
        live = [
            epoch
            for node, epoch in self.epochs.items()
            if epoch and at - self.heard.get(node, -1e9) <= window
        ]
        return live + ([fed] if fed else [])

    def overhear(
        self, replica: Replica, kind: int | None, data: bytes, at: float
    ) -> Envelope | ProtocolError | None:
        """A HEARTBEAT after the end says how far its sender got; while we wait to be
        admitted, a member's HEARTBEATs and events tell of the game that keeps us out
        (``news``). The message decoded, if it was read here, for the replica to take."""
        after_end = kind == Kind.HEARTBEAT and replica.ended is not None
        outside = kind in (Kind.HEARTBEAT, Kind.EVENT) and self.outside(replica)
        if not (after_end or outside):
            return None
        try:
            envelope = decode(data)
        except ProtocolError as error:
            return error  # the replica counts and reports it
        payload = envelope.payload
        if after_end and isinstance(payload, Heartbeat):
            self.finder.heard_progress(envelope.sender, payload.digest_index)
        if outside:
            self.news.overhear(envelope, at)
        return envelope

    def game_on(self, replica: Replica | None, at: float) -> GameUnderWay | None:
        """The game on at the table we asked to join, if one keeps us waiting (P-117)."""
        since = self.finder.joining_since
        if replica is None or since is None or not self.outside(replica):
            return None
        return self.news.game_on(at - since, at, self.node_id)

    def follow(self, replica: Replica | None, at: float) -> list[Effect]:
        """Watching: renew our subscription with the members (or every peer, before any
        is known); the timer comes back within ``FOLLOW_TICK_S``. A seat that watches the
        game that keeps it waiting stops once that game is over, or once it is seated."""
        follower = self.follower
        if follower is None:
            return []
        if replica is not None and (replica.is_member() or follower.ended is not None):
            self.follower = None
            return follower.end()  # we sit down after it
        members = [n for n in follower.members() if n in self.endpoints]
        return [*follower.subscribe(members or list(self.endpoints), at), Timer(at + FOLLOW_TICK_S)]

    def consider(
        self, replica: Replica, at: float, aside: bytes | None = None
    ) -> tuple[list[Effect], MoveTable | None]:
        """The lobby merge, and giving up on a table that never admits us (``TableFinder``):
        asking again to sit down, or the fresh log to move to. In our lobby, the table of
        the log kept ``aside`` heard again is the one to go back to (P-286)."""
        epoch = replica.me.epoch
        in_lobby = replica.stable.phase == Phase.LOBBY and replica.optimistic().phase == Phase.LOBBY
        seating = Seating(epoch, in_lobby, replica.is_member(), replica.rejoining)
        window = max(replica.settings.suspect_after, self.join_window)
        live = self.live_epochs(at, window)
        if in_lobby and aside is not None and aside in live:
            return [], MoveTable(aside, f"table {aside.hex()[:8]} answers again: back to its log")
        effects: list[Effect] = []
        for step in self.finder.consider(at, seating, live):
            if isinstance(step, AskAgain):
                # Our goodbye, or the others' removal of us, is in the log: sit down again.
                effects += replica.ask_to_join(at)
            elif isinstance(step, JoinSmaller):
                why = (
                    f"table {step.epoch.hex()[:8]} is also in the lobby here: "
                    f"leaving {epoch.hex()[:8]} to join it"
                )
                return effects, MoveTable(step.epoch, why)
            else:
                what = "starting afresh" if step.restored else "founding anew"
                why = f"nobody at table {epoch.hex()[:8]} answers: {what}"
                return effects, MoveTable(None, why, keep=step.restored)
        return effects, None

    def lobby_hellos(self, replica: Replica, at: float) -> list[Effect]:
        """In our table's lobby, our HELLO again to each peer we are connected to and have
        not heard at our epoch within the listen time, once per ``hello_every`` (P-271):
        a HELLO lost on its way (the one that met a peer, or named a table we moved to)
        would otherwise keep two lobbies of one name apart for good. It leaves that peer
        out of its list, so that the peer answers with its own (P-201, P-284): where the
        lost HELLO was the peer's, naming the table it moved to, we would otherwise read
        it at its old table for good, and drop all it sends while it reads us at its own."""
        if replica.stable.phase != Phase.LOBBY or replica.optimistic().phase != Phase.LOBBY:
            return []
        epoch, window = replica.me.epoch, self.listen_time()
        every = replica.settings.hello_every
        watching = replica.spectators.watching
        effects: list[Effect] = []
        for node in sorted(self.endpoints):
            heard = at - self.heard.get(node, -1e18) <= window
            if node in watching or (heard and self.epochs.get(node) == epoch):
                continue
            if at - self.greeted_again.get(node, -1e18) >= every:
                self.greeted_again[node] = at
                effects += replica.hello(node, unlisted=True)
        return effects

    def bye_first(self, replica: Replica) -> bool:
        """Whether to say goodbye before leaving this log: others are there to hear it."""
        members = replica.stable.members.values()
        others = [m for m in members if m.present and m.node != self.node_id]
        return replica.is_member() and bool(others)

    def ended(self, replica: Replica, at: float) -> list[Out]:
        """An event became final: a game may have ended, or a rematch begun (R-51)."""
        ended = replica.ended
        if ended is not None and ended[2].game_number > self.told:
            self.finder.game_ended(at)
            self.told, self.over = ended[2].game_number, True
            return [GameEnded(self.told)]
        if self.over and replica.stable.phase != Phase.OVER:
            self.over = False  # a rematch (spec/rules.md R-51)
            self.finder.game_again()
            return [Rematch()]
        return []

    def forget_ends(self) -> None:
        """A fresh log: no game of it has ended yet, and none is overheard."""
        self.told, self.over = 0, False
        self.news = GameNews()

    def check_finished(self, replica: Replica, at: float) -> list[Out]:
        """After the end, wait until every other player has applied it too, then finish.
        Leaving at once could take away a HEARTBEAT that a slower node still needs
        to make the last events final, so a seat stays until each present member
        reports (in its HEARTBEAT's digest index) that it has reached the end."""
        if replica.ended is None or self.done:
            return []
        members = replica.stable.members.values()
        others = [m.node for m in members if m.present and m.node != self.node_id]
        finish = self.finder.finish(at, replica.ended[0], others)
        if finish is None:
            return []
        self.done = True
        return [Finished(finish.confirmed)]

    def admits(self, replica: Replica) -> Admits:
        """While a game is on, only the seated players may connect; in a lobby, or between
        games (a newcomer may sit down for the next one), all."""
        game = replica.stable
        if game.admits_newcomers():
            return Admits(None)
        return Admits(frozenset(member.node for member in game.members.values()))
