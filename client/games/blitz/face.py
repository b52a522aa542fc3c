"""Dutch Blitz's face, as the client's registry knows it."""

from __future__ import annotations

from dutchblitz.protocol.games.blitz.cards import ALL_BACKS, STANDARD_BACKS

from ...face import GameFace
from .keys import bind_table_keys, table_keybar
from .screens import help_screen, hidden_lines, scores_screen, table_screen
from .words import WORDS


def backs(players: int) -> tuple[str, ...]:
    """The four standard backs, or all eight when more than four play (R-5)."""
    return STANDARD_BACKS if players <= len(STANDARD_BACKS) else ALL_BACKS


FACE = GameFace(
    tag="blitz",
    title="Dutch Blitz",
    table_screen=table_screen,
    scores_screen=scores_screen,
    help_screen=help_screen,
    table_keybar=table_keybar,
    bind_table_keys=bind_table_keys,
    hidden_lines=hidden_lines,
    words=WORDS,
    backs=backs,
)
