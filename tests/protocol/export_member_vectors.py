"""The ``member_runs`` of spec/vectors/ordering.json: runs whose observer is a member.

Each run plays a real table on ``replicas.Net`` with one replica as the observer, and
records every message that replica took, every time its timers ran and when it asked to
join, as the run's steps; the checks are then read off what it really sent. The format
is in protocol/conformance/member_vectors.py; export_order_vectors writes these runs with
the others.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from dutchblitz.protocol.replica.effects import Effect, Send
from dutchblitz.protocol.replica.viewchange import ViewChange
from dutchblitz.protocol.wire.codec import decode
from dutchblitz.protocol.wire.messages import (
    Cut,
    Event,
    Heartbeat,
    Ready,
    Repair,
    RepairRequest,
    Round,
    Suspect,
    Unsuspect,
)

from tests.protocol.replicas import NODE_IDS, SIGNERS, TABLE, Flight, Net

OBSERVER = 1  # seat 1 of four: admitted by the founder, like any player who joins


class RecordingNet(Net):
    """A Net that writes down, as steps, everything one replica takes in."""

    def __init__(self, count: int, observer: int) -> None:
        super().__init__(count)
        self.observer = observer
        self.steps: list[dict[str, Any]] = []
        self.step_sends: list[list[Send]] = []

    def _record(self, step: dict[str, Any], effects: list[Effect]) -> None:
        self.steps.append(step)
        self.step_sends.append([e for e in effects if isinstance(e, Send)])

    def deliver(self, flight: Flight, flush: bool = True) -> list[Effect]:
        effects = super().deliver(flight, flush)
        if flight.target == self.observer and flight.target not in self.down:
            assert flush
            self._record({"at": self.now, "receive": flight.data.hex()}, effects)
        return effects

    def tick(self, index: int) -> list[Effect]:
        effects = super().tick(index)
        if index == self.observer and index not in self.down:
            self._record({"at": self.now, "tick": True}, effects)
        return effects

    def join(self, index: int, schedule: Any = None) -> None:
        if index != self.observer:
            super().join(index, schedule)
            return
        effects = self.take(index, self.replica(index).ask_to_join(self.now))
        self._record({"at": self.now, "join": True}, effects)
        self.settle(schedule, until=lambda: self.quiet() and self.replica(index).is_member())

    def last_step(self) -> int:
        return len(self.steps) - 1

    def sent_since(self, since: int) -> list[tuple[int, Send]]:
        return [(i, s) for i in range(since, len(self.steps)) for s in self.step_sends[i]]


def seed(index: int) -> bytes:
    """The key seed of replica ``index`` (as replicas.SIGNERS makes it)."""
    found = hashlib.blake2b(b"dbp test key %d" % index, digest_size=32).digest()
    assert SIGNERS[index].node_id == NODE_IDS[index]
    return found


def check(spec: str, aspect: str, why: str, **fields: Any) -> dict[str, Any]:
    return {"spec": spec, "aspect": aspect, "why": why, **fields}


def envelope(payload: dict[str, Any]) -> dict[str, Any]:
    return {"type": "Envelope", "payload": payload}


def vector(net: RecordingNet, name: str, checks: list[dict[str, Any]]) -> dict[str, Any]:
    replica = net.replica(net.observer)
    seats = replica.stable.by_seat()
    settings = net.settings
    return {
        "name": name,
        "checks": checks,
        "table": TABLE,
        "epoch": net.epoch.hex(),
        "observer": NODE_IDS[net.observer].hex(),
        "observer_seed": seed(net.observer).hex(),
        "observer_name": replica.me.name,
        "observer_endpoint": replica.me.endpoint,
        "settings": {
            "heartbeat_every": settings.heartbeat_every,
            "suspect_after": settings.suspect_after,
            "repair_retry": settings.repair_retry,
        },
        "steps": net.steps,
        "log": [[e.sender.hex(), e.seq] for e in replica.log],
        "members": [[seats[s].node.hex(), s, seats[s].present] for s in sorted(seats)],
    }


def acknowledgements() -> dict[str, Any]:
    """Three members move at one Lamport time; none of it is final before all acknowledge."""
    net = RecordingNet(4, OBSERVER)
    net.open_table()
    for index in (0, 2, 3):
        net.submit(index, Ready(True))
    moves = [(NODE_IDS[i], net.last_own(i)[0]) for i in (0, 2, 3)]
    lamports = {decode(net.last_own(i)[1]).lamport for i in (0, 2, 3)}
    assert len(lamports) == 1, lamports  # each announces the clock the others' need (P-65)
    is_move = {net.last_own(i)[1] for i in (0, 2, 3)}
    since = net.last_step() + 1
    net.deliver_where(lambda f: f.target == OBSERVER and f.data in is_move)
    held = net.last_step()
    log = {(e.sender, e.seq) for e in net.replica(OBSERVER).log}
    assert not log & set(moves), "P-66 should hold these back"
    net.settle()
    log = {(e.sender, e.seq) for e in net.replica(OBSERVER).log}
    assert set(moves) <= log
    net.advance(1.0)
    net.tick(OBSERVER)
    beat = decode(net.step_sends[-1][0].data).payload
    assert isinstance(beat, Heartbeat)
    last_seq = {node: max(s for n, s in log if n == node) for node, _ in log}
    acks = [[a.node.hex(), a.held] for a in beat.acks]
    assert all(held_seq == last_seq[bytes.fromhex(n)] for n, held_seq in acks), acks
    checks = [
        check("P-70", "sends", "each event taken is acknowledged at once, in a HEARTBEAT",
              since=since, step=held, to=None, message=envelope({"type": "Heartbeat"})),
        check("P-66", "unstable", "every other member announced a clock as high, but none has "
              "acknowledged the others' events yet: nothing is final", step=held,
              events=[[n.hex(), s] for n, s in moves]),
        check("P-76", "acks", "a HEARTBEAT acknowledges what it holds of every stream",
              step=net.last_step(), acks=acks),
        check("P-67", "order", "once acknowledged, the events are applied in key order"),
        check("P-83", "members", "four seats, in the order of admission"),
    ]  # fmt: skip
    return vector(net, "a member observer: acknowledgements, and nothing final before them", checks)


def silence() -> dict[str, Any]:
    """Seat 3 leaves a gap and falls silent: repair, SUSPECT, CUT, and its removal."""
    net = RecordingNet(4, OBSERVER)
    net.open_table()
    silent = NODE_IDS[3]
    net.submit(3, Ready(True))
    missing, lost = net.last_own(3)
    net.submit(3, Ready(False))
    net.drop_where(lambda f: f.target == OBSERVER and f.data == lost)
    since = net.last_step() + 1
    net.down.add(3)
    first_ask = RepairRequest(silent, missing, missing)
    sent: list[tuple[int, Send]] = []
    for _ in range(10):
        net.run()
        sent = [(i, s) for i, s in net.sent_since(since) if decode(s.data).payload == first_ask]
        if sent:
            break
        net.tick_all()
    asked = sent[0][0]
    assert sent[0][1].to == silent, sent
    net.settle(until=lambda: net.quiet() and not net.replica(0).stable.members[silent].present)
    later = net.sent_since(asked + 1)
    requests = [(i, s) for i, s in later if isinstance(decode(s.data).payload, RepairRequest)]
    retry_step, retry = requests[0]
    assert retry.to in (NODE_IDS[0], NODE_IDS[2]) and retry.to == min(NODE_IDS[0], NODE_IDS[2])
    mine = [decode(s.data) for _i, s in net.sent_since(since)]
    bodies = [e.payload.body for e in mine if isinstance(e.payload, Event)]
    suspect = next(b for b in bodies if isinstance(b, Suspect))
    cut = next(b for b in bodies if isinstance(b, Cut))
    assert suspect.node == cut.node == silent
    end = net.last_step()
    hid = silent.hex()
    checks = [
        check("P-77", "sends", "a gap is asked of the origin first",
              since=since, step=asked, to=hid,
              message=envelope({"type": "RepairRequest", "origin": hid, "first": missing,
                                "last": missing})),
        check("P-196", "sends", "no sooner than 0.3 s later, of the first other node in "
              "node-id order whose acks show it holds the missing event",
              since=asked + 1, step=retry_step, to=retry.to.hex() if retry.to else None,
              message=envelope({"type": "RepairRequest", "origin": hid, "first": missing})),
        check("P-196", "silent", "and not before 0.3 s", since=asked + 1,
              step=next(i for i in range(asked + 1, end + 1)
                        if net.steps[i]["at"] >= net.steps[asked]["at"] + 0.3) - 1,
              to=retry.to.hex() if retry.to else None,
              message=envelope({"type": "RepairRequest"})),
        check("P-85", "sends", "a member silent for the suspicion timeout is suspected, with "
              "the highest seq held of it", since=since, step=end, to=None,
              message=envelope({"type": "Event", "body": {"type": "Suspect", "node": hid,
                                                          "held": suspect.held}})),
        check("P-89", "sends", "once every other present member suspects it, the CUT is the "
              "lowest held among the SUSPECTs", since=since, step=end, to=None,
              message=envelope({"type": "Event", "body": {"type": "Cut", "node": hid,
                                                          "seq": cut.seq}})),
        check("P-92", "members", "the first SUSPECT in the order removes it"),
        check("P-91", "order", "the survivors agree on its stream up to the cut"),
    ]  # fmt: skip
    return vector(net, "a member observer: a gap repaired, a silent member cut", checks)


def _last_beat(net: RecordingNet) -> tuple[int, Heartbeat]:
    """The observer's latest HEARTBEAT, and the step that sent it."""
    for step in range(net.last_step(), -1, -1):
        for send in reversed(net.step_sends[step]):
            payload = decode(send.data).payload
            if isinstance(payload, Heartbeat):
                return step, payload
    raise AssertionError("the observer sent no HEARTBEAT")


