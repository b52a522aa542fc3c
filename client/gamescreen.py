"""What a game's screens share, whatever the game: lines of styled text, laid out to a
terminal's width and height, and the room and keys the table's frame leaves a game.

A game's screens (``games/<game>/screens.py``) build a body and a foot of ``Line`` s; this
module wraps their sentences, stacks them in the height, cuts them to the width and joins
them into what prompt_toolkit draws, or the plain text a test reads. A face
(``games/<game>/face.py``) drawn in the frame takes its size from ``frame_size``, and a
face that reads every key itself binds them with ``bind_every_key``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence

from prompt_toolkit.filters import Filter
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

from .state import ClientState

Line = list[tuple[str, str]]
FRAME_ROWS = 4  # the frame's title bar, two lines of notices and the key bar


def said(text: str, width: int, style: str = "", indent: int = 1, spare: int = 0) -> list[Line]:
    """A sentence in lines of ``width`` (less ``spare`` columns at the right), wrapped at
    words, never cut; the lines after the first indented two more."""
    if not text:
        return []
    rows = textwrap.wrap(text, max(10, width - indent - spare), subsequent_indent="  ")
    return [[(style, " " * indent + row)] for row in rows]


def fit(line: Line, width: int) -> Line:
    """``line`` cut to ``width`` columns."""
    out: Line = []
    room = width
    for style, text in line:
        if room <= 0:
            break
        out.append((style, text[:room]))
        room -= len(text[:room])
    return out


def stack(body: list[Line], foot: list[Line], height: int) -> list[Line]:
    """``body`` at the top and ``foot`` at the bottom of ``height`` lines."""
    room = max(0, height - len(foot))
    body = body[:room]
    return [*body, *([[]] * (room - len(body))), *foot]


def key_lines(items: Iterable[tuple[str, str]], width: int) -> list[Line]:
    """A key bar of (key, what it does), in as many lines of ``width`` as it takes."""
    lines: list[Line] = [[]]
    used = 0
    for key, what in items:
        size = len(key) + len(what) + 3
        if used and used + size > width:
            lines.append([])
            used = 0
        lines[-1] += [("class:keybar.key", f" {key}"), ("class:keybar", f" {what} ")]
        used += size
    return lines


def joined(lines: Iterable[Line]) -> StyleAndTextTuples:
    """Lines as one screen's styled text."""
    out: StyleAndTextTuples = []
    for index, line in enumerate(lines):
        if index:
            out.append(("", "\n"))
        out.extend(line)
    return out


def plain(lines: Iterable[Line]) -> Sequence[str]:
    """The lines' text, as a terminal without colour shows it."""
    return ["".join(text for _, text in line) for line in lines]


def frame_size(state: ClientState) -> tuple[int, int]:
    """The columns and rows the table's frame leaves a game's screen."""
    return state.terminal.columns, max(1, state.terminal.rows - FRAME_ROWS)


def bind_every_key(
    bindings: KeyBindings,
    playing: Filter,
    key: Callable[[str], None],
    named: Mapping[str, str],
    special: Sequence[str],
) -> None:
    """Hand every key at the table to ``key``: a key's data, or its name in ``named`` (the
    data of Space, Enter, Escape...), which ``special`` lists as prompt_toolkit names them."""

    def handle(event: KeyPressEvent) -> None:
        data = event.key_sequence[0].data
        key(named.get(data, data))

    for name in (Keys.Any, *special):
        bindings.add(name, filter=playing)(handle)
