"""Who the door turned away, told to the player at the table: a few words, never a flood.

The door (node/door.py) writes each kind of refusal to ``node.log`` once; the person
at the table would otherwise never learn that someone knocked with the wrong
passphrase, kept guessing it, or runs another version of the game. The doorbell
turns the keeper's notes (protocol/door/keeper.py) that a player can act on into
news for the screen: the first of a kind at once, then at most one a
``DOOR_NEWS_EVERY_S``, counting the knocks in between. Notes of other kinds (a
knock for another table, a malformed message) stay in the log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from .api import News, NoticeKind, Told

DOOR_NEWS_EVERY_S = 10.0  # at most one notice of each kind this often

# The keeper's note keys a player hears of, and what the screen tells.
TOLD = {
    "wrong phrase": News.DOOR_WRONG_PHRASE,  # the door found the knocker's proof wanting
    "knocker wrong passphrase": News.DOOR_WRONG_PHRASE,  # the knocker found ours wanting
    "throttled": News.DOOR_GUESSING,  # guesses came too fast: the door answers busy
    "version": News.DOOR_OTHER_VERSION,  # a door message of a version we do not speak
}


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

    def rang(self, key: str) -> bool:
        """The door noted ``key``; True if the player is told now."""
        news = TOLD.get(key)
        if news is None:
            return False
        self._untold[news] += 1
        now = self._clock()
        last = self._last.get(news)
        if last is not None and now - last < self._every:
            return False
        self._last[news] = now
        self._tell(NoticeKind.INFO, Told(news, count=self._untold.pop(news)))
        self._changed()
        return True