def _acks_of(beat: Heartbeat) -> list[list[Any]]:
    return [[a.node.hex(), a.held] for a in beat.acks]


def from_seat(index: int, kind: type) -> Callable[[Flight], bool]:
    """Picks the flights of one kind that seat ``index`` sends the observer."""

    def wanted(flight: Flight) -> bool:
        payload = flight.envelope().payload
        return flight.source == index and flight.target == OBSERVER and isinstance(payload, kind)

    return wanted


def withdrawal() -> dict[str, Any]:
    """Seat 2 suspects seat 3 and takes it back; the observer joins, holds back, withdraws."""
    net = RecordingNet(4, OBSERVER)
    net.open_table()
    net.advance(1.0)  # everyone has heard a majority long enough to suspect (P-85)
    net.tick_all()
    net.run()
    doubted, hid = NODE_IDS[3], NODE_IDS[3].hex()
    held = net.replica(OBSERVER).streams[doubted].held
    net.submit(2, Suspect(doubted, net.replica(2).streams[doubted].held))
    since = net.last_step() + 1
    net.deliver_where(from_seat(2, Event))
    joined = net.last_step()
    net.submit(3, Ready(True))  # heard by the observer, past the held it stated
    net.deliver_where(from_seat(3, Event))
    capped, beat = _last_beat(net)
    assert [doubted.hex(), held] in _acks_of(beat), "P-87"
    net.submit(2, Unsuspect(doubted))
    net.deliver_where(from_seat(2, Event))
    quiet = net.last_step()
    net.advance(0.3)
    net.tick(3)
    net.deliver_where(from_seat(3, Heartbeat))
    withdrew = net.last_step()
    bodies = [decode(s.data).payload for _i, s in net.sent_since(since)]
    assert Event(Unsuspect(doubted)) in bodies, "P-228"
    net.advance(0.3)
    net.tick(OBSERVER)
    flushing, beat = _last_beat(net)
    assert [doubted.hex(), held] in _acks_of(beat), "P-262"
    net.settle()
    assert all(log == net.logs()[OBSERVER] for log in net.logs())
    checks = [
        check("P-86", "sends", "a member that hears a majority joins another member's SUSPECT",
              since=since, step=joined, to=None,
              message=envelope({"type": "Event", "body": {"type": "Suspect", "node": hid,
                                                          "held": held}})),
        check("P-87", "acks", "its acknowledgements of the suspected member stop at the held "
              "of its SUSPECT, though it holds a later event", step=capped,
              acks=_acks_of(_beat_at(net, capped))),
        check("P-227", "silent", "seat 2's UNSUSPECT alone withdraws nothing of the observer's",
              since=since + 1, step=quiet, to=None,
              message=envelope({"type": "Event", "body": {"type": "Unsuspect"}})),
        check("P-228", "sends", "hearing the suspected member again once a member the cut "
              "needs has withdrawn, it withdraws too", since=quiet + 1, step=withdrew,
              to=None,
              message=envelope({"type": "Event", "body": {"type": "Unsuspect", "node": hid}})),
        check("P-226", "sends", "and says so on the wire, to every peer", since=quiet + 1,
              step=withdrew, to=None,
              message=envelope({"type": "Event", "body": {"type": "Unsuspect", "node": hid}})),
        check("P-88", "sends", "it withdraws its suspicion", since=quiet + 1, step=withdrew,
              to=None,
              message=envelope({"type": "Event", "body": {"type": "Unsuspect", "node": hid}})),
        check("P-262", "acks", "but acknowledges no more of the member's events while the "
              "other members have not taken in its UNSUSPECT", step=flushing,
              acks=_acks_of(beat)),
        check("P-92", "members", "seat 2's SUSPECT, applied in order, removes it all the same; "
              "it is admitted again"),
        check("P-229", "order", "the UNSUSPECTs enter the log and change nothing in the game"),
    ]  # fmt: skip
    return vector(net, "a member observer: a suspicion joined, held to, and taken back", checks)


