"""``blitz-node replay``: a finished game on the table's own screens, moved by keys.

The node (``api.Replaying``) holds the checked game and where the replay stands; this
module owns what only the face knows (playing or paused, the speed, help shown, a round
number half typed) and draws the game's table and scores screens (its face, from
``games/registry.py``) from the replay's snapshot, as the table draws them from a node's.
"""

from __future__ import annotations

import asyncio
import textwrap
import time
from collections.abc import Callable

from dutchblitz.node.api import (
    GameMove,
    Notice,
    Refused,
    Replaying,
    Snapshot,
    Why,
)
from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import Output

from . import keymap
from .games import registry
from .layout import STYLE
from .size import size_needed, too_small
from .state import ClientState, Screen
from .text import Text, bar, fit

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)  # moves a second
SLOWEST_FIRST = 2  # a replay starts at 2 moves a second or faster
REPLAY_SECONDS = 60.0  # at its first speed a whole game replays in about this long
DIGIT_SECONDS = 1.0  # a second digit this soon makes a two-digit round number
TICK_SECONDS = 0.05


class FrozenSession:
    """The ``Session`` a replay offers the table's state: snapshots, and no moves."""

    def __init__(self, replay: Replaying) -> None:
        self.replay = replay

    def snapshot(self) -> Snapshot:
        return self.replay.snapshot()

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        return lambda: None

    def take_notices(self) -> list[Notice]:
        return []

    def _no(self) -> Refused:
        return Refused(Why.OTHER, what="a replay")

    def play(self, move: GameMove) -> Refused | None:
        return self._no()

    def seen_scores(self) -> Refused | None:
        return self._no()

    def set_name(self, name: str) -> Refused | None:
        return self._no()

    def set_back(self, back: str) -> Refused | None:
        return self._no()

    def set_ready(self, ready: bool) -> Refused | None:
        return self._no()

    def start(self) -> Refused | None:
        return self._no()

    def set_option(self, on: bool) -> Refused | None:
        return self._no()

    def set_game(self, tag: str) -> Refused | None:
        return self._no()

    def set_length(self, target: int, rounds: int | None = None) -> Refused | None:
        return self._no()

    def add_bot(self, level: str) -> Refused | None:
        return self._no()

    def remove_bot(self) -> Refused | None:
        return self._no()

    def watch(self) -> Refused | None:
        return self._no()

    async def leave(self) -> None:
        return None


def first_speed(stops: int) -> int:
    """The first speed (SPEEDS' index): the slowest that replays ``stops`` moves in about
    ``REPLAY_SECONDS``, so a long game does not take minutes; +/- change it."""
    fitting = (i for i in range(SLOWEST_FIRST, len(SPEEDS)) if stops / SPEEDS[i] <= REPLAY_SECONDS)
    return next(fitting, len(SPEEDS) - 1)


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


