"""The deal with no dealer of a round of Dutch: its keys, its shuffles in seat order, the
shares of cards opened to all, the sealed shares of cards opened to one player, a leaver's
handover and the audit (spec/dutch-deal.md M-10 to M-40), as every node records them from
the GAME bodies in the total order.

Each step here checks its message and records it, or says why not; where the round stands,
and what a step moves on, is the play's (table.py ``DutchTable``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from typing import Final, TypeAlias

from ...table.masked.checks import (
    AuditMessage,
    Cheat,
    CheatKind,
    KeyShareMessage,
    ShareMessage,
    ShuffleMessage,
    check_handover,
    check_key_message,
    check_share_message,
    check_shuffle_message,
)
from ...table.masked.deck import MaskedDeck, opening_context
from ...table.masked.elgamal import Deck, Masked
from ...table.masked.seal import SealedShare
from .cards import CARDS_IN_DECK
from .moves import Opening
from .wire import HandoverMessage, SealedShareMessage

DECK: Final = MaskedDeck(CARDS_IN_DECK)  # Dutch's 54 cards on the table's masked deck (M-4)
CHECKS_KEPT: Final = 4096  # checks remembered: a node applies a body again for its optimistic game

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
    return tuple(DECK.audit(joint, shuffles, audits, excused))


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
    if DECK.check_sealed(public, recipient, card, message.sealed, context):
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
class Refused:
    """A Dutch body refused; ``by`` is never set: Dutch has no race that names a winner."""

    reason: str
    by: int | None = None


class Opened(Enum):
    """A step of the deal that brought in the last share of a card opened to all (M-31)."""

    CARD = "card"


# What a step of the deal comes to: refused, its sender's cheat, a card's last share, or taken.
Step: TypeAlias = "Refused | Cheat | Opened | None"


@dataclass(slots=True)
class HiddenDeal:
    """The deal's public record: the players' public keys, the published decks, the shares
    sent to all, the sealed shares, the handovers and the audits. Seats are Dutch's."""

    players: int
    binding: bytes
    publics: dict[int, bytes] = field(default_factory=dict)
    joint: bytes | None = None
    shuffles: list[ShuffleMessage] = field(default_factory=list)
    shares: dict[int, dict[int, bytes]] = field(default_factory=dict)  # token -> seat -> d
    sealed: dict[tuple[int, int], dict[int, SealedShare]] = field(default_factory=dict)
    audits: dict[int, AuditMessage] = field(default_factory=dict)
    handovers: dict[int, tuple[bytes, ...]] = field(default_factory=dict)  # seat -> 54 d

    def copy(self) -> HiddenDeal:
        return HiddenDeal(
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
            return Refused("not_key_time")
        if message.seat in self.publics:
            return Refused("already_keyed")
        cheat = _check_key(message, self.binding, round_number)
        if cheat is not None:
            return cheat
        self.publics[message.seat] = message.public
        if len(self.publics) == self.players:
            self.joint = DECK.joint(self._keys())
        return None

    def shuffle(self, message: ShuffleMessage, in_time: bool) -> Step:
        """A player's shuffle of the deck, in seat order (M-10)."""
        if not in_time:
            return Refused("not_shuffle_time")
        if message.seat != len(self.shuffles):
            return Refused("not_your_shuffle")
        cheat = _check_shuffle(message, DECK.size)
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
            return Refused("not_wanted")  # M-19: no share of a card not being opened to all
        if seat in self.handovers or any(seat in self.shares.get(m.token, {}) for m in shares):
            return Refused("already_shared")
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

    def seal(self, message: SealedShareMessage, grants: list[Opening], round_number: int) -> Step:
        """M-19, M-26: a share sealed to the one player a card is opened to."""
        if Opening(message.token, message.to) not in grants:
            return Refused("not_granted")  # M-19: only to the player the rules open it to
        held = self.sealed.setdefault((message.token, message.to), {})
        if message.seat in held or message.seat in self.handovers:
            return Refused("already_shared")
        public, recipient = self.publics[message.seat], self.publics[message.to]
        card = self.deck()[message.token]
        cheat = _check_sealed(message, public, recipient, card, self.binding, round_number)
        if cheat is not None:
            return cheat
        held[message.seat] = message.sealed
        return None

    def audit(self, message: AuditMessage, in_time: bool) -> Step:
        if not in_time:
            return Refused("not_audit_time")
        if message.seat in self.audits:
            return Refused("already_audited")
        self.audits[message.seat] = message
        return None

    def replay(self, left: frozenset[int]) -> tuple[Cheat, ...] | None:
        """M-34: the cheats the shuffles' replay finds, once every player still at the table
        has sent its audit (a player who left owes none); None while one is missing."""
        if any(s not in self.audits for s in range(self.players) if s not in left):
            return None
        assert self.joint is not None
        audits = tuple(self.audits[seat] for seat in sorted(self.audits))
        return _audited(self.joint, tuple(self.shuffles), audits, left)

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