def _flush(net: RecordingNet, member: int, others: tuple[int, ...]) -> None:
    """``member``'s events reach ``others``, whose HEARTBEATs (acknowledging them) come back."""
    for other in others:
        net.deliver_where(lambda f, o=other: f.source == member and f.target == o)
        net.tick(other)
        net.deliver_where(
            lambda f, o=other: (
                f.source == o
                and f.target == member
                and isinstance(f.envelope().payload, (Event, Heartbeat))
            )
        )


def between(source: int, target: int, kind: type | tuple[type, ...]) -> Callable[[Flight], bool]:
    """Picks the flights of one kind from seat ``source`` to seat ``target``."""

    def wanted(flight: Flight) -> bool:
        payload = flight.envelope().payload
        return flight.source == source and flight.target == target and isinstance(payload, kind)

    return wanted


def race() -> dict[str, Any]:
    """The race of a withdrawal with a cut agreed from the SUSPECT it withdraws.

    Seats 0 and 2 hold an event E of seat 3 that the observer lacks; all three suspect
    seat 3, the observer with the lowest held, and seat 0 agrees on the cut there at once.
    Before seat 0's CUT reaches anyone, seat 2 withdraws and the observer, hearing seat 3
    again, withdraws too (P-228). Had it acknowledged E at once, E would be final at the
    observer and at seat 2 and cut at seat 0: it keeps its acknowledgements at its held
    until seats 0 and 2 have taken in its UNSUSPECT (P-262), by when it holds seat 0's CUT.
    """
    net = RecordingNet(4, OBSERVER)
    net.open_table()
    net.advance(1.0)
    net.tick_all()
    net.run()
    doubted, hid = NODE_IDS[3], NODE_IDS[3].hex()
    held = net.replica(OBSERVER).streams[doubted].held
    net.submit(3, Ready(True))  # E: seats 0 and 2 take it in, the observer's copy waits
    early = net.last_own(3)[0]
    for seat in (0, 2):
        net.deliver_where(between(3, seat, Event))
    net.tick_all()
    net.deliver_where(lambda f: f.target != OBSERVER or f.source != 3)
    net.submit(2, Suspect(doubted, net.replica(2).streams[doubted].held))
    since = net.last_step() + 1
    net.deliver_where(between(2, OBSERVER, Event))
    joined = net.last_step()
    net.deliver_where(lambda f: f.target == 0 and f.source in (1, 2))
    assert net.replica(0).liveness.settled.get(doubted) == held, "P-89"
    net.submit(2, Unsuspect(doubted))
    net.deliver_where(between(2, OBSERVER, Event))
    net.advance(0.3)
    net.tick(3)
    net.deliver_where(between(3, OBSERVER, (Event, Heartbeat)))
    withdrew = net.last_step()
    bodies = [decode(s.data).payload for _i, s in net.sent_since(since)]
    assert Event(Unsuspect(doubted)) in bodies, "P-228"
    net.deliver_where(between(2, OBSERVER, Heartbeat))
    net.deliver_where(between(0, OBSERVER, Heartbeat))
    net.advance(0.3)
    net.tick(OBSERVER)
    flushing, beat = _last_beat(net)
    assert [doubted.hex(), held] in _acks_of(beat), "P-262"
    assert (doubted, early) not in set(net.logs()[OBSERVER]), "P-262"
    net.settle()
    assert all(log == net.logs()[OBSERVER] for log in net.logs())
    assert (doubted, early) not in set(net.logs()[OBSERVER]), "P-91"
    checks = [
        check("P-86", "sends", "it joins seat 2's SUSPECT with the lower held it has",
              since=since, step=joined, to=None,
              message=envelope({"type": "Event", "body": {"type": "Suspect", "node": hid,
                                                          "held": held}})),
        check("P-228", "sends", "hearing seat 3 again after seat 2's UNSUSPECT, it withdraws",
              since=joined + 1, step=withdrew, to=None,
              message=envelope({"type": "Event", "body": {"type": "Unsuspect", "node": hid}})),
        check("P-262", "acks", "its acknowledgements of seat 3 stay at its held while seat 0, "
              "which agreed on the cut there, has not taken in its UNSUSPECT", step=flushing,
              acks=_acks_of(beat)),
        check("P-262", "unstable", "so E, which it holds and every other member acknowledged, "
              "is not final", step=flushing, events=[[hid, early]]),
        check("P-90", "order", "it adopts seat 0's CUT: E never counts anywhere (P-91)"),
        check("P-92", "members", "the first SUSPECT in the order removes seat 3"),
    ]  # fmt: skip
    return vector(net, "a member observer: a withdrawal flushed past a cut agreed from it", checks)


