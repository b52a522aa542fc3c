"""The end of a seat's games: told once each, undone by a rematch, and the wait after it."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable
from typing import Any

from dutchblitz.protocol.seat.duties import Wishes
from dutchblitz.protocol.table.state import Game, Phase

log = logging.getLogger("dutchblitz.node")


class GameEnds:
    """Each game's end, told once: ``game_over`` is set and the hooks run (the archive, the
    summary); a rematch clears ``game_over`` again. ``finished`` is set once every other
    player has applied the end too, so that the seat may leave. The machine decides each
    (``GameEnded``, ``Rematch``, ``Finished``); this holds what the node waits on."""

    def __init__(self, wishes: Wishes) -> None:
        self.wishes = wishes  # its name labels the log lines
        self.game_over = asyncio.Event()  # cleared again when a rematch begins
        self.finished = asyncio.Event()  # over, and the others have seen the end too
        self.hooks: list[Callable[[], None]] = []  # run once at each game's end
        self.told = 0  # the game number of the last end told

    def followed(self, game_number: int) -> None:
        """A game a spectator follows has ended: nobody waits for a spectator to leave."""
        if game_number > self.told:
            self.finished.set()
            self.tell(game_number)

    def forget(self) -> None:
        """A fresh log: no game of it has ended yet (the machine forgets too, as it takes
        the log up: ``Standing.forget_ends``)."""
        self.game_over.clear()
        self.told = 0

    def tell(self, game_number: int) -> None:
        self.told = game_number
        self.game_over.set()
        for hook in list(self.hooks):
            hook()

    def finish(self, confirmed: bool) -> None:
        if not confirmed:
            log.warning(
                "%s: not every player confirmed the end; finishing anyway", self.wishes.name
            )
        self.finished.set()


def _names(game: Game) -> dict[int, str]:
    """Seat to display name; a name two players share gets its seat added."""
    names = {seat: member.name for seat, member in game.by_seat().items()}
    shared = {name for name, count in Counter(names.values()).items() if count > 1}
    return {seat: f"{n} (seat {seat + 1})" if n in shared else n for seat, n in names.items()}


def game_summary(table: str, game: Game, digest: bytes) -> dict[str, Any]:
    names = _names(game)
    by_seat = game.by_seat()

    def named(scores: dict[int, int]) -> dict[str, int]:
        return {names[seat]: points for seat, points in sorted(scores.items())}

    return {
        "table": table,
        "game": game.game_number,  # 2 and on: a rematch at the same table
        "players": [
            {"name": names[seat], "node_id": by_seat[seat].node.hex(), "back": by_seat[seat].back}
            for seat in game.players
        ],
        "rounds": [
            {
                "scores": named(result.scores),
                "blitz_by": None if result.blitz_by is None else names[result.blitz_by],
                **({"void": True} if result.void else {}),  # spec/rules.md R-61
            }
            for result in game.results
        ],
        "final_scores": named(game.totals),
        "winner": None if game.winner is None else names[game.winner],
        "log_digest": digest.hex(),
        "target": game.target,
        "post_stacking": game.post_stacking,
        "rules": game.rules.tag,
        "races_lost": game.races_lost,
        "refused": game.refused,
        "over": game.phase == Phase.OVER,
        "flags": [
            {
                "round": flag.round,
                "name": names.get(flag.seat, f"seat {flag.seat + 1}"),
                "node_id": flag.node.hex(),
                "kind": flag.kind.value,
                "detail": flag.detail,
            }
            for flag in game.game_flags()
        ],
    }
