"""A bounded model checker over the real sans-IO replicas.

Small tables of real ``Replica``s (the in-memory network of tests/protocol/replicas.py)
are driven through every interleaving a bound allows: each message in flight may be
delivered next, lost or delivered twice, a node may send an event, fall silent (a pause)
and come back, a link cut by the scenario may come back, and time may move (a timer tick
on every node, so suspicion can fire). States are told apart by a hash of
what each replica holds and what is in flight; a state seen before is not explored again.
At every state the safety invariants are checked:

- no event final (in the stable log) on one node and cut on another (P-89, P-90);
- the stable logs agree: of two logs, the shorter is a prefix of the longer;
- no event enters a stable log twice.

A counterexample is written as a trace, a JSON list of steps, that replays it exactly:

    python -m tests.rigs.modelcheck --members 3 --depth 6 --losses 1
    python -m tests.rigs.modelcheck --scenario withdrawal-race
    python -m tests.rigs.modelcheck --scenario overlapping-removals --old-cuts
    python -m tests.rigs.modelcheck --replay tests/rigs/traces/withdrawal_race.json

``--walks N --seed S`` walks at random instead, deeper than a search can go:

    python -m tests.rigs.modelcheck --walks 100 --depth 40 --ticks 12 --losses 2 --silences 1
    python -m tests.rigs.modelcheck --scenario overlapping-removals --walks 200

``--old-cuts`` (test only) brings back the cut rules before P-268 and P-269; a trace found
under it says so (``"rules": "old-cuts"``) and replays under it. ``--shrink TRACE`` shortens
a trace that begins at ``--scenario``'s start, keeping its violation, and writes ``--out``.

A trace is ``{"members": n, "violation": ..., "steps": [...]}``; each step is one of
open, deliver, drop, duplicate (``flight``: its index among the messages in flight, and
``what`` it is, checked on replay), tick (``seconds``), submit (``node``), silence and
wake (``node``), link_down and link_up (``source``, ``target``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from dutchblitz.protocol.replica.core import Replica
from dutchblitz.protocol.replica.liveness import Liveness
from dutchblitz.protocol.wire.codec import decode
from dutchblitz.protocol.wire.messages import Event, Profile

from tests.protocol.replicas import NODE_IDS, Net

Step = dict[str, object]
TRACES = Path(__file__).parent / "traces"


@dataclass(slots=True)
class Bounds:
    """How far the search may go from its start."""

    depth: int = 8  # steps after the scenario's own
    losses: int = 0  # messages lost
    duplicates: int = 0  # messages delivered twice
    ticks: int = 2  # timer steps
    submits: int = 1  # events each node may send
    tick_seconds: float = 0.5
    heals: bool = True  # a link cut by the scenario may come back (once)
    silences: int = 0  # members that fall silent (a pause), each free to come back
    # Aim: deliver only on these directed links (the rest stay in flight, delayed past the
    # bound), and on each link only its oldest message (no reordering within a link).
    links: frozenset[tuple[int, int]] | None = None
    fifo: bool = False
    # Try a timer tick before any delivery: a search that starts a moment before a timer runs
    # out reaches the interleavings where it fires early in few states, not after every
    # delivery beneath it has been tried.
    ticks_first: bool = False


@dataclass(slots=True)
class World:
    """A network of replicas, the budgets left, and the steps that led here."""

    net: Net
    members: int
    losses: int = 0
    duplicates: int = 0
    ticks: int = 0
    submits: dict[int, int] = field(default_factory=dict)
    heals: int = 0
    silences: int = 0
    steps: list[Step] = field(default_factory=list)


def frozen(world: World) -> bytes:
    """The world as bytes: a pickle copies the replicas about eight times faster than deepcopy."""
    return pickle.dumps(world, pickle.HIGHEST_PROTOCOL)


# -- steps ----------------------------------------------------------------------------------------


def describe_flight(net: Net, index: int) -> str:
    flight = net.flights[index]
    envelope = decode(flight.data)
    payload = envelope.payload
    what = type(payload.body).__name__ if isinstance(payload, Event) else type(payload).__name__
    seq = f" #{envelope.seq}" if isinstance(payload, Event) else ""
    return f"p{flight.source}->p{flight.target} {what}{seq}"


def apply_step(world: World, step: Step) -> None:
    """Do one step to the world (the same in search and in replay)."""
    net = world.net
    op = step["op"]
    if op == "open":
        open_table(net, int(str(step.get("settle", 8))))
    elif op in ("deliver", "drop", "duplicate"):
        index = int(str(step["flight"]))
        if "what" in step and describe_flight(net, index) != step["what"]:
            raise ValueError(f"the trace has gone another way: no {step['what']} at {index}")
        flight = net.flights[index]
        if op != "duplicate":
            net.flights.pop(index)
        if op != "drop":
            net.deliver(flight)
        world.losses += op == "drop"
        world.duplicates += op == "duplicate"
    elif op == "tick":
        world.ticks += 1
        net.tick_all(float(str(step["seconds"])))
    elif op == "submit":
        node = int(str(step["node"]))
        world.submits[node] = world.submits.get(node, 0) + 1
        net.submit(node, Profile(f"p{node} #{world.submits[node]}", "pump"))
    elif op in ("silence", "wake"):
        node = int(str(step["node"]))
        if op == "silence":
            net.down.add(node)  # paused: ticks never; messages to it wait
            world.silences += 1
        else:
            net.down.discard(node)
    elif op in ("link_down", "link_up"):
        link = (int(str(step["source"])), int(str(step["target"])))
        if op == "link_down":
            net.cut_links.add(link)
        else:
            net.cut_links.discard(link)
            world.heals += 1
    else:
        raise ValueError(f"unknown step {op!r}")
    forget_history(net)
    world.steps.append(step)


def open_table(net: Net, settle: int) -> None:
    """Found the table, admit the others, and let a few heartbeats go round."""
    net.open_table()
    for _ in range(settle):
        net.tick_all()
        net.run()


def forget_history(net: Net) -> None:
    """The rig keeps every effect; the checker needs none of it, and copies are cheaper."""
    net.log_of_sends.clear()
    for node in net.nodes:
        node.effects.clear()
        node.sent.clear()
        node.persisted.clear()
        node.delivered.clear()
        node.alarms.clear()


def new_world(members: int) -> World:
    return World(Net(members), members)


# -- the invariants -------------------------------------------------------------------------------


def violations(net: Net) -> list[str]:
    """Every safety invariant the replicas break now."""
    found: list[str] = []
    logs = [[(e.sender, e.seq) for e in n.replica.log] for n in net.nodes]
    for index, log in enumerate(logs):
        if len(set(log)) != len(log):
            found.append(f"p{index} has an event twice in its stable log")
    for a in range(len(logs)):
        for b in range(a + 1, len(logs)):
            common = min(len(logs[a]), len(logs[b]))
            if logs[a][:common] != logs[b][:common]:
                where = next(i for i in range(common) if logs[a][i] != logs[b][i])
                found.append(f"p{a} and p{b} have different stable logs at entry {where}")
    for index, log in enumerate(logs):
        for other in net.nodes:
            found += final_but_cut(index, log, other.index, other.replica)
    return found


def final_but_cut(
    index: int, log: list[tuple[bytes, int]], other: int, replica: Replica
) -> list[str]:
    """Events final in ``log`` (node ``index``) that ``replica`` has agreed to cut."""
    found = []
    settled = replica.liveness.settled
    mine = set((e.sender, e.seq) for e in replica.log)
    for sender, seq in log:
        cut = settled.get(sender)
        stream = replica.streams.get(sender)
        if cut is None or stream is None or seq <= cut or seq < stream.first_seq:
            continue
        if (sender, seq) not in mine:
            who = NODE_IDS.index(sender)
            found.append(f"event {seq} of p{who} is final at p{index} but cut at p{other} ({cut})")
    return found


# -- the search -----------------------------------------------------------------------------------


def state_hash(world: World) -> bytes:
    """What tells two states apart: each replica's state, the flights, time and budgets."""
    net = world.net
    parts: list[object] = [
        round(net.now, 6),
        sorted((f.source, f.target, f.data) for f in net.flights),
        sorted(net.cut_links),
        (world.losses, world.duplicates, world.ticks, sorted(world.submits.items())),
        (world.heals, world.silences, sorted(net.down)),
    ]
    for node in net.nodes:
        parts.append(replica_state(node.replica))
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).digest()


