"""The one object that owns the client's state: what the layout reads and the keys change.

Nothing here draws or binds keys. The game itself lives in the node: the state
keeps the latest ``Snapshot``, the notices still on screen, and the few things
only the face knows (help shown, a question asked, a half-typed stacking move).
Time comes in as a clock, so tests can make notices expire without waiting. What the
lobby's keys and the help and quit keys do is in commands.py.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from enum import StrEnum

from dutchblitz.node.api import (
    Notice,
    NoticeKind,
    PlayerInfo,
    Refused,
    Session,
    Snapshot,
)
from dutchblitz.protocol.views import Phase
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.data_structures import Size

from .games import DEFAULT_GAME
from .notices import NoticeBoard
from .words import GameWords, all_of

ALONE_HINT_SECONDS = 5.0  # with no peer found after this long, say how to get one
SCORES_SECONDS = 4.0  # the scores show this long after a round ends, unless dismissed
# A key this soon after a round's end was meant for the table, not for the scores: it
# neither says they were seen nor asks for a rematch (r also flips).
LATE_KEY_SECONDS = 1.0
PREFERRED_BOT_LEVEL = "normal"


class Screen(StrEnum):
    LOBBY = "lobby"
    TABLE = "table"
    SCORES = "scores"


class ClientState:
    """Everything the face knows; the layout reads it, the key bindings call its methods."""

    def __init__(
        self,
        session: Session,
        clock: Callable[[], float] = time.monotonic,
        game: str = DEFAULT_GAME,
        games: Mapping[str, GameWords] | None = None,
    ) -> None:
        self.session = session
        self.first_game = game  # the game the node was started for (--game)
        # Each game with a face here, and what its face adds to the table's words (the
        # word for what ends a round early in it, "Blitz", "Dutch", among them).
        self.games = dict(games) if games is not None else {}
        self.games.setdefault(game, GameWords())
        self.clock = clock
        self.snap: Snapshot = session.snapshot()
        # The tag of the game whose face draws the table, as the node says (``refresh``).
        self.game = self.snap.game_tag if self.snap.game_tag in self.games else game
        self.words = all_of(self.games.values(), self.games[self.game])
        self.snap_at = self.started_at = clock()
        self.board = NoticeBoard(clock)  # the notices on screen
        self.help_shown = False
        self.asking_quit = False
        self.leave_requested = False
        self.editing_name = False
        self.name_buffer = Buffer(multiline=False, name="name")
        # A game's half-typed command, kept by its face: Dutch's "t" or "b3", Dutch Blitz's
        # "b" or "v" (a Post stacking move waiting for its stack).
        self.typed = ""
        # What a face keeps beside it while a person types, of the face's own type, which it
        # alone reads (word toy: the card an answer was begun on); None: nothing. The frame
        # clears it with ``typed``.
        self.typed_memo: object = None
        levels = self.snap.bot_levels
        self.bot_level = (
            levels[0] if levels and PREFERRED_BOT_LEVEL not in levels else PREFERRED_BOT_LEVEL
        )
        self.scores_pinned = False
        self.scores_until = 0.0
        self.results_seen = len(self.snap.game.results)
        self.round_ended_at = float("-inf")
        self.terminal = Size(rows=24, columns=80)  # set by the app before each frame
        self.played_a_card = False  # the first game's hint line shows until then

    # -- following the node -----------------------------------------------------------

    def refresh(self) -> None:
        """Take a new snapshot and the notices that came with it."""
        before = self.snap
        self.snap = self.session.snapshot()
        self.snap_at = self.clock()
        # The node's word for the game: a START may start another one (P-241).
        game = self.snap.game_tag if self.snap.game_tag in self.games else self.first_game
        if game != self.game:  # what l said of the old game's bot levels is past
            self.board.forget(set(self.words.bot_levels.values()))
            self.typed, self.typed_memo = "", None  # and so is a command half-typed in it
            self.words = all_of(self.games.values(), self.games[game])
        self.game = game
        results = len(self.snap.game.results)
        if results > self.results_seen:
            self.scores_until = self.snap_at + SCORES_SECONDS
            self.round_ended_at = self.snap_at
        self.results_seen = results
        if self.snap.count_in > 0 and not self.scores_pinned:
            self.scores_until = 0.0  # the scores were seen: the count-in shows the table
        if self.editing_name and self.phase != Phase.LOBBY:
            self.editing_name = False  # the game started while the name was being typed
        self.follow_names(before)
        for notice in self.session.take_notices():
            self.flash(notice)
        levels = self.snap.bot_levels
        if levels and self.bot_level not in levels:  # another game's levels (P-241)
            self.bot_level = levels[0] if PREFERRED_BOT_LEVEL not in levels else PREFERRED_BOT_LEVEL

    def follow_names(self, before: Snapshot) -> None:
        """A player renamed since ``before`` (a bot takes the new game's level and its name,
        P-241): the notices on screen that name them say the new name."""
        names = {p.node: p.name for p in before.players}
        new = {names[p.node]: p.name for p in self.snap.players
               if p.node in names and names[p.node] != p.name}  # fmt: skip
        if new:
            self.board.rename(new, self.words, self.terminal.columns)

    def flash(self, notice: Notice) -> None:
        self.board.flash(notice, self.words, self.terminal.columns)

    def refuse(self, refused: Refused | None) -> None:
        if refused is not None:
            self.flash(Notice(NoticeKind.REFUSED, refused=refused))

    def tick(self) -> None:
        """Forget notices whose time is up."""
        self.board.tick()

    def notices(self) -> list[Notice]:
        """The notices still on screen, oldest first."""
        return self.board.shown()

    # -- what the layout asks ---------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self.snap.game.phase

    @property
    def game_running(self) -> bool:
        return self.phase in (Phase.DEALING, Phase.PLAYING)

    @property
    def scores_visible(self) -> bool:
        if self.phase == Phase.OVER:
            return True
        if self.phase == Phase.DEALING:
            return bool(self.snap.game.results)
        if self.phase == Phase.PLAYING:
            return self.scores_pinned or self.clock() < self.scores_until
        return False

    @property
    def screen(self) -> Screen:
        if self.phase == Phase.LOBBY:
            return Screen.LOBBY
        return Screen.SCORES if self.scores_visible else Screen.TABLE

    @property
    def me(self) -> PlayerInfo | None:
        return next((p for p in self.snap.players if p.is_me), None)

    def name_of(self, seat: int) -> str:
        for player in self.snap.players:
            if player.seat == seat:
                return player.name
        member = self.snap.game.by_seat().get(seat)
        return member.name if member is not None else f"seat {seat + 1}"

    def count_in_left(self) -> float:
        """Seconds of the count-in still to run before a key may play (0: play)."""
        return max(0.0, self.snap.count_in - (self.clock() - self.snap_at))

    def scores_left(self) -> float:
        """Seconds until the node says by itself that the scores were seen."""
        return max(0.0, self.snap.scores_left - (self.clock() - self.snap_at))

    @property
    def looking_at_scores(self) -> bool:
        """The scores between two rounds are up: any key says they were seen."""
        return self.phase == Phase.DEALING and self.screen == Screen.SCORES

    def seconds_waiting(self) -> float:
        now = self.clock()
        return max(self.snap.seconds_running + now - self.snap_at, now - self.started_at)

    def alone(self) -> bool:
        """No other node has appeared after a few seconds: time to say what to do."""
        return self.snap.peers_seen == 0 and self.seconds_waiting() >= ALONE_HINT_SECONDS

    # -- between rounds ---------------------------------------------------------------

    def late_key(self) -> bool:
        """Whether a key comes so soon after a round's end that it was meant for the table."""
        return self.clock() - self.round_ended_at < LATE_KEY_SECONDS

    # -- the scores over the table ---------------------------------------------------

    def toggle_scores(self) -> None:
        if self.scores_visible:
            self.hide_scores()
        else:
            self.scores_pinned = True

    def hide_scores(self) -> None:
        self.scores_pinned = False
        self.scores_until = 0.0
