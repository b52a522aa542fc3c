"""A round's masked deck as every node records it from a game's bodies in the total order:
the players' keys, their shuffles in seat order, the shares of cards opened to all, the
sealed shares of cards opened to one player, a leaver's handover and the audit
(spec/dutch-deal.md M-10 to M-40).

Each step here checks its message and records it, or says why not (``NotTaken``, with the
stable code of the game's spec); where the round stands, which cards are wanted and to
whom a card may be opened are the game's (Dutch's ``DutchTable``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from typing import Final, TypeAlias

from . import checks, seal
from .checks import (
    AuditMessage,
    Cheat,
    CheatKind,
    HandoverMessage,
    KeyShareMessage,
    SealedShareMessage,
    ShareMessage,
    ShuffleMessage,
    check_handover,
    check_key_message,
    check_share_message,
    check_shuffle_message,
)
from .deck import MaskedDeck, opening_context
from .elgamal import Deck, Masked
from .seal import SealedShare

CHECKS_KEPT: Final = 4096  # checks remembered: a node applies a body again for its optimistic game

# The checks are pure functions of what they check: each is made once in a process, however
# often the same body is applied (the stable game, the optimistic one, a simulator's nodes).
_check_key = lru_cache(maxsize=CHECKS_KEPT)(check_key_message)
_check_shuffle = lru_cache(maxsize=CHECKS_KEPT)(check_shuffle_message)


@lru_cache(maxsize=64)
def _audited(
    joint: bytes,
    size: int,
    shuffles: tuple[ShuffleMessage, ...],
    audits: tuple[AuditMessage, ...],
    excused: frozenset[int],
) -> tuple[Cheat, ...]:
    return tuple(checks.audit(joint, size, shuffles, audits, excused))


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
    context = opening_context(binding, number, message.token)
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
class NotTaken:
    """A message the record does not take now; ``reason`` is the game's stable code."""

    reason: str


class Opened(Enum):
    """A step of the deal that brought in the last share of a card opened to all (M-31)."""

    CARD = "card"


# What a step of the deal comes to: refused, its sender's cheat, a card's last share, or taken.
Step: TypeAlias = "NotTaken | Cheat | Opened | None"


@dataclass(slots=True)
class MaskedRecord:
    """A round's public record of its masked deck (``masked``): the players' public keys,
    the published decks, the shares sent to all, the sealed shares, the handovers and the
    audits. Seats are the game's, 0 to ``players - 1``."""

    masked: MaskedDeck
    players: int
    binding: bytes
    publics: dict[int, bytes] = field(default_factory=dict)
    joint: bytes | None = None
    shuffles: list[ShuffleMessage] = field(default_factory=list)
    shares: dict[int, dict[int, bytes]] = field(default_factory=dict)  # token -> seat -> d
    sealed: dict[tuple[int, int], dict[int, SealedShare]] = field(default_factory=dict)
    audits: dict[int, AuditMessage] = field(default_factory=dict)
    handovers: dict[int, tuple[bytes, ...]] = field(default_factory=dict)  # seat -> d of every card

    def copy(self) -> MaskedRecord:
        return MaskedRecord(
            self.masked,
            self.players,
            self.binding,
            dict(self.publics),
            self.joint,
            list(self.shuffles),
            {token: dict(by) for token, by in self.shares.items()},
            {key: dict(by) for key, by in self.sealed.items()},
            dict(self.audits),
            dict(self.handovers),
        )

    def deck(self) -> Deck:
        """The round's deck: the last shuffler's (M-10)."""
        return self.shuffles[-1].deck

    def _keys(self) -> tuple[bytes, ...]:
        return tuple(self.publics[s] for s in range(self.players))

    def key(self, message: KeyShareMessage, in_time: bool, round_number: int) -> Step:
        """A player's public key (M-29); the joint key once every player's is in."""
        if not in_time:
            return NotTaken("not_key_time")
        if message.seat in self.publics:
            return NotTaken("already_keyed")
        cheat = _check_key(message, self.binding, round_number)
        if cheat is not None:
            return cheat
        self.publics[message.seat] = message.public
        if len(self.publics) == self.players:
            self.joint = self.masked.joint(self._keys())
        return None

    def shuffle(self, message: ShuffleMessage, in_time: bool) -> Step:
        """A player's shuffle of the deck, in seat order (M-10)."""
        if not in_time:
            return NotTaken("not_shuffle_time")
        if message.seat != len(self.shuffles):
            return NotTaken("not_your_shuffle")
        cheat = _check_shuffle(message, self.masked.size)
        if cheat is not None:
            return cheat
        self.shuffles.append(message)
        return None

    def take_shares(
        self,
        seat: int,
        shares: tuple[ShareMessage, ...],
        wanted: tuple[int, ...],
        round_number: int,
    ) -> Step:
        """M-31, M-40: shares of cards opened to all, each checked as M-14; all or none."""
        if any(m.token not in wanted for m in shares):
            return NotTaken("not_wanted")  # M-19: no share of a card not being opened to all
        if seat in self.handovers or any(seat in self.shares.get(m.token, {}) for m in shares):
            return NotTaken("already_shared")
        publics = self._keys()
        for message in shares:
            card = self.deck()[message.token]
            cheat = _check_share(message, publics, card, self.binding, round_number)
            if cheat is not None:
                return cheat
        complete = False
        for message in shares:
            held = self.shares.setdefault(message.token, {})
            held[seat] = message.share.point
            complete |= len(held) + len(self.handovers) >= self.players
        return Opened.CARD if complete else None

    def seal(self, message: SealedShareMessage, granted: bool, round_number: int) -> Step:
        """M-19, M-26: a share sealed to the one player a card is opened to."""
        if not granted:
            return NotTaken("not_granted")  # M-19: only to the player the rules open it to
        held = self.sealed.setdefault((message.token, message.to), {})
        if message.seat in held or message.seat in self.handovers:
            return NotTaken("already_shared")
        public, recipient = self.publics[message.seat], self.publics[message.to]
        card = self.deck()[message.token]
        cheat = _check_sealed(message, public, recipient, card, self.binding, round_number)
        if cheat is not None:
            return cheat
        held[message.seat] = message.sealed
        return None

    def audit(self, message: AuditMessage, in_time: bool) -> Step:
        if not in_time:
            return NotTaken("not_audit_time")
        if message.seat in self.audits:
            return NotTaken("already_audited")
        self.audits[message.seat] = message
        return None

    def replay(self, left: frozenset[int]) -> tuple[Cheat, ...] | None:
        """M-34: the cheats the shuffles' replay finds, once every player still at the table
        has sent its audit (a player who left owes none); None while one is missing."""
        if any(s not in self.audits for s in range(self.players) if s not in left):
            return None
        assert self.joint is not None
        audits = tuple(self.audits[seat] for seat in sorted(self.audits))
        return _audited(self.joint, self.masked.size, tuple(self.shuffles), audits, left)

    def hand_over(self, message: HandoverMessage, round_number: int) -> Cheat | None:
        """M-37, M-38: a leaver's shares of every card, checked, kept for every card's opening."""
        cheat = _check_handover(message, self._keys(), self.deck(), self.binding, round_number)
        if cheat is None:
            self.handovers[message.seat] = tuple(share.point for share in message.shares)
        return cheat

    def shares_of(self, token: int) -> dict[int, bytes]:
        """Every share of ``token`` sent to all so far, a leaver's from its HANDOVER (M-37)."""
        held = {seat: points[token] for seat, points in self.handovers.items()}
        held.update(self.shares.get(token, {}))
        return held
