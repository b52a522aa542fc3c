"""Conformance cases for the total order, from spec/vectors/ordering.json.

The file has four lists; the fourth, ``member_runs``, is read by member_vectors. Bytes
and node ids are hex; every entry names the requirement it checks in ``spec``, or, for a
run, in each of its ``checks``.

* ``tiebreaks``: an ``epoch``, a ``lamport`` and a ``sender``, and the ``tiebreak``
  (P-63) they give, as a decimal string (it may not fit a double).
* ``keys``: an ``epoch`` and ``events``, each ``[lamport, sender]``; ``order`` lists
  their indexes in the order of their keys (P-62).
* ``runs``: the encoded ``messages`` of one table (its EVENTs, and a final HEARTBEAT
  from each present member that promises its clock and acknowledges every stream),
  its ``table`` name and ``epoch``, and the id of an ``observer``: a node that is not a
  member and receives every message, in any order and with repeats. It must end with
  the stable ``log`` (``[sender, seq]`` in order), the ``outcomes`` (per log entry
  ``"ok"``, a refusal reason, or ``{"reason", "by"}`` for a lost race and the seat that
  won it), none of the ``dropped`` events, the ``members`` (``[node, seat, present]``
  by seat), the ``centre`` piles (``[colour, [card codes]]``, if given) and the public
  ``digest`` (P-96).

A run is fed in the orders its ``schedules`` name: ``tail: n`` is every permutation of
the last n messages, after the others in file order; ``shuffles: {seed, count}`` is
``count`` orders of all the messages, the k-th made thus: for each message i draw
``d(i, c) = BLAKE2b-64(seed || k || i || c)`` (k and i as 4 big-endian bytes, c one
byte), feed a copy c = 0 and, when the first byte of d(i, 0) is below 64, a second
copy c = 1, all copies sorted by their draw. Any fair shuffle would do: this one is
written down so that every implementation can run the same orders.

Each check of a run names one ``aspect`` of the result:

* ``order``: the stable log is ``log``, whatever the order of arrival;
* ``outcomes``: each entry did what ``outcomes`` says;
* ``once``: no event is applied twice, however often it arrives;
* ``genesis``: nothing is applied before the founding ADMIT has arrived;
* ``founding``: the log opens with the founder's ADMIT of itself (seq 1, lamport 1);
* ``dropped``: the ``dropped`` events never enter the log;
* ``members``: the seats and presence of ``members``;
* ``centre``: the centre piles;
* ``digest``: the digest, and no desync alarm from the members' heartbeats.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..replica.clock import order_key, tiebreak
from ..replica.core import Identity, Replica
from ..replica.effects import Alarm, Delivered, Effect
from ..wire.codec import decode
from ..wire.messages import Admit, Event
from . import member_vectors
from .case import Case

ASPECTS = (
    "order",
    "outcomes",
    "once",
    "genesis",
    "founding",
    "dropped",
    "members",
    "centre",
    "digest",
)
MAX_TAIL = 7  # 5040 orders: every permutation of more would take too long


class VectorError(ValueError):
    """A vector that does not say what it means: the file's fault, not the replica's."""


def cases(data: Mapping[str, Any]) -> list[Case]:
    found: list[Case] = []
    for vector in data.get("tiebreaks", []):
        name = f"tiebreaks: {vector.get('name', '?')}"
        found.append(Case(str(vector.get("spec", "?")), name, partial(_guarded, _tie, vector)))
    for vector in data.get("keys", []):
        name = f"keys: {vector.get('name', '?')}"
        found.append(Case(str(vector.get("spec", "?")), name, partial(_guarded, _keys, vector)))
    for vector in data.get("runs", []):
        outcome = _Once(partial(_guarded_run, vector))
        for check in vector.get("checks", []):
            name = f"runs: {vector.get('name', '?')}: {check.get('aspect', '?')}"
            found.append(Case(str(check.get("spec", "?")), name, partial(outcome.aspect, check)))
    return found + member_vectors.cases(data)


def _guarded(check: Callable[[Mapping[str, Any]], str | None], vector: Any) -> str | None:
    try:
        return check(vector)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return f"unreadable vector: {type(exc).__name__}: {exc}"


# -- tiebreaks and keys ----------------------------------------------------------------------


def _tie(vector: Mapping[str, Any]) -> str | None:
    got = tiebreak(_hex(vector["epoch"]), _int(vector["lamport"]), _hex(vector["sender"]))
    want = int(str(vector["tiebreak"]))
    return None if got == want else f"tiebreak {got}, expected {want}"


def _keys(vector: Mapping[str, Any]) -> str | None:
    epoch = _hex(vector["epoch"])
    events = [(_int(lamport), _hex(sender)) for lamport, sender in vector["events"]]
    keys = [order_key(epoch, lamport, sender) for lamport, sender in events]
    got = sorted(range(len(keys)), key=keys.__getitem__)
    want = [_int(i) for i in vector["order"]]
    return None if got == want else f"sorted as {got}, expected {want}"


# -- runs ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Result:
    """What one run found: per aspect, the first problem, or nothing."""

    problems: Mapping[str, str]
    broken: str | None = None  # the vector itself could not be read

    def aspect(self, name: str) -> str | None:
        if self.broken is not None:
            return self.broken
        if name not in ASPECTS:
            return f"unknown aspect {name!r}"
        return self.problems.get(name)


class _Once:
    """Runs a vector's schedules once, however many cases ask about it."""

    def __init__(self, run: Callable[[], _Result]) -> None:
        self._run = run
        self._result: _Result | None = None

    def aspect(self, check: Mapping[str, Any]) -> str | None:
        if self._result is None:
            self._result = self._run()
        return self._result.aspect(str(check.get("aspect", "?")))