class ReplayState:
    """What the replay's face knows; the layout reads it, the keys call its methods."""

    def __init__(self, replay: Replaying, clock: Callable[[], float] = time.monotonic) -> None:
        self.replay = replay
        self.clock = clock
        self.table = ClientState(FrozenSession(replay), clock, games=registry.words())
        self.table.played_a_card = True  # no first-game hints in a replay
        self.face = registry.face_for(self.table.game)
        self.playing = False
        self.speed = first_speed(replay.stops)
        self.next_move_at = 0.0
        self.help_shown = False
        self.typed = ""
        self.typed_at = float("-inf")
        self.note = ""
        self.refresh()

    def refresh(self) -> None:
        self.table.refresh()
        self.table.scores_until = 0.0  # the replay's own stops show the scores, not a timer

    # -- the keys ------------------------------------------------------------------------

    def move(self, steps: int) -> None:
        self.note = ""
        self.replay.go(self.replay.stop + steps)
        self.refresh()

    def go(self, stop: int) -> None:
        self.note = ""
        self.replay.go(stop)
        self.refresh()

    def round_step(self, step: int) -> None:
        """The next (1) or previous (-1) round's deal; back from mid-round: this round's."""
        replay = self.replay
        now = replay.round
        here = replay.first_stop(now)
        target = now if step < 0 and here is not None and replay.stop > here else now + step
        first = replay.first_stop(target)
        if first is not None:
            self.go(first)
        else:
            self.go(0 if target < 1 else replay.stops - 1)

    def digit(self, digit: str) -> None:
        now = self.clock()
        typed = self.typed + digit if now - self.typed_at < DIGIT_SECONDS else digit
        self.typed, self.typed_at = typed, now
        first = self.replay.first_stop(int(typed))
        if first is not None:
            self.go(first)
        else:
            self.note = f"This game has no round {int(typed)} (it had {self.replay.rounds})."

    def toggle_play(self) -> None:
        if not self.playing and self.replay.stop >= self.replay.stops - 1:
            self.go(0)  # at the end, play starts again from the start
        self.playing = not self.playing
        self.next_move_at = self.clock() + 1 / SPEEDS[self.speed]

    def faster(self, step: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + step))

    def next_view(self) -> None:
        self.replay.next_view()
        self.refresh()

    def tick(self) -> bool:
        """Play on if it is time; whether anything changed."""
        now = self.clock()
        if not self.playing or now < self.next_move_at:
            return False
        self.next_move_at = now + 1 / SPEEDS[self.speed]
        self.move(1)
        if self.replay.stop >= self.replay.stops - 1:
            self.playing = False
        return True


# -- what the screen shows ----------------------------------------------------------------


def view_name(state: ReplayState) -> str:
    seat = state.replay.view
    return "public view" if seat is None else f"{state.table.name_of(seat)}'s view"


def title_text(state: ReplayState) -> StyleAndTextTuples:
    replay = state.replay
    rounds = f"round {replay.round} of {replay.rounds}" if replay.round else "the start"
    parts = [
        " Replay",
        f"table {state.table.snap.table}",
        replay.title,
        rounds,
        f"move {replay.stop + 1}/{replay.stops}",
        view_name(state),
    ]
    return [("", " · ".join(parts))]


def body_text(state: ReplayState) -> StyleAndTextTuples:
    if state.help_shown:
        return help_text()
    table = state.table
    if too_small(table):
        said = size_needed(table).replace("q leaves", "q quits")
        width = max(20, table.terminal.columns - 2)
        return [("class:strong", "\n".join(textwrap.wrap(said, width)))]
    if table.screen == Screen.SCORES:
        fragments = state.face.scores_screen(table)
    else:
        fragments = state.face.table_screen(table)
    return fragments + hidden_lines(state)


def hidden_lines(state: ReplayState) -> StyleAndTextTuples:
    """A seat's view: that seat's face-down cards, as its reveal shows them."""
    hidden = state.replay.hidden()
    if hidden is None or state.table.screen != Screen.TABLE:
        return []
    return state.face.hidden_lines(hidden)


def status_text(state: ReplayState) -> StyleAndTextTuples:
    speed = SPEEDS[state.speed]
    pace = f"{speed:g} move{'s' if speed != 1 else ''} a second"
    left = state.replay.stops - 1 - state.replay.stop
    to_end = f": about {_duration(left / speed)} to the end" if left > 0 else ""
    said = (
        f" ▶ playing, {pace}{to_end}"
        if state.playing
        else f" ❚❚ paused ({pace} when playing{to_end})"
    )
    fragments: StyleAndTextTuples = [("class:strong", said + "\n")]
    if state.note:
        fragments.append(("class:notice.refused", f" {state.note}\n"))
    elif state.replay.view is None and state.table.screen == Screen.TABLE:
        fragments.append(("class:hint", " v shows a player's own view, with their hidden cards\n"))
    return fragments


