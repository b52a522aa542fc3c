"""Finding the table, seen from a real seat: another table's messages, and a silent table.

A real ``LocalSeat`` on a real ``Transport`` (CURVE over loopback) meets one peer that
this test plays by hand: a bare transport whose HELLOs and HEARTBEATs the test writes.

* P-202: a peer whose last HELLO named another epoch than the seat's, the empty one
  included, has every message but HELLO dropped; once it names the seat's epoch again,
  its messages count again.
* P-264: so has a peer that has sent no HELLO yet, and the seat greets it with a HELLO
  that leaves it out of the list, which P-201 makes it answer.
* P-205: a seat that asked to be admitted to a table, and hears nobody at that epoch for
  the longer of 4 s and twice the suspicion timeout, gives up and founds a table afresh;
  one that watches that table's game meanwhile (section 26) hears it in the FEEDs its
  members answer with, and keeps waiting; a seat that reloaded a log waits as long from
  when the log is in, however long reading it took.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

import pytest
from dutchblitz.node.net.roster import Roster, Source
from dutchblitz.node.net.transport import Transport
from dutchblitz.node.seat.config import SeatConfig
from dutchblitz.node.seat.local import LocalSeat
from dutchblitz.node.store.state import StateDir, TableRecord
from dutchblitz.protocol.replica.core import Identity, Replica, Settings
from dutchblitz.protocol.replica.effects import Persist
from dutchblitz.protocol.seat.duties import Wishes
from dutchblitz.protocol.seat.follower import RENEW_S
from dutchblitz.protocol.wire.auth import Signer
from dutchblitz.protocol.wire.codec import decode, encode
from dutchblitz.protocol.wire.messages import Envelope, Heartbeat, Hello, Watch, WatchOp

TABLE = "finding"
SETTINGS = Settings(suspect_after=1.0)  # patience: the longer of 4 s and 2 s
JOIN_WINDOW = 0.5


async def until(condition: Callable[[], bool], seconds: float) -> None:
    """Wait for ``condition``, checking often; fail after ``seconds``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.02)


class Pair:
    """A seat under test and a peer the test speaks for."""

    def __init__(self, tmp_path: Path) -> None:
        self.store = StateDir(tmp_path / "seat")
        self.signer = self.store.identity()
        self.peer_signer = Signer(bytes(range(32)))
        self.seat: LocalSeat | None = None
        self.peer: Transport | None = None
        self.heard: list[Envelope] = []  # what the seat sent the peer, read by ``drain``

    async def open(self) -> None:
        node, peer_id = self.signer.node_id, self.peer_signer.node_id
        roster, peer_roster = Roster(), Roster()
        roster.learn(peer_id, self.peer_signer.public_key, Source.DOOR)
        peer_roster.learn(node, self.signer.public_key, Source.DOOR)
        transport = await Transport.open(self.signer, "127.0.0.1", roster=roster)
        self.peer = await Transport.open(self.peer_signer, "127.0.0.1", roster=peer_roster)
        self.peer.add_peer(node, transport.endpoint, self.signer.public_key)
        config = SeatConfig(TABLE, Wishes(name="seat"), SETTINGS, join_window=JOIN_WINDOW)
        self.seat = LocalSeat(config, self.store, transport, node)
        self.seat.meet(peer_id, self.peer.endpoint)

    async def close(self) -> None:
        if self.seat is not None:
            await self.seat.close()
        if self.peer is not None:
            self.peer.close()

    def say(self, payload: Hello | Heartbeat | Watch, lamport: int = 0) -> None:
        assert self.peer is not None and self.seat is not None
        envelope = Envelope(TABLE, self.peer_signer.node_id, lamport, 0, payload)
        self.peer.send(self.seat.node_id, encode(envelope))

    def hello(self, epoch: bytes, resume_seq: int = 0) -> None:
        assert self.peer is not None
        self.say(Hello("peer", "pump", self.peer.endpoint, (), epoch, resume_seq))

    def heartbeat(self) -> None:
        self.say(Heartbeat(0, (), 0, b""), lamport=1)

    async def feed(self, epoch: bytes) -> None:
        """Answer each of the seat's SUBSCRIBEs with an empty FEED of ``epoch``, as a
        member that only counts a spectator does; read everything else and drop it."""
        assert self.peer is not None
        while True:
            _, data = await self.peer.recv()
            watch = decode(data).payload
            if isinstance(watch, Watch) and watch.op == WatchOp.SUBSCRIBE:
                self.say(Watch(WatchOp.FEED, epoch, 0, "peer", self.peer.endpoint))

    async def drain(self) -> None:
        """Read what the seat sends the peer, so that nothing backs up."""
        assert self.peer is not None
        while True:
            _, data = await self.peer.recv()
            self.heard.append(decode(data))

    def hellos_unlisting_the_peer(self) -> int:
        """The seat's HELLOs with an epoch that leave the peer out of their list."""
        peer = self.peer_signer.node_id
        return sum(
            isinstance(e.payload, Hello)
            and bool(e.payload.epoch)
            and all(p.node != peer for p in e.payload.peers)
            for e in self.heard
        )


