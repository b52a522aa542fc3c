"""Dutch Blitz's part of the audit: a round replayed with one seat's whole deck known."""

from __future__ import annotations

from collections.abc import Sequence

from ...table.fairdeal import RoundRecord
from .cards import DECK_SIZE, Card, card_from_code
from .rules import apply, set_active
from .state import Slot, deal


def face_up(shown: list[Card]) -> list[Slot]:
    """A deck as others know it from its DEAL: the Post row and the Blitz top."""
    order: list[Slot] = [None] * DECK_SIZE
    posts = len(shown) - 1
    order[:posts] = shown[:posts]
    order[posts + 9] = shown[posts]
    return order


def replay(record: RoundRecord, seat: int, deck: Sequence[Card]) -> str | None:
    """Replay the round with ``seat``'s whole deck known; the first of its moves that fails."""
    orders: dict[int, list[Slot]] = {
        s: face_up([card_from_code(c) for c in record.visible[s]]) for s in record.seats
    }
    orders[seat] = list(deck)
    table = deal(record.seats, orders, post_stacking=record.post_stacking, players=record.players)
    for s in record.seats:
        table.areas[s].active = s in record.active
    number = 0
    # Nothing after the seat's last move can say anything more about its cards.
    steps = record.steps
    end = len(steps)
    while end and (steps[end - 1][0] != seat or isinstance(steps[end - 1][1], bool)):
        end -= 1
    for who, step in steps[:end]:
        if isinstance(step, bool):
            set_active(table, who, step)
            continue
        if who == seat:
            number += 1
        refusal = apply(table, step)
        if refusal is None:
            continue
        if who == seat:
            return f"its move {number} ({type(step).__name__}) named a card it did not hold"
        return None  # the table has gone another way: nothing more can be said
    return None
