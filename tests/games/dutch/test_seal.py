"""Shares for one player sealed to its round key, and leaving a round (spec/dutch-deal.md
section 7): who can open a sealed share, what every node checks, the handover, and the
round a leaver strands."""

from __future__ import annotations

from dutchblitz.protocol.games.dutch.cards import CARDS_IN_DECK
from dutchblitz.protocol.games.dutch.moves import Draw, Leave
from dutchblitz.protocol.games.dutch.scoring import DutchResult, reveal_tokens, score_round
from dutchblitz.protocol.games.dutch.state import Ending, Phase
from dutchblitz.protocol.table.masked import elgamal, seal
from dutchblitz.protocol.table.masked.checks import CheatKind, check_handover
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.dutch.table import ok, peeked

TABLE, ROUND = bytes(range(16)), 3


class Deal:
    """Three seats' keys and a deck shuffled by all three, from fixed seeds."""

    def __init__(self) -> None:
        self.secrets = [elgamal.key_secret(bytes([seat + 1]) * 32) for seat in range(3)]
        self.publics = [elgamal.public_key(x) for x in self.secrets]
        joint = elgamal.joint_key(self.publics)
        deck = elgamal.initial_deck(CARDS_IN_DECK)
        for seat in range(3):
            deck = elgamal.shuffle(deck, joint, bytes([seat + 9]) * 32).deck
        self.deck = deck

    def share(self, seat: int, token: int) -> elgamal.Share:
        context = elgamal.opening_context(TABLE, ROUND, token)
        return elgamal.decryption_share(self.secrets[seat], self.deck[token], context)

    def valid(self, seat: int, token: int, share: elgamal.Share) -> bool:
        context = elgamal.opening_context(TABLE, ROUND, token)
        return elgamal.check_share(self.publics[seat], self.deck[token], share, context)


DEAL = Deal()


def _sealed(seat: int, token: int, to: int, seed: bytes = bytes(32)) -> seal.SealedShare:
    context = elgamal.opening_context(TABLE, ROUND, token)
    return seal.seal_share(DEAL.secrets[seat], DEAL.deck[token], DEAL.publics[to], context, seed)


def _checks(seat: int, token: int, to: int, sealed: seal.SealedShare) -> bool:
    context = elgamal.opening_context(TABLE, ROUND, token)
    card = DEAL.deck[token]
    return seal.check_sealed(DEAL.publics[seat], DEAL.publics[to], card, sealed, context)


def test_M25_a_sealed_share_is_elgamal_to_the_recipients_round_key() -> None:
    sealed = _sealed(0, 7, 2, bytes([5]) * 32)
    assert seal.unseal(DEAL.secrets[2], sealed) == DEAL.share(0, 7).point
    assert sealed == _sealed(0, 7, 2, bytes([5]) * 32)  # a function of its inputs
    assert sealed.a != _sealed(0, 7, 2, bytes([6]) * 32).a  # another seed, another mask
    assert sealed.a != _sealed(0, 8, 2, bytes([5]) * 32).a  # the same seed, another card
    assert _checks(0, 7, 2, sealed)


def test_M26_a_peek_opens_to_its_player_alone() -> None:
    """Seats 0 and 1 seal their shares of token 4 to seat 2, which adds its own and opens
    the card; a node that reads every event, the other seats included, opens nothing."""
    token = 4
    sealed = [_sealed(s, token, 2, bytes([s]) * 32) for s in (0, 1)]
    points = [seal.unseal(DEAL.secrets[2], box) for box in sealed] + [DEAL.share(2, token).point]
    assert elgamal.open_card(DEAL.deck[token], points, CARDS_IN_DECK) is not None
    for reader in (0, 1):
        guessed = [seal.unseal(DEAL.secrets[reader], box) for box in sealed]
        guessed.append(DEAL.share(2, token).point)
        assert elgamal.open_card(DEAL.deck[token], guessed, CARDS_IN_DECK) is None


def test_M26_every_node_checks_a_sealed_share_and_a_false_one_fails() -> None:
    honest = _sealed(0, 4, 2)
    assert _checks(0, 4, 2, honest)
    assert not _checks(1, 4, 2, honest)  # not seat 1's
    assert not _checks(0, 5, 2, honest)  # not of token 5
    assert not _checks(0, 4, 1, honest)  # not to seat 1
    lie = seal.SealedShare(honest.a, _sealed(0, 5, 2).b, honest.proof)
    assert not _checks(0, 4, 2, lie)  # another card's share under this proof
    # A share made with another secret, under a proof made for it, is still refused.
    context = elgamal.opening_context(TABLE, ROUND, 4)
    other = elgamal.key_secret(bytes([77]) * 32)
    forged = seal.seal_share(other, DEAL.deck[4], DEAL.publics[2], context, bytes(32))
    assert not _checks(0, 4, 2, forged)


@settings(max_examples=50, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.binary(min_size=32, max_size=32))
def test_M26_random_bytes_never_pass(a: bytes, b: bytes) -> None:
    honest = _sealed(0, 4, 2)
    assert not _checks(0, 4, 2, seal.SealedShare(a, b, honest.proof))


def test_M27_a_handover_lets_the_players_left_open_every_card() -> None:
    shares = tuple(DEAL.share(1, token) for token in range(54))
    assert check_handover(1, shares, DEAL.publics, DEAL.deck, TABLE, ROUND) is None
    token = 11
    points = [DEAL.share(0, token).point, shares[token].point, DEAL.share(2, token).point]
    assert elgamal.open_card(DEAL.deck[token], points, CARDS_IN_DECK) is not None
    # The handover alone opens nothing: every player left is still needed.
    assert elgamal.open_card(DEAL.deck[token], [shares[token].point], CARDS_IN_DECK) is None


def test_M27_a_false_handed_over_share_names_the_leaver() -> None:
    shares = [DEAL.share(1, token) for token in range(54)]
    shares[20] = DEAL.share(1, 21)
    cheat = check_handover(1, tuple(shares), DEAL.publics, DEAL.deck, TABLE, ROUND)
    assert cheat is not None and cheat.seat == 1 and cheat.kind is CheatKind.BAD_SHARE
    short = check_handover(1, tuple(shares[:53]), DEAL.publics, DEAL.deck, TABLE, ROUND)
    assert short is not None and short.kind is CheatKind.BAD_SHARE


HANDS = ("2c 3c 4c 5c", "2d 3d 4d 5d", "2h 3h 4h 5h")


def test_M28_a_leave_without_the_keys_strands_the_round() -> None:
    state = ok(peeked(HANDS, "9s 8s"), 0, Draw()).state
    stranded = ok(state, 1, Leave(handed_over=False)).state
    assert stranded.phase is Phase.OVER and stranded.ending is Ending.STRANDED
    assert reveal_tokens(stranded) == ()
    score = score_round(stranded)
    assert score.scores == (0, 0, 0) and score.result is DutchResult.NONE
    assert score.next_starter == 2 and score.penalised == frozenset()  # seat 1 has left


def test_M28_a_leave_with_the_keys_handed_over_goes_on_as_D36_says() -> None:
    state = ok(peeked(HANDS, "9s 8s"), 0, Draw()).state
    after = ok(state, 1, Leave()).state
    assert after.phase is not Phase.OVER and 1 not in after.active
