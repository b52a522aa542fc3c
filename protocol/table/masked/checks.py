"""A masked deck's messages as data, each checked the moment it arrives, and the audit after
the round (spec/dutch-deal.md). A bad message names its sender: ``Cheat``.

The messages travel in a game's bodies (Dutch's ``wire.py``); here they are plain frozen
data and the checks are pure functions of them, of the deck's size and of what came before
in the total order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from . import elgamal
from .elgamal import Deck, Masked, Proof, Share
from .seal import SealedShare


@dataclass(frozen=True, slots=True)
class KeyShareMessage:
    """M-17: a player's public key for the round, with its Schnorr proof."""

    seat: int
    public: bytes
    proof: Proof


@dataclass(frozen=True, slots=True)
class ShuffleMessage:
    """M-18: the deck after this seat's shuffle."""

    seat: int
    deck: Deck


@dataclass(frozen=True, slots=True)
class ShareMessage:
    """M-19: one player's decryption share of the card at ``token``, for seat ``to``
    alone, or for every seat when ``to`` is None."""

    seat: int
    token: int
    to: int | None
    share: Share


@dataclass(frozen=True, slots=True)
class AuditMessage:
    """M-20: after the round, a shuffler's permutation and masks."""

    seat: int
    permutation: tuple[int, ...]
    masks: tuple[bytes, ...]


@dataclass(frozen=True, slots=True)
class SealedShareMessage:
    """M-19, M-25: a decryption share for seat ``to`` alone, encrypted to that seat's round
    key, with a proof every node checks."""

    seat: int
    token: int
    to: int
    sealed: SealedShare


@dataclass(frozen=True, slots=True)
class HandoverMessage:
    """M-23: a leaving player's share of every card, position ``token`` for token ``token``,
    sent to all so that the players left can still open every card."""

    seat: int
    shares: tuple[Share, ...]


class CheatKind(StrEnum):
    BAD_KEY = "bad_key"  # a key whose proof fails
    BAD_DECK = "bad_deck"  # a shuffled deck that is not the deck's size in pairs of group points
    BAD_SHARE = "bad_share"  # a decryption share whose proof fails
    BAD_SHUFFLE = "bad_shuffle"  # the audit does not reproduce the published deck
    WITHHELD = "withheld"  # a shuffler sent no audit
    BAD_MESSAGE = "bad_message"  # a payload the wire refuses (M-23)


@dataclass(frozen=True, slots=True)
class Cheat:
    """A cheat found, naming the seat that sent the bad message."""

    seat: int
    kind: CheatKind
    detail: str


def check_key_message(message: KeyShareMessage, table: bytes, round_number: int) -> Cheat | None:
    context = elgamal.key_context(table, round_number, message.seat)
    if elgamal.check_key(message.public, message.proof, context):
        return None
    return Cheat(message.seat, CheatKind.BAD_KEY, "the key's proof does not hold")


def check_shuffle_message(message: ShuffleMessage, size: int) -> Cheat | None:
    reason = elgamal.check_deck(message.deck, size)
    return None if reason is None else Cheat(message.seat, CheatKind.BAD_DECK, reason)


def check_share_message(
    message: ShareMessage, publics: Sequence[bytes], deck: Deck, table: bytes, round_number: int
) -> Cheat | None:
    """M-14: a share whose proof fails is a cheat by its sender, found on arrival."""
    if not 0 <= message.token < len(deck) or not 0 <= message.seat < len(publics):
        return Cheat(message.seat, CheatKind.BAD_SHARE, "no such card or seat")
    context = elgamal.opening_context(table, round_number, message.token)
    if elgamal.check_share(publics[message.seat], deck[message.token], message.share, context):
        return None
    return Cheat(message.seat, CheatKind.BAD_SHARE, f"the share of card {message.token} is false")


def audit(
    joint: bytes,
    size: int,
    shuffles: Sequence[ShuffleMessage],
    reveals: Sequence[AuditMessage],
    excused: frozenset[int] = frozenset(),
) -> list[Cheat]:
    """M-21: replay every shuffle from the initial deck with what its shuffler revealed;
    the first step that does not give the deck it published names its shuffler. Each
    step is checked against the deck published before it, so one cheat does not hide or
    implicate another, and a step of an ``excused`` seat that sent no audit (one that left,
    M-35) is passed over without hiding the steps after it."""
    revealed = {r.seat: r for r in reveals}
    cheats: list[Cheat] = []
    before: Deck = elgamal.initial_deck(size)
    for step in shuffles:
        reveal = revealed.get(step.seat)
        if reveal is None and step.seat in excused:
            pass
        elif reveal is None:
            cheats.append(Cheat(step.seat, CheatKind.WITHHELD, "no audit was sent"))
        elif not _replays(before, joint, reveal, step.deck):
            cheats.append(Cheat(step.seat, CheatKind.BAD_SHUFFLE, "the shuffle does not replay"))
        before = step.deck
    return cheats


def _replays(before: Deck, joint: bytes, reveal: AuditMessage, published: Deck) -> bool:
    try:
        return elgamal.apply_shuffle(before, joint, reveal.permutation, reveal.masks) == published
    except ValueError:  # not a permutation, a wrong mask count, or a scalar libsodium refused
        return False


def card_at(deck: Deck, token: int, shares: Sequence[bytes]) -> int | None:
    """The card value under ``token`` once every player's share point is in (M-15)."""
    card: Masked = deck[token]
    return elgamal.open_card(card, shares, len(deck))


def check_handover(
    seat: int,
    shares: Sequence[Share],
    publics: Sequence[bytes],
    deck: Deck,
    table: bytes,
    round_number: int,
) -> Cheat | None:
    """M-27: a leaver's share of every token, each checked as M-14; the first false one
    names the leaver."""
    if len(shares) != len(deck) or not 0 <= seat < len(publics):
        return Cheat(seat, CheatKind.BAD_SHARE, "not one share per card")
    for token, share in enumerate(shares):
        context = elgamal.opening_context(table, round_number, token)
        if not elgamal.check_share(publics[seat], deck[token], share, context):
            return Cheat(seat, CheatKind.BAD_SHARE, f"the handed-over share of card {token}")
    return None