def replica_state(replica: Replica) -> object:
    liveness = replica.liveness
    streams = []
    for node, s in sorted(replica.streams.items()):
        counters = (s.held, s.announced, s.horizon, s.claim_seq, s.claim_clock, s.ack_cap, s.cut)
        heard = (s.first_seq, round(s.last_heard, 6), sorted(s.acks.items()))
        streams.append((node, counters, heard, sorted(s.events), sorted(s.parked)))
    said = (liveness.suspected, liveness.claims, liveness.settled, liveness.withdrawals)
    return (
        [(e.sender, e.seq) for e in replica.log],
        replica.pending,
        replica.my_seq,
        replica.clock.time,
        streams,
        [sorted(d.items()) for d in said],
        sorted(liveness.withdrawn),
        [(c[0], c[1]) for c in liveness.cut_notes],
        sorted(replica.repairs.asked.items()),
        replica.order.ack_due,
        round(replica.order.last_heartbeat, 6),
        round(liveness.majority_since or -1.0, 6),
    )


def moves(world: World, bounds: Bounds) -> Iterator[Step]:
    """Every step the bounds allow from this state (one per distinct message in flight)."""
    net = world.net
    tick: Step = {"op": "tick", "seconds": bounds.tick_seconds}
    if bounds.ticks_first and world.ticks < bounds.ticks:
        yield tick
    seen: set[tuple[int, int, bytes]] = set()
    heads: set[tuple[int, int]] = set()
    for index, flight in enumerate(net.flights):
        key = (flight.source, flight.target, flight.data)
        link = (flight.source, flight.target)
        if key in seen or (bounds.links is not None and link not in bounds.links):
            continue
        if flight.target in net.down:
            continue  # it is paused: the message waits until it wakes
        if bounds.fifo and link in heads:
            continue
        seen.add(key)
        heads.add(link)
        what = describe_flight(net, index)
        yield {"op": "deliver", "flight": index, "what": what}
        if world.losses < bounds.losses:
            yield {"op": "drop", "flight": index, "what": what}
        if world.duplicates < bounds.duplicates:
            yield {"op": "duplicate", "flight": index, "what": what}
    if world.ticks < bounds.ticks and not bounds.ticks_first:
        yield tick
    for node in range(world.members):
        budget = world.submits.get(node, 0) < bounds.submits
        if budget and node not in net.down and net.replica(node).can_play():
            yield {"op": "submit", "node": node}
    for node in sorted(net.down):
        yield {"op": "wake", "node": node}
    if world.silences < bounds.silences:
        for node in range(world.members):
            if node not in net.down:
                yield {"op": "silence", "node": node}
    if bounds.heals and world.heals == 0:
        for source, target in sorted(net.cut_links):
            yield {"op": "link_up", "source": source, "target": target}