def test_messages_of_a_peer_at_another_table_are_dropped(tmp_path: Path) -> None:
    """P-202: only HELLO gets through from a peer whose last HELLO named another epoch;
    one that has sent none yet is read as of our table (its HELLO comes first, P-265)."""

    async def main() -> None:
        pair = Pair(tmp_path)
        await pair.open()
        assert pair.seat is not None
        reader = asyncio.ensure_future(pair.drain())
        try:
            await pair.seat.start()  # nobody names a table: the seat founds its own
            seat = pair.seat
            replica = seat.replica
            assert replica is not None and replica.is_member()
            own = replica.me.epoch
            larger = b"\xff" * 16  # larger than any epoch: the seat never merges into it
            received = replica.counters.received

            pair.heartbeat()  # no HELLO yet: read as of our table (P-202, P-265)
            await until(lambda: replica.counters.received > received, 5)
            assert seat.dropped_other_table == 0

            pair.hello(larger)
            await until(lambda: seat.contacts.epochs.get(pair.peer_signer.node_id) == larger, 5)
            pair.heartbeat()
            await until(lambda: seat.dropped_other_table == 1, 5)

            pair.hello(b"")  # no epoch at all is another epoch too
            await until(lambda: seat.contacts.epochs.get(pair.peer_signer.node_id) == b"", 5)
            pair.heartbeat()
            await until(lambda: seat.dropped_other_table == 2, 5)

            pair.hello(own)
            await until(lambda: seat.contacts.epochs.get(pair.peer_signer.node_id) == own, 5)
            received = replica.counters.received
            pair.heartbeat()
            await until(lambda: replica.counters.received > received, 5)
            assert seat.dropped_other_table == 2
            assert seat.replica is replica and replica.me.epoch == own
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            await pair.close()

    asyncio.run(main())


@pytest.mark.timeout(60)
def test_a_seat_gives_up_on_a_table_nobody_answers_for(tmp_path: Path) -> None:
    """P-205: asked to join, heard nobody at that epoch for 4 s: it founds afresh."""

    async def main() -> None:
        pair = Pair(tmp_path)
        await pair.open()
        assert pair.seat is not None
        reader = asyncio.ensure_future(pair.drain())
        silent = bytes(range(16))  # the table the peer names, and then never speaks for
        try:
            starting = asyncio.ensure_future(pair.seat.start())
            pair.hello(silent)  # during the seat's join window: it asks to join this table
            await starting
            seat = pair.seat
            asking = seat.replica
            assert asking is not None and asking.me.epoch == silent
            assert asking.rejoining and not asking.is_member()
            loop = asyncio.get_running_loop()
            since = loop.time()

            await until(lambda: seat.replica is not asking, 20)
            waited = loop.time() - since
            founded = seat.replica
            assert founded is not None and founded.is_member()
            assert founded.me.epoch != silent
            assert waited >= max(4.0, 2 * SETTINGS.suspect_after) - JOIN_WINDOW - 0.1, waited
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            await pair.close()

    asyncio.run(main())