def _guarded_run(vector: Mapping[str, Any]) -> _Result:
    try:
        return _run(vector)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return _Result({}, f"unreadable vector: {type(exc).__name__}: {exc}")


def _run(vector: Mapping[str, Any]) -> _Result:
    messages = [_hex(text) for text in vector["messages"]]
    problems: dict[str, str] = {}
    count = 0
    for order in schedules(vector.get("schedules", {}), len(messages)):
        count += 1
        for aspect, problem in _feed(vector, [messages[i] for i in order]).items():
            problems.setdefault(aspect, f"{problem} (arrival order {list(order)})")
    if count == 0:
        raise VectorError("the run names no schedule")
    return _Result(problems)


def schedules(spec: Mapping[str, Any], size: int) -> Iterator[Sequence[int]]:
    """The arrival orders a run names, as indexes into its messages."""
    if "tail" in spec:
        tail = _int(spec["tail"])
        if not 0 < tail <= min(size, MAX_TAIL):
            raise VectorError(f"tail must be 1 to {min(size, MAX_TAIL)}, not {tail}")
        head = list(range(size - tail))
        for rest in itertools.permutations(range(size - tail, size)):
            yield head + list(rest)
    if "shuffles" in spec:
        seed = _hex(spec["shuffles"]["seed"])
        for number in range(_int(spec["shuffles"]["count"])):
            yield shuffle(seed, number, size)


def shuffle(seed: bytes, number: int, size: int) -> list[int]:
    """The ``number``-th order of ``size`` messages with repeats, as the module says."""
    copies: list[tuple[bytes, int]] = []
    for index in range(size):
        for copy in (0, 1):
            draw = _draw(seed, number, index, copy)
            if copy == 1 and _draw(seed, number, index, 0)[0] >= 64:
                break
            copies.append((draw, index))
    return [index for _draw_bytes, index in sorted(copies)]


def _draw(seed: bytes, number: int, index: int, copy: int) -> bytes:
    data = seed + number.to_bytes(4, "big") + index.to_bytes(4, "big") + bytes([copy])
    return hashlib.blake2b(data, digest_size=8).digest()


def _feed(vector: Mapping[str, Any], arrivals: Sequence[bytes]) -> dict[str, str]:
    """Feed one order of arrivals to a fresh observer; return the problems by aspect."""
    identity = Identity(_hex(vector["observer"]), str(vector["table"]), _hex(vector["epoch"]))
    observer = Replica(identity, 0.0)
    problems: dict[str, str] = {}
    delivered: list[tuple[bytes, int]] = []
    alarms: list[Alarm] = []
    founded = False
    for data in arrivals:
        effects = observer.receive(data, 0.0)
        founded = founded or _is_founding(data)
        if not founded and _delivers(effects):
            problems["genesis"] = "applied an event before the founding ADMIT arrived"
        delivered += [(e.entry.sender, e.entry.seq) for e in effects if isinstance(e, Delivered)]
        alarms += [e for e in effects if isinstance(e, Alarm) and e.kind == "desync"]
    log = [(entry.sender, entry.seq) for entry in observer.log]
    for aspect, check in _ASPECT_CHECKS.items():
        problem = check(vector, observer, log, delivered, alarms)
        if problem is not None:
            problems[aspect] = problem
    return problems


def _delivers(effects: Sequence[Effect]) -> bool:
    return any(isinstance(effect, Delivered) for effect in effects)