@dataclass(slots=True)
class Report:
    states: int = 0  # distinct states explored
    revisits: int = 0  # steps that led to a state seen before
    deepest: int = 0
    seconds: float = 0.0
    counterexample: list[Step] | None = None
    violation: str = ""

    def line(self) -> str:
        rate = self.states / self.seconds if self.seconds else 0.0
        found = f"; VIOLATION: {self.violation}" if self.counterexample else "; no violation"
        return (
            f"{self.states} distinct states ({self.revisits} revisits, depth {self.deepest}) "
            f"in {self.seconds:.1f} s, {rate:.0f} states/s{found}"
        )


def search(start: World, bounds: Bounds, limit: int | None = None) -> Report:
    """Depth-first search from ``start`` over every step the bounds allow.

    Stops at the first violation (its steps are the counterexample), when every state
    within the bounds has been seen, or after ``limit`` distinct states.
    """
    report = Report()
    began = time.perf_counter()
    seen: set[bytes] = {state_hash(start)}
    base = len(start.steps)
    # Each state on the stack is kept pickled: one dump, and a load for each step from it.
    stack: list[tuple[bytes, Iterator[Step]]] = [(frozen(start), moves(start, bounds))]
    while stack:
        blob, options = stack[-1]
        step = next(options, None)
        if step is None:
            stack.pop()
            continue
        child: World = pickle.loads(blob)
        apply_step(child, step)
        key = state_hash(child)
        if key in seen:
            report.revisits += 1
            continue
        seen.add(key)
        report.states += 1
        report.deepest = max(report.deepest, len(child.steps) - base)
        broken = violations(child.net)
        if broken:
            report.counterexample, report.violation = child.steps, broken[0]
            break
        if limit is not None and report.states >= limit:
            break
        if len(child.steps) - base < bounds.depth:
            stack.append((frozen(child), moves(child, bounds)))
    report.seconds = time.perf_counter() - began
    return report


