"""A round of Dutch at the table: its deal with no dealer, its play, its reveal and its audit,
as one state every node builds alike from the GAME bodies in the total order
(spec/dutch-deal.md M-29 to M-35).

The state holds only what every node may know: the players' public keys, the published
decks, the decryption shares sent to all, the sealed shares (bytes only their recipient can
open), and the round of the rules (state.py) with the faces opened to all. A face opened to
one player is never here: that player's node learns it from the sealed shares and its own
key (mind.py). A move that turns a card face up waits, in the order, until every player's
share of that card is in (M-31); moves ordered after it wait behind it, so the rules see
every move in the table's order.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Final

from ...table.masked.checks import (
    AuditMessage,
    Cheat,
    CheatKind,
    HandoverMessage,
    KeyShareMessage,
    SealedShareMessage,
    ShareMessage,
    ShuffleMessage,
)
from ...table.masked.record import MaskedRecord, NotTaken, Opened, Step
from . import rules as dutch_rules
from . import scoring
from .cards import DutchCard
from .hidden import DECK, Refused
from .moves import Leave, Move, Opening, Reason
from .scoring import RoundScore
from .state import Ending, Phase, Round, deal, with_faces
from .wire import Message, SharesMessage

BINDING_BYTES: Final = 16  # what stands for the table's epoch in every proof's context (M-29)
PLAYED_KEPT: Final = 12  # the latest moves a table keeps for its players' screens (views.py)


@dataclass(frozen=True, slots=True)
class Played:
    """A move the rules took, with the round before and after it: what a screen's news
    is made of (views.py ``happened``). Public knowledge only, like the rest of the table."""

    seat: int
    move: Move
    before: Round
    after: Round


class Stage(StrEnum):
    """Where the round is (M-30): keys, shuffles in seat order, play, reveal, audit, done."""

    KEYS = "keys"
    SHUFFLE = "shuffle"
    PLAY = "play"
    REVEAL = "reveal"
    AUDIT = "audit"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class DutchMove:
    """A Dutch body in the order: the table seat that sent it, its round and its message."""

    seat: int
    round: int
    message: Message


@dataclass(slots=True)
class DutchTable:
    """One round of Dutch as the ordered log has made it, the same on every node: its deal
    with no dealer (``deal``, the table's ``MaskedRecord``) and its play, reveal and scoring
    over that deal.

    Seats here are Dutch's, 0 to n-1: Dutch seat ``i`` is table seat ``seats[i]``.
    """

    seats: tuple[int, ...]
    binding: bytes
    starter: int = 0
    penalised: frozenset[int] = frozenset()
    stage: Stage = Stage.KEYS
    deal: MaskedRecord = field(init=False)
    round: Round | None = None
    grants: list[Opening] = field(default_factory=list)  # private openings, in order
    queue: list[tuple[int, Move]] = field(default_factory=list)  # moves waiting for a card
    cheats: list[Cheat] = field(default_factory=list)
    score: RoundScore | None = None
    left: frozenset[int] = frozenset()
    # Seats removed without a goodbye whom the round waits for (D-43): they still hold their
    # key, and opening goes on once they are back; ``gone`` ends the wait (D-44).
    missing: frozenset[int] = frozenset()
    dropped: int = 0  # moves that waited for a card, then were refused at their turn
    # The latest moves taken, for the screens only: no digest or rule reads them; and how
    # many were taken this round, for a replay's stops.
    played: list[Played] = field(default_factory=list)
    moves: int = 0

    def __post_init__(self) -> None:
        self.deal = MaskedRecord(DECK, len(self.seats), self.binding)

    @property
    def players(self) -> int:
        return len(self.seats)

    def copy(self) -> DutchTable:
        copied = replace(
            self,
            grants=list(self.grants),
            queue=list(self.queue),
            cheats=list(self.cheats),
            played=list(self.played),
        )
        copied.deal = self.deal.copy()
        return copied

    def wanted(self) -> tuple[int, ...]:
        """The tokens every player owes a share of, to all, now (M-31, M-32)."""
        if self.round is None:
            return ()
        if self.stage is Stage.PLAY and self.queue:
            seat, move = self.queue[0]
            tokens = dutch_rules.needs_open(self.round, seat, move)
        elif self.stage is Stage.REVEAL:
            tokens = scoring.reveal_tokens(self.round)
        else:
            return ()
        return tuple(t for t in tokens if self.round.faces[t] is None)

    def owed_sealed(self, seat: int) -> list[Opening]:
        """The private openings ``seat`` still owes its sealed share of (M-19, M-32)."""
        if self.stage not in (Stage.PLAY, Stage.REVEAL):
            return []
        return [
            grant
            for grant in self.grants
            if grant.seat is not None
            and grant.seat != seat
            and grant.seat not in self.left
            and seat not in self.deal.sealed.get((grant.token, grant.seat), {})
        ]

    # -- the messages -------------------------------------------------------------------

    def take(self, seat: int, message: Message, round_number: int) -> Refused | None:
        """Apply one message of Dutch seat ``seat`` in the table's order."""
        speaks_for = getattr(message, "seat", seat)
        if not isinstance(message, Move) and speaks_for != seat:
            return self._cheat(Cheat(seat, CheatKind.BAD_MESSAGE, f"speaks for seat {speaks_for}"))
        hidden, stage = self.deal, self.stage
        if isinstance(message, KeyShareMessage):
            return self._dealt(hidden.key(message, stage is Stage.KEYS, round_number))
        if isinstance(message, ShuffleMessage):
            return self._dealt(hidden.shuffle(message, stage is Stage.SHUFFLE))
        if isinstance(message, ShareMessage):
            return self._dealt(
                hidden.take_shares(message.seat, (message,), self.wanted(), round_number)
            )
        if isinstance(message, SealedShareMessage):
            granted = Opening(message.token, message.to) in self.grants
            return self._dealt(hidden.seal(message, granted, round_number))
        if isinstance(message, AuditMessage):
            return self._dealt(hidden.audit(message, stage is Stage.AUDIT))
        if isinstance(message, HandoverMessage):
            return self._handover(message, round_number)
        if isinstance(message, SharesMessage):
            shares = message.messages()
            return self._dealt(
                hidden.take_shares(message.seat, shares, self.wanted(), round_number)
            )
        return self._move(seat, message)

    def unreadable(self, seat: int, reason: str) -> None:
        """M-39: a body of Dutch seat ``seat`` that the wire refuses (M-23), at its place in
        the order: a cheat by its sender while the round is not done."""
        if self.stage is not Stage.DONE:
            detail = f"a body that does not read: {reason}"
            self.cheats.append(Cheat(seat, CheatKind.BAD_MESSAGE, detail))

    def _cheat(self, cheat: Cheat) -> Refused:
        self.cheats.append(cheat)
        return Refused(str(cheat.kind))

    def _dealt(self, step: Step) -> Refused | None:
        """A step of the deal taken (or refused, or its sender's cheat): the round moves on
        once every key is in (M-30), every shuffle (M-10), a card's last share (M-31) or
        every audit (M-34)."""
        if isinstance(step, Cheat):
            return self._cheat(step)
        if isinstance(step, NotTaken):
            return Refused(step.reason)
        if step is Opened.CARD:
            self._advance()  # a card's last share: it opens, and what waited for it goes on
        elif self.stage is Stage.KEYS and self.deal.joint is not None:
            self.stage = Stage.SHUFFLE
        elif self.stage is Stage.SHUFFLE and len(self.deal.shuffles) == self.players:
            self.round = deal(self.players, self.starter, self.penalised)
            self.stage = Stage.PLAY
        elif self.stage is Stage.AUDIT:
            self._maybe_audit()
        return None

    def _maybe_audit(self) -> None:
        """M-34: once every player still at the table has sent its audit, replay the shuffles;
        a player who left owes none."""
        cheats = self.deal.replay(self.left)
        if cheats is not None:
            self.cheats += cheats
            self.stage = Stage.DONE

    # -- the moves ----------------------------------------------------------------------

    def _move(self, seat: int, move: Move) -> Refused | None:
        if self.stage is not Stage.PLAY or self.round is None:
            return Refused("not_play_time")
        if isinstance(move, Leave):
            return Refused("bad_move")  # the table's removal or BYE says that one
        if self.queue:
            self.queue.append((seat, move))  # ordered behind a move waiting for its card
            return None
        outcome = dutch_rules.apply(self.round, seat, move)
        if outcome.refusal is not None and outcome.refusal.reason is not Reason.FACE_NOT_OPEN:
            return Refused(str(outcome.refusal.reason))
        self.queue.append((seat, move))
        self._advance()
        return None

    def _advance(self) -> None:
        """Apply the waiting moves whose cards are open, in order; then the reveal."""
        while self.stage is Stage.PLAY and self.queue and self.round is not None:
            if not self._open_wanted():
                return
            seat, move = self.queue.pop(0)
            outcome = dutch_rules.apply(self.round, seat, move)
            if outcome.refusal is not None:
                self.dropped += 1
                continue
            self.played = [
                *self.played[1 - PLAYED_KEPT :],
                Played(seat, move, self.round, outcome.state),
            ]
            self.moves += 1
            self.round = outcome.state
            self.grants += outcome.openings
            if self.round.phase is Phase.OVER:
                self.queue.clear()
                self._scored(at_end=True)
        if self.stage is Stage.REVEAL and self._open_wanted():
            self._scored()

    def _open_wanted(self) -> bool:
        """Open to all every wanted card whose shares are all in; True when none is left."""
        assert self.round is not None
        opened: dict[int, DutchCard] = {}
        for token in self.wanted():
            held = self.deal.shares_of(token)
            if len(held) < self.players:
                return False
            shares = [held[s] for s in range(self.players)]
            code = DECK.open(self.deal.deck()[token], shares)
            if code is None:  # every share was checked: the deck itself is false
                self.cheats.append(Cheat(0, CheatKind.BAD_SHUFFLE, f"card {token} is no card"))
                self.strand()
                return False
            opened[token] = DutchCard(code)
        if opened:
            try:
                self.round = with_faces(self.round, opened)
            except ValueError:
                self.strand()
                return False
        return True

    def _scored(self, at_end: bool = False) -> None:
        """Score the round; ``at_end``: it has just ended, and the reveal comes first (D-30)
        unless it was stranded."""
        assert self.round is not None
        if at_end and self.round.ending is not Ending.STRANDED:
            self.stage = Stage.REVEAL
            return
        self.score = scoring.score_round(self.round)
        self.stage = Stage.AUDIT if self.round.ending is not Ending.STRANDED else Stage.DONE
        if self.stage is Stage.AUDIT:
            self._maybe_audit()

    def strand(self) -> None:
        """M-28: the round ends here, unscored."""
        if self.round is not None:
            self.round = replace(self.round, phase=Phase.OVER, ending=Ending.STRANDED)
        self.queue.clear()
        self.score = None
        self.stage = Stage.DONE

    # -- leaving ------------------------------------------------------------------------

    def _handover(self, message: HandoverMessage, round_number: int) -> Refused | None:
        """M-37, M-38: a leaver's shares of every card, checked; the seat leaves the round
        here, its cards stay and count (D-36), and its shares are taken from the handover."""
        if self.stage not in (Stage.PLAY, Stage.REVEAL):
            return Refused("not_play_time")
        if message.seat in self.left:
            return Refused("already_left")
        cheat = self.deal.hand_over(message, round_number)
        if cheat is not None:
            return self._cheat(cheat)
        self.left = self.left | {message.seat}
        if self.stage is Stage.PLAY:
            self._left_in_play(message.seat)
        else:
            self._advance()
        return None

    def _left_in_play(self, seat: int) -> None:
        """D-36 in the order: the rules' Leave, behind any move waiting for its card, or
        waiting itself for the drawn card it turns face up (M-31)."""
        assert self.round is not None
        if not self.queue:
            outcome = dutch_rules.apply(self.round, seat, Leave())
            if outcome.refusal is None:
                self.round = outcome.state
                if self.round.phase is Phase.OVER:
                    self._scored(at_end=True)
            elif outcome.refusal.reason is not Reason.FACE_NOT_OPEN:
                return
            else:
                self.queue.append((seat, Leave()))
        else:
            self.queue.append((seat, Leave()))
        self._advance()

    def leave(self, seat: int) -> None:
        """A player left or was removed (M-28, M-35): after its HANDOVER, nothing more; in the
        audit it owes nothing more; with no HANDOVER, a round still being dealt, played or
        revealed waits for it (D-43, M-43) until it is back or gone (``Absence``)."""
        if self.stage is Stage.DONE or seat in self.left:
            return
        if self.stage is Stage.AUDIT:
            self.left = self.left | {seat}
            self._maybe_audit()
            return
        self.missing = self.missing | {seat}

    def absence(self) -> Absence:
        """The table's view of who this round waits for (``AwaitsAbsent``, D-43, D-44)."""
        return Absence(self)

    def scores(self) -> tuple[int, ...]:
        return (0,) * self.players if self.score is None else self.score.scores


@dataclass(frozen=True, slots=True)
class Absence:
    """A round's players removed without a goodbye, as the table sees them, in table seats
    (protocol/table/absence.py ``AwaitsAbsent``)."""

    table: DutchTable

    def awaited_seats(self) -> tuple[int, ...]:
        return tuple(self.table.seats[i] for i in sorted(self.table.missing))

    def seat_back(self, seat: int) -> None:
        """D-43: a player waited for is back; its node still holds its key and goes on."""
        if seat in self.table.seats:
            self.table.missing -= {self.table.seats.index(seat)}

    def seat_gone(self, seat: int) -> None:
        """D-44, M-28: the wait is over: with no HANDOVER nobody can open its share of any
        card, so the round ends here, void."""
        table = self.table
        index = table.seats.index(seat) if seat in table.seats else None
        if index is None or index not in table.missing:
            return
        table.missing -= {index}
        if table.stage is Stage.DONE or index in table.left:
            return
        table.left |= {index}
        if table.round is not None and table.round.phase is not Phase.OVER:
            table.round = dutch_rules.apply(table.round, index, Leave(handed_over=False)).state
        table.strand()

    def void(self) -> bool:
        """D-44: the round ended unscored, as no card could be opened without a leaver."""
        return self.table.stage is Stage.DONE and self.table.score is None
