"""A Dutch game in one process: the pure rules engine, you at seat 0 and the Dutch bots at
the others, a plain seeded shuffle (no network, no mental poker). It stands in for the node
until the node carries Dutch, so the screens and keys can be played now; it is the only
client module that holds the whole round, and it hands the screen one seat's view only.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from dutchblitz.protocol.games.dutch.bots import BotLevel, bot_move
from dutchblitz.protocol.games.dutch.cards import FULL_DECK
from dutchblitz.protocol.games.dutch.moves import Draw, Move, Reason
from dutchblitz.protocol.games.dutch.rules import apply
from dutchblitz.protocol.games.dutch.scoring import GameLength, game_over, winners
from dutchblitz.protocol.games.dutch.state import Round, deal
from dutchblitz.protocol.games.dutch.views import (
    DutchResult,
    Happening,
    Phase,
    happened,
    round_view,
)

from .screens import DutchTable

ME = 0
BOT_NAMES = ("Bea", "Carl", "Dana", "Eli", "Fay", "Gus", "Hal")
NEWS_KEPT = 12


@dataclass
class LocalGame:
    """One human and some bots round one table; ``act`` for the human, ``bot_step`` for
    the bots, each one move through ``rules.apply``."""

    name: str
    bots: int
    seed: int
    level: BotLevel = BotLevel.CAREFUL
    length: GameLength = field(default_factory=lambda: GameLength(rounds=3))
    totals: list[int] = field(default_factory=list)
    round_number: int = 1
    news: list[Happening] = field(default_factory=list)
    finished: bool = False
    state: Round = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.names = (self.name, *BOT_NAMES[: self.bots])
        self.totals = [0] * len(self.names)
        self.state = self._deal(0, ())

    def _deal(self, starter: int, penalised: Sequence[int]) -> Round:
        order = list(FULL_DECK)
        self.rng.shuffle(order)
        return deal(len(self.names), starter, penalised, order)

    def act(self, seat: int, move: Move) -> Reason | None:
        """One move by ``seat``: None when taken, else why the rules refused it."""
        before = self.state
        outcome = apply(before, seat, move)
        if outcome.refusal is not None:
            return outcome.refusal.reason
        self.news = [*self.news, happened(before, seat, move, outcome, ME)][-NEWS_KEPT:]
        self.state = outcome.state
        return None

    def bot_step(self, race_over: bool) -> bool:
        """One bot's move, if a bot has one; the bot to draw waits for the race to end."""
        for seat in range(1, len(self.names)):
            move = bot_move(self.state, seat, self.level)
            if move is None or (isinstance(move, Draw) and self.state.window and not race_over):
                continue
            return self.act(seat, move) is None
        return False

    @property
    def round_over(self) -> bool:
        return self.state.phase is Phase.OVER

    def scored(self) -> tuple[int, ...]:
        """The game's totals with this round's score, once it is over."""
        score = round_view(self.state, ME).score
        if score is None:
            return tuple(self.totals)
        return tuple(t + s for t, s in zip(self.totals, score.scores, strict=True))

    @property
    def game_over(self) -> bool:
        return self.round_over and game_over(self.length, self.scored(), self.round_number)

    def next_round(self) -> bool:
        """Bank the round's scores and deal the next one; False when the game is over."""
        if not self.round_over or self.game_over:
            return False
        score = round_view(self.state, ME).score
        assert score is not None
        self.totals = list(self.scored())
        self.round_number += 1
        caller = self.state.caller
        failed = caller is not None and score.result is DutchResult.FAILURE
        penalised = [caller] if failed and caller is not None else []  # D-33
        self.state = self._deal(score.next_starter, penalised)
        self.news = []
        return True

    def table(self, typed: str = "", notice: str = "") -> DutchTable:
        """What the human's screen shows: seat 0's view only."""
        over = self.game_over
        return DutchTable(
            view=round_view(self.state, ME),
            names=self.names,
            bots=frozenset(range(1, len(self.names))),
            totals=tuple(self.totals),
            round_number=self.round_number,
            target=self.length.target,
            rounds=self.length.rounds,
            news=tuple(self.news),
            typed=typed,
            notice=notice,
            game_over=over,
            winners=winners(self.scored()) if over else (),
        )
