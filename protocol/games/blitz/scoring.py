"""Scores of a round and the end of the game."""

from __future__ import annotations

from collections.abc import Mapping

from ...limits import DEFAULT_TARGET
from .state import Table

CENTRE_POINTS = 1
BLITZ_PENALTY = -2


def round_scores(table: Table) -> dict[int, int]:
    """+1 per own card in the centre, -2 per card left in the own Blitz pile (R-28)."""
    scores = {seat: BLITZ_PENALTY * len(table.areas[seat].blitz) for seat in table.seats}
    for pile in table.piles:
        for placed in pile.cards:
            scores[placed.deck] += CENTRE_POINTS
    return scores


def add_scores(totals: Mapping[int, int], scores: Mapping[int, int]) -> dict[int, int]:
    return {seat: totals.get(seat, 0) + scores.get(seat, 0) for seat in {*totals, *scores}}


def game_winner(totals: Mapping[int, int], target: int = DEFAULT_TARGET) -> int | None:
    """The winner once someone has reached ``target``, or None while the game goes on.

    The highest total wins (R-29). When two or more players share the highest
    total at or above the target, nobody has won yet: another full round is
    played by everyone, until one player alone has the highest total (R-30).
    """
    if not totals:
        return None
    best = max(totals.values())
    if best < target:
        return None
    leaders = [seat for seat, total in totals.items() if total == best]
    return leaders[0] if len(leaders) == 1 else None
