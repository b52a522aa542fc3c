"""Write the ordering vectors, spec/vectors/ordering.json, from real runs of the harness.

    PYTHONPATH=... python -m tests.protocol.export_order_vectors

Each run plays a small table on ``replicas.Net`` with the real codec and replicas, keeps
every EVENT the members sent and a last HEARTBEAT from each present member, and writes
down what every member's stable log ended with. The committed JSON, not this script, is
what other implementations run; test_order_vectors checks that the two still agree.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dutchblitz.protocol.games.blitz.cards import Card, Colour
from dutchblitz.protocol.games.blitz.moves import CentrePlay, WoodFlip
from dutchblitz.protocol.games.blitz.plays import centre_play, wood_flip
from dutchblitz.protocol.games.blitz.rules import playable_tops
from dutchblitz.protocol.replica.effects import Send
from dutchblitz.protocol.wire.codec import decode
from dutchblitz.protocol.wire.messages import Bye, Event, Heartbeat, Ready

from tests.protocol.export_member_vectors import member_runs
from tests.protocol.replicas import EPOCH, NODE_IDS, TABLE, Net, blitz_top, deck_order, events_of

TARGET = Path(__file__).resolve().parents[2] / "spec" / "vectors" / "ordering.json"
OBSERVER = hashlib.blake2b(b"dbp test observer", digest_size=16).digest()
SHUFFLE_SEED = hashlib.blake2b(b"dbp ordering shuffles", digest_size=16).digest()
RED = Colour.RED
ABOUT = (
    "Ordering conformance vectors for spec/protocol.md sections 8 to 13: see "
    "spec/protocol.md section 25 for the format. tiebreaks: the P-63 draw for (epoch, "
    "lamport, sender), as a decimal string. keys: events [lamport, sender] and the order "
    "of their keys. runs: encoded messages (hex) of one table, which an observer that is "
    "not a member receives in every order its schedules name, and what its stable log "
    "must hold then: the order of [sender, seq], each outcome, the dropped events, the "
    "members by seat, the centre piles and the public digest. member_runs: an observer "
    "that is a member takes the steps given (it joins, receives a message and sends the "
    "acknowledgement it owes, or runs its timers, each at a time in seconds): what it "
    "sends (acknowledgements, repair requests, SUSPECT, CUT), what is not yet final, and "
    "its stable log and members at the end."
)


def spec_tiebreak(epoch: bytes, lamport: int, sender: bytes) -> int:
    """P-63 as the spec words it, written apart from protocol/replica/clock.py on purpose."""
    data = epoch + lamport.to_bytes(8, "big") + sender
    return int.from_bytes(hashlib.blake2b(data, digest_size=16).digest()[:8], "big")


# -- tiebreaks and keys ----------------------------------------------------------------------


def tiebreaks() -> list[dict[str, Any]]:
    worked = bytes(range(16))
    rows = [
        ("the first event of a table", EPOCH, 1, NODE_IDS[0]),
        ("another sender at the same time", EPOCH, 1, NODE_IDS[1]),
        ("the same sender one tick later", EPOCH, 2, NODE_IDS[0]),
        ("the worked example's sender at time 42", bytes(16), 42, worked),
        ("the largest Lamport time", EPOCH, 2**63 - 1, NODE_IDS[2]),
        ("a node that holds no log yet (empty epoch)", b"", 7, NODE_IDS[3]),
    ]
    return [
        {
            "spec": "P-63",
            "name": name,
            "epoch": epoch.hex(),
            "lamport": lamport,
            "sender": sender.hex(),
            "tiebreak": str(spec_tiebreak(epoch, lamport, sender)),
        }
        for name, epoch, lamport, sender in rows
    ]


def keys() -> list[dict[str, Any]]:
    events = [(5, NODE_IDS[0]), (5, NODE_IDS[1]), (4, NODE_IDS[2]), (5, NODE_IDS[2])]
    events += [(6, NODE_IDS[0]), (1, NODE_IDS[1]), (7, NODE_IDS[1]), (7, NODE_IDS[0])]
    key = [(lamport, spec_tiebreak(EPOCH, lamport, node), node) for lamport, node in events]
    order = sorted(range(len(events)), key=key.__getitem__)
    return [
        {
            "spec": "P-62",
            "name": "lamport first, then the tiebreak, then the sender",
            "epoch": EPOCH.hex(),
            "events": [[lamport, node.hex()] for lamport, node in events],
            "order": order,
        }
    ]


# -- runs --------------------------------------------------------------------------------------


def check(spec: str, aspect: str, why: str) -> dict[str, str]:
    return {"spec": spec, "aspect": aspect, "why": why}


def final_heartbeats(net: Net, members: Sequence[int]) -> list[bytes]:
    """A fresh HEARTBEAT from each member, promising its clock and acknowledging all."""
    net.advance(1.0)
    beats = []
    for index in members:
        sends = [e for e in net.tick(index) if isinstance(e, Send)]
        beats += [s.data for s in sends if isinstance(decode(s.data).payload, Heartbeat)]
    assert len(beats) == len(members)
    return beats


def run_vector(
    net: Net,
    name: str,
    members: Sequence[int],
    checks: Sequence[dict[str, str]],
    *,
    tail: Sequence[bytes] = (),
    shuffles: int = 0,
    centre: bool = False,
) -> dict[str, Any]:
    """The vector of a settled table: its events, ``tail`` last, then the heartbeats."""
    assert net.quiet(), net.describe()
    logs = net.logs()
    assert all(log == logs[0] for log in logs), "the members disagree"
    events = [raw for raw in events_of(net.log_of_sends) if raw not in tail]
    messages = [*events, *tail, *final_heartbeats(net, members)]
    replica = net.replica(members[0])
    log = logs[members[0]]
    held = {(decode(raw).sender, decode(raw).seq) for raw in messages if _is_event(raw)}
    seats = replica.stable.by_seat()
    vector: dict[str, Any] = {
        "name": name,
        "checks": list(checks),
        "table": TABLE,
        "epoch": net.epoch.hex(),
        "observer": OBSERVER.hex(),
        "schedules": _schedules(len(tail) + len(members), shuffles),
        "messages": [raw.hex() for raw in messages],
        "log": [[sender.hex(), seq] for sender, seq in log],
        "outcomes": [_outcome(e.outcome.refusal, e.outcome.by) for e in replica.log],
        "dropped": [[s.hex(), q] for s, q in sorted(held - set(log), key=lambda x: x[::-1])],
        "members": [[seats[s].node.hex(), s, seats[s].present] for s in sorted(seats)],
        "digest": replica.digest().hex(),
    }
    if centre:
        table = replica.stable.table
        assert table is not None
        vector["centre"] = [[int(p.colour), [c.code for c in p.cards]] for p in table.piles]
    return vector


def _schedules(tail: int, shuffles: int) -> dict[str, Any]:
    found: dict[str, Any] = {"tail": tail} if tail else {}
    if shuffles:
        found["shuffles"] = {"seed": SHUFFLE_SEED.hex(), "count": shuffles}
    return found


def _is_event(raw: bytes) -> bool:
    return isinstance(decode(raw).payload, Event)


def _outcome(refusal: str | None, by: int | None) -> Any:
    if refusal is None:
        return "ok"
    return refusal if by is None else {"reason": refusal, "by": by}


def founding() -> dict[str, Any]:
    """Two members found a table and get ready at the same Lamport time."""
    net = Net(2)
    net.open_table()
    net.submit(0, Ready(True))
    net.submit(1, Ready(True))
    ready = [net.last_own(0)[1], net.last_own(1)[1]]
    assert decode(ready[0]).lamport == decode(ready[1]).lamport
    net.settle()
    founder_admit = net[0].own[1]
    checks = [
        check("P-64", "genesis", "nothing is stable before the founder's ADMIT arrives"),
        check("P-80", "founding", "the founder's ADMIT of itself is the first event"),
        check("P-67", "order", "stable events are applied in key order, in every order"),
        check("P-73", "order", "each stream is delivered in seq order however it arrives"),
        check("P-83", "members", "seats follow the order of the first ADMITs"),
        check("P-68", "once", "nothing is applied twice"),
    ]
    events = events_of(net.log_of_sends)
    assert events[0] == founder_admit
    return run_vector(net, "two members found a table and get ready at once", [0, 1], checks,
                      tail=events)  # fmt: skip


def red_race_table(epoch: bytes, *, fallback: bool) -> Net:
    """Two players; seat 0 builds a red pile to 4 (and, with ``fallback``, seat 1 too)."""
    net = Net(2, epoch=epoch)
    net.open_table()
    net.lobby()
    top = blitz_top(2)
    reds = {place: (RED, place + 1) for place in range(4)}
    orders = {
        0: deck_order(0, 2, {**reds, top: (RED, 5)}),
        1: deck_order(1, 2, {**(reds if fallback else {}), top: (RED, 5)}),
    }
    net.deal(orders)
    for index in (0, 1) if fallback else (0,):
        for value in range(1, 5):
            net.play(index, play_of(net, index, value))
            net.settle()
    return net


def play_of(net: Net, index: int, value: int) -> CentrePlay:
    """The centre play of the player's red ``value``, wherever it lies face up."""
    seat = net.seat(index)
    table = net.view(index)
    for source, slot, top in playable_tops(table.areas[seat]):
        if top.colour == RED and top.value == value:
            move = centre_play(table, seat, source, slot)
            assert move is not None
            return move
    raise AssertionError(f"player {index} shows no red {value}")


