"""What a seat is started with: its table, its player's wishes, the replica's settings,
its bot, and the seed of its random streams."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dutchblitz.protocol.replica.core import Settings
from dutchblitz.protocol.seat.duties import Wishes
from dutchblitz.protocol.seat.pace import COUNT_IN_S

JOIN_WINDOW_S = 1.5  # how long a new seat listens for an existing table


@dataclass(slots=True)
class SeatConfig:
    table: str
    wishes: Wishes
    settings: Settings = field(default_factory=Settings)
    bot: Any = None  # the bot's level (the game's ``TableGame.levels``), or None: a person
    seed: int | None = None
    join_window: float = JOIN_WINDOW_S
    restore: bool = True  # reload an unfinished game left in the state directory
    count_in_s: float = COUNT_IN_S  # before each round's first move (spec/rules.md R-55)


def draws(seed: int | None, node_id: bytes) -> Callable[[str], random.Random]:
    """The seat's random streams, one per purpose: the system's, or seeded (``--seed``)."""

    def draw(purpose: str) -> random.Random:
        if seed is None:
            return random.SystemRandom()
        return random.Random(f"{seed}-{node_id.hex()}-{purpose}")

    return draw