def _beat_at(net: RecordingNet, step: int) -> Heartbeat:
    beats = [decode(s.data).payload for s in net.step_sends[step]]
    found = [b for b in beats if isinstance(b, Heartbeat)]
    assert found, f"no HEARTBEAT at step {step}"
    return found[-1]


def _lost_to_a_round(flight: Flight) -> bool:
    """The observer takes no part in the round: every ROUND to or from it is lost, and so is
    any REPAIR it sends (it alone holds E: the survivors must decide a cut below it)."""
    payload = flight.envelope().payload
    if isinstance(payload, Round):
        return OBSERVER in (flight.source, flight.target)
    return flight.source == OBSERVER and isinstance(payload, Repair)


def missed_round() -> dict[str, Any]:
    """The race of a decision missed with the acknowledgements of the stay that follows it.

    Seat 4 sends an event E that only the observer takes in, and falls silent. Seats 0, 2
    and 3, a quorum of five, decide a view that cuts seat 4 below E, while every ROUND to
    and from the observer is lost. Seat 4 comes back, learns its cut, and is admitted again
    at a later first-seq: the survivors, in view 1, acknowledge its stream from there, past
    E. The observer, still in view 0, holds E and every other member's acknowledgement
    reaching it; counting them would make E final there and cut everywhere else (the
    overlapping plan's seed 19). It counts no acknowledgement of a later view, and asks
    for the decision it missed (P-287); once it learns it, E is cut there too.
    """
    ViewChange.switch(True)
    try:
        return _missed_round()
    finally:
        ViewChange.switch(False)