def red_fives(net: Net, first: int, second: int, flip_first: int | None = None) -> list[bytes]:
    """Both players put a red 5 on the red 4 pile, neither having seen the other's."""
    sent = []
    if flip_first is not None:
        flip = wood_flip(net.view(flip_first), net.seat(flip_first))
        assert isinstance(flip, WoodFlip)
        net.play(flip_first, flip)
        sent.append(net.last_own(flip_first)[1])
    for index in (first, second):
        net.play(index, play_of(net, index, 5))
        sent.append(net.last_own(index)[1])
    net.settle()
    return sent


def race_winner(net: Net) -> int:
    """The seat whose red 5 went first onto the centre."""
    table = net.replica(0).stable.table
    assert table is not None
    fives: list[Card] = [c for p in table.piles for c in p.cards if c.value == 5]
    return fives[0].deck


def same_time_race(epoch: bytes, name: str) -> tuple[dict[str, Any], int]:
    net = red_race_table(epoch, fallback=False)
    plays = red_fives(net, 0, 1)
    assert decode(plays[0]).lamport == decode(plays[1]).lamport
    winner = race_winner(net)
    checks = [
        check("P-62", "order", "two plays at one Lamport time sort by their tiebreak"),
        check("P-63", "outcomes", f"the tiebreak gives the pile to seat {winner}"),
        check("P-63", "centre", f"seat {winner}'s red 5 lies on the red 4"),
        check("P-67", "order", "the race is applied in key order, however it arrives"),
        check("P-68", "once", "a play that arrives twice is applied once"),
        check("P-74", "once", "a repeated event is ignored"),
        check("P-96", "digest", "every order ends at the members' digest"),
    ]
    vector = run_vector(net, name, [0, 1], checks, tail=plays, shuffles=30, centre=True)
    return vector, winner