def walks(start: World, bounds: Bounds, count: int, seed: int) -> Report:
    """Random walks from ``start``, each to ``bounds.depth`` steps: deeper than a search
    can go, checking the invariants at every state (distinct states are counted)."""
    report = Report()
    began = time.perf_counter()
    rng = random.Random(seed)
    seen: set[bytes] = set()
    blob = frozen(start)
    for _ in range(count):
        world: World = pickle.loads(blob)
        for _depth in range(bounds.depth):
            options = list(moves(world, bounds))
            if not options:
                break
            apply_step(world, rng.choice(options))
            key = state_hash(world)
            report.revisits += key in seen
            report.states += key not in seen
            seen.add(key)
            report.deepest = max(report.deepest, len(world.steps) - len(start.steps))
            broken = violations(world.net)
            if broken:
                report.counterexample, report.violation = world.steps, broken[0]
                report.seconds = time.perf_counter() - began
                return report
    report.seconds = time.perf_counter() - began
    return report


# -- scenarios: where a search starts -------------------------------------------------------------

A, B, X = 0, 1, 2


def quiet_table(members: int) -> World:
    """A table of ``members``, everyone admitted and heard: the plain start."""
    world = new_world(members)
    apply_step(world, {"op": "open"})
    return world


def drain(world: World, held: Sequence[tuple[int, int]] = ()) -> None:
    """Deliver, oldest first, every message in flight except on the ``held`` links."""
    while True:
        index = next(
            (i for i, f in enumerate(world.net.flights) if (f.source, f.target) not in held),
            None,
        )
        if index is None:
            return
        apply_step(
            world, {"op": "deliver", "flight": index, "what": describe_flight(world.net, index)}
        )


def withdrawal_race() -> World:
    """The window of spec/protocol.md section 12, Known limits, reached by plain steps.

    X (p2) falls silent to A (p0) and B (p1) to X: one-way link faults. X sends an event
    that only B holds; A suspects X below it, X suspects B. B joins A's suspicion and agrees
    on X's cut at once (X's SUSPECT of B is still on its way to B), and X's link to A comes
    back. From here the search chooses: A, once it holds X's SUSPECT of B and hears X again,
    takes its own back (P-88) and may make X's event final before B's CUT reaches it.
    """
    world = quiet_table(3)
    apply_step(world, {"op": "link_down", "source": X, "target": A})
    apply_step(world, {"op": "link_down", "source": B, "target": X})
    for _ in range(9):  # just short of the suspicion timeout
        apply_step(world, {"op": "tick", "seconds": 0.2})
        drain(world)
    apply_step(world, {"op": "submit", "node": X})
    drain(world)
    for _ in range(40):
        if suspects(world, A, X) and suspects(world, X, B):
            break
        apply_step(world, {"op": "tick", "seconds": 0.2})
        drain(world, held=[(A, B), (B, A), (X, B)])
    flights = world.net.flights
    index = next((i for i, f in enumerate(flights) if (f.source, f.target) == (A, B)), None)
    if index is None or not suspects(world, X, B):
        raise ValueError("the rules no longer reach the window: A's SUSPECT of X, X's of B")
    apply_step(world, {"op": "deliver", "flight": index, "what": describe_flight(world.net, index)})
    apply_step(world, {"op": "link_up", "source": X, "target": A})
    world.ticks = world.heals = 0
    world.submits.clear()
    return world


