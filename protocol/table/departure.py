"""A member leaves the table: by its own goodbye (a BYE), or removed by the first SUSPECT of
it in the total order (spec/protocol.md P-92), on every node alike. What its leaving does to
the deal, the round and the game is ``Game.leave``'s."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..wire.messages import Bye, Suspect
from .records import ACCEPTED, FlagKind, Outcome, Phase

if TYPE_CHECKING:
    from .state import Game


def bye(game: Game, sender: bytes, body: Bye) -> Outcome:
    """A goodbye: rounds it has not revealed are withheld, as it chose to go."""
    game.leave(sender, FlagKind.WITHHELD)
    return ACCEPTED


def suspect(game: Game, sender: bytes, body: Suspect) -> Outcome:
    """The first Suspect of a member in the order removes it, on every node alike."""
    if not game.members[sender].present:
        return game.refuse("not_present")
    target = game.members.get(body.node)
    if target is None or not target.present:
        return game.refuse("not_present")
    if body.held < target.since - 1:
        # About an earlier admission of a player who has since come back: void
        # (else suspicions of its last stay would keep removing it as it returns).
        return game.refuse("stale")
    if target.seat in game.players and game.phase in (Phase.DEALING, Phase.PLAYING):
        game.away.add(target.seat)  # before it leaves: the deal under way waits for it
    game.leave(body.node)
    return ACCEPTED
