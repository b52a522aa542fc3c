"""Blitz!'s part of the fair deal: a stand-in deck per seat (``TokenDeck``), and the binding
that picks who turns first (F-51).

Blitz!'s cards are turned by the table's openings (table.py), not dealt: the fair deal only
starts the round. Its deck for the fair deal is therefore a stand-in, ``DECK_CODES`` tokens
per seat with the codes the wire's DEAL and REVEAL carry (seat ``s``'s tokens are codes
``40 s`` to ``40 s + 39``), of which a DEAL shows ``SHOWN``; no move names one, so the
audit has nothing to replay. The binding is a hash of every dealt seat's DEAL: fresh each
round (the joint randomness chose the orders) and the same on every node.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from hashlib import blake2b
from typing import Final

from ...limits import DECK_CODES
from ...table.rules import SeatDecks
from .state import MAX_FACEOFF_SEATS, MIN_FACEOFF_SEATS

SHOWN: Final = 4  # the codes a DEAL shows of a seat's tokens
BACKS: Final = ("pump", "wagon", "bucket", "plow", "buggy", "lantern", "churn", "windmill")


@dataclass(frozen=True, slots=True, order=True)
class Token:
    """A stand-in card of the fair deal: only its code."""

    code: int


def check_backs(backs: Sequence[str]) -> str | None:
    """F-2: 3 to 8 players, each with a back of its own."""
    if not MIN_FACEOFF_SEATS <= len(backs) <= MAX_FACEOFF_SEATS:
        return f"Blitz! is played by {MIN_FACEOFF_SEATS} to {MAX_FACEOFF_SEATS}"
    if len(set(backs)) != len(backs):
        return "each player needs a different back"
    unknown = [back for back in backs if back not in BACKS]
    return f"back {unknown[0]!r} is not one of {', '.join(BACKS)}" if unknown else None


def binding(orders: Mapping[int, Sequence[Token | None]], seats: Sequence[int]) -> bytes:
    """16 bytes of every dealt seat's DEAL, in seat order (F-51)."""
    digest = blake2b(digest_size=16, person=b"faceoff-bind-v1")
    for seat in seats:
        digest.update(bytes([seat]))
        for token in orders[seat][:SHOWN]:
            assert token is not None  # a DEAL shows them (``known_order``)
            digest.update(token.code.to_bytes(2, "big"))
    return digest.digest()


class TokenDeck(SeatDecks[Token]):
    """The ``SeatDecks`` part of Blitz!: the stand-in tokens (the module's docstring)."""

    def deck(self, seat: int) -> list[Token]:
        return [Token(seat * DECK_CODES + i) for i in range(DECK_CODES)]

    def owner(self, order: Sequence[Token]) -> int:
        return order[0].code // DECK_CODES

    def shown(self, order: Sequence[Token], players: int) -> tuple[int, ...]:
        return tuple(token.code for token in order[:SHOWN])

    def known_order(
        self, seat: int, shown: Sequence[int], players: int
    ) -> list[Token | None] | None:
        if len(shown) != SHOWN or any(
            not 0 <= code < DECK_CODES * MAX_FACEOFF_SEATS or code // DECK_CODES != seat
            for code in shown
        ):
            return None
        return [*(Token(code) for code in shown), *[None] * (DECK_CODES - SHOWN)]

    def fits(self, order: Sequence[Token], shown: Sequence[int], players: int) -> bool:
        return [token.code for token in order[:SHOWN]] == list(shown)
