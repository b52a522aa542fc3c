"""The bot seats a node hosts, written down so that they come back with it after a crash.

A bot is a seat of the table: its identity key and its game log already live in
``bots/<n>`` under the node's state directory. This file adds the one thing
missing, which bots there are and at which level, so a restarted node can seat
them again. The list is rewritten whenever a bot is seated or taken away, and
emptied when the node leaves the table with a goodbye: the player has gone, and
the bots with them.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Container
from dataclasses import dataclass
from pathlib import Path

from ..store.state import StoreError, write_json

log = logging.getLogger("dutchblitz.node")

BOTS_FILE = "bots.json"
MAX_KEPT = 8  # a table seats eight: more in the file is damage, not bots


@dataclass(frozen=True, slots=True)
class KeptBot:
    number: int  # its folder: bots/<number>
    level: str


def load(root: Path, levels: Container[str]) -> list[KeptBot]:
    """The bots a node at ``root`` hosted last time, of the game's ``levels``; [] when none,
    or the file is unreadable."""
    try:
        found = json.loads((root / BOTS_FILE).read_text(encoding="utf-8"))
        kept = [KeptBot(int(bot["number"]), str(bot["level"])) for bot in found["bots"]]
    except FileNotFoundError:
        return []
    except (OSError, ValueError, KeyError, TypeError) as error:
        log.warning("cannot read the bots this node hosted (%s): seating none", error)
        return []
    good = [b for b in kept if 0 < b.number < 1000 and b.level in levels]
    numbers = {b.number for b in good}
    return sorted(good, key=lambda b: b.number)[:MAX_KEPT] if len(numbers) == len(good) else []


def save(root: Path, bots: list[KeptBot]) -> None:
    """Write the bots a node hosts now (a failure is logged: the game goes on)."""
    value = {"bots": [{"number": b.number, "level": b.level} for b in bots]}
    try:
        write_json(root / BOTS_FILE, value)
    except StoreError as error:
        log.warning("cannot write down this node's bots: %s", error)
