"""A test-only hook that makes a seat flood its peers, to test flood control (throttle).

It is switched on by the ``BLITZ_FLOOD`` environment variable, for example
``BLITZ_FLOOD="rate=3000,name=bot0"``:

``rate``
    messages a second sent on top of the seat's honest traffic, to each target.
``name``
    flood only the seated player of this name (default: every peer).

The flood is what a buggy or hostile member could send without breaking the codec:
copies of its own HEARTBEAT, its latest own EVENT again, and now and then a
REPAIR-REQUEST for its own first event (which the target answers). The seat otherwise plays
honestly, so its game events still count.
"""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dutchblitz.protocol.wire.codec import encode
from dutchblitz.protocol.wire.messages import Envelope, Heartbeat, RepairRequest

if TYPE_CHECKING:
    from dutchblitz.node.seat.local import LocalSeat

ENV_VAR = "BLITZ_FLOOD"
TICK_S = 0.01


@dataclass(frozen=True, slots=True)
class FloodConfig:
    rate: float = 2000.0
    name: str | None = None


def flood_from_env(environ: Mapping[str, str] | None = None) -> FloodConfig | None:
    """The flood ``BLITZ_FLOOD`` asks for, or ``None`` when it is unset."""
    spec = (os.environ if environ is None else environ).get(ENV_VAR, "").strip()
    if not spec:
        return None
    fields = dict(part.split("=", 1) for part in spec.split(",") if "=" in part)
    return FloodConfig(float(fields.get("rate", 2000.0)), fields.get("name") or None)


def _targets(seat: LocalSeat, config: FloodConfig) -> list[bytes]:
    replica = seat.replica
    members = {} if replica is None else replica.stable.members
    return [
        node
        for node in seat.contacts.endpoints
        if config.name is None or (node in members and members[node].name == config.name)
    ]


def _messages(seat: LocalSeat) -> list[bytes]:
    replica = seat.replica
    if replica is None:
        return []
    me, table, clock = replica.me.node, replica.me.table, replica.clock.time
    found = [encode(Envelope(table, me, clock, 0, Heartbeat(replica.my_seq, (), 0, b"")))]
    if replica.my_seq > 0 and clock % 16 == 0:  # now and then, one the target answers
        found.append(encode(Envelope(table, me, clock, 0, RepairRequest(me, 1, 1))))
    own = replica.streams.get(me)
    if own is not None and own.events:
        found.append(own.events[max(own.events)].raw)
    return found


async def run_flood(seat: LocalSeat, config: FloodConfig) -> None:
    """Send ``rate`` extra messages a second to each target, until the seat closes."""
    per_tick = max(1, round(config.rate * TICK_S))
    while True:
        await asyncio.sleep(TICK_S)
        messages = _messages(seat)
        if not messages:
            continue
        cycle = itertools.cycle(messages)
        for node in _targets(seat, config):
            for _ in range(per_tick):
                seat.transport.send(node, next(cycle))
