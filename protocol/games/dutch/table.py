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
from functools import lru_cache
from typing import Final

from . import mental, scoring, seal
from . import rules as dutch_rules
from .cards import DutchCard
from .deal import (
    AuditMessage,
    Cheat,
    CheatKind,
    KeyShareMessage,
    ShareMessage,
    ShuffleMessage,
    audit,
    check_handover,
    check_key_message,
    check_share_message,
    check_shuffle_message,
)
from .mental import Deck, Masked
from .moves import Leave, Move, Opening, Reason
from .scoring import RoundScore
from .seal import SealedShare
from .state import Ending, Phase, Round, deal, with_faces
from .wire import HandoverMessage, Message, SealedShareMessage, SharesMessage

BINDING_BYTES: Final = 16  # what stands for the table's epoch in every proof's context (M-29)
CHECKS_KEPT: Final = 4096  # checks remembered: a node applies a body again for its optimistic game
PLAYED_KEPT: Final = 12  # the latest moves a table keeps for its players' screens (views.py)

# The checks are pure functions of what they check: each is made once in a process, however
# often the same body is applied (the stable game, the optimistic one, a simulator's nodes).
_check_key = lru_cache(maxsize=CHECKS_KEPT)(check_key_message)
_check_shuffle = lru_cache(maxsize=CHECKS_KEPT)(check_shuffle_message)


@lru_cache(maxsize=64)
def _audited(
    joint: bytes,
    shuffles: tuple[ShuffleMessage, ...],
    audits: tuple[AuditMessage, ...],
    excused: frozenset[int],
) -> tuple[Cheat, ...]:
    return tuple(audit(joint, shuffles, audits, excused))


@lru_cache(maxsize=64)
def _check_handover(
    message: HandoverMessage, publics: tuple[bytes, ...], deck: Deck, binding: bytes, number: int
) -> Cheat | None:
    return check_handover(message.seat, message.shares, publics, deck, binding, number)


@lru_cache(maxsize=CHECKS_KEPT)
def _check_sealed(
    message: SealedShareMessage,
    public: bytes,
    recipient: bytes,
    card: Masked,
    binding: bytes,
    number: int,
) -> Cheat | None:
    """M-26: a sealed share whose proof fails is its sender's cheat, found on every node."""
    context = mental.opening_context(binding, number, message.token)
    if seal.check_sealed(public, recipient, card, message.sealed, context):
        return None
    return Cheat(
        message.seat, CheatKind.BAD_SHARE, f"the sealed share of card {message.token} is false"
    )


@lru_cache(maxsize=CHECKS_KEPT)
def _check_share(
    message: ShareMessage, publics: tuple[bytes, ...], card: Masked, binding: bytes, number: int
) -> Cheat | None:
    return check_share_message(message, publics, (card,) * (message.token + 1), binding, number)


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
class Refused:
    """A Dutch body refused; ``by`` is never set: Dutch has no race that names a winner."""

    reason: str
    by: int | None = None


@dataclass(frozen=True, slots=True)
class DutchMove:
    """A Dutch body in the order: the table seat that sent it, its round and its message."""

    seat: int
    round: int
    message: Message


