"""What the table's frame (app, layout, keys, replay) asks of a game's face.

The frame draws the lobby, the title, the notices and the dialogs, and binds the keys of
the lobby, help and leaving; a game's face draws its table, its scores and its help, and
binds its keys at the table. ``games/registry.py`` finds a face by its game's tag.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from dutchblitz.node.api import HiddenCards
from prompt_toolkit.filters import Filter
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings

from .state import ClientState
from .words import NO_GAME, GameWords

Render = Callable[[ClientState], StyleAndTextTuples]


def no_backs(players: int) -> tuple[str, ...]:
    return ()


@dataclass(frozen=True, slots=True)
class GameFace:
    tag: str  # the game's tag, as the protocol's registry knows it
    title: str  # the game's name, first in the title bar
    table_screen: Render  # a round on: the table
    scores_screen: Render  # the scores after a round, and at the game's end
    help_screen: Render  # how to play, and the keys
    table_keybar: Render  # the key bar at the table during a round
    bind_table_keys: Callable[[KeyBindings, ClientState, Filter], None]  # keys in a round
    hidden_lines: Callable[[HiddenCards], StyleAndTextTuples]  # a seat's hidden cards, replayed
    has_option: bool = True  # the table's boolean option (P-261), in the lobby and title
    words: GameWords = NO_GAME  # what the game adds to the table's words
    # The deck backs the lobby's b offers, for so many players present (none: no backs).
    backs: Callable[[int], tuple[str, ...]] = no_backs
    # What the lobby, the title and the key bar call that one boolean option of the table's
    # in this game, and its words when on and off (Blitz!: its answer mode).
    option_name: str = "Post stacking"
    option_key_word: str = "stacking"
    option_values: tuple[str, str] = ("on", "off")
    # How the lobby words the game's length when the game has one length only ("": the
    # table's target or rounds, as ``lengths`` offers them).
    length_word: str = ""
    # The lengths the lobby's t offers, in turn: (target, None), or (target, rounds) for a
    # game played for a number of rounds (P-237); the first is the usual one.
    lengths: tuple[tuple[int, int | None], ...] = ((75, None), (50, None), (100, None))

    @property
    def call(self) -> str:
        """What a player calls to end a round early, as notices say it."""
        return self.words.call
