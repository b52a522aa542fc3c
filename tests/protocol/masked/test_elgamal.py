"""spec/dutch-deal.md: the dealer-less deal, each M-id by name."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.table.masked import elgamal, group
from dutchblitz.protocol.table.masked.checks import (
    AuditMessage,
    CheatKind,
    KeyShareMessage,
    ShareMessage,
    ShuffleMessage,
    audit,
    check_key_message,
    check_share_message,
    check_shuffle_message,
)
from dutchblitz.protocol.table.masked.elgamal import Masked, Proof, Share
from hypothesis import given, settings
from hypothesis import strategies as st

TABLE = bytes(range(16))
ROUND = 3
# (0, -1): a point of order 2. Added to a group point it gives a point outside the subgroup.
ORDER_TWO = bytes.fromhex("ec" + "ff" * 30 + "7f")
SIZE = 54  # the deck of the spec's vectors (Dutch's)


def _seed(n: int) -> bytes:
    return bytes([n]) * 32


class Table:
    """Three players: their key secrets, public keys, joint key and the shuffled deck."""

    def __init__(self, players: int = 3, salt: int = 0) -> None:
        self.secrets = [elgamal.key_secret(_seed(salt + i + 1)) for i in range(players)]
        self.publics = [elgamal.public_key(x) for x in self.secrets]
        self.joint = elgamal.joint_key(self.publics)
        self.steps = []
        deck = elgamal.initial_deck(SIZE)
        for seat in range(players):
            step = elgamal.shuffle(deck, self.joint, _seed(salt + 100 + seat))
            self.steps.append(step)
            deck = step.deck
        self.deck = deck

    def share(self, seat: int, token: int) -> Share:
        context = elgamal.opening_context(TABLE, ROUND, token)
        return elgamal.decryption_share(self.secrets[seat], self.deck[token], context)

    def true_card(self, token: int) -> int:
        for step in reversed(self.steps):
            token = step.permutation[token]
        return token


def test_M1_the_group_is_libsodiums_ed25519_subgroup() -> None:
    one = (1).to_bytes(32, "little")
    assert group.times_base(one) == group.GENERATOR
    order = (2**252 + 27742317777372353535851937790883648493).to_bytes(32, "little")
    with pytest.raises(group.GroupError):
        group.times_base(order)  # L G is the identity, which libsodium refuses to return
    assert group.scalar_add(order, one) == one  # scalars are taken modulo L


def test_M1_a_proof_with_a_scalar_above_the_order_is_refused() -> None:
    table = Table()
    share = table.share(0, 3)
    context = elgamal.opening_context(TABLE, ROUND, 3)
    assert elgamal.check_share(table.publics[0], table.deck[3], share, context)
    order = 2**252 + 27742317777372353535851937790883648493
    bigger = (int.from_bytes(share.proof.s, "little") + order).to_bytes(32, "little")
    twin = Share(share.point, Proof(share.proof.e, bigger))
    assert not elgamal.check_share(table.publics[0], table.deck[3], twin, context)
    secret = table.secrets[1]
    proof = elgamal.prove_key(secret, _ctx(1))
    twin_key = Proof(proof.e, (int.from_bytes(proof.s, "little") + order).to_bytes(32, "little"))
    assert elgamal.check_key(table.publics[1], proof, _ctx(1))
    assert not elgamal.check_key(table.publics[1], twin_key, _ctx(1))


def test_M6_a_stream_is_fixed_by_its_seed_and_uniform_below_a_bound() -> None:
    first = [group.Stream(_seed(1), b"x").below(54) for _ in range(3)]
    again = group.Stream(_seed(1), b"x")
    assert [again.below(54) for _ in range(40)][:1] == first[:1]
    counts = [0] * 3
    stream = group.Stream(_seed(2), b"y")
    for _ in range(3000):
        counts[stream.below(3)] += 1
    assert all(900 < c < 1100 for c in counts)


def test_M2_only_points_of_the_prime_order_subgroup_are_accepted() -> None:
    point = elgamal.public_key(elgamal.key_secret(_seed(1)))
    assert group.valid_point(point)
    assert not group.valid_point(group.add(point, ORDER_TWO))
    assert not group.valid_point(ORDER_TWO) and not group.valid_point(group.IDENTITY)
    assert not group.valid_point(point[:31])


def test_M3_M4_cards_are_54_distinct_hashed_points() -> None:
    points = elgamal.card_points(SIZE)
    assert len(set(points)) == 54 and all(group.valid_point(p) for p in points)


def test_M5_M7_M17_a_key_proves_its_secret_and_is_bound_to_its_seat() -> None:
    secret = elgamal.key_secret(_seed(1))
    message = KeyShareMessage(2, elgamal.public_key(secret), elgamal.prove_key(secret, _ctx(2)))
    assert check_key_message(message, TABLE, ROUND) is None
    moved = KeyShareMessage(1, message.public, message.proof)
    assert check_key_message(moved, TABLE, ROUND).kind is CheatKind.BAD_KEY
    rogue = KeyShareMessage(2, elgamal.public_key(elgamal.key_secret(_seed(9))), message.proof)
    assert check_key_message(rogue, TABLE, ROUND).seat == 2
    torsion = KeyShareMessage(2, group.add(message.public, ORDER_TWO), message.proof)
    assert check_key_message(torsion, TABLE, ROUND) is not None
    with pytest.raises(ValueError):
        elgamal.key_secret(b"short")


def _ctx(seat: int) -> bytes:
    return elgamal.key_context(TABLE, ROUND, seat)


def test_M8_the_joint_key_is_the_sum_and_refuses_a_bad_point() -> None:
    table = Table()
    total = elgamal.public_key(
        group.scalar_add(group.scalar_add(table.secrets[0], table.secrets[1]), table.secrets[2])
    )
    assert table.joint == total
    with pytest.raises(group.GroupError):
        elgamal.joint_key([table.publics[0], ORDER_TWO])


def test_M9_M10_M15_every_card_opens_once_after_every_shuffle() -> None:
    table = Table()
    opened = [
        elgamal.open_card(table.deck[t], [table.share(s, t).point for s in range(3)], SIZE)
        for t in range(54)
    ]
    assert sorted(opened) == list(range(54))
    assert opened == [table.true_card(t) for t in range(54)]
    assert opened != list(range(54))


def test_M11_a_seed_fixes_the_permutation_and_masks() -> None:
    assert elgamal.permutation_from(_seed(7), SIZE) == elgamal.permutation_from(_seed(7), SIZE)
    assert sorted(elgamal.permutation_from(_seed(7), SIZE)) == list(range(54))
    assert elgamal.masks_from(_seed(7), SIZE) != elgamal.masks_from(_seed(8), SIZE)
    with pytest.raises(ValueError):
        elgamal.apply_shuffle(elgamal.initial_deck(SIZE), Table().joint, [0] * 54, [b""] * 54)


def test_M12_M18_a_deck_with_a_point_outside_the_group_is_refused_and_named() -> None:
    table = Table()
    bad = list(table.deck)
    bad[4] = Masked(group.add(bad[4].c1, ORDER_TWO), bad[4].c2)
    assert check_shuffle_message(ShuffleMessage(1, table.deck), SIZE) is None
    cheat = check_shuffle_message(ShuffleMessage(1, tuple(bad)), SIZE)
    assert cheat.seat == 1 and cheat.kind is CheatKind.BAD_DECK
    assert check_shuffle_message(ShuffleMessage(2, table.deck[:53]), SIZE).seat == 2


def test_M13_M14_a_wrong_share_is_caught_at_once_and_its_sender_named() -> None:
    table = Table()
    share = table.share(1, 9)
    message = ShareMessage(1, 9, None, share)
    assert check_share_message(message, table.publics, table.deck, TABLE, ROUND) is None
    lies = [
        Share(table.share(1, 10).point, share.proof),  # another card's share
        Share(elgamal.public_key(elgamal.key_secret(_seed(44))), share.proof),
        Share(share.point, Proof(share.proof.s, share.proof.e)),
        Share(group.add(share.point, ORDER_TWO), share.proof),
    ]
    for lie in lies:
        cheat = check_share_message(
            ShareMessage(1, 9, None, lie), table.publics, table.deck, TABLE, ROUND
        )
        assert cheat.seat == 1 and cheat.kind is CheatKind.BAD_SHARE
    wrong_round = check_share_message(message, table.publics, table.deck, TABLE, ROUND + 1)
    assert wrong_round is not None
    assert (
        elgamal.open_card(
            table.deck[9], [lies[0].point, *(table.share(s, 9).point for s in (0, 2))], SIZE
        )
        is None
    )


def test_M16_M19_a_peek_opens_a_card_to_one_player_alone() -> None:
    """Seat 2 peeks at token 5: seats 0 and 1 send their shares to seat 2 alone, which adds
    its own share, computed locally and never sent."""
    table = Table()
    sent = [ShareMessage(s, 5, 2, table.share(s, 5)) for s in (0, 1)]
    for message in sent:
        assert check_share_message(message, table.publics, table.deck, TABLE, ROUND) is None
    own = elgamal.decryption_share(
        table.secrets[2], table.deck[5], elgamal.opening_context(TABLE, ROUND, 5)
    ).point
    assert elgamal.open_card(
        table.deck[5], [own, *(m.share.point for m in sent)], SIZE
    ) == table.true_card(5)
    assert (
        elgamal.open_card(table.deck[5], [m.share.point for m in sent], SIZE) is None
    )  # not without it


def test_M20_M21_the_audit_passes_an_honest_round() -> None:
    table = Table()
    shuffles = [ShuffleMessage(s, step.deck) for s, step in enumerate(table.steps)]
    reveals = [AuditMessage(s, step.permutation, step.masks) for s, step in enumerate(table.steps)]
    assert audit(table.joint, SIZE, shuffles, reveals) == []


def test_M21_a_dishonest_shuffle_is_found_at_the_audit_and_named() -> None:
    """Seat 1 masks the Ace of clubs twice in place of another card: every share checks, the
    deck is 54 valid pairs, and only the audit can tell."""
    table = Table()
    honest = table.steps[1]
    deck = list(honest.deck)
    ace = honest.permutation.index(table.steps[0].permutation.index(0))
    deck[(ace + 1) % 54] = elgamal.remask(
        honest.deck[ace], table.joint, group.hash_to_scalar(b"x", b"y")
    )
    shuffles = [ShuffleMessage(s, step.deck) for s, step in enumerate(table.steps)]
    shuffles[1] = ShuffleMessage(1, tuple(deck))
    last = table.steps[2]  # seat 2 shuffles the deck seat 1 published, honestly
    shuffles[2] = ShuffleMessage(
        2, elgamal.apply_shuffle(tuple(deck), table.joint, last.permutation, last.masks)
    )
    assert check_shuffle_message(shuffles[1], SIZE) is None
    reveals = [AuditMessage(s, step.permutation, step.masks) for s, step in enumerate(table.steps)]
    cheats = audit(table.joint, SIZE, shuffles, reveals)
    assert [(c.seat, c.kind) for c in cheats] == [(1, CheatKind.BAD_SHUFFLE)]
    fake = AuditMessage(1, tuple(range(54)), honest.masks)
    assert audit(table.joint, SIZE, shuffles, [reveals[0], fake, reveals[2]])[0].seat == 1
    withheld = audit(
        table.joint, SIZE, [*shuffles[:1], ShuffleMessage(1, honest.deck)], reveals[:1]
    )
    assert [(c.seat, c.kind) for c in withheld] == [(1, CheatKind.WITHHELD)]


@settings(max_examples=5, deadline=None)
@given(salt=st.integers(0, 150), players=st.integers(3, 4))
def test_M9_M10_any_seeds_give_a_permutation_of_the_deck(salt: int, players: int) -> None:
    table = Table(players, salt)
    opened = {
        elgamal.open_card(table.deck[t], [table.share(s, t).point for s in range(players)], SIZE)
        for t in range(54)
    }
    assert opened == set(range(54))
