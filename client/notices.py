"""The notices on screen: what each says, how long it stays, and the newest few.

A notice keeps the node's news or refusal it came from, so that its words can be said
again when a name in them changes: a bot takes another game's level, and with it a new
name (P-241), and "flat-out bot 3f9 sat down" becomes "careful bot 3f9 sat down".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from dutchblitz.node.api import News, Notice, NoticeKind, Told

from .text import cut_name
from .words import GameWords, notice_text, other_data, round_scores

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
NAME_CUTS = (0, 12, 10, 8, 6, 5, 4, 3)  # how far a round's scores cut names to fit (0: not)


@dataclass(frozen=True, slots=True)
class Flash:
    notice: Notice  # as shown: its words in ``text``
    until: float
    source: Notice | None = None  # the node's notice it was worded from, if it was


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


def renamed(told: Told, names: Mapping[str, str]) -> Told:
    """``told`` with every player's old name in ``names`` turned into the new one."""
    return replace(
        told,
        who=names.get(told.who, told.who),
        names=tuple(names.get(name, name) for name in told.names),
        scores=tuple((names.get(name, name), points) for name, points in told.scores),
    )


class NoticeBoard:
    """The notices still on screen, oldest first, each until its time is up."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.flashes: list[Flash] = []

    def worded(self, notice: Notice, game: GameWords, columns: int) -> Notice:
        """The notice with its words, at a table of ``game``."""
        text = notice_text(notice, game)
        if notice.told is not None and notice.told.news == News.ROUND_SCORES:
            text = fit_scores(notice.told, columns - NOTICE_INDENT)
        elif notice.told is not None and notice.told.news == News.OTHER_DATA:
            said = other_data(notice.told, game)
            text = next((line for line in said if len(line) <= columns - NOTICE_INDENT), said[-1])
        return Notice(notice.kind, text)

    def flash(self, notice: Notice, game: GameWords, columns: int) -> None:
        seconds = NOTICE_SECONDS.get(notice.kind, DEFAULT_NOTICE_SECONDS)
        source = notice if notice.told is not None or notice.refused is not None else None
        shown = Flash(self.worded(notice, game, columns), self.clock() + seconds, source)
        self.flashes = [*self.flashes, shown][-NOTICES_SHOWN:]

    def rename(self, names: Mapping[str, str], game: GameWords, columns: int) -> None:
        """Players renamed (old name: new): the news that named them says the new names."""
        flashes = []
        for flash in self.flashes:
            source = flash.source
            if source is not None and source.told is not None:
                source = replace(source, told=renamed(source.told, names))
                flash = Flash(self.worded(source, game, columns), flash.until, source)
            flashes.append(flash)
        self.flashes = flashes

    def forget(self, texts: set[str]) -> None:
        """Take the notices with these words off the screen: what they said is past."""
        self.flashes = [f for f in self.flashes if f.notice.text not in texts]

    def tick(self) -> None:
        """Forget notices whose time is up."""
        now = self.clock()
        self.flashes = [f for f in self.flashes if f.until > now]

    def shown(self) -> list[Notice]:
        """The notices still on screen, oldest first."""
        now = self.clock()
        return [f.notice for f in self.flashes if f.until > now]