@dataclass(slots=True)
class DutchTable:
    """One round of Dutch as the ordered log has made it, the same on every node.

    Seats here are Dutch's, 0 to n-1: Dutch seat ``i`` is table seat ``seats[i]``.
    """

    seats: tuple[int, ...]
    binding: bytes
    starter: int = 0
    penalised: frozenset[int] = frozenset()
    stage: Stage = Stage.KEYS
    publics: dict[int, bytes] = field(default_factory=dict)
    joint: bytes | None = None
    shuffles: list[ShuffleMessage] = field(default_factory=list)
    round: Round | None = None
    shares: dict[int, dict[int, bytes]] = field(default_factory=dict)  # token -> seat -> d
    sealed: dict[tuple[int, int], dict[int, SealedShare]] = field(default_factory=dict)
    grants: list[Opening] = field(default_factory=list)  # private openings, in order
    queue: list[tuple[int, Move]] = field(default_factory=list)  # moves waiting for a card
    audits: dict[int, AuditMessage] = field(default_factory=dict)
    cheats: list[Cheat] = field(default_factory=list)
    score: RoundScore | None = None
    left: frozenset[int] = frozenset()
    # Seats removed without a goodbye whom the round waits for (D-43): they still hold their
    # key, and opening goes on once they are back; ``gone`` ends the wait (D-44).
    missing: frozenset[int] = frozenset()
    handovers: dict[int, tuple[bytes, ...]] = field(default_factory=dict)  # seat -> 54 d
    dropped: int = 0  # moves that waited for a card, then were refused at their turn
    # The latest moves taken, for the screens only: no digest or rule reads them; and how
    # many were taken this round, for a replay's stops.
    played: list[Played] = field(default_factory=list)
    moves: int = 0

    @property
    def players(self) -> int:
        return len(self.seats)

    def deck(self) -> Deck:
        """The round's deck: the last shuffler's (M-10)."""
        return self.shuffles[-1].deck

    def copy(self) -> DutchTable:
        return replace(
            self,
            publics=dict(self.publics),
            shuffles=list(self.shuffles),
            shares={token: dict(by) for token, by in self.shares.items()},
            sealed={key: dict(by) for key, by in self.sealed.items()},
            grants=list(self.grants),
            queue=list(self.queue),
            audits=dict(self.audits),
            cheats=list(self.cheats),
            played=list(self.played),
            handovers=dict(self.handovers),
        )

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
            and seat not in self.sealed.get((grant.token, grant.seat), {})
        ]

    # -- the messages -------------------------------------------------------------------

    def take(self, seat: int, message: Message, round_number: int) -> Refused | None:
        """Apply one message of Dutch seat ``seat`` in the table's order."""
        speaks_for = getattr(message, "seat", seat)
        if not isinstance(message, Move) and speaks_for != seat:
            return self._cheat(Cheat(seat, CheatKind.BAD_MESSAGE, f"speaks for seat {speaks_for}"))
        if isinstance(message, KeyShareMessage):
            return self._key(message, round_number)
        if isinstance(message, ShuffleMessage):
            return self._shuffle(message)
        if isinstance(message, ShareMessage):
            return self._take_shares(message.seat, (message,), round_number)
        if isinstance(message, SealedShareMessage):
            return self._sealed(message, round_number)
        if isinstance(message, AuditMessage):
            return self._audit(message)
        if isinstance(message, HandoverMessage):
            return self._handover(message, round_number)
        if isinstance(message, SharesMessage):
            return self._take_shares(message.seat, message.messages(), round_number)
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

    def _key(self, message: KeyShareMessage, round_number: int) -> Refused | None:
        if self.stage is not Stage.KEYS:
            return Refused("not_key_time")
        if message.seat in self.publics:
            return Refused("already_keyed")
        cheat = _check_key(message, self.binding, round_number)
        if cheat is not None:
            return self._cheat(cheat)
        self.publics[message.seat] = message.public
        if len(self.publics) == self.players:
            self.joint = mental.joint_key([self.publics[s] for s in range(self.players)])
            self.stage = Stage.SHUFFLE
        return None

    def _shuffle(self, message: ShuffleMessage) -> Refused | None:
        if self.stage is not Stage.SHUFFLE:
            return Refused("not_shuffle_time")
        if message.seat != len(self.shuffles):
            return Refused("not_your_shuffle")
        cheat = _check_shuffle(message)
        if cheat is not None:
            return self._cheat(cheat)
        self.shuffles.append(message)
        if len(self.shuffles) == self.players:
            self.round = deal(self.players, self.starter, self.penalised)
            self.stage = Stage.PLAY
        return None

    def _take_shares(
        self, seat: int, shares: tuple[ShareMessage, ...], round_number: int
    ) -> Refused | None:
        """M-31, M-40: shares of cards opened to all, each checked as M-14; all or none."""
        wanted = self.wanted()
        if any(m.token not in wanted for m in shares):
            return Refused("not_wanted")  # M-19: no share of a card not being opened to all
        if seat in self.handovers or any(seat in self.shares.get(m.token, {}) for m in shares):
            return Refused("already_shared")
        publics = tuple(self.publics[s] for s in range(self.players))
        for message in shares:
            card = self.deck()[message.token]
            cheat = _check_share(message, publics, card, self.binding, round_number)
            if cheat is not None:
                return self._cheat(cheat)
        complete = False
        for message in shares:
            held = self.shares.setdefault(message.token, {})
            held[seat] = message.share.point
            complete |= len(held) + len(self.handovers) >= self.players
        if complete:
            self._advance()  # a card's last share: it opens, and what waited for it goes on
        return None

    def _sealed(self, message: SealedShareMessage, round_number: int) -> Refused | None:
        if Opening(message.token, message.to) not in self.grants:
            return Refused("not_granted")  # M-19: only to the player the rules open it to
        held = self.sealed.setdefault((message.token, message.to), {})
        if message.seat in held or message.seat in self.handovers:
            return Refused("already_shared")
        public, recipient = self.publics[message.seat], self.publics[message.to]
        card = self.deck()[message.token]
        cheat = _check_sealed(message, public, recipient, card, self.binding, round_number)
        if cheat is not None:
            return self._cheat(cheat)
        held[message.seat] = message.sealed
        return None

    def _audit(self, message: AuditMessage) -> Refused | None:
        if self.stage is not Stage.AUDIT:
            return Refused("not_audit_time")
        if message.seat in self.audits:
            return Refused("already_audited")
        self.audits[message.seat] = message
        self._maybe_audit()
        return None

    def _maybe_audit(self) -> None:
        """M-34: once every player still at the table has sent its audit, replay the shuffles;
        a player who left owes none."""
        if any(s not in self.audits for s in range(self.players) if s not in self.left):
            return
        assert self.joint is not None
        audits = tuple(self.audits[seat] for seat in sorted(self.audits))
        self.cheats += _audited(self.joint, tuple(self.shuffles), audits, self.left)
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
            held = self.shares_of(token)
            if len(held) < self.players:
                return False
            code = mental.open_card(self.deck()[token], [held[s] for s in range(self.players)])
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

    def shares_of(self, token: int) -> dict[int, bytes]:
        """Every share of ``token`` sent to all so far, a leaver's from its HANDOVER (M-37)."""
        held = {seat: points[token] for seat, points in self.handovers.items()}
        held.update(self.shares.get(token, {}))
        return held

    def _handover(self, message: HandoverMessage, round_number: int) -> Refused | None:
        """M-37, M-38: a leaver's shares of every card, checked; the seat leaves the round
        here, its cards stay and count (D-36), and its shares are taken from the handover."""
        if self.stage not in (Stage.PLAY, Stage.REVEAL):
            return Refused("not_play_time")
        if message.seat in self.left:
            return Refused("already_left")
        publics = tuple(self.publics[s] for s in range(self.players))
        cheat = _check_handover(message, publics, self.deck(), self.binding, round_number)
        if cheat is not None:
            return self._cheat(cheat)
        self.handovers[message.seat] = tuple(share.point for share in message.shares)
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
