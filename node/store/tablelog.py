"""What a seat writes to the node's log about its table: who came and went, each round's
end and start, and each kind of alarm once (the counts go to ``LocalSeat.counters``)."""

from __future__ import annotations

import logging
from collections import Counter

from dutchblitz.protocol.replica.effects import Alarm, Delivered
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.wire.messages import Admit, Bye, Suspect

log = logging.getLogger("dutchblitz.node")


class TableLog:
    """Log lines for one seat, named by its ``label``."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.alarms: Counter[str] = Counter()
        self.results_logged = 0
        self.round_logged = 0

    def caught_up(self, game: Game | None) -> None:
        """What is in ``game`` already was logged (a restored log), or nothing (a fresh one)."""
        self.results_logged = 0 if game is None else len(game.results)
        self.round_logged = 0 if game is None else game.round

    def alarm(self, effect: Alarm) -> None:
        self.alarms[effect.kind] += 1
        if self.alarms[effect.kind] == 1:
            log.warning(
                "%s: %s: %s (reported once per kind)", self.label, effect.kind, effect.detail
            )

    def delivered(self, effect: Delivered, game: Game) -> None:
        """An event became final in the stable ``game``: log what it changed at the table."""
        entry = effect.entry
        body = entry.body
        if entry.outcome.refusal is None and isinstance(body, Bye | Suspect):
            gone = game.members.get(entry.sender if isinstance(body, Bye) else body.node)
            if gone is not None:
                how = "left the table" + (" (goodbye)" if isinstance(body, Bye) else " (removed)")
                log.info("%s: %s %s", self.label, gone.name, how)
        elif entry.outcome.refusal is None and isinstance(body, Admit):
            log.info("%s: %s sat down", self.label, body.node.hex()[:8])
        names = {m.seat: m.name for m in game.members.values()}
        for result in game.results[self.results_logged :]:
            if result.void:  # spec/rules.md R-61
                log.info("%s: round %d void: not scored, not counted", self.label, result.round)
                continue
            scores = ", ".join(f"{names[s]} {p:+d}" for s, p in sorted(result.scores.items()))
            blitz = "no Blitz" if result.blitz_by is None else f"Blitz by {names[result.blitz_by]}"
            log.info("%s: round %d over (%s): %s", self.label, result.round, blitz, scores)
        self.results_logged = len(game.results)
        if game.phase == Phase.PLAYING and self.round_logged != game.round:
            self.round_logged = game.round
            log.info("%s: round %d: playing", self.label, game.round)