def keybar_text(state: ReplayState) -> StyleAndTextTuples:
    if state.help_shown:
        return bar(("?/Esc", "close help"), ("q", "quit"))
    return bar(
        ("←→", "move"),
        ("↑↓", "round"),
        ("1-9", "round N"),
        ("Spc", "pause" if state.playing else "play"),
        ("+-", "speed"),
        ("v", "view"),
        ("s", "scores"),
        ("?", "help"),
        ("q", "quit"),
    )


def help_text() -> StyleAndTextTuples:
    text = Text()
    text.line(" Replay keys (? or Esc closes this)", "class:header")
    text.line()
    for row in keymap.REPLAY_HELP:
        text.add(" ").add(fit(row.keys, 17), "class:key").line(row.what)
    text.line()
    text.line(" A move is a play, a deal, a round's end or a player leaving. The public view")
    text.line(" shows what every player saw; a player's own view adds their face-down cards,")
    text.line(" known from the reveal at the round's end (the audit).")
    return text.fragments


def build_layout(state: ReplayState) -> Layout:
    main = Window(FormattedTextControl(lambda: body_text(state), focusable=True), wrap_lines=False)
    return Layout(
        HSplit(
            [
                Window(
                    FormattedTextControl(lambda: title_text(state)), height=1, style="class:title"
                ),
                main,
                Window(FormattedTextControl(lambda: status_text(state)), height=2),
                Window(
                    FormattedTextControl(lambda: keybar_text(state)),
                    height=1,
                    style="class:keybar",
                ),
            ]
        ),
        focused_element=main,
    )


def create_key_bindings(state: ReplayState) -> KeyBindings:
    bindings = KeyBindings()

    def on(keys: tuple[str, ...] | str, action: Callable[[], None]) -> None:
        for key in (keys,) if isinstance(keys, str) else keys:
            bindings.add(key)(lambda event: action())

    on(keymap.REPLAY_FORWARD, lambda: state.move(1))
    on(keymap.REPLAY_BACK, lambda: state.move(-1))
    on(keymap.REPLAY_NEXT_ROUND, lambda: state.round_step(1))
    on(keymap.REPLAY_PREVIOUS_ROUND, lambda: state.round_step(-1))
    on(keymap.REPLAY_FIRST, lambda: state.go(0))
    on(keymap.REPLAY_LAST, lambda: state.go(state.replay.stops - 1))
    on(keymap.REPLAY_PLAY, state.toggle_play)
    on(keymap.REPLAY_FASTER, lambda: state.faster(1))
    on(keymap.REPLAY_SLOWER, lambda: state.faster(-1))
    on(keymap.REPLAY_VIEW, state.next_view)
    on(keymap.REPLAY_SCORES, state.table.toggle_scores)
    for digit in "123456789":
        on(digit, lambda digit=digit: state.digit(digit))  # type: ignore[misc]
    on("0", lambda: state.digit("0"))
    on(keymap.HELP, lambda: setattr(state, "help_shown", not state.help_shown))
    on("escape", lambda: setattr(state, "help_shown", False))

    @bindings.add(keymap.QUIT)
    @bindings.add("c-c")
    def _quit(event: KeyPressEvent) -> None:
        if not event.app.is_done:
            event.app.exit()

    return bindings


class ReplayApp(Application[None]):
    def __init__(self, state: ReplayState, input: Input | None, output: Output | None) -> None:
        super().__init__(
            layout=build_layout(state),
            key_bindings=create_key_bindings(state),
            style=STYLE,
            full_screen=True,
            mouse_support=False,
            input=input,
            output=output,
        )
        self.state = state
        self.ttimeoutlen = 0.1
        self.before_render += lambda app: setattr(state.table, "terminal", self.output.get_size())
        self.pre_run_callables.append(self._started)

    def _started(self) -> None:
        self.create_background_task(self._play())

    async def _play(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            if self.state.tick():
                self.invalidate()


async def run_replay(
    replay: Replaying, input: Input | None = None, output: Output | None = None
) -> None:
    await ReplayApp(ReplayState(replay), input, output).run_async()