def _is_founding(data: bytes) -> bool:
    envelope = decode(data)
    payload = envelope.payload
    return (
        isinstance(payload, Event)
        and isinstance(payload.body, Admit)
        and envelope.seq == 1
        and payload.body.node == envelope.sender
    )


Log = list[tuple[bytes, int]]
AspectCheck = Callable[[Mapping[str, Any], Replica, Log, Log, list[Alarm]], str | None]


def _check_order(vector: Mapping[str, Any], observer: Replica, log: Log, *_: Any) -> str | None:
    want = [(_hex(sender), _int(seq)) for sender, seq in vector["log"]]
    if log == want:
        return None
    return f"stable log {_show(log)}, expected {_show(want)}"


def _check_outcomes(vector: Mapping[str, Any], observer: Replica, *_: Any) -> str | None:
    want = [_outcome_of(item) for item in vector["outcomes"]]
    got = [(e.outcome.refusal or "ok", e.outcome.by) for e in observer.log]
    return None if got == want else f"outcomes {got}, expected {want}"


def _check_once(
    vector: Mapping[str, Any], observer: Replica, log: Log, delivered: Log, *_: Any
) -> str | None:
    if len(set(log)) != len(log):
        return "an event entered the log twice"
    if delivered != log:
        return "the Delivered effects do not match the log, one each, in order"
    return None


def _check_genesis(*_: Any) -> str | None:
    return None  # found while feeding: see _feed


def _check_founding(vector: Mapping[str, Any], observer: Replica, *_: Any) -> str | None:
    if not observer.log:
        return "the log is empty"
    first = observer.log[0]
    founder = _hex(vector["log"][0][0])
    wanted = (founder, 1, 1, Admit(founder, 1))
    if (first.sender, first.seq, first.lamport, first.body) != wanted:
        return f"the log opens with {first}"
    return None


def _check_dropped(vector: Mapping[str, Any], observer: Replica, log: Log, *_: Any) -> str | None:
    for sender, seq in vector.get("dropped", []):
        if (_hex(sender), _int(seq)) in log:
            return f"{sender[:8]}:{seq} entered the log"
    return None


def _check_members(vector: Mapping[str, Any], observer: Replica, *_: Any) -> str | None:
    seats = observer.stable.by_seat()
    got = [[seats[s].node.hex(), s, seats[s].present] for s in sorted(seats)]
    want = [[str(node), _int(seat), bool(present)] for node, seat, present in vector["members"]]
    return None if got == want else f"members {got}, expected {want}"


def _check_centre(vector: Mapping[str, Any], observer: Replica, *_: Any) -> str | None:
    if "centre" not in vector:
        return None
    table = observer.stable.table
    piles = [] if table is None else table.piles
    got = [[int(p.colour), [c.code for c in p.cards]] for p in piles]
    want = [[_int(colour), [_int(c) for c in cards]] for colour, cards in vector["centre"]]
    return None if got == want else f"centre piles {got}, expected {want}"


def _check_digest(
    vector: Mapping[str, Any], observer: Replica, log: Log, delivered: Log, alarms: list[Alarm]
) -> str | None:
    if alarms:
        return f"desync alarm: {alarms[0].detail}"
    got = observer.digest().hex()
    return None if got == vector["digest"] else f"digest {got}, expected {vector['digest']}"


_ASPECT_CHECKS: dict[str, AspectCheck] = {
    "order": _check_order,
    "outcomes": _check_outcomes,
    "once": _check_once,
    "genesis": _check_genesis,
    "founding": _check_founding,
    "dropped": _check_dropped,
    "members": _check_members,
    "centre": _check_centre,
    "digest": _check_digest,
}


# -- JSON --------------------------------------------------------------------------------------


def _outcome_of(item: Any) -> tuple[str, int | None]:
    if isinstance(item, str):
        return (item, None)
    if isinstance(item, Mapping) and isinstance(item.get("reason"), str):
        by = item.get("by")
        return (item["reason"], None if by is None else _int(by))
    raise VectorError(f"an outcome is 'ok', a reason, or {{reason, by}}: {item!r}")


def _show(log: Log) -> str:
    return "[" + ", ".join(f"{sender.hex()[:8]}:{seq}" for sender, seq in log) + "]"


def _hex(value: Any) -> bytes:
    if not isinstance(value, str):
        raise VectorError(f"expected hex, not {value!r}")
    return bytes.fromhex(value)


def _int(value: Any) -> int:
    if type(value) is not int:
        raise VectorError(f"expected a whole number, not {value!r}")
    return value
