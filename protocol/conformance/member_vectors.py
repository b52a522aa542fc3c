"""Conformance runs with a member observer, from ``member_runs`` in spec/vectors/ordering.json.

In the ``runs`` of that file the observer is a stranger: it only listens. Here it is a
member of the table, so what it sends matters: its acknowledgements, its suspicions, its
CUTs and its repair requests. A run gives the observer's identity and timing, and the
``steps`` it takes, each at a time ``at`` in seconds from its start (time 0):

* ``{"at": t, "join": true}``: it asks to be admitted (it sends HELLO);
* ``{"at": t, "receive": hex}``: a message arrives from a peer; the observer handles it
  and sends the acknowledgement it owes (P-70) before the next step;
* ``{"at": t, "tick": true}``: its timers run (heartbeat, suspicion, repair retries).

A run with ``"rounds": true`` is of a table that runs rounds (section 12, *Agreeing by
a round*): the observer takes ROUND messages and sends its view in each HEARTBEAT. The
other members' messages were recorded from a real table at which the observer sat,
so an observer that follows the spec sends what they expected. Its HELLO names it
``observer_name`` and gives ``observer_endpoint``. Its own events are signed
with ``observer_seed`` (Ed25519 signatures are deterministic), so its log matches theirs
byte for byte. Each check names one ``aspect``:

* ``sends``: in steps ``since`` to ``step`` (indexes, inclusive) the observer sent
  ``message`` (a JSON message as in codec.json; an object lists only the fields that
  matter) to ``to`` (a node id, or null for every peer);
* ``silent``: in steps ``since`` to ``step`` it sent no message that matches ``message``;
* ``acks``: the last HEARTBEAT it sent by ``step`` acknowledges exactly ``acks``
  (``[node, held]`` in the order it lists them);
* ``unstable``: after ``step`` none of the ``events`` (``[sender, seq]``) is in its stable
  log, although it holds them;
* ``order``: after the last step its stable log is ``log``;
* ``members``: after the last step the members are ``members`` (``[node, seat, present]``
  by seat).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..replica.core import Identity, Replica, Settings
from ..replica.effects import Effect, Send
from ..replica.viewchange import ViewChange
from ..wire.auth import Signer
from ..wire.codec import decode
from ..wire.messages import Heartbeat
from .case import Case
from .codec_vectors import to_json

ASPECTS = ("sends", "silent", "acks", "unstable", "order", "members")


class VectorError(ValueError):
    """A vector that does not say what it means: the file's fault, not the replica's."""


@dataclass(slots=True)
class Replay:
    """What the observer did: its sends per step, and its stable log after each step."""

    replica: Replica
    sends: list[list[Send]] = field(default_factory=list)
    logs: list[list[tuple[bytes, int]]] = field(default_factory=list)


def cases(data: Mapping[str, Any]) -> list[Case]:
    found: list[Case] = []
    for vector in data.get("member_runs", []):
        replay = _Once(partial(replay_run, vector))
        for check in vector.get("checks", []):
            name = f"member runs: {vector.get('name', '?')}: {check.get('aspect', '?')}"
            run = partial(_guarded, replay, vector, check)
            found.append(Case(str(check.get("spec", "?")), name, run))
    return found


class _Once:
    def __init__(self, run: Callable[[], Replay]) -> None:
        self._run = run
        self._result: Replay | None = None

    def __call__(self) -> Replay:
        if self._result is None:
            self._result = self._run()
        return self._result


def _guarded(replay: _Once, vector: Mapping[str, Any], check: Mapping[str, Any]) -> str | None:
    try:
        aspect = str(check.get("aspect", "?"))
        if aspect not in _CHECKS:
            return f"unknown aspect {aspect!r}"
        with rounds_as(vector.get("rounds") is True):
            return _CHECKS[aspect](replay(), vector, check)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        return f"unreadable vector: {type(exc).__name__}: {exc}"


@contextmanager
def rounds_as(on: bool) -> Iterator[None]:
    """Run the rounds (and take ROUND on the wire) as the run says, then as before."""
    before = ViewChange.enabled
    ViewChange.switch(on)
    try:
        yield
    finally:
        ViewChange.switch(before)


def observer_of(vector: Mapping[str, Any]) -> Replica:
    """A fresh observer, as the vector describes it, at time 0."""
    signer = Signer(_hex(vector["observer_seed"]))
    if signer.node_id.hex() != vector["observer"]:
        raise VectorError("the observer's seed does not give its node id")
    timing = vector["settings"]
    settings = Settings(
        heartbeat_every=float(timing["heartbeat_every"]),
        suspect_after=float(timing["suspect_after"]),
        repair_retry=float(timing["repair_retry"]),
    )
    identity = Identity(
        signer.node_id,
        str(vector["table"]),
        _hex(vector["epoch"]),
        name=str(vector["observer_name"]),
        endpoint=str(vector["observer_endpoint"]),
    )
    return Replica(identity, 0.0, settings, signer)


def replay_run(vector: Mapping[str, Any]) -> Replay:
    replica = observer_of(vector)
    replay = Replay(replica)
    for step in vector["steps"]:
        now = float(step["at"])
        effects: list[Effect]
        if step.get("join"):
            effects = replica.ask_to_join(now)
        elif "receive" in step:
            effects = replica.receive(_hex(step["receive"]), now)
            effects += replica.flush(now)
        elif step.get("tick"):
            effects = replica.tick(now)
        else:
            raise VectorError(f"a step joins, receives or ticks: {step!r}")
        replay.sends.append([e for e in effects if isinstance(e, Send)])
        replay.logs.append([(e.sender, e.seq) for e in replica.log])
    return replay


# -- the checks ------------------------------------------------------------------------------


def _window(replay: Replay, check: Mapping[str, Any]) -> list[Send]:
    since, step = _int(check.get("since", 0)), _int(check["step"])
    if not 0 <= since <= step < len(replay.sends):
        raise VectorError(f"steps {since} to {step} are not steps of the run")
    return [send for sends in replay.sends[since : step + 1] for send in sends]


def _to(check: Mapping[str, Any]) -> bytes | None:
    return None if check.get("to") is None else _hex(check["to"])


def _matching(sends: Sequence[Send], check: Mapping[str, Any]) -> list[Send]:
    to, pattern = _to(check), check["message"]
    return [s for s in sends if s.to == to and matches(to_json(decode(s.data)), pattern)]


def matches(value: Any, pattern: Any) -> bool:
    """Whether ``value`` has every field ``pattern`` names, with the same value."""
    if isinstance(pattern, Mapping):
        return isinstance(value, Mapping) and all(
            key in value and matches(value[key], want) for key, want in pattern.items()
        )
    return bool(value == pattern)


def _check_sends(replay: Replay, vector: Mapping[str, Any], check: Mapping[str, Any]) -> str | None:
    sends = _window(replay, check)
    if _matching(sends, check):
        return None
    seen = [to_json(decode(s.data))["payload"] for s in sends]
    return f"sent no {check['message']} in those steps; sent {seen[:6]}"


def _check_silent(
    replay: Replay, vector: Mapping[str, Any], check: Mapping[str, Any]
) -> str | None:
    found = _matching(_window(replay, check), check)
    return None if not found else f"sent {to_json(decode(found[0].data))['payload']}"


def _check_acks(replay: Replay, vector: Mapping[str, Any], check: Mapping[str, Any]) -> str | None:
    beats = [
        decode(s.data).payload
        for s in _window(replay, {"since": 0, "step": check["step"]})
        if isinstance(decode(s.data).payload, Heartbeat)
    ]
    if not beats:
        return "sent no HEARTBEAT"
    last = beats[-1]
    assert isinstance(last, Heartbeat)
    got = [[ack.node.hex(), ack.held] for ack in last.acks]
    want = [[str(node), _int(held)] for node, held in check["acks"]]
    return None if got == want else f"acknowledged {got}, expected {want}"


def _check_unstable(
    replay: Replay, vector: Mapping[str, Any], check: Mapping[str, Any]
) -> str | None:
    log = set(replay.logs[_int(check["step"])])
    early = [event for event in check["events"] if (_hex(event[0]), _int(event[1])) in log]
    return None if not early else f"{early} already stable"


def _check_order(replay: Replay, vector: Mapping[str, Any], check: Mapping[str, Any]) -> str | None:
    got = [[sender.hex(), seq] for sender, seq in replay.logs[-1]]
    want = [[str(sender), _int(seq)] for sender, seq in vector["log"]]
    return None if got == want else f"stable log of {len(got)} events differs from {len(want)}"


def _check_members(
    replay: Replay, vector: Mapping[str, Any], check: Mapping[str, Any]
) -> str | None:
    seats = replay.replica.stable.by_seat()
    got = [[seats[s].node.hex(), s, seats[s].present] for s in sorted(seats)]
    want = [[str(node), _int(seat), bool(present)] for node, seat, present in vector["members"]]
    return None if got == want else f"members {got}, expected {want}"


_CHECKS: dict[str, Callable[[Replay, Mapping[str, Any], Mapping[str, Any]], str | None]] = {
    "sends": _check_sends,
    "silent": _check_silent,
    "acks": _check_acks,
    "unstable": _check_unstable,
    "order": _check_order,
    "members": _check_members,
}


def _hex(value: Any) -> bytes:
    if not isinstance(value, str):
        raise VectorError(f"expected hex, not {value!r}")
    return bytes.fromhex(value)


def _int(value: Any) -> int:
    if type(value) is not int:
        raise VectorError(f"expected a whole number, not {value!r}")
    return value
