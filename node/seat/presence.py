"""Who is missing: the seated players this node has not heard from for a while.

What the table decides about them (removal, the deal's wait) is in the log; how
long each has been quiet is what this node hears, so every screen counts its own
seconds. A player is shown from ``QUIET_S`` of silence, well before the table
removes it, and while the deal waits for it after its removal (R-49).
"""

from __future__ import annotations

from dutchblitz.protocol.replica.core import Replica
from dutchblitz.protocol.seat.deal_duties import Grace
from dutchblitz.protocol.table.state import Phase

from ..api import Missing

QUIET_S = 1.0  # four missed heartbeats: worth a word on screen


def missing_players(replica: Replica, now: float, grace: Grace) -> tuple[Missing, ...]:
    """The players ``replica``'s node is waiting for, as of ``now`` (its own clock)."""
    stable = replica.stable
    awaited = set(stable.awaited())
    seated = stable.players if stable.phase != Phase.LOBBY else [m.seat for m in stable.seated()]
    by_seat = stable.by_seat()
    found: list[Missing] = []
    for seat in seated:
        member = by_seat.get(seat)
        if member is None or member.node == replica.me.node:
            continue
        stream = replica.streams.get(member.node)
        silent = 0.0 if stream is None else max(0.0, now - stream.last_heard)
        if seat in awaited:
            found.append(Missing(seat, member.name, silent, away=True, grace=grace.seconds))
        elif member.present and silent >= QUIET_S:
            found.append(Missing(seat, member.name, silent))
    return tuple(found)
