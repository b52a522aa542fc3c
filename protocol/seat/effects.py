"""What a seat's machine (``SeatMachine``, machine.py) asks its shell to do, beside the
replica's own effects (protocol/replica/effects.py: send, persist, the timer, what became
final): small frozen records, carried out in order by the node (node/seat/carrier.py).

* persist: ``KeepSecret``;
* schedule: ``Wake`` (the replica's ``Timer`` asks for the next tick);
* the shell's own bookkeeping of peers and tables: ``HelloHeard``, ``AskHello``,
  ``CutOff``, ``Admits``, ``MoveTable``, ``BackToKept``;
* notify: ``Forged``, ``GameEnded``, ``Rematch``, ``Finished``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..replica.effects import Effect
from ..table.fairdeal import RoundSecret
from ..wire.messages import Hello


@dataclass(frozen=True, slots=True)
class KeepSecret:
    """Write a round's secret down (deals.log) before its commitment goes out."""

    round: int
    secret: RoundSecret


@dataclass(frozen=True, slots=True)
class HelloHeard:
    """A HELLO of our table, from another node: connect, learn its peers, answer it."""

    sender: bytes
    hello: Hello


@dataclass(frozen=True, slots=True)
class AskHello:
    """A message from a peer that has sent no HELLO yet: it was dropped, since we know no
    table it is at; greet it with a HELLO that leaves it out of the list, so that it
    answers with its own (P-264)."""

    peer: bytes


@dataclass(frozen=True, slots=True)
class CutOff:
    """A peer floods us (protocol/replica/throttle.py): stop sending to it, if not a
    ``member`` (a member is throttled, never cut off)."""

    peer: bytes
    member: bool


@dataclass(frozen=True, slots=True)
class Forged:
    """A message named another sender than its channel's key (counted in ``forged``)."""

    count: int


@dataclass(frozen=True, slots=True)
class Admits:
    """Who may connect: ``None`` everyone (a lobby, between games), else these nodes."""

    nodes: frozenset[bytes] | None


@dataclass(frozen=True, slots=True)
class MoveTable:
    """Leave this log for a fresh one: join the table at ``epoch``, or found one (None).
    ``why`` is the log line; ``keep``: the log left is kept aside (P-286)."""

    epoch: bytes | None
    why: str
    keep: bool = False


@dataclass(frozen=True, slots=True)
class BackToKept:
    """Reload the log kept aside, at the start or when given up (``Arrival.aside``), of
    the table at ``epoch``: that table answers (P-257, P-286). The shell hands the
    reloaded log to ``Arrival.reload``."""

    epoch: bytes


@dataclass(frozen=True, slots=True)
class Wake:
    """Look at the duties again at ``at`` (the scores' timeout or the count-in ends)."""

    at: float


@dataclass(frozen=True, slots=True)
class GameEnded:
    """Game ``number`` ended here: tell it once (the archive, the summary)."""

    number: int


@dataclass(frozen=True, slots=True)
class Rematch:
    """A rematch began (spec/rules.md R-51): the game is on again."""


@dataclass(frozen=True, slots=True)
class Finished:
    """Every other player has reached the end (or we waited long enough): the seat may
    leave. ``confirmed``: each of them said so."""

    confirmed: bool


SeatEffect = (
    KeepSecret
    | HelloHeard
    | AskHello
    | CutOff
    | Forged
    | Admits
    | MoveTable
    | BackToKept
    | Wake
    | GameEnded
    | Rematch
    | Finished
)
Out = Effect | SeatEffect  # what one input to a seat's machine gives back
