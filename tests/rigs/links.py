"""Faults of single links for the simulator: one direction down, or lossy, slow, doubled.

The ``links`` plan of ``tests/rigs/sim.py`` draws 2 to 4 of them on a table of 3 to 5, on
top of 5 to 15 % loss everywhere: each holds for 1.5 to 6 s, and they start within a second
of each other, so that a second failure always comes before the first removal is agreed.
Most are directed cuts (a -> b lost, b -> a fine), the fault a whole-side partition cannot
express; some cut both ways, and some leave the link up but lossy, slow and duplicating.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

CLUSTER = 1.0  # the faults of one seed start within this many seconds of the first


@dataclass(frozen=True, slots=True)
class LinkFault:
    """One link's trouble from ``start`` to ``end``: ``src`` -> ``dst`` (and back if ``both``).

    ``down`` loses every message; otherwise each is lost with ``loss``, waits ``delay``
    seconds more and is sent twice with ``duplicate``.
    """

    start: float
    end: float
    src: int
    dst: int
    both: bool
    down: bool
    loss: float = 0.0
    delay: float = 0.0
    duplicate: float = 0.0

    def covers(self, a: int, b: int, now: float) -> bool:
        """Whether this fault is on the link from ``a`` to ``b`` at ``now``."""
        if not self.start <= now < self.end:
            return False
        return (a, b) == (self.src, self.dst) or (self.both and (b, a) == (self.src, self.dst))


def draw_links(rng: random.Random, players: int) -> tuple[LinkFault, ...]:
    """2 to 4 faults on links of a table of ``players``, started within ``CLUSTER`` s."""
    first = rng.uniform(2.0, 20.0)
    faults: list[LinkFault] = []
    for _ in range(rng.randint(2, 4)):
        start = first + rng.uniform(0.0, CLUSTER)
        end = start + rng.uniform(1.5, 6.0)
        src, dst = rng.sample(range(players), 2)
        kind = rng.choice(("one-way", "one-way", "one-way", "one-way", "both", "lossy"))
        if kind == "lossy":
            faults.append(
                LinkFault(
                    start,
                    end,
                    src,
                    dst,
                    rng.random() < 0.5,
                    False,
                    loss=rng.uniform(0.3, 0.9),
                    delay=rng.uniform(0.05, 0.8),
                    duplicate=rng.uniform(0.0, 0.3),
                )
            )
        else:
            faults.append(LinkFault(start, end, src, dst, kind == "both", True))
    return tuple(faults)


@dataclass(frozen=True, slots=True)
class LinkFate:
    """What the link faults in force do to one message: lost, or its extra delay and copies."""

    lost: bool
    delay: float = 0.0
    duplicate: float = 0.0


def link_fate(
    faults: tuple[LinkFault, ...], a: int, b: int, now: float, rng: random.Random
) -> LinkFate:
    """The fate of a message from ``a`` to ``b`` at ``now`` (draws only for lossy links)."""
    delay = 0.0
    duplicate = 0.0
    for fault in faults:
        if not fault.covers(a, b, now):
            continue
        if fault.down or rng.random() < fault.loss:
            return LinkFate(True)
        delay += fault.delay
        duplicate = max(duplicate, fault.duplicate)
    return LinkFate(False, delay, duplicate)
