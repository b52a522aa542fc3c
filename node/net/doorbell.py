"""Who the door turned away, and which door turned us away, told to the player at the table.

The door (node/net/door.py) writes each kind of refusal to ``node.log`` once; the person
at the table would otherwise never learn that someone knocked with the wrong
passphrase, kept guessing it, or runs another version of the game. The doorbell
turns the keeper's notes (protocol/door/keeper.py) that a player can act on into
news for the screen: the first of a kind at once, then at most one a
``DOOR_NEWS_EVERY_S``, counting the knocks in between. Notes of other kinds (a
knock for another table, a malformed message) stay in the log. The other way round,
a door that turns our own knock away for good (a wrong passphrase, another table or
version: ``FINAL_REFUSALS`` in knocks.py) is told the same way, with its address; but a
"wrong passphrase" from a door we knocked at while seated at the table our phrase opened
says that the phrase that differs is the other node's: that node was kept out, not us.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable

from ..api import News, NoticeKind, Told

log = logging.getLogger("dutchblitz.node")

DOOR_NEWS_EVERY_S = 10.0  # at most one notice of each kind this often

# The keeper's note keys a player hears of, and what the screen tells.
TOLD = {
    "wrong phrase": News.DOOR_WRONG_PHRASE,  # the door found the knocker's proof wanting
    "knocker wrong passphrase": News.DOOR_WRONG_PHRASE,  # the knocker found ours wanting
    "throttled": News.DOOR_GUESSING,  # guesses came too fast: the door answers busy
    "version": News.DOOR_OTHER_VERSION,  # a door message of a version we do not speak
}


WRONG_PHRASE = "wrong passphrase"  # the door's reason (knocks.py's FINAL_REFUSALS)

# Shown longer: we cannot get in, or someone is trying to get in by guessing.
ALARMING = frozenset({News.DOOR_REFUSED_US, News.DOOR_GUESSING})


class Doorbell:
    """Hands ``tell`` a notice for each refusal worth a player's attention, rate-limited."""

    def __init__(
        self,
        tell: Callable[[NoticeKind, Told], None],
        changed: Callable[[], None],
        clock: Callable[[], float],
        every: float = DOOR_NEWS_EVERY_S,
    ) -> None:
        self._tell = tell
        self._changed = changed  # the screen looks again
        self._clock = clock
        self._every = every
        self._last: dict[News, float] = {}  # when each kind was last told
        self._untold: Counter[News] = Counter()  # knocks of each kind not told yet

    def rang(self, key: str, source: str = "") -> bool:
        """The door noted ``key`` of a knock from ``source`` (an address, if known); True if
        the player is told now."""
        news = TOLD.get(key)
        where = "" if source.startswith("id:") else source  # a connection, not a place
        return news is not None and self._told(Told(news, what=where))

    def refused_us(self, door: str, reason: str, seated: bool = False) -> bool:
        """A door we knocked at turned us away for good; True if the player is told now.

        ``seated``: we sit at the table our own phrase opened, so a wrong passphrase is
        the door's: its node was kept out of our table."""
        address = door.split("://", 1)[-1]
        if seated and reason == WRONG_PHRASE:
            return self._told(Told(News.DOOR_WRONG_PHRASE, what=address))
        return self._told(Told(News.DOOR_REFUSED_US, what=address, detail=reason))

    def _told(self, told: Told) -> bool:
        news = told.news
        self._untold[news] += 1
        now = self._clock()
        last = self._last.get(news)
        if last is not None and now - last < self._every:
            return False
        self._last[news] = now
        self._tell(
            NoticeKind.ALARM if news in ALARMING else NoticeKind.INFO,
            Told(news, count=self._untold.pop(news), what=told.what, detail=told.detail),
        )
        self._changed()
        return True


class Refusals:
    """The doors that turned our knocks away for good, kept for a listener that comes later
    (the table's session begins after the node's first knocks)."""

    def __init__(self) -> None:
        self.said: list[tuple[str, str, bool]] = []  # (door, why, seated), in order
        self._listeners: list[Callable[[str, str, bool], object]] = []

    def add(self, label: str, door: str, reason: str, seated: bool = False) -> None:
        """A door turned us away for good (``seated``: while we sat at our table): in the
        log, and to each listener."""
        if seated and reason == WRONG_PHRASE:
            log.warning("%s: the node at %s has another passphrase: kept out", label, door)
        else:
            log.error("%s: the door at %s refused us: %s", label, door, reason)
        self.said.append((door, reason, seated))
        for listener in list(self._listeners):
            listener(door, reason, seated)

    def listen(self, listener: Callable[[str, str, bool], object]) -> None:
        """Hear each refusal: those said so far at once, then each as it comes."""
        self._listeners.append(listener)
        for door, reason, seated in self.said:
            listener(door, reason, seated)
