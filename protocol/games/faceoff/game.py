"""One game of Blitz! held as it goes: the state, and one call per move in the table's order.

``rules.apply`` is the pure function; ``Match`` keeps its latest state for a shell that
wants ``apply(seat, move) -> Refusal | None``: a refused move changes nothing (F-44).
"""

from __future__ import annotations

from typing import Any

from .moves import Move, Refusal
from .rules import apply
from .state import Game, Phase
from .views import TableView, public_form, view


class Match:
    """A game in play: ``state`` is the state after every accepted move so far."""

    def __init__(self, state: Game) -> None:
        self.state = state

    def apply(self, seat: int, move: Move) -> Refusal | None:
        outcome = apply(self.state, seat, move)
        self.state = outcome.state
        return outcome.refusal

    @property
    def over(self) -> bool:
        return self.state.phase is Phase.OVER

    def public_form(self) -> list[Any]:
        return public_form(self.state)

    def view(self, seat: int | None = None) -> TableView:
        return view(self.state, seat)
