"""Finding the table, moving between tables, and the wait after the end: one seat's timers.

A seat decides when to leave the log it holds (spec/protocol.md section 12):

* the lobby merge: two tables of one name in the lobby become one, the smaller epoch
  wins, so a seat in the lobby that hears a live peer at a smaller epoch joins it;
* a restored log nobody answers for a while is given up, and the seat starts afresh;
* a join nobody answers for a while is given up too, and the seat founds a table;
* a restored seat that is no longer a member (its goodbye, or its removal, is in the
  log) asks to sit down again once the others have had time to hear it;
* after the end of a game, a seat waits until every other present player reports
  (in its HEARTBEAT's digest index) that it has reached the end too.

``TableFinder`` holds the four times these decisions need and answers with steps; it
reads no clock (``now`` comes in with each call) and touches no socket: the node
carries the steps out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

END_WAIT_S = 3.0  # at least this long for the others to reach the end, after the game
MIN_PATIENCE_S = 4.0  # a restored or joining seat waits at least this long for an answer


@dataclass(frozen=True, slots=True)
class JoinSmaller:
    """Leave this table's lobby for the same-named table at ``epoch`` (the lobby merge)."""

    epoch: bytes


@dataclass(frozen=True, slots=True)
class AskAgain:
    """Ask to be admitted again: the log we restored no longer seats us."""


@dataclass(frozen=True, slots=True)
class StartAfresh:
    """Give up this log and found a table: nobody answers for it (``restored`` or not)."""

    restored: bool


Step = JoinSmaller | AskAgain | StartAfresh


@dataclass(frozen=True, slots=True)
class Seating:
    """What the finder needs to know of the seat's replica at one moment."""

    epoch: bytes  # the table the seat's log belongs to
    in_lobby: bool  # both the stable and the optimistic game are in the lobby
    member: bool
    rejoining: bool  # asking to be admitted


@dataclass(frozen=True, slots=True)
class Finish:
    """The seat may finish: ``confirmed`` if every other player reported the end."""

    confirmed: bool


@dataclass(slots=True)
class TableFinder:
    """The times one seat keeps while it finds its table and after a game's end."""

    suspect_after: float
    heartbeat_every: float
    joining_since: float | None = None  # asked to join, not yet a member
    restored_at: float | None = None  # restored a log, not yet heard from its table
    admission_due: float | None = None  # when to ask to sit down again after a restore
    ended_at: float | None = None  # when the last game's end became final here
    progress: dict[bytes, int] = field(default_factory=dict)  # digest index per peer

    @property
    def patience(self) -> float:
        return max(MIN_PATIENCE_S, 2 * self.suspect_after)

    # -- inputs ------------------------------------------------------------------------

    def began(self, now: float, *, found: bool) -> None:
        """A fresh log: founded (nothing to wait for) or asking to join at ``now``."""
        self.progress.clear()
        self.restored_at = self.admission_due = self.ended_at = None
        self.joining_since = None if found else now

    def restored(self, now: float) -> None:
        """A kept log was restored at ``now``: wait for its table to answer."""
        self.restored_at = now
        self.admission_due = now + self.suspect_after

    def heard_progress(self, sender: bytes, digest_index: int) -> None:
        """A peer's HEARTBEAT after the end: how far its stable log has come."""
        self.progress[sender] = max(self.progress.get(sender, 0), digest_index)

    def game_ended(self, now: float) -> None:
        self.ended_at = now

    def game_again(self) -> None:
        """A rematch began: the end is behind us."""
        self.ended_at = None

    # -- decisions -----------------------------------------------------------------------

    def consider(self, now: float, seat: Seating, live: Sequence[bytes]) -> list[Step]:
        """What to do about the table now, given the epochs of the peers heard lately."""
        if seat.in_lobby:
            smaller = min((e for e in live if e < seat.epoch), default=None)
            if smaller is not None:
                return [JoinSmaller(smaller)]
        steps: list[Step] = self._asked_again(now, seat)
        alive = seat.epoch in live
        if self._restored_table_gone(now, alive):
            return [*steps, StartAfresh(restored=True)]
        joining = None if self.joining_since is None else now - self.joining_since
        if seat.member:
            self.joining_since = None
        elif joining is not None and joining > self.patience and not alive:
            steps.append(StartAfresh(restored=False))
        return steps

    def _asked_again(self, now: float, seat: Seating) -> list[Step]:
        """Once the wait for an admission is over, a seat not admitted asks again; a seat
        still a member then waits on, as its own BYE, or its removal, may become final in
        the restored log later (P-273)."""
        if self.admission_due is None or now < self.admission_due or seat.member:
            return []
        if seat.rejoining:
            # Asking already; the restored log may yet seat it, and its own BYE then
            # unseat it, with nobody asking any more: it keeps looking (P-273).
            return []
        self.admission_due = None
        self.joining_since = now
        return [AskAgain()]

    def _restored_table_gone(self, now: float, alive: bool) -> bool:
        """Whether the table of a restored log is gone: nobody of it heard for the patience.
        Once it is heard, the protocol takes it from here."""
        if self.restored_at is None:
            return False
        if alive or now - self.restored_at > self.patience:
            self.restored_at = None
            return not alive
        return False

    def finish(self, now: float, end_index: int, others: Iterable[bytes]) -> Finish | None:
        """Whether the seat may finish, ``end_index`` events after the game's end became
        final: once the others reached it, or after waiting long enough anyway.

        Leaving at once could take away a HEARTBEAT that a slower node still needs to make
        the last events final.
        """
        if self.ended_at is None:
            self.ended_at = now
        reached = all(self.progress.get(node, 0) >= end_index for node in others)
        waited = now - self.ended_at
        limit = max(END_WAIT_S, 3 * self.suspect_after)
        # One more heartbeat period, so that our own report of the end goes out too.
        if (reached and waited > 2 * self.heartbeat_every) or waited > limit:
            return Finish(confirmed=reached)
        return None