@pytest.mark.timeout(60)
def test_a_slow_restore_does_not_count_in_the_wait_for_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """P-205, P-257: a seat restarts with its lobby's log kept aside and hears its table: it
    reloads that log. Reading a long log took more than the 4 s it waits for the table to
    answer, and no message was read meanwhile: the wait counts from when the log is in, not
    from before, or the seat would give its log up at once and found a table afresh."""

    def lobby_log() -> bytes:
        """A table the seat founded before it restarted: its log, in the lobby."""
        store = StateDir(tmp_path / "seat")
        signer = store.identity()
        epoch = bytes(range(16, 32))
        identity = Identity(signer.node_id, TABLE, epoch, "seat", "pump", "tcp://127.0.0.1:1")
        founding = Replica(identity, 0.0, SETTINGS, signer).found(0.0)
        store.begin_table(TableRecord(TABLE, epoch, 0))
        for effect in founding:
            if isinstance(effect, Persist):
                store.append_event(effect.data)
        store.close()
        return epoch

    skipped = [0.0]  # the seconds a slow read took: the loop's clock is that much ahead

    def slow_restore(replica: Replica, *args: object) -> object:
        effects = restore(replica, *args)
        # A long read holds the loop: no message is read, and this much time has passed.
        skipped[0] += max(4.0, 2 * SETTINGS.suspect_after) + 0.5
        return effects

    async def main() -> None:
        loop = asyncio.get_running_loop()
        clock = loop.time
        loop.time = lambda: clock() + skipped[0]  # type: ignore[method-assign]
        epoch = lobby_log()
        pair = Pair(tmp_path)
        await pair.open()
        assert pair.seat is not None
        reader = asyncio.ensure_future(pair.drain())
        try:
            starting = asyncio.ensure_future(pair.seat.start())
            pair.hello(epoch)  # its table answers: back to the kept log (P-257)
            await starting
            seat = pair.seat
            kept = seat.replica
            assert kept is not None and kept.me.epoch == epoch and kept.is_member()
            # Given up, the log went at the first tick after the read: let the seat tick a
            # few times more (counted as it ticks), and it still holds that log.
            ticks: list[float] = []
            tick = seat.machine.tick

            def counted(at: float) -> object:
                ticks.append(at)
                return tick(at)

            seat.machine.tick = counted  # type: ignore[method-assign]
            async with asyncio.timeout(20):
                while len(ticks) < 4:
                    await asyncio.sleep(0.05)  # polls the count, within the timeout
            assert seat.replica is kept
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            await pair.close()

    restore = Replica.restore
    monkeypatch.setattr(Replica, "restore", slow_restore)
    asyncio.run(main())


@pytest.mark.timeout(60)
def test_a_seat_watching_the_table_it_asked_to_join_keeps_waiting(tmp_path: Path) -> None:
    """P-205 with section 26: kept out by a game on, the seat watches it; the members send
    it nothing but FEEDs, one every renewal, and that is hearing its table: it does not
    found a table of its own (which would end its watching) past its patience."""

    async def main() -> None:
        pair = Pair(tmp_path)
        await pair.open()
        assert pair.seat is not None
        watched = bytes(range(16))
        reader = asyncio.ensure_future(pair.feed(watched))
        try:
            starting = asyncio.ensure_future(pair.seat.start())
            pair.hello(watched)  # during the seat's join window: it asks to join this table
            await starting
            seat = pair.seat
            asking = seat.replica
            assert asking is not None and asking.me.epoch == watched
            seat.watch()
            follower = seat.following.follower
            assert follower is not None
            patience = max(4.0, 2 * SETTINGS.suspect_after)
            # FEEDs come a renewal apart, longer than the listen time of the HELLO's epoch.
            assert max(SETTINGS.suspect_after, JOIN_WINDOW) < RENEW_S
            loop = asyncio.get_running_loop()
            since = loop.time()
            past = since + patience + RENEW_S  # the seat would have founded by then
            await until(lambda: loop.time() > past or seat.replica is not asking, 20)
            assert follower.epoch == watched and follower.sources
            assert seat.replica is asking and seat.following.follower is follower
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            await pair.close()

    asyncio.run(main())
