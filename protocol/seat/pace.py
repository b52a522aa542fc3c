"""One seat's own clock between rounds: how long the scores stay up, and the count-in.

The table agrees that every present player has seen the scores before the next
round is played (spec/rules.md R-54): each says so with a READY while the round
is dealt. When it says so is its node's affair: when the person presses a key,
or when ``SCORES_S`` have passed; a bot has seen them at once. The count-in
(R-55) cannot be agreed at all, as no clock lives in the protocol: each honest
node holds back its own seats' moves for ``COUNT_IN_S`` after its own stable
game has started the round, and shows the seconds left.

A ``Pace`` follows the stable game (``follow``, after every event that became
final) and answers with times; it reads no clock itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..table.state import Game, Phase

SCORES_S = 15.0  # the scores stay up this long unless the person presses a key first
COUNT_IN_S = 3.0  # "3, 2, 1": no move of this node's seats before it has run out


@dataclass(slots=True)
class Pace:
    eager: bool = False  # a bot's seat: it has seen the scores as soon as they are up
    count_in_s: float = COUNT_IN_S  # 0 for a bench that measures the protocol, not people
    where: tuple[Phase, int] = (Phase.LOBBY, 0)  # the stable game's phase and round
    scores_up: bool = False  # dealing a game's second round or a later one
    scores_from: float = 0.0
    looked: bool = False  # the person has seen this round's scores (a key)
    playing_from: float = 0.0

    def follow(self, stable: Game, now: float) -> float | None:
        """Note where the stable game is now; the time a wait that began now ends, if any."""
        where = (stable.phase, stable.round)
        if where == self.where:
            if self._under_way(stable, now):
                self.playing_from = now - self.count_in_s  # nothing to count in (P-259)
            return None
        self.where = where
        self.scores_up = stable.phase == Phase.DEALING and stable.shown_round() > 1
        if self.scores_up:
            self.scores_from, self.looked = now, False
            return now + SCORES_S
        if stable.phase == Phase.PLAYING:
            self.playing_from = now
            return now + self.count_in_s
        return None

    def _under_way(self, stable: Game, now: float) -> bool:
        """A move of the round already final here moments after its play began here: the
        round was under way before this node saw it (a restore, or catching up after a
        rejoin), and a round being played is no round to count in. An honest first move
        comes only after its mover's own count-in, never this soon."""
        if stable.phase != Phase.PLAYING or now - self.playing_from >= self.count_in_s / 2:
            return False
        return any(not isinstance(step[1], bool) for step in stable.steps)

    def look(self) -> bool:
        """The person has seen the scores; False when none are waiting to be seen."""
        if not self.scores_up:
            return False
        self.looked = True
        return True

    def seen_due(self, now: float) -> bool:
        """Whether this seat should now say that it has seen the scores."""
        return self.scores_up and (self.eager or self.looked or self.scores_left(now) <= 0)

    def scores_left(self, now: float) -> float:
        """Seconds until the seat says by itself that it has seen the scores (0: not waiting)."""
        if not self.scores_up or self.eager or self.looked:
            return 0.0
        return max(0.0, self.scores_from + SCORES_S - now)

    def count_in_left(self, game: Game, now: float) -> float:
        """Seconds of count-in left before this seat may play in ``game`` (0: play)."""
        if game.phase != Phase.PLAYING:
            return 0.0
        if self.where != (Phase.PLAYING, game.round):
            return self.count_in_s  # shown before the order made it final here: not begun
        return max(0.0, self.playing_from + self.count_in_s - now)
