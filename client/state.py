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
from dataclasses import dataclass, replace
from enum import StrEnum

from dutchblitz.node.api import (
    Action,
    News,
    Notice,
    NoticeKind,
    PlayerInfo,
    Refused,
    Session,
    Snapshot,
    Told,
)
from dutchblitz.protocol.views import Phase
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.data_structures import Size

from .games import DEFAULT_GAME
from .text import cut_name
from .words import notice_text, round_scores

# How long each kind of notice stays on screen, in seconds.
NOTICE_SECONDS = {
    NoticeKind.LOST_RACE: 2.5,
    NoticeKind.REFUSED: 4.0,  # long enough to read why a key did nothing
    NoticeKind.BLITZ: 6.0,
    NoticeKind.ROUND_OVER: 6.0,
    NoticeKind.GAME_OVER: 12.0,
    NoticeKind.ALARM: 12.0,
}
DEFAULT_NOTICE_SECONDS = 4.0
NOTICES_SHOWN = 3  # on screen at once: the newest
NOTICE_INDENT = 10  # the columns before a notice's words: " SCORES  ", and one spare
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


@dataclass(frozen=True, slots=True)
class Flash:
    notice: Notice
    until: float


NAME_CUTS = (0, 12, 10, 8, 6, 5, 4, 3)  # how far a round's scores cut names to fit (0: not)


def fit_scores(told: Told, width: int) -> str:
    """A round's scores in ``width`` columns: names cut shorter and shorter, then without
    "round N: ", so that every player's score shows."""
    for cut in NAME_CUTS:
        cut_told = replace(told, scores=tuple((cut_name(n, cut), p) for n, p in told.scores))
        for head in (True, False):
            text = round_scores(cut_told, head)
            if len(text) <= width:
                return text
    return text


class ClientState:
    """Everything the face knows; the layout reads it, the key bindings call its methods."""

    def __init__(
        self,
        session: Session,
        clock: Callable[[], float] = time.monotonic,
        game: str = DEFAULT_GAME,
        call: str = "Blitz",
        calls: Mapping[str, str] | None = None,
    ) -> None:
        self.session = session
        self.first_game = game  # the game the node was started for (--game)
        # Each game with a face here, and the word for what ends a round early in it
        # ("Blitz", "Dutch"), for the notices.
        self.calls = dict(calls) if calls is not None else {game: call}
        self.calls.setdefault(game, call)
        self.clock = clock
        self.snap: Snapshot = session.snapshot()
        # The tag of the game whose face draws the table, as the node says (``refresh``).
        self.game = self.snap.game_tag if self.snap.game_tag in self.calls else game
        self.call = self.calls[self.game]
        self.snap_at = self.started_at = clock()
        self.flashes: list[Flash] = []
        self.help_shown = False
        self.asking_quit = False
        self.leave_requested = False
        self.editing_name = False
        self.name_buffer = Buffer(multiline=False, name="name")
        self.stack_action: Action | None = None  # BLITZ_TO_POST or WOOD_TO_POST, waiting a slot
        self.typed = ""  # a game's half-typed command, kept by its face (Dutch: "t", "b3")
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
        self.snap = self.session.snapshot()
        self.snap_at = self.clock()
        # The node's word for the game: a START may start another one (P-241).
        self.game = self.snap.game_tag if self.snap.game_tag in self.calls else self.first_game
        self.call = self.calls[self.game]
        results = len(self.snap.game.results)
        if results > self.results_seen:
            self.scores_until = self.snap_at + SCORES_SECONDS
            self.round_ended_at = self.snap_at
        self.results_seen = results
        if self.snap.count_in > 0 and not self.scores_pinned:
            self.scores_until = 0.0  # the scores were seen: the count-in shows the table
        if self.editing_name and self.phase != Phase.LOBBY:
            self.editing_name = False  # the game started while the name was being typed
        for notice in self.session.take_notices():
            self.flash(notice)
        levels = self.snap.bot_levels
        if levels and self.bot_level not in levels:  # another game's levels (P-241)
            self.bot_level = levels[0] if PREFERRED_BOT_LEVEL not in levels else PREFERRED_BOT_LEVEL

    def flash(self, notice: Notice) -> None:
        seconds = NOTICE_SECONDS.get(notice.kind, DEFAULT_NOTICE_SECONDS)
        text = notice_text(notice, self.call)
        if notice.told is not None and notice.told.news == News.ROUND_SCORES:
            text = fit_scores(notice.told, self.terminal.columns - NOTICE_INDENT)
        shown = Notice(notice.kind, text)
        self.flashes = [*self.flashes, Flash(shown, self.clock() + seconds)][-NOTICES_SHOWN:]

    def refuse(self, refused: Refused | None) -> None:
        if refused is not None:
            self.flash(Notice(NoticeKind.REFUSED, refused=refused))

    def tick(self) -> None:
        """Forget notices whose time is up."""
        now = self.clock()
        self.flashes = [f for f in self.flashes if f.until > now]

    def notices(self) -> list[Notice]:
        """The notices still on screen, oldest first."""
        now = self.clock()
        return [f.notice for f in self.flashes if f.until > now]

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

    # -- at the table -----------------------------------------------------------------

    def play(self, action: Action, slot: int = 0) -> None:
        """One keystroke's play. While the scores cover the table, a key only uncovers it."""
        self.stack_action = None
        if self.phase == Phase.PLAYING and self.scores_visible:
            self.hide_scores()
            return
        why = self.session.act(action, slot)
        self.refuse(why)
        if why is None and action not in (Action.FLIP, Action.STUCK):
            self.played_a_card = True
        self.refresh()

    def post_key(self, slot: int) -> None:
        """A Post key: that stack to the centre, or the end of a "b"/"v" stacking move."""
        action = self.stack_action or Action.POST_TO_CENTRE
        self.play(action, slot)

    def begin_stack(self, action: Action) -> None:
        if self.phase == Phase.PLAYING and self.scores_visible:
            self.hide_scores()
            return
        self.stack_action = action

    def cancel_stack(self) -> None:
        self.stack_action = None

    def toggle_scores(self) -> None:
        if self.scores_visible:
            self.hide_scores()
        else:
            self.scores_pinned = True

    def hide_scores(self) -> None:
        self.scores_pinned = False
        self.scores_until = 0.0