def other_epoch(winner: int) -> bytes:
    """An epoch under which the same race goes the other way."""
    for number in range(1, 64):
        epoch = hashlib.blake2b(b"dbp test epoch %d" % number, digest_size=16).digest()
        net = red_race_table(epoch, fallback=False)
        red_fives(net, 0, 1)
        if race_winner(net) != winner:
            return epoch
    raise AssertionError("no epoch turns the race")


def later_loses() -> dict[str, Any]:
    """The seat that wins a tie plays a Wood flip first: its red 5 comes one tick late."""
    probe = red_race_table(EPOCH, fallback=False)
    red_fives(probe, 0, 1)
    tie_winner = race_winner(probe)
    net = red_race_table(EPOCH, fallback=False)
    sent = red_fives(net, 1 - tie_winner, tie_winner, flip_first=tie_winner)
    flip, early, late = (decode(raw) for raw in sent)
    assert flip.lamport == early.lamport == late.lamport - 1
    assert race_winner(net) == 1 - tie_winner
    checks = [
        check("P-62", "outcomes", "the earlier Lamport time wins, whatever the tiebreak"),
        check("P-67", "order", "the earlier play is applied first in every order"),
        check("P-96", "digest", "every order ends at the members' digest"),
    ]
    name = f"seat {tie_winner}'s red 5 comes one tick later and loses"
    return run_vector(net, name, [0, 1], checks, tail=sent, shuffles=30, centre=True)


def fallback() -> dict[str, Any]:
    net = red_race_table(EPOCH, fallback=True)
    plays = red_fives(net, 0, 1)
    winner = race_winner(net)
    table = net.replica(0).stable.table
    assert table is not None and [len(p.cards) for p in table.piles] == [5, 5]
    checks = [
        check("P-67", "outcomes", "both red 5s are accepted, in key order"),
        check("P-67", "centre", f"seat {winner} takes pile 0, the other falls back to pile 1"),
        check("P-96", "digest", "every order ends at the members' digest"),
    ]
    name = "two red 5s name the same red 4 pile; the second falls back to the other one"
    return run_vector(net, name, [0, 1], checks, tail=plays, shuffles=30, centre=True)


def membership() -> dict[str, Any]:
    """Seat 1 rejoins past a stale event; two members admit seat 2; a stranger speaks."""
    net = Net(4)
    net.found()
    net.settle()
    net.submit(1, Ready(True))  # an event from before its admission: seq 1
    net.join(1)
    assert net.replica(0).stable.members[NODE_IDS[1]] is not None
    net.join(2)
    net.submit(3, Ready(True))  # never admitted
    net.settle()
    refusals = [e.outcome.refusal for e in net.replica(0).log]
    assert "already_member" in refusals, refusals
    checks = [
        check("P-82", "outcomes", "the second ADMIT of seat 2 is refused: already_member"),
        check("P-83", "members", "seats follow the first ADMITs in the total order"),
        check("P-84", "dropped", "an event below the first-seq of its sender's ADMIT is void"),
        check("P-69", "dropped", "the event of a node that was never admitted is dropped"),
        check("P-67", "order", "the same log in every order of arrival"),
        check("P-96", "digest", "every order ends at the members' digest"),
    ]
    name = "a stale event, a double admission and a stranger"
    return run_vector(net, name, [0, 1, 2], checks, shuffles=40)