# What the search may do from the window: X's link to A is back, and A and X talk (in
# order on each link, with timer ticks between); B has agreed on X's cut from A's SUSPECT,
# and its CUT, with everything else B and X send, is delayed past the bound: the race.
RACE_BOUNDS = Bounds(
    depth=24,
    ticks=5,
    submits=0,
    tick_seconds=0.3,
    heals=False,
    links=frozenset({(X, A), (A, X)}),
    fifo=True,
)


def suspects(world: World, by: int, node: int) -> bool:
    return NODE_IDS[node] in world.net.replica(by).liveness.suspected


# The five members of the overlapping removals: X is removed first, then A, which agreed on X's
# cut, in turn (the links plan's seed 191 of the simulator, in a table of five).
OA, OB, OX, OD, OE = 0, 1, 2, 3, 4


def overlapping_removals() -> World:
    """Two removals that overlap (spec/protocol.md section 12, Known limits), the first under way.

    One-way link faults as in the simulator's seed 191: X (p2) falls silent to A (p0), and a
    moment later A to B (p1) and D (p3); only E (p4) still hears A. X sends an event that
    every member but A holds, and A suspects X below it. E joins A's suspicion, B and D join
    E's, and A, holding all four SUSPECTs, agrees on X's cut below the event. Here the search
    starts: A's CUT is on its way to E, B's and D's SUSPECTs of X too, and B's and D's timers
    for A run out within two ticks. What the search may do: deliver, in order on each link,
    among A to E and B, D and E (X's own messages and those to A wait past the bound), and
    tick. If D and B suspect A before A's CUT reaches them, A's word no longer counts for them
    and they agree on X's cut above it, while E may already have adopted A's.
    """
    world = quiet_table(5)
    apply_step(world, {"op": "link_down", "source": OX, "target": OA})
    apply_step(world, {"op": "tick", "seconds": 0.2})
    drain(world)
    apply_step(world, {"op": "link_down", "source": OA, "target": OB})
    apply_step(world, {"op": "link_down", "source": OA, "target": OD})
    for _ in range(8):  # X's silence to A: just short of the suspicion timeout
        apply_step(world, {"op": "tick", "seconds": 0.2})
        drain(world)
    to_a = [(n, OA) for n in range(5) if n != OA]
    apply_step(world, {"op": "submit", "node": OX})
    drain(world, held=to_a)  # nobody tells A of X's event before A suspects X
    apply_step(world, {"op": "tick", "seconds": 0.2})
    drain(world, held=to_a + [(OA, n) for n in range(5) if n != OA])
    if not suspects(world, OA, OX):
        raise ValueError("the rules no longer reach the start: A's SUSPECT of X")
    deliver_first(world, (OA, OE))  # A's SUSPECT of X: E joins, then B and D join E's
    from_x = [(OX, n) for n in range(5) if n != OX]
    drain(world, held=[(OA, OE), (OA, OX), (OB, OE), (OD, OE), *from_x])
    if OX not in [NODE_IDS.index(n) for n in world.net.replica(OA).liveness.settled]:
        raise ValueError("the rules no longer reach the start: A's cut of X")
    world.ticks = world.heals = 0
    world.submits.clear()
    return world


def deliver_first(world: World, link: tuple[int, int]) -> None:
    """Deliver the oldest message in flight on ``link``."""
    flights = world.net.flights
    index = next(i for i, f in enumerate(flights) if (f.source, f.target) == link)
    apply_step(world, {"op": "deliver", "flight": index, "what": describe_flight(world.net, index)})


