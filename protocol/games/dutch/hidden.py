"""Dutch's cards on the table's masked deck (spec/dutch-deal.md), and a Dutch body refused.

Dutch's 54 cards (cards.py, D-1) are the card values of one ``MaskedDeck``; what a value
means stays here. The round's record of that deck, every node's alike, is the table's
``MaskedRecord`` (protocol/table/masked/record.py), which the play (table.py) holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ...table.masked.deck import MaskedDeck
from .cards import CARDS_IN_DECK

DECK: Final = MaskedDeck(CARDS_IN_DECK)  # card value ``code`` is ``DutchCard(code)`` (M-4)


@dataclass(frozen=True, slots=True)
class Refused:
    """A Dutch body refused; ``by`` is never set: Dutch has no race that names a winner."""

    reason: str
    by: int | None = None