def goodbye() -> dict[str, Any]:
    """Seat 2 says BYE, then sends another event, which must not count."""
    net = Net(3)
    net.open_table()
    for index in range(3):
        net.submit(index, Ready(True))
    net.settle()
    net.submit(2, Bye())
    net.submit(2, Ready(False))
    net.settle()
    checks = [
        check("P-94", "members", "a BYE removes its sender at its place in the order"),
        check("P-94", "dropped", "the BYE's seq is the cut: the event after it is void"),
        check("P-65", "order", "the members left need no promise from the one who said BYE"),
        check("P-96", "digest", "every order ends at the members' digest"),
    ]
    name = "seat 2 says BYE and speaks once more"
    return run_vector(net, name, [0, 1], checks, shuffles=40)


def cut_and_return() -> dict[str, Any]:
    """Seat 2, cut off, sends an event nobody else holds; it is suspected and cut below it,
    comes back at a higher first-seq, and plays on: the event past the cut never counts,
    and those of its new stay do, however the observer receives them (P-254 to P-256)."""
    net = Net(3)
    net.open_table()
    for index in range(3):
        net.submit(index, Ready(True))
    net.settle()
    gone = NODE_IDS[2]
    links = {(2, 0), (2, 1), (0, 2), (1, 2)}
    net.cut_links |= links
    net.submit(2, Ready(False))  # past the cut the others will agree on
    late = net.last_own(2)[0]
    net.settle(until=lambda: not net.replica(0).stable.members[gone].present)
    cut = net.replica(0).streams[gone].cut
    assert cut is not None and cut < late
    net.cut_links -= links
    net.settle(until=lambda: net.quiet() and net.replica(0).stable.members[gone].present)
    net.submit(2, Ready(True))
    net.settle()
    log = net.logs()[0]
    assert (gone, late) not in log and (gone, net.last_own(2)[0]) in log
    checks = [
        check("P-254", "dropped", "the event past the agreed cut never enters the log, "
              "whether it arrives before the cut is agreed or after"),
        check("P-255", "dropped", "nor after the ADMIT that brings its sender back, whose "
              "first-seq is above it"),
        check("P-256", "order", "the events of the new stay count from the ADMIT's "
              "first-seq, even when they arrive before that ADMIT"),
        check("P-198", "members", "seat 2 is back at its seat"),
        check("P-96", "digest", "every order ends at the members' digest"),
    ]  # fmt: skip
    name = "seat 2 cut below an event nobody else holds, back at a higher first-seq"
    return run_vector(net, name, [0, 1, 2], checks, shuffles=40)


def runs() -> list[dict[str, Any]]:
    first, winner = same_time_race(EPOCH, "two red 5s on one red 4 at the same Lamport time")
    second, other = same_time_race(
        other_epoch(winner), "the same race under another epoch goes the other way"
    )
    assert other != winner
    return [
        founding(), first, second, later_loses(), fallback(), membership(), goodbye(),
        cut_and_return(),
    ]  # fmt: skip


def document() -> dict[str, Any]:
    return {
        "about": ABOUT,
        "tiebreaks": tiebreaks(),
        "keys": keys(),
        "runs": runs(),
        "member_runs": member_runs(),
    }


def layout(value: dict[str, Any]) -> str:
    """JSON with one message, log entry or vector field per line: diffs read well."""
    lines = ["{", f' "about": {json.dumps(value["about"])},']
    groups = [key for key in value if key != "about"]
    for position, group in enumerate(groups):
        lines.append(f' "{group}": [')
        items = value[group]
        for index, item in enumerate(items):
            lines.append("  {")
            fields = list(item.items())
            for number, (key, field) in enumerate(fields):
                comma = "," if number < len(fields) - 1 else ""
                if isinstance(field, list) and field and key != "order":
                    inner = ",\n".join(f"    {json.dumps(x)}" for x in field)
                    lines.append(f'   "{key}": [\n{inner}\n   ]{comma}')
                else:
                    lines.append(f'   "{key}": {json.dumps(field)}{comma}')
            lines.append("  }" + ("," if index < len(items) - 1 else ""))
        lines.append(" ]" + ("," if position < len(groups) - 1 else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> int:
    value = document()
    TARGET.write_text(layout(value), encoding="utf-8")
    count = sum(len(value[group]) for group in ("tiebreaks", "keys", "runs", "member_runs"))
    print(f"wrote {count} vectors to {TARGET}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
