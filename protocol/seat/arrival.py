"""How a seat comes to a log (spec/protocol.md section 12), sans IO: part of ``SeatMachine``.

A seat that starts holds either a log of a game under way (it reloads it and says hello
as a member) or none: a log of a lobby, or of a game it is done with, is *kept aside*
(``restart``), and the seat probes for the join window. A member's answer names its
table's epoch; once the window is over, or once a member answered (and, with a log kept
aside, its table is heard: P-267), the seat ``settle``s: back to the kept log if its
table answers (``BackToKept``, P-257), else it asks to join the smallest table heard, or
founds one (``MoveTable``). What arrives before the seat holds a log is kept here, each
message with the epoch its sender's last HELLO named then, and handed to the log the seat
takes up: a HELLO always, anything else only if it is of that table (P-202).

The shell builds each replica (its keys, its file, its epoch for a table it founds) and
hands it in (``begin``, ``reload``); everything the seat does with it from there comes
back as effects, as for any other input.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ..replica.core import Replica
from ..replica.effects import Timer
from ..wire.codec import MAX_PEERS, encode
from ..wire.messages import Envelope, Hello, Kind, PeerAddress
from ..wire.peek import holds_a_start, message_kind, own_last_seq, said_goodbye
from .duties import table_options
from .effects import BackToKept, MoveTable, Out

if TYPE_CHECKING:
    from .machine import Decoded, SeatMachine

EARLY_LIMIT = 4096  # messages kept while the seat holds no log yet
Early = tuple[bytes, bytes, "bytes | None", "Decoded | None"]  # sender, message, epoch, HELLO


def probe_hello(
    table: str, node_id: bytes, name: str, back: str, endpoint: str, peers: Sequence[PeerAddress]
) -> bytes:
    """A HELLO from a seat that holds no log yet: no epoch, and not asking to join (P-201).
    ``peers``: whom it knows (a peer left out of the list answers it, P-264)."""
    hello = Hello(name, back, endpoint, tuple(peers)[:MAX_PEERS], b"", 0)
    return encode(Envelope(table, node_id, 0, 0, hello))


class Arrival:
    """The seat's way to a log: the log kept aside, the probe's answers, the early messages."""

    def __init__(self, machine: SeatMachine) -> None:
        self.machine = machine
        self.kept: bytes | None = None  # the epoch of a log kept aside at the start
        self.aside: bytes | None = None  # the epoch of a reloaded log given up, kept (P-286)
        self.floor = 0  # our highest sequence number in a log given up
        self.answered = False  # a member answered our probe, naming its table
        self.founded = False  # the last fresh log is a table this seat founded
        self.joined = False  # a fresh log we asked to join, where we have sent nothing yet
        self.until: float | None = None  # the end of the window, once the seat listens
        # Messages that came before the log, each with its sender's epoch back then (and
        # a HELLO as the machine decoded it).
        self.early: deque[Early] = deque(maxlen=EARLY_LIMIT)

    # -- before a log ----------------------------------------------------------------------

    def restart(
        self,
        epoch: bytes,
        records: list[bytes],
        *,
        restore: bool = True,
        results: bool = False,
        bot: bool = False,
    ) -> bool:
        """The log a previous run left (of table ``epoch``): True to reload it now.

        A log of a table still in the lobby, or of a game that ended here (``results``)
        when the seat is done with it (a headless ``bot``'s, or one its player left), is
        kept aside: the seat looks for a table first, and comes back to that log only if
        its table answers (``settle``, P-257); a headless bot's is given up. Otherwise a
        game that ended is the table's rematch offer (spec/rules.md R-49), and comes back
        at once. What is final after a restore is decided again with the others'
        heartbeats, so whether this log holds a game is read from the records themselves.
        ``restore``: the seat may reload a log at all.
        """
        me = self.machine.node_id
        finished = results and (bot or said_goodbye(records, me))
        if restore and not finished and holds_a_start(records):
            return True
        self.floor = max(self.floor, own_last_seq(records, me))
        if restore and records and not (finished and bot):
            self.kept = epoch
        return False

    def hold(self, sender: bytes, data: bytes, hello: Decoded | None = None) -> None:
        """A message that came before the log, kept with its sender's epoch then."""
        self.early.append((sender, data, self.machine.standing.epochs.get(sender), hello))

    def heard(self, epoch: bytes) -> None:
        """A HELLO of our table while we hold no log: a member's names its epoch."""
        if epoch:
            self.answered = True

    def _live(self, at: float) -> list[bytes]:
        standing = self.machine.standing
        return standing.live_epochs(at, standing.listen_time())  # a table we watch too (P-205)

    def listen_time(self) -> float:
        """How long a seat with no log listens before it settles: the join window, or, with
        a log kept aside, as long as a join is waited for (P-267)."""
        standing = self.machine.standing
        if self.kept is None:
            return standing.join_window
        return max(standing.join_window, standing.finder.patience)

    def heard_enough(self, at: float) -> bool:
        """Whether to settle before the window is over: a member answered, and the table
        of the log kept aside, if one is kept, is heard (P-267)."""
        return self.answered and (self.kept is None or self.kept in self._live(at))

    def listen(self, at: float) -> list[Out]:
        """The seat has greeted its peers: the window opens (``listen_time``)."""
        self.until = at + self.listen_time()
        return self.window(at)

    def window(self, at: float) -> list[Out]:
        """While the seat holds no log: settle once the window is over or a member has
        answered enough (P-267); else the tick at the window's end."""
        if self.until is None:
            return []  # not listening: a spectator's seat never sits down
        if at >= self.until or self.heard_enough(at):
            return self.settle(at)
        return [Timer(self.until)]

    def settle(self, at: float) -> list[Out]:
        """The window is over: back to the log kept aside if its table answers (P-257),
        else ask to join the smallest table heard, or found one."""
        live = self._live(at)
        kept, self.kept = self.kept, None
        if kept is not None and kept in live:
            return [BackToKept(kept)]
        smallest = min(live, default=None)
        if smallest is None:
            return [MoveTable(None, "nobody answered: founding a table")]
        return [MoveTable(smallest, f"asking to join table {smallest.hex()[:8]}")]

    def seq_floor(self, stored: int) -> int:
        """Our stream at a table we join resumes above every number used (``stored``: the
        floor written down with the last log)."""
        replica = self.machine.replica
        mine = replica.my_seq if replica is not None else 0
        return max(stored, mine, self.floor)

    def leave(self, replica: Replica, move: MoveTable) -> Out:
        """Leaving ``replica``'s log (``move``): a reloaded log given up for a table nobody
        answers for is kept aside, and the seat goes back to it, not to a fresh log of its
        table, when it would ask to join that table (P-286): that log holds the seat's
        own events, which a fresh one could never get back (P-257)."""
        if move.keep:
            self.aside = replica.me.epoch
        if move.epoch is not None and move.epoch == self.aside:
            return BackToKept(move.epoch)
        return move

    # -- taking up a log -------------------------------------------------------------------

    def begin(self, replica: Replica, at: float, *, found: bool, floor: int) -> list[Out]:
        """A fresh log the shell made (``MoveTable``): a table we found, or one we ask to
        join; then the messages that came before it. ``floor``: ``seq_floor``'s."""
        machine = self.machine
        old = machine.replica
        if old is not None:
            # Our clock never goes back, even on another table's log: peers that heard our
            # heartbeats before would take our next events for backdated ones.
            replica.clock.observe(old.clock.time)
        # A table we found is new to everyone: our stream there starts at 1 (P-80). One we
        # join may hold our earlier stream, so there we resume above every number used.
        replica.my_seq = 0 if found else floor
        self._take_up(replica)
        self.founded, self.joined = found, not found
        out: list[Out] = []
        if found:
            # The HELLO naming our epoch goes first, so that no peer takes our events
            # for those of a table without one.
            out += machine.react(replica.hello(None), at)
            wished = replace(machine.wishes)  # before the founding ADMIT sets them
            out += machine.react(replica.found(at))
            proposal = table_options(wished, replica.optimistic())
            if proposal is not None:  # our command line's options are the lobby's (P-261)
                out += machine.react(replica.submit(proposal, at))
        else:
            out += machine.react(replica.ask_to_join(at), at)
        machine.standing.finder.began(at, found=found)
        out += self._replay(replica, at)
        return out + machine.react(replica.flush(at))

    def reload(self, replica: Replica, at: float, *, floor: int) -> list[Out]:
        """A log the shell reloaded from disk (its events in): wait for its table to answer,
        and say hello as a member; then the messages that came before it."""
        machine = self.machine
        replica.my_seq = max(replica.my_seq, floor)
        self._take_up(replica)
        machine.standing.finder.restored(at)
        out = machine.react(replica.hello(None), at)
        return out + self._replay(replica, at)

    def number(self, replica: Replica) -> None:
        """Before our first event on a fresh log we asked to join: if the table seats us
        from an ADMIT of an earlier request, whose first-seq is not above the numbers we
        have used since (at another table), and no peer holds any event of ours from that
        first-seq on, our stream there starts at that first-seq (P-272). Numbered above it,
        the table would wait for good for the event at the first-seq, which never comes."""
        if not self.joined:
            return
        me = replica.optimistic().members.get(self.machine.node_id)
        if me is None or not me.present:
            return
        self.joined = False
        stream = replica.streams.get(self.machine.node_id)
        held = stream.announced if stream is not None else 0
        if me.since <= replica.my_seq and held < me.since:
            replica.my_seq = me.since - 1

    def _take_up(self, replica: Replica) -> None:
        if replica.me.epoch == self.aside:
            self.aside = None  # back to that log, or it is gone: a fresh one it is
        self.machine.replica = replica
        self.joined = False
        self.machine.standing.forget_ends()
        self.answered = False

    def _replay(self, replica: Replica, at: float) -> list[Out]:
        early, self.early = list(self.early), deque(maxlen=EARLY_LIMIT)
        out: list[Out] = []
        epoch = replica.me.epoch
        for sender, data, epoch_then, hello in early:
            if hello is not None or message_kind(data) == Kind.HELLO:
                out += self.machine.react(replica.receive(data, at, decoded=hello), at)
            elif epoch_then == epoch:  # not a table its sender has since left
                out += self.machine.handle(sender, data, at)
        return out
