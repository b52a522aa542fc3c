"""Conformance cases for the run digest, from spec/vectors/digests.json (P-96, P-157 on).

The file has one list, ``runs``. Each run is the stable log of one table: ``events``,
its EVENT messages as hex, in log order (every one entered the log, accepted or
refused); ``members`` the node ids of the table, for reading. Each of its ``points``
says what holds after the first ``index`` events of the log: the ``phase`` and
``round`` of the game, the ``chain``, ``public`` (the canonical bytes of the public
state) and the ``digest``, all bytes as hex. A run names its requirements in ``spec``.

An implementation applies the events in order to a fresh game, advancing the chain
with each, and compares at every point; ``public`` is there so that a difference can
be found field by field, and only ``digest`` goes on the wire.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..limits import DIGEST_SIZE
from ..replica.digest import canonical_bytes
from ..table.state import Game
from ..wire.codec import decode
from ..wire.messages import Event
from .case import Case


@dataclass(frozen=True, slots=True)
class Step:
    """The game after ``index`` events of a log."""

    index: int
    phase: str
    round: int
    refused: int
    chain: bytes
    public: bytes
    digest: bytes


def next_chain(chain: bytes, sender: bytes, seq: int, message: bytes) -> bytes:
    """P-96: the chain after one more event, ``message`` being its bytes, auth included."""
    data = chain + sender + seq.to_bytes(8, "big") + message
    return hashlib.blake2b(data, digest_size=DIGEST_SIZE).digest()


def run_digest(chain: bytes, public: bytes) -> bytes:
    """P-96: BLAKE2b-128 of the array [chain, public state], the state already encoded."""
    data = b"\x92" + canonical_bytes(chain) + public  # 0x92: an array of two elements
    return hashlib.blake2b(data, digest_size=DIGEST_SIZE).digest()


def replay(events: Iterable[bytes]) -> Iterator[Step]:
    """Apply a stable log, one EVENT message at a time, from a fresh game."""
    game = Game()
    chain = b""
    for index, message in enumerate(events, start=1):
        envelope = decode(message)
        payload = envelope.payload
        if not isinstance(payload, Event):
            raise ValueError(f"entry {index} is not an EVENT")
        game.apply(envelope.sender, payload.body, envelope.lamport)
        chain = next_chain(chain, envelope.sender, envelope.seq, message)
        public = canonical_bytes(game.public_form())
        digest = run_digest(chain, public)
        yield Step(index, game.phase.value, game.round, game.refused, chain, public, digest)


def cases(data: Mapping[str, Any]) -> list[Case]:
    found: list[Case] = []
    for run in data.get("runs", []):
        specs = run.get("spec", ["P-96"])
        name = str(run.get("name", "?"))
        for spec_id in specs:
            found.append(Case(str(spec_id), f"digests: {name}", partial(_check_run, run)))
    return found


def _check_run(run: Mapping[str, Any]) -> str | None:
    events = [bytes.fromhex(e) for e in run["events"]]
    wanted = {int(p["index"]): p for p in run["points"]}
    if not wanted:
        return "the run has no points"
    for step in replay(events):
        point = wanted.pop(step.index, None)
        if point is None:
            continue
        for name, value in (
            ("phase", step.phase),
            ("round", step.round),
            ("chain", step.chain.hex()),
            ("public", step.public.hex()),
            ("digest", step.digest.hex()),
        ):
            if name in point and point[name] != value:
                return f"after {step.index} events: {name} {value}, not {point[name]}"
    if wanted:
        return f"the log is shorter than point {min(wanted)}"
    return None
