"""A small builder of styled lines, and fitting text to columns: the frame's and every
game's screens draw with it."""

from __future__ import annotations

from typing import Self

from prompt_toolkit.formatted_text import StyleAndTextTuples


class Text:
    """A small builder of styled lines."""

    def __init__(self) -> None:
        self.fragments: StyleAndTextTuples = []

    def add(self, text: str, style: str = "") -> Self:
        self.fragments.append((style, text))
        return self

    def cell(self, text: str, width: int, style: str = "") -> Self:
        return self.add(fit(text, width), style)

    def name(self, name: str, width: int, style: str = "", *, tag: str = "") -> Self:
        """A player's name in a column of ``width``, always followed by a space."""
        return self.add(fit_name(name, width, tag), style)

    def line(self, text: str = "", style: str = "") -> Self:
        if text:
            self.add(text, style)
        return self.add("\n")


def fit(text: str, width: int) -> str:
    """``text`` cut or padded to exactly ``width`` columns."""
    return text[:width].ljust(width)


def fit_name(name: str, width: int, tag: str = "") -> str:
    """``name`` and ``tag`` (" (you)") in ``width`` columns, the last one a space: a name
    too long is cut with "…" ("flat-out bot 2…"), never the tag."""
    room = width - 1 - len(tag)
    if len(name) > room:
        name = name[: max(0, room - 1)] + "…"
    return fit(name + tag, width)


def cut_name(name: str, width: int) -> str:
    """``name`` in at most ``width`` columns (0: whole), cut with "…"."""
    return name if not width or len(name) <= width else name[: max(0, width - 1)] + "…"


def bar(*pairs: tuple[str, str]) -> StyleAndTextTuples:
    """A key bar: each key in bold, then what it does."""
    fragments: StyleAndTextTuples = []
    for key, what in pairs:
        fragments.append(("class:keybar.key", f" {key}"))
        fragments.append(("class:keybar", f" {what}"))
    return fragments
