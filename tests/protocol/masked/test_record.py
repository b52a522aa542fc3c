"""A round's record of the table's masked deck, ``MaskedRecord``, driven as a game other than
Dutch would drive it (spec/dutch-deal.md M-10 to M-21, M-27, M-37): a deck of 58 card values
at four seats, keys and shuffles in seat order, a card opened to all once its last share is
in, a false share named, a leaver's handover standing in for its shares, and the audit."""

from __future__ import annotations

from dataclasses import replace

import pytest
from dutchblitz.protocol.table.masked.checks import (
    AuditMessage,
    Cheat,
    CheatKind,
    HandoverMessage,
    KeyShareMessage,
    ShareMessage,
    ShuffleMessage,
)
from dutchblitz.protocol.table.masked.deck import MaskedDeck, key_context, opening_context
from dutchblitz.protocol.table.masked.record import MaskedRecord, NotTaken, Opened

BINDING = bytes(range(16))
ROUND = 2
SEATS = 4
DECK = MaskedDeck(58)
SECRETS = [DECK.secret(bytes([seat + 1]) * 32) for seat in range(SEATS)]
SHUFFLE_SEEDS = [bytes([seat + 40]) * 32 for seat in range(SEATS)]


def _keyed() -> MaskedRecord:
    record = MaskedRecord(DECK, SEATS, BINDING)
    for seat, secret in enumerate(SECRETS):
        proof = DECK.prove_key(secret, key_context(BINDING, ROUND, seat))
        assert record.key(KeyShareMessage(seat, DECK.public(secret), proof), True, ROUND) is None
    assert record.joint is not None
    return record


def _dealt() -> MaskedRecord:
    record = _keyed()
    for seat, seed in enumerate(SHUFFLE_SEEDS):
        before = record.deck() if record.shuffles else DECK.initial()
        assert record.joint is not None
        step = DECK.shuffle(before, record.joint, seed)
        assert record.shuffle(ShuffleMessage(seat, step.deck), True) is None
    return record


def _share(record: MaskedRecord, seat: int, token: int) -> ShareMessage:
    context = opening_context(BINDING, ROUND, token)
    return ShareMessage(seat, token, None, DECK.share(SECRETS[seat], record.deck()[token], context))


def test_M10_shuffles_come_in_seat_order_and_keys_once() -> None:
    record = _keyed()
    assert record.joint is not None
    step = DECK.shuffle(DECK.initial(), record.joint, SHUFFLE_SEEDS[1])
    assert record.shuffle(ShuffleMessage(1, step.deck), True) == NotTaken("not_your_shuffle")
    again = KeyShareMessage(0, DECK.public(SECRETS[0]), DECK.prove_key(SECRETS[0], b""))
    assert record.key(again, True, ROUND) == NotTaken("already_keyed")


def test_M13_M15_a_card_opens_to_all_with_its_last_share() -> None:
    record = _dealt()
    token = 29  # pile 1's first card, for a game that cuts the deck in two
    steps = [record.take_shares(s, (_share(record, s, token),), (token,), ROUND) for s in range(4)]
    assert steps == [None, None, None, Opened.CARD]
    held = record.shares_of(token)
    value = DECK.open(record.deck()[token], [held[s] for s in range(SEATS)])
    assert value is not None and 0 <= value < 58
    again = record.take_shares(0, (_share(record, 0, token),), (token,), ROUND)
    assert again == NotTaken("already_shared")
    unwanted = record.take_shares(0, (_share(record, 0, 3),), (token,), ROUND)
    assert unwanted == NotTaken("not_wanted")


def test_M14_a_false_share_names_its_sender() -> None:
    record = _dealt()
    false = replace(_share(record, 1, 5), token=5, share=_share(record, 1, 6).share)
    found = record.take_shares(1, (false,), (5,), ROUND)
    assert isinstance(found, Cheat) and (found.seat, found.kind) == (1, CheatKind.BAD_SHARE)


def test_M27_M37_a_handover_stands_in_for_the_leavers_shares() -> None:
    record = _dealt()
    shares = tuple(_share(record, 3, token).share for token in range(58))
    assert record.hand_over(HandoverMessage(3, shares), ROUND) is None
    steps = [record.take_shares(s, (_share(record, s, 7),), (7,), ROUND) for s in range(3)]
    assert steps == [None, None, Opened.CARD]
    lie = HandoverMessage(2, (shares[1], *shares[1:]))
    assert record.hand_over(lie, ROUND) == Cheat(
        2, CheatKind.BAD_SHARE, "the handed-over share of card 0"
    )


@pytest.mark.parametrize(("liar", "cheats"), [(None, ()), (2, ((2, CheatKind.BAD_SHUFFLE),))])
def test_M20_M21_the_audit_replays_every_shuffle(
    liar: int | None, cheats: tuple[tuple[int, CheatKind], ...]
) -> None:
    record = _dealt()
    for seat, seed in enumerate(SHUFFLE_SEEDS):
        permutation, masks = DECK.revealed(seed)
        if seat == liar:
            permutation = (permutation[1], permutation[0], *permutation[2:])
        assert record.replay(frozenset()) is None  # not every audit is in yet
        assert record.audit(AuditMessage(seat, permutation, masks), True) is None
    found = record.replay(frozenset())
    assert found is not None and tuple((c.seat, c.kind) for c in found) == cheats
