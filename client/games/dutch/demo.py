"""Play Dutch in this terminal against the Dutch bots, before the node carries Dutch:

    python -m dutchblitz.client.games.dutch.demo [--bots 3] [--rounds 3 | --target 50]

One process, no network: the rules engine and the bots run here (local.py), and the screen
shows your seat's view only. ``--seed`` deals the same game again.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from dutchblitz.protocol.games.dutch.bots import BotLevel
from dutchblitz.protocol.games.dutch.moves import CallDutch
from dutchblitz.protocol.games.dutch.scoring import GameLength
from prompt_toolkit import Application
from prompt_toolkit.application import get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style

from .keys import NEXT, help_lines, press
from .local import ME, LocalGame
from .screens import render
from .words import DUTCH_HINTS, dutch_says

STYLE = Style.from_dict(
    {
        "title": "reverse bold",
        "keybar": "reverse",
        "keybar.key": "reverse bold",
        "header": "bold",
        "name": "bold",
        "key": "bold",
        "strong": "bold",
        "notice": "bold ansired",
        "hint": "italic",
        "remembered": "underline",
        "card.red": "ansired bold",
        "card.black": "bold",
    }
)
NOTICE_S = 5.0  # how long a refusal or a hint stays under the table
MIN_TICK_S = 0.02  # a pace of 0 still lets the keys in between bot moves
SPECIAL_KEYS = {" ": "space", "\r": "enter", "\n": "enter", "\x1b": "escape"}


@dataclass
class Pace:
    """How fast the bots move, and how long a race window stays open before a bot draws
    (your chance to throw, or to call Dutch after your turn)."""

    move_s: float = 0.7
    race_s: float = 3.0


class DemoState:
    """The one object the screen and the keys share: the game, and the keys half-typed."""

    def __init__(self, game: LocalGame, pace: Pace) -> None:
        self.game, self.pace = game, pace
        self.typed = ""
        self.notice = ""
        self.helping = False
        self.window_since: float | None = None
        self.notice_at = 0.0

    def key(self, key: str) -> None:
        if key == "?":
            self.helping = not self.helping
            return
        if self.helping:
            self.helping = False
            return
        game = self.game
        if game.round_over:
            self.notice = ""
            if key in NEXT:
                game.next_round()
            return
        pressed = press(game.table().view, self.typed, key)
        self.typed = pressed.typed
        self.notice = DUTCH_HINTS.get(pressed.hint, "")
        if pressed.move is not None:
            stage = game.state.phase.value
            refused = game.act(ME, pressed.move)
            calling = isinstance(pressed.move, CallDutch)
            self.notice = "" if refused is None else dutch_says(refused, stage, calling)
        self.notice_at = time.monotonic()

    def tick(self, now: float) -> bool:
        """Let one bot move when its time has come; True when the screen changed."""
        if self.notice and now - self.notice_at > NOTICE_S:
            self.notice = ""
        window = self.game.state.window
        if not window:
            self.window_since = None
        elif self.window_since is None:
            self.window_since = now
        if self.game.round_over:
            return False
        race_over = self.window_since is None or now - self.window_since >= self.pace.race_s
        return self.game.bot_step(race_over)

    def screen(self, width: int, height: int) -> StyleAndTextTuples:
        if self.helping:
            return help_screen()
        return render(self.game.table(self.typed, self.notice), width, height)


def help_screen() -> StyleAndTextTuples:
    text: StyleAndTextTuples = [("class:title", " Dutch: the keys\n\n")]
    for line in help_lines():
        text += [("class:key", f"  {line.keys:<12}"), ("", f"{line.what}\n")]
    text += [
        ("", "\n  ## face down   (7d) a card you remember   7d face up to all\n"),
        ("", "  Lowest hand wins. Call Dutch just after your turn when yours is lowest.\n"),
        ("", "  Points: A 1, 2-10 their number, J 11, Q 12, red K 0, black K 13, Joker -1.\n"),
        ("", "  Discard a J (swap two cards), a Q (look at one) or an A (give one) to use it.\n"),
        ("class:hint", "\n  Any key goes back to the table.  q leaves."),
    ]
    return text


def build_app(
    state: DemoState, input: Input | None = None, output: Output | None = None
) -> Application[None]:
    bindings = KeyBindings()

    @bindings.add("q")
    @bindings.add("c-c")
    def _leave(event: KeyPressEvent) -> None:
        event.app.exit()

    @bindings.add(Keys.Any)
    @bindings.add("escape")
    @bindings.add("enter")
    def _key(event: KeyPressEvent) -> None:
        data = event.key_sequence[0].data
        state.key(SPECIAL_KEYS.get(data, data))

    def body() -> StyleAndTextTuples:
        size = get_app().output.get_size()
        return state.screen(size.columns, size.rows)

    async def bots() -> None:
        while True:
            await asyncio.sleep(max(state.pace.move_s, MIN_TICK_S))
            if state.tick(time.monotonic()):
                get_app().invalidate()

    app: Application[None] = Application(
        layout=Layout(Window(FormattedTextControl(body), wrap_lines=False)),
        key_bindings=bindings,
        style=STYLE,
        full_screen=True,
        input=input,
        output=output,
        refresh_interval=0.5,
    )

    def start_bots() -> None:
        app.create_background_task(bots())

    app.pre_run_callables.append(start_bots)
    return app


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m dutchblitz.client.games.dutch.demo",
        description="Play Dutch against bots in this terminal (no network).",
    )
    parser.add_argument("--name", default="you", help="your name (default: you)")
    parser.add_argument("--bots", type=int, default=3, choices=range(2, 8), metavar="2-7")
    parser.add_argument("--level", choices=[lv.value for lv in BotLevel], default="careful")
    length = parser.add_mutually_exclusive_group()
    length.add_argument("--rounds", type=int, help="play this many rounds (default 3)")
    length.add_argument("--target", type=int, help="play until someone reaches this score")
    parser.add_argument("--seed", type=int, help="the deal's seed (default: a new one)")
    parser.add_argument("--pace", type=float, default=0.7, help="seconds between bot moves")
    parser.add_argument("--race", type=float, default=3.0, help="seconds a race window stays open")
    args = parser.parse_args(argv)
    for flag in ("rounds", "target"):
        value = getattr(args, flag)
        if value is not None and value <= 0:
            parser.error(f"--{flag} must be a positive number, not {value}")
    if args.pace < 0 or args.race < 0:
        parser.error("--pace and --race are seconds, 0 or more")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    length = GameLength(target=args.target) if args.target else GameLength(rounds=args.rounds or 3)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    game = LocalGame(args.name[:16] or "you", args.bots, seed, BotLevel(args.level), length)
    build_app(DemoState(game, Pace(args.pace, args.race))).run()
    print(f"Dutch: seed {seed} (--seed {seed} deals this game again)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