def _missed_round() -> dict[str, Any]:
    gone, survivors = 4, (0, 2, 3)
    net = RecordingNet(5, OBSERVER)
    net.open_table()
    net.advance(1.0)
    net.tick_all()
    net.run()
    doubted, hid = NODE_IDS[gone], NODE_IDS[gone].hex()
    net.submit(gone, Ready(True))
    early = net.last_own(gone)[0]
    net.deliver_where(between(gone, OBSERVER, Event))
    net.drop_where(lambda f: f.source == gone)
    net.down.add(gone)
    net.losing.append(_lost_to_a_round)
    net.settle(until=lambda: all(net.replica(i).viewchange.view >= 1 for i in survivors))
    cut = net.replica(0).viewchange.decisions[0][0].held
    assert cut < early and net.replica(OBSERVER).viewchange.view == 0
    since = net.last_step() + 1
    net.down.discard(gone)
    net.settle(until=lambda: all(net.replica(i).streams[doubted].held >= early for i in survivors))
    for _ in range(4):
        net.tick_all()
        net.run()
    behind = net.last_step()
    assert (doubted, early) not in set(net.logs()[OBSERVER]), "P-287"
    ahead = [
        i
        for i in range(since, behind + 1)
        if "receive" in net.steps[i]
        and getattr(decode(bytes.fromhex(net.steps[i]["receive"])).payload, "view", None) == 1
    ]
    assert ahead, "no HEARTBEAT of view 1 reached the observer"
    asked = next(
        i for i, send in net.sent_since(ahead[0]) if isinstance(decode(send.data).payload, Round)
    )
    to = decode(bytes.fromhex(net.steps[ahead[0]]["receive"])).sender.hex()
    net.losing.remove(_lost_to_a_round)
    net.settle()
    assert all(log == net.logs()[OBSERVER] for log in net.logs())
    assert (doubted, early) not in set(net.logs()[OBSERVER]), "P-91"
    checks = [
        check("P-287", "sends", "a node that runs rounds says its view in each HEARTBEAT: "
              "the observer, which missed the decision, is in view 0",
              since=since, step=behind, to=None,
              message=envelope({"type": "Heartbeat", "view": 0})),
        check("P-287", "sends", "a HEARTBEAT of view 1 is answered with LEARN of view 0",
              since=ahead[0], step=asked, to=to,
              message=envelope({"type": "Round", "op": "LEARN", "view": 0})),
        check("P-287", "unstable", "the survivors acknowledge seat 4's next stay, past E, in "
              "view 1: the observer counts none of it, and E is not final", step=behind,
              events=[[hid, early]]),
        check("P-279", "order", "it learns the decision: E lies past the cut, and never counts"),
        check("P-93", "members", "seat 4 is admitted again"),
    ]  # fmt: skip
    found = vector(net, "a member observer: a decision missed, and the next stay's acks", checks)
    return {**found, "rounds": True}


def member_runs() -> list[dict[str, Any]]:
    return [acknowledgements(), silence(), withdrawal(), race(), missed_round()]
