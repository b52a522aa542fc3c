"""The table's masked deck through its one interface, ``MaskedDeck``, for decks of any size a
game may name (spec/dutch-deal.md M-4 to M-26): every seat keys and shuffles in turn, a card
opens to all from every seat's share, or to one seat from the others' sealed shares, and the
audit passes an honest round and names a lying shuffler."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.table.masked import elgamal
from dutchblitz.protocol.table.masked.checks import AuditMessage, CheatKind, ShuffleMessage
from dutchblitz.protocol.table.masked.deck import MaskedDeck, key_context, opening_context
from dutchblitz.protocol.table.masked.elgamal import Deck

TABLE = bytes(range(16))
ROUND = 7


class Round:
    """``players`` seats on a deck of ``size``: keys proven, the deck shuffled by each."""

    def __init__(self, size: int, players: int) -> None:
        self.deck = MaskedDeck(size)
        seeds = [bytes([seat + 1]) * 32 for seat in range(players)]
        self.secrets = [self.deck.secret(seed) for seed in seeds]
        self.publics = [self.deck.public(x) for x in self.secrets]
        for seat, secret in enumerate(self.secrets):
            context = key_context(TABLE, ROUND, seat)
            proof = self.deck.prove_key(secret, context)
            assert self.deck.check_key(self.publics[seat], proof, context)
        self.joint = self.deck.joint(self.publics)
        self.shuffle_seeds = [bytes([seat + 50]) * 32 for seat in range(players)]
        self.shuffles: list[ShuffleMessage] = []
        cards: Deck = self.deck.initial()
        for seat, seed in enumerate(self.shuffle_seeds):
            cards = self.deck.shuffle(cards, self.joint, seed).deck
            assert self.deck.check_deck(cards) is None
            self.shuffles.append(ShuffleMessage(seat, cards))
        self.cards = cards

    def to_all(self, token: int) -> int | None:
        context = opening_context(TABLE, ROUND, token)
        card = self.cards[token]
        shares = [self.deck.share(x, card, context) for x in self.secrets]
        assert all(
            self.deck.check_share(self.publics[s], card, share, context)
            for s, share in enumerate(shares)
        )
        return self.deck.open(card, [share.point for share in shares])

    def to_one(self, token: int, seat: int) -> int | None:
        context = opening_context(TABLE, ROUND, token)
        card, recipient = self.cards[token], self.publics[seat]
        points = [self.deck.share(self.secrets[seat], card, context).point]
        for other, secret in enumerate(self.secrets):
            if other == seat:
                continue
            sealed = self.deck.seal(secret, card, recipient, context, bytes([other + 90]) * 32)
            assert self.deck.check_sealed(self.publics[other], recipient, card, sealed, context)
            points.append(self.deck.unseal(self.secrets[seat], sealed))
        return self.deck.open(card, points)

    def reveals(self) -> list[AuditMessage]:
        return [
            AuditMessage(seat, *self.deck.revealed(seed))
            for seat, seed in enumerate(self.shuffle_seeds)
        ]


@pytest.mark.parametrize(("size", "players"), [(1, 2), (54, 3), (58, 4), (116, 6)])
def test_M13_M15_M25_every_card_opens_to_all_and_to_one_seat(size: int, players: int) -> None:
    game = Round(size, players)
    opened = [game.to_all(token) for token in range(size)]
    assert sorted(opened) == list(range(size))  # type: ignore[type-var]
    assert game.to_one(size - 1, players - 1) == opened[size - 1]
    assert game.deck.audit(game.joint, game.shuffles, game.reveals()) == []


def test_M21_the_audit_names_a_shuffler_whose_reveal_does_not_replay() -> None:
    game = Round(58, 4)
    reveals = game.reveals()
    permutation, masks = reveals[2].permutation, reveals[2].masks
    reveals[2] = AuditMessage(2, (permutation[1], permutation[0], *permutation[2:]), masks)
    cheats = game.deck.audit(game.joint, game.shuffles, reveals)
    assert [(c.seat, c.kind) for c in cheats] == [(2, CheatKind.BAD_SHUFFLE)]


@pytest.mark.parametrize(
    ("deck", "size", "refused"),
    [
        (MaskedDeck(58), 58, None),
        (MaskedDeck(58), 54, "54 cards, not 58"),
        (MaskedDeck(54), 58, "58 cards, not 54"),
    ],
)
def test_M12_a_deck_of_another_size_is_refused(
    deck: MaskedDeck, size: int, refused: str | None
) -> None:
    other = MaskedDeck(size)
    joint = other.public(other.secret(bytes(32)))
    shuffled = other.shuffle(other.initial(), joint, bytes([5]) * 32).deck
    assert deck.check_deck(shuffled) == refused


def test_M4_card_i_is_the_same_point_in_every_size_of_deck() -> None:
    small, large = MaskedDeck(54).initial(), MaskedDeck(116).initial()
    assert large[:54] == small == elgamal.initial_deck(54)


@pytest.mark.parametrize("size", [0, -1, 257])
def test_M4_a_deck_holds_1_to_256_card_values(size: int) -> None:
    with pytest.raises(ValueError, match="1 to 256"):
        MaskedDeck(size)
