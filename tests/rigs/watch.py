"""Invariants the simulator checks at every step, across all its nodes at once.

- No event is final at one node and cut at another: once some node has applied event s of
  X's stay, no node may hold an agreed cut of that stay below s, and the other way round.
  A stay is known by the log index of the ADMIT that begins it (every node holds one log),
  not by its first-seq: two stays that sent nothing begin at the same first-seq (P-84), and
  a node's agreed cut of X ends the stay its own stable game is in (P-198, P-279).
- Nodes whose logs have the same length have the same digest there (each digest a node
  computes is compared with the first computed anywhere for that length).
- The table makes progress once the network heals: some node's stable log grows at least
  once every ``bound`` virtual seconds until the game is over everywhere.
- With table finding (``tests/rigs/finding.py``): once healed, every node leaves the lobby
  within ``LOBBY_BOUND`` seconds of the first that left it, and no log in the lobby holds
  more than ``LOBBY_LOG_LIMIT`` events (a lobby that never starts must not fill a disk).

A violation says whether the table ``diverged`` (two nodes disagree on what is final) or
``stalled`` (it stopped going forward), so that a sweep can count each.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from dutchblitz.protocol.replica.effects import LogEntry
from dutchblitz.protocol.table.state import Phase
from dutchblitz.protocol.wire.messages import Admit

DIVERGED = "diverged"
STALLED = "stalled"
LOBBY_BOUND = 30.0  # virtual seconds, once healed, for every node to follow the first out
LOBBY_LOG_LIMIT = 1000  # events in a lobby's log (a game of 5 fills a lobby with a few dozen)


class InvariantViolated(AssertionError):
    """An invariant broken by a run; ``kind`` says how (``diverged``, ``stalled``, ``broken``)."""

    kind = "broken"


class Diverged(InvariantViolated):
    """Two nodes disagree on what is final."""

    kind = DIVERGED


class Stalled(InvariantViolated):
    """The table stopped going forward."""

    kind = STALLED


@dataclass(slots=True)
class Watch:
    """What every node has made final, agreed as a cut, and digested, as the run goes."""

    finals: dict[bytes, set[tuple[int, int]]] = field(default_factory=dict)  # sender -> (stay, seq)
    highest: dict[bytes, int] = field(default_factory=dict)  # sender -> highest final seq
    # (node index, member) -> the log index of the member's latest ADMIT applied there: the
    # stay that node's stable game is in, which its agreed cut of the member ends
    stays: dict[tuple[int, bytes], int] = field(default_factory=dict)
    digests: dict[int, bytes] = field(default_factory=dict)  # log length -> digest
    last_progress: float = 0.0
    lobby_left_at: float | None = None  # when the first node left the lobby

    def delivered(
        self, index: int, entry: LogEntry, cuts: Iterable[tuple[int, Mapping[bytes, int]]]
    ) -> None:
        """``entry`` became final at node ``index``: no node (``cuts`` holds each node's
        index and agreed cuts) may have cut off the stay it belongs to below it."""
        body = entry.body
        if isinstance(body, Admit) and entry.outcome.accepted:
            self.stays[(index, body.node)] = entry.index
        stay = self.stays.get((index, entry.sender), -1)
        self.finals.setdefault(entry.sender, set()).add((stay, entry.seq))
        self.highest[entry.sender] = max(self.highest.get(entry.sender, 0), entry.seq)
        for other, settled in cuts:
            cut = settled.get(entry.sender)
            if cut is not None and cut < entry.seq and self._in_stay(other, entry.sender, stay):
                raise Diverged(
                    f"event {entry.seq} of {entry.sender.hex()[:4]} is final at node {index}"
                    f" and cut at {cut} elsewhere"
                )

    def cuts_held(self, index: int, settled: Mapping[bytes, int]) -> None:
        """Node ``index`` holds these agreed cuts: none may cut off an event final anywhere
        in the stay its stable game is in (a cut learnt for a later stay lies at or above
        everything of an earlier one, P-84)."""
        for node, cut in settled.items():
            if self.highest.get(node, 0) <= cut:
                continue
            stay = self.stays.get((index, node), -1)
            for final_stay, seq in self.finals[node]:
                if seq > cut and final_stay == stay:
                    raise Diverged(
                        f"node {index} cut {node.hex()[:4]} at {cut} but its event {seq}"
                        " is final elsewhere"
                    )

    def fresh_log(self, index: int) -> None:
        """Node ``index`` takes up a log afresh (a restart, another table): it applies it
        again from the start, and is in no stay until it applies an ADMIT again."""
        for key in [key for key in self.stays if key[0] == index]:
            del self.stays[key]

    def _in_stay(self, index: int, node: bytes, stay: int) -> bool:
        """Whether node ``index``'s stable game is in ``node``'s stay ``stay``."""
        return self.stays.get((index, node), -1) == stay

    def digest(self, index: int, length: int, digest: bytes) -> None:
        """Node ``index`` computed ``digest`` after ``length`` events."""
        if not digest:
            return
        known = self.digests.setdefault(length, digest)
        if known != digest:
            raise Diverged(f"node {index} has another digest than its peers after {length} events")

    def stalled(self, now: float, heal_at: float, bound: float | None) -> bool:
        """Whether no log has grown for ``bound`` seconds since the network healed."""
        return bound is not None and now - max(self.last_progress, heal_at) > bound

    def lobby_log(self, index: int, phase: Phase, length: int) -> None:
        """Node ``index``'s stable log: in the lobby, it may not grow without bound."""
        if phase == Phase.LOBBY and length > LOBBY_LOG_LIMIT:
            raise Stalled(f"node {index} holds {length} events and is still in the lobby")

    def left_lobby(
        self, now: float, heal_at: float, phases: Sequence[tuple[int, Phase]]
    ) -> int | None:
        """A node still in the lobby ``LOBBY_BOUND`` seconds after the first left it (and
        after the heal), or None: every node reaches the same next phase."""
        behind = [index for index, phase in phases if phase == Phase.LOBBY]
        if self.lobby_left_at is None:
            if len(behind) == len(phases):
                return None
            self.lobby_left_at = now
        if behind and now - max(self.lobby_left_at, heal_at) > LOBBY_BOUND:
            return behind[0]
        return None