# From there: in order on each link among A to E and B, D, E, two timer ticks (B's and D's
# suspicion of A), no losses; everything else waits past the bound.
OVERLAP_BOUNDS = Bounds(
    depth=30,
    ticks=2,
    submits=0,
    tick_seconds=0.2,
    heals=False,
    links=frozenset({(OA, OE), (OB, OE), (OD, OE), (OE, OB), (OE, OD), (OB, OD), (OD, OB)}),
    fifo=True,
    ticks_first=True,
)


# Each scenario: its start (None: a quiet table of --members) and the bounds searched from it.
SCENARIOS: dict[str, tuple[Callable[[], World] | None, Bounds]] = {
    "quiet": (None, Bounds()),
    "withdrawal-race": (withdrawal_race, RACE_BOUNDS),
    "overlapping-removals": (overlapping_removals, OVERLAP_BOUNDS),
}


# -- replay and the command line ------------------------------------------------------------------


def replay(steps: Sequence[Step], members: int, show: bool = False) -> list[str]:
    """Redo ``steps`` from an empty network; return the violations at the first state with any."""
    world = new_world(members)
    for number, step in enumerate(steps):
        apply_step(world, step)
        broken = violations(world.net)
        if show:
            what = step.get("what", "")
            extra = {k: v for k, v in step.items() if k not in ("op", "what", "flight")}
            print(f"{number:4d} {step['op']:<10} {what} {extra if extra else ''}".rstrip())
            for line in broken:
                print(f"     ! {line}")
        if broken:
            return broken
    return []


def shrink(start: World, steps: Sequence[Step], violation: str) -> list[Step]:
    """A shorter counterexample: drop the steps past ``start`` one at a time, keeping a drop
    while what is left still reaches ``violation``, until none can go.

    A delivery is taken, each time, as the oldest message on its link, which must still be
    the one the step names: the shorter trace stays in order on every link.
    """
    base = len(start.steps)
    if list(steps[:base]) != start.steps:
        raise ValueError("the trace does not begin at this scenario's start")
    blob = frozen(start)
    found = reaches(blob, steps[base:], violation)
    if found is None:
        raise ValueError(f"the trace does not reach {violation!r}")
    tail = found[base:]
    dropped = True
    while dropped:
        dropped = False
        index = len(tail) - 1
        while index >= 0:
            shorter = reaches(blob, tail[:index] + tail[index + 1 :], violation)
            if shorter is None:
                index -= 1
                continue
            tail, dropped = shorter[base:], True
            index = min(index, len(tail)) - 1
    return start.steps + tail


def reaches(blob: bytes, tail: Sequence[Step], violation: str) -> list[Step] | None:
    """The steps, from the world pickled in ``blob``, up to the first state that breaks
    ``violation``, or None if ``tail`` does not get there (or no longer applies)."""
    world: World = pickle.loads(blob)
    for step in tail:
        if step["op"] in ("deliver", "drop", "duplicate"):
            what = str(step["what"])
            source, target = (int(part.split()[0][1:]) for part in what.split("->"))
            flights = world.net.flights
            link = [i for i, f in enumerate(flights) if (f.source, f.target) == (source, target)]
            if not link or describe_flight(world.net, link[0]) != what:
                return None
            step = {"op": step["op"], "flight": link[0], "what": what}
        apply_step(world, step)
        if violation in violations(world.net):
            return world.steps
    return None


