"""Ties are fair: the tiebreak (P-63) favours no node id, and has no memory (P-62).

At each of 4000 Lamport times, n nodes (n = 2, 3, 4, 8, with ids drawn from a fixed
seed) all send an event: a tie, which the node with the lowest order key wins. If the
tiebreak is a fair coin drawn afresh for every time, each node's number of wins is
binomial, B(T, 1/n), and so is the number of times the winner of time t also won time
t - 1 (those T - 1 indicators are pairwise independent, each true with chance 1/n, so
their sum has the binomial variance too).

We allow 4.5 standard deviations either way. A fair coin leaves that band with chance
below 7e-6 per count (normal approximation, close here as T p >= 500), so over the 22
distinct counts below a false failure has chance below 2e-4, and the streak bounds add
at most 4e-4 more. A real bias would not hide in the band: at n = 2 it is 50% +- 3.6%,
at n = 8 it is 12.5% +- 2.4%.
The inputs are fixed, so the test is deterministic: it passes or fails for good.
"""

from __future__ import annotations

import itertools
import math
import random

import pytest
from dutchblitz.protocol.replica.clock import order_key

TIMES = 4000
SIGMAS = 4.5
EPOCH = bytes.fromhex("5eed") * 8


def node_ids(count: int) -> list[bytes]:
    rng = random.Random(f"fair ties {count}")
    return [rng.randbytes(16) for _ in range(count)]


def winners(nodes: list[bytes], epoch: bytes = EPOCH) -> list[int]:
    """For each time 1 .. TIMES, the index of the node whose event sorts first."""
    return [
        min(range(len(nodes)), key=lambda i: order_key(epoch, time, nodes[i]))
        for time in range(1, TIMES + 1)
    ]


def band(trials: int, chance: float) -> tuple[float, float]:
    mean = trials * chance
    spread = SIGMAS * math.sqrt(trials * chance * (1 - chance))
    return mean - spread, mean + spread


@pytest.mark.parametrize("count", [2, 3, 4, 8])
def test_each_node_wins_about_one_in_n_ties_P63(count: int) -> None:
    nodes = node_ids(count)
    won = winners(nodes)
    low, high = band(TIMES, 1 / count)
    for index in range(count):
        assert low <= won.count(index) <= high, (index, won.count(index), (low, high))


@pytest.mark.parametrize("count", [2, 3, 4, 8])
def test_the_lowest_node_id_has_no_edge_P62(count: int) -> None:
    """The sender, last in the key, never decides a tie whose tiebreaks differ."""
    nodes = node_ids(count)
    won = winners(nodes)
    lowest = nodes.index(min(nodes))
    low, high = band(TIMES, 1 / count)
    assert low <= won.count(lowest) <= high


@pytest.mark.parametrize("count", [2, 3, 4, 8])
def test_a_winner_does_not_keep_winning_P63(count: int) -> None:
    won = winners(node_ids(count))
    repeats = sum(1 for before, now in itertools.pairwise(won) if before == now)
    low, high = band(TIMES - 1, 1 / count)
    assert low <= repeats <= high, (repeats, (low, high))
    # The longest streak: a run of k wins in a row starts at a given time with chance
    # n^-(k-1), so some run reaches k with chance at most TIMES * n^-(k-1); take the
    # smallest k for which that is below 1e-4.
    limit = next(k for k in range(2, 100) if TIMES * count ** -(k - 1) <= 1e-4)
    longest = run = 1
    for before, now in itertools.pairwise(won):
        run = run + 1 if before == now else 1
        longest = max(longest, run)
    assert longest < limit, (longest, limit)


def test_the_draw_changes_with_the_epoch_P63() -> None:
    """Two nodes meet at the same times at another table: the wins fall elsewhere."""
    nodes = node_ids(2)
    here = winners(nodes)
    there = winners(nodes, epoch=bytes(16))
    same = sum(1 for a, b in zip(here, there, strict=True) if a == b)
    low, high = band(TIMES, 1 / 2)
    assert low <= same <= high, "the two tables' coins are unrelated"
