"""Canonical digests of a Dutch Blitz round: identical tables give identical digests anywhere.

The public digest covers only what every player may see, so two nodes that know
different hidden cards still agree on it. The full digest covers everything and
is for a node's own checks and for tests.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ...limits import DIGEST_SIZE
from ...replica.digest import canonical_bytes
from .state import Area, Slot, Table


def _code(slot: Slot) -> int:
    return -1 if slot is None else slot.code


def _top(pile: list[Slot]) -> int:
    return _code(pile[-1]) if pile else -1


def _public_area(area: Area) -> list[Any]:
    return [
        area.seat,
        [[c.code for c in stack] for stack in area.post],
        len(area.blitz),
        _top(area.blitz),
        len(area.wood),
        _top(area.wood),
        len(area.hand),
        area.stuck,
        area.active,
    ]


def _full_area(area: Area) -> list[Any]:
    return [
        *_public_area(area),
        [_code(c) for c in area.blitz],
        [_code(c) for c in area.wood],
        [_code(c) for c in area.hand],
    ]


def _table(table: Table, full: bool) -> list[Any]:
    area_form = _full_area if full else _public_area
    return [
        list(table.seats),
        [area_form(table.areas[seat]) for seat in table.seats],
        [[p.pile_id, int(p.colour), [c.code for c in p.cards]] for p in table.piles],
        table.post_stacking,
        table.over,
        -1 if table.blitz_by is None else table.blitz_by,
        table.stalemates,
        table.idle_stalemates,
    ]


def public_form(table: Table) -> list[Any]:
    """The public part of a table as plain data, in a canonical shape."""
    return _table(table, False)


def public_digest(table: Table) -> bytes:
    return hashlib.blake2b(canonical_bytes(_table(table, False)), digest_size=DIGEST_SIZE).digest()


def full_digest(table: Table) -> bytes:
    return hashlib.blake2b(canonical_bytes(_table(table, True)), digest_size=DIGEST_SIZE).digest()