def write_trace(
    path: Path, members: int, steps: Sequence[Step], violation: str, rules: str = ""
) -> None:
    """Write a trace; ``rules`` names a test-only switch it was found under (``old-cuts``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ",\n  ".join(json.dumps(step) for step in steps)
    head = f'{{"members": {members}, "violation": {json.dumps(violation)},\n'
    if rules:
        head += f' "rules": {json.dumps(rules)},\n'
    path.write_text(head + f' "steps": [\n  {lines}\n ]}}\n')


def read_trace(path: Path) -> tuple[int, list[Step]]:
    trace = json.loads(path.read_text())
    return int(trace["members"]), list(trace["steps"])


def trace_rules(path: Path) -> str:
    """The test-only switch a trace was found under, if any (``old-cuts``)."""
    return str(json.loads(path.read_text()).get("rules", ""))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.rigs.modelcheck", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--members", type=int, default=3)
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), default="quiet")
    parser.add_argument("--depth", type=int, help="steps searched (8; the race: 24; overlap: 30)")
    parser.add_argument("--losses", type=int, default=0)
    parser.add_argument("--duplicates", type=int, default=0)
    parser.add_argument("--silences", type=int, default=0, help="members that may fall silent")
    parser.add_argument("--ticks", type=int, help="timer steps (2; the race: 5; overlap: 2)")
    parser.add_argument("--submits", type=int, help="events each node may send (1; the race: 0)")
    parser.add_argument("--links", help="deliver only on these links, in order: 2>0,0>2 (all: any)")
    parser.add_argument("--limit", type=int, default=None, help="stop after this many states")
    parser.add_argument("--out", type=Path, default=Path("modelcheck-trace.json"))
    parser.add_argument("--walks", type=int, help="random walks to --depth instead of a search")
    parser.add_argument("--seed", type=int, default=0, help="of the random walks")
    parser.add_argument("--replay", type=Path, help="replay a trace, printing each step")
    parser.add_argument(
        "--shrink",
        type=Path,
        help="shorten a trace that begins at --scenario's start, keeping its violation (to --out)",
    )
    parser.add_argument(
        "--old-cuts",
        action="store_true",
        help="test only: the cut rules before P-268 and P-269, to show what they break",
    )
    args = parser.parse_args(argv)
    given = args.replay or args.shrink
    if given and trace_rules(given) == "old-cuts":
        args.old_cuts = True
    Liveness.learns_cuts = not args.old_cuts
    try:
        return run(args)
    finally:
        Liveness.learns_cuts = True


def run(args: argparse.Namespace) -> int:
    """Replay a trace, or search (or walk) from a scenario's start, as the arguments say."""
    if args.replay:
        members, steps = read_trace(args.replay)
        broken = replay(steps, members, show=True)
        print("violation: " + "; ".join(broken) if broken else "no violation")
        return 1 if broken else 0
    maker, scenario_bounds = SCENARIOS[args.scenario]
    start = quiet_table(args.members) if maker is None else maker()
    if args.shrink:
        members, steps = read_trace(args.shrink)
        violation = str(json.loads(args.shrink.read_text())["violation"])
        shorter = shrink(start, steps, violation)
        rules = "old-cuts" if args.old_cuts else ""
        write_trace(args.out, members, shorter, violation, rules)
        base = len(start.steps)
        print(f"{len(steps) - base} steps from the start, now {len(shorter) - base}: {args.out}")
        return 0
    bounds = replace(
        scenario_bounds,
        losses=args.losses,
        duplicates=args.duplicates,
        silences=args.silences,
    )
    if args.links == "all":
        bounds = replace(bounds, links=None, fifo=False)
    elif args.links:
        pairs = [part.split(">") for part in args.links.split(",")]
        bounds = replace(bounds, links=frozenset((int(a), int(b)) for a, b in pairs), fifo=True)
    for name in ("depth", "ticks", "submits"):
        if getattr(args, name) is not None:
            setattr(bounds, name, getattr(args, name))
    members = start.members
    if args.walks:
        report = walks(start, bounds, args.walks, args.seed)
    else:
        report = search(start, bounds, args.limit)
    print(f"{args.scenario}, {members} members, {bounds}: {report.line()}")
    if report.counterexample is not None:
        rules = "old-cuts" if args.old_cuts else ""
        write_trace(args.out, members, report.counterexample, report.violation, rules)
        print(f"trace: {args.out}; replay: python -m tests.rigs.modelcheck --replay {args.out}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
