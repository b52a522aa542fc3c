"""The smallest terminal the table draws on, and what it says on a smaller one."""

from __future__ import annotations

from .state import ClientState

MIN_COLUMNS = 80
MIN_ROWS = 24


def too_small(state: ClientState) -> bool:
    size = state.terminal
    return size.columns < MIN_COLUMNS or size.rows < MIN_ROWS


def size_needed(state: ClientState) -> str:
    size = state.terminal
    return (
        f"This table needs a terminal of at least {MIN_COLUMNS} x {MIN_ROWS}:"
        f" this one is {size.columns} x {size.rows}. Make it bigger (or the font"
        " smaller). q leaves."
    )
