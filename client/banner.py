"""The audit's flags in one line, for the title bar and the scores (the table's, not a game's)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from dutchblitz.protocol.views import FlagKind, FlagView


def flag_banner(flags: Sequence[FlagView], name_of: Callable[[int], str], width: int = 80) -> str:
    """One line naming what the audit flagged (spec/rules.md R-44 to R-48); "" if nothing.

    Every node holds the same flags (``Snapshot.stable.flags``), so every screen agrees.
    """
    if not flags:
        return ""
    cheats = [f for f in flags if f.kind != FlagKind.UNAUDITED]
    head = "FLAGGED: " if cheats else "unaudited: "
    words = [f"{name_of(f.seat)} {f.kind.value} r{f.round}" for f in (cheats or list(flags))]
    line = head + ", ".join(words)
    if len(line) <= width:
        return line
    for count in range(len(words) - 1, 0, -1):
        line = f"{head}{', '.join(words[:count])} +{len(words) - count} more"
        if len(line) <= width:
            return line
    return (head + words[0])[:width]
