"""One seat's decisions, sans IO: one call per input, effects back (h11, aioquic).

A ``SeatMachine`` takes three inputs, each with the time it happened:

* a message received (``receive``; ``acknowledge`` once the batch it came in is in);
* a tick of time (``tick``; ``duties`` when the seat looks at what it owes the table);
* an action of the player (``submit``, ``leave``).

Each returns what the node must do, in order: the replica's effects (send, persist, the
timer, what became final) and the seat's own (effects.py: write a secret, wake up at a
time, connect or cut off a peer, move to another table, tell a game's end). It reads no
clock, draws no randomness of its own, touches no socket or file, and calls nothing of
the node: the node carries the effects out (node/seat/carrier.py).

Where a message goes depends on the seat's phase (``ROUTES``): a seat that holds no log
yet keeps what comes for the log it will hold (its ``Arrival``, arrival.py: the probe,
the log kept aside, the log it settles on); a seat at a table hands it to its replica,
unless its sender's last HELLO named another table. What it does about its table (the
lobby merge, a table that never answers) is its ``TableFinder``'s (finding.py); what it
owes the table is its ``Steward``'s (duties.py), whose bodies go through ``_submit`` here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any

from ..games.registry import game_for, level_in
from ..replica.core import Replica
from ..replica.effects import Delivered, SpectatorSeen
from ..replica.throttle import Throttle, Verdict
from ..table.fairdeal import RoundSecret
from ..table.player import HeldPlays, Rng, SeatPlayer
from ..table.state import Game, Phase
from ..wire.codec import ProtocolError, decode
from ..wire.messages import Body, Bye, Envelope, Hello, Kind
from ..wire.peek import message_kind, message_sender
from .arrival import Arrival
from .duties import Steward, Wishes, adopt_options
from .effects import (
    AskHello,
    CutOff,
    Forged,
    HelloHeard,
    KeepSecret,
    Out,
    Wake,
)
from .finding import TableFinder
from .pace import Pace
from .person import PersonsPlays
from .standing import Standing


class SeatPhase(Enum):
    """Where a seat stands with its table (spec/protocol.md section 12)."""

    FINDING = "finding"  # no log yet: probing for a table, or about to found one
    AT_TABLE = "at_table"  # a log: a member, or asking to be admitted


class SeatMachine:
    """Everything one seat decides: its table, its replica, its duties, its floods."""

    def __init__(
        self,
        node_id: bytes,
        table: str,
        wishes: Wishes,
        level: object | None,
        draw: Callable[[str], Rng],
        pace: Pace,
        finder: TableFinder,
        join_window: float,
        think_rng: Rng,
    ) -> None:
        self.node_id = node_id
        self.table = table
        self.wishes = wishes
        self.pace = pace
        self.think_rng = think_rng
        self.standing = Standing(node_id, finder, join_window)
        self.arrival = Arrival(self)  # how the seat comes to a log (arrival.py)

        # The Steward's bodies go through ``_submit``; a secret it draws is written down
        # (``KeepSecret``) before the commitment that needs it goes out.
        def keep(number: int, secret: RoundSecret) -> None:
            self._out.append(KeepSecret(number, secret))

        self.steward = Steward(node_id, wishes, level, draw, keep, self._submit, pace)
        self.replica: Replica | None = None  # the log the seat holds now
        self.throttle = Throttle()
        self.failed = False  # the node could not write down what we decided
        self.forged = 0
        self.other_table = 0
        self.stable: Game | None = None  # the stable game, as of the last event final
        self.person = PersonsPlays(node_id, self._submit)  # a person's keys and held plays
        self.now = 0.0
        self._out: list[Out] = []

    @property
    def phase(self) -> SeatPhase:
        return SeatPhase.FINDING if self.replica is None else SeatPhase.AT_TABLE

    def _drain(self) -> list[Out]:
        out, self._out = self._out, []
        return out

    def _emit(self, effects: Iterable[Out]) -> None:
        self._out.extend(self.react(effects))

    # -- a message received ---------------------------------------------------------------

    def receive(self, sender: bytes, data: bytes, at: float, defer: bool = True) -> list[Out]:
        """One message from ``sender`` (the key its channel proved), within its flood limits
        (protocol/replica/throttle.py); with ``defer``, what becomes final waits for
        ``acknowledge``."""
        self.now = at
        verdict = self.throttle.check(sender, len(data), at)
        if verdict is Verdict.CUT_OFF:
            member = self.replica is not None and self.replica._present(sender)
            if member:  # see protocol/replica/throttle.py: a member is throttled, never cut off
                self.throttle.pardon(sender)
            self._out.append(CutOff(sender, member))
        if verdict is Verdict.TAKE:
            self._handle(sender, data, at, defer)
        return self._drain()

    def handle(self, sender: bytes, data: bytes, at: float) -> list[Out]:
        """A message kept from before the seat held this log, handed in again."""
        self.now = at
        self._handle(sender, data, at, defer=False)
        return self._drain()

    def _handle(self, sender: bytes, data: bytes, at: float, defer: bool) -> None:
        named = message_sender(data)
        if named is not None and named != sender:
            self.forged += 1
            self._out.append(Forged(self.forged))
            return
        kind = message_kind(data)
        if self.standing.unplaced(sender, kind, at):  # at no table we know of (P-264)
            self.other_table += 1
            self._out.append(AskHello(sender))
            return
        follower = self.standing.follower
        if kind == Kind.WATCH and follower is not None:
            self._emit(follower.receive(sender, data, at))
            return
        hello = self._hello(sender, data) if kind == Kind.HELLO else None
        ROUTES[self.phase](self, sender, data, kind, hello, at, defer)
        if hello is not None and self.phase is SeatPhase.FINDING:
            self._out.extend(self.arrival.window(at))  # a member may have answered (P-267)

    def _hello(self, sender: bytes, data: bytes) -> Envelope | ProtocolError:
        """A HELLO, decoded once here and handed on so: the epoch it names; the shell
        connects, learns and answers it. An error is the replica's to count and report."""
        try:
            envelope = decode(data)
        except ProtocolError as error:
            return error
        hello = envelope.payload
        if isinstance(hello, Hello) and sender != self.node_id and envelope.table == self.table:
            self.standing.epochs[envelope.sender] = hello.epoch
            if self.replica is None:
                self.arrival.heard(hello.epoch)
            self._out.append(HelloHeard(envelope.sender, hello))
        return envelope

    def _finding(
        self, sender: bytes, data: bytes, kind: int | None, hello: Decoded | None, at: float,
        defer: bool,
    ) -> None:  # fmt: skip
        self.arrival.hold(sender, data, hello)  # for the log to come (P-202)

    def _at_table(
        self, sender: bytes, data: bytes, kind: int | None, hello: Decoded | None, at: float,
        defer: bool,
    ) -> None:  # fmt: skip
        replica = self.replica
        assert replica is not None
        if hello is None and not self.standing.same_table(sender, replica.me.epoch):
            self.other_table += 1  # its sender's last HELLO named another table
            self._out.extend(self.standing.ask_where(sender, replica.settings.hello_every, at))
            return
        # Read here (a HELLO, or overheard), a message goes on decoded: never decoded twice.
        decoded = hello if hello is not None else self.standing.overhear(replica, kind, data, at)
        # A HELLO may move the seat to another table: it sees the state brought up to date.
        advance = not defer or hello is not None
        self._emit(replica.receive(data, at, via=sender, advance=advance, decoded=decoded))
        if hello is not None:
            self._consider(replica, at)

    def acknowledge(self, at: float) -> list[Out]:
        """The batch is in: our acknowledgement goes out first (the others wait for it),
        then what became final here (and the bot's next move, which waits for nobody)."""
        self.now = at
        replica = self.replica
        if replica is not None:
            self._emit(replica.flush(at))
            self._emit(replica.advance(at))
            self._announce(replica)
            self._out.append(self.standing.admits(replica))
        return self._drain()

    # -- finding the table ----------------------------------------------------------------

    def listen(self, at: float) -> list[Out]:
        """A seat with no log to reload has greeted its peers: it listens for a table
        (``Arrival.listen``), and settles on one on the tick once the window is over, or
        on the HELLO after which it has heard enough (P-267)."""
        self.now = at
        self._out.extend(self.arrival.listen(at))
        return self._drain()

    # -- a tick of time -------------------------------------------------------------------

    def tick(self, at: float) -> list[Out]:
        """The timer: renew a watch, tick the replica, and see about the table."""
        self.now = at
        standing, replica = self.standing, self.replica
        self._emit(standing.follow(replica, at))
        if replica is None:
            self._out.extend(self.arrival.window(at))
        else:
            self._emit(replica.tick(at))
            self._announce(replica)
            self._emit(standing.lobby_hellos(replica, at))
            self._consider(replica, at)
            self._out.extend(standing.check_finished(replica, at))
            self._out.append(standing.admits(replica))
        return self._drain()

    def duties(self, at: float) -> list[Out]:
        """What the seat owes the table now, and its bot's next moves (``Steward.step``)."""
        self.now = at
        if self.replica is not None and not self.failed:
            self.steward.step(self.replica, at)
        return self._drain()

    def think_pause(self, game: str) -> float:
        """How long a bot seat thinks before it looks at the table (``game``: the tag of
        the game it means to play, until it holds a log)."""
        if self.steward.bot is None:
            return 0.0
        tag = game_played(self.replica, game)
        return game_for(tag).think_time(level_in(tag, self.steward.level), self.think_rng)

    # -- an action of the player ------------------------------------------------------------

    def submit(self, body: Body, at: float) -> list[Out]:
        """One event of ours."""
        self.now = at
        self._submit(body)
        return self._drain()

    def play_queue(self, player: SeatPlayer[Any, Any, Any, Any]) -> HeldPlays[Any]:
        """A fresh queue of the plays a person makes while earlier ones are on their way,
        for the game ``player`` plays (``SeatPlayer.plays``): its plays go out through
        the machine, as effects of ``press`` and ``pump``."""
        return self.person.take(player)

    def press(self, action: str, slot: int, at: float) -> list[Out]:
        """A person's key: the move its action names, sent now or held; ``person.refused``
        says why none was taken."""
        self.now = at
        self.person.press(self.replica, self.pace, action, slot, at)
        return self._drain()

    def pump(self, at: float) -> list[Out]:
        """Send the held plays whose turn has come; ``person.came_back`` those that came back."""
        self.now = at
        self.person.pump(self.replica)
        return self._drain()

    def leave(self, at: float) -> list[Out]:
        """Our goodbye (a BYE), a reveal owed first, if we still play."""
        self.now = at
        replica = self.replica
        if replica is not None and replica.is_member():  # after a game too: no rematch wait
            if not self.failed:
                self.steward.deal_duties(replica, reveals_only=True)
            self._submit(Bye())
        return self._drain()

    def _submit(self, body: Body) -> bool:
        if self.replica is None or self.failed:
            return False
        self.arrival.number(self.replica)  # our first event on a log we joined (P-272)
        self._emit(self.replica.submit(body, self.now))
        return True

    # -- what the replica reports -----------------------------------------------------------

    def react(self, effects: Iterable[Out], at: float | None = None) -> list[Out]:
        """The replica's effects, each followed by what the seat makes of it: an event of
        ours final, the lobby's options (P-261), the pace's pauses, a game's end. ``at``:
        the time, for effects of a replica the node drove itself (a log restored)."""
        if at is not None:
            self.now = at
        out: list[Out] = []
        for effect in effects:
            out.append(effect)
            if isinstance(effect, Delivered) and self.replica is not None:
                out.extend(self._delivered(effect, self.replica))
            elif isinstance(effect, SpectatorSeen) and self.replica is not None:
                # Our HELLO lists it, once the shell has connected to it: our peers let it
                # in to watch, and it follows through one of them should we leave (P-260).
                out.extend(self.react(self.replica.hello(None)))
        return out

    def _delivered(self, effect: Delivered, replica: Replica) -> list[Out]:
        entry, stable, at = effect.entry, replica.stable, self.now
        self.stable = stable
        if entry.sender == self.node_id:
            self.steward.on_own_event(entry, stable)
        if stable.phase == Phase.LOBBY and replica.optimistic().phase == Phase.LOBBY:
            adopt_options(self.steward.wishes, replica.optimistic())  # P-261
        out: list[Out] = []
        pause_ends = self.pace.follow(stable, at)
        if pause_ends is not None:  # look at the duties again when it ends
            out.append(Wake(pause_ends))
        return out + self.standing.ended(replica, at)

    def _consider(self, replica: Replica, at: float) -> None:
        """The lobby merge, and giving up on a table that never admits us: a goodbye if
        others are there, then a fresh log (``MoveTable``)."""
        effects, move = self.standing.consider(replica, at, self.arrival.aside)
        self._emit(effects)
        if move is not None:
            # No goodbye into a log kept aside (P-286): the seat means to come back to it.
            if self.standing.bye_first(replica) and not move.keep:
                self._submit(Bye())
            self._out.append(self.arrival.leave(replica, move))

    def _announce(self, replica: Replica) -> None:
        """After learning of new peers, send every peer our HELLO with the longer list.

        A peer learnt of through one member (a local bot seat, a node given one
        ``--peer``) is introduced to all the others this way; each node does it
        once per peer it learns of, so greetings stay bounded."""
        if self.standing.announce_due:
            self.standing.announce_due = False
            self._emit(replica.hello(None))


def game_played(replica: Replica | None, game: str) -> str:
    """The game the table plays: its log's (P-234, P-241), or ``game`` before we sit."""
    return game if replica is None else replica.stable.rules.tag


Decoded = Envelope | ProtocolError  # a HELLO as the machine read it, handed on so
Route = Callable[[SeatMachine, bytes, bytes, "int | None", "Decoded | None", float, bool], None]
ROUTES: dict[SeatPhase, Route] = {
    SeatPhase.FINDING: SeatMachine._finding,
    SeatPhase.AT_TABLE: SeatMachine._at_table,
}
