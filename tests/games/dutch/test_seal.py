"""Shares for one player sealed to its node key, and leaving a round (spec/dutch-deal.md
section 7): who can open a sealed share, what a false one does, the handover, and the
round a leaver strands."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.auth import Signer
from dutchblitz.protocol.games.dutch import mental, seal, wire
from dutchblitz.protocol.games.dutch.deal import CheatKind, check_handover
from dutchblitz.protocol.games.dutch.moves import Draw, Leave
from dutchblitz.protocol.games.dutch.scoring import DutchResult, reveal_tokens, score_round
from dutchblitz.protocol.games.dutch.state import Ending, Phase
from hypothesis import given, settings
from hypothesis import strategies as st
from nacl import bindings as sodium

from tests.games.dutch.table import ok, peeked

TABLE, ROUND = bytes(range(16)), 3
NODES = [Signer(bytes([40 + seat]) * 32) for seat in range(3)]


class Deal:
    """Three seats' keys and a deck shuffled by all three, from fixed seeds."""

    def __init__(self) -> None:
        self.secrets = [mental.key_secret(bytes([seat + 1]) * 32) for seat in range(3)]
        self.publics = [mental.public_key(x) for x in self.secrets]
        joint = mental.joint_key(self.publics)
        deck = mental.initial_deck()
        for seat in range(3):
            deck = mental.shuffle(deck, joint, bytes([seat + 9]) * 32).deck
        self.deck = deck

    def share(self, seat: int, token: int) -> mental.Share:
        context = mental.opening_context(TABLE, ROUND, token)
        return mental.decryption_share(self.secrets[seat], self.deck[token], context)

    def valid(self, seat: int, token: int, share: mental.Share) -> bool:
        context = mental.opening_context(TABLE, ROUND, token)
        return mental.check_share(self.publics[seat], self.deck[token], share, context)


DEAL = Deal()


def _open(node: Signer, sealed: bytes) -> mental.Share | None:
    return seal.open_share(sealed, node.curve_public, node.curve_secret())


def test_M25_a_sealed_share_is_libsodiums_sealed_box_to_the_node_key() -> None:
    share = DEAL.share(0, 7)
    sealed = seal.seal_share(share, NODES[2].public_key, bytes([5]) * 32)
    assert len(sealed) == wire.SEALED_SHARE_BYTES
    plain = sodium.crypto_box_seal_open(sealed, NODES[2].curve_public, NODES[2].curve_secret())
    assert plain == share.point + share.proof.e + share.proof.s
    assert sealed == seal.seal_share(share, NODES[2].public_key, bytes([5]) * 32)
    assert sealed != seal.seal_share(share, NODES[2].public_key, bytes([6]) * 32)
    other = seal.seal_share(DEAL.share(0, 8), NODES[2].public_key, bytes([5]) * 32)
    assert other[:32] != sealed[:32]  # the same seed, another share: another ephemeral key


def test_M25_a_seed_must_be_32_bytes_and_a_key_an_ed25519_key() -> None:
    with pytest.raises(ValueError):
        seal.seal_share(DEAL.share(0, 7), NODES[2].public_key, bytes(31))
    with pytest.raises(ValueError):
        seal.seal_share(DEAL.share(0, 7), b"short", bytes(32))


def test_M26_a_peek_opens_to_its_player_alone() -> None:
    """Seats 0 and 1 seal their shares of token 4 to seat 2, which adds its own and opens
    the card; a node that reads every event, the other seats included, opens nothing."""
    token = 4
    sealed = [
        seal.seal_share(DEAL.share(s, token), NODES[2].public_key, bytes([s]) * 32) for s in (0, 1)
    ]
    opened = [_open(NODES[2], box) for box in sealed]
    assert all(
        s is not None and DEAL.valid(seat, token, s) for seat, s in zip((0, 1), opened, strict=True)
    )
    points = [s.point for s in opened if s is not None] + [DEAL.share(2, token).point]
    assert mental.open_card(DEAL.deck[token], points) is not None
    for reader in (NODES[0], NODES[1], Signer(bytes([99]) * 32)):
        assert [_open(reader, box) for box in sealed] == [None, None]


def test_M26_a_false_or_broken_sealed_share_is_the_senders_cheat() -> None:
    honest = DEAL.share(0, 4)
    lie = mental.Share(DEAL.share(0, 5).point, honest.proof)
    opened = _open(NODES[2], seal.seal_share(lie, NODES[2].public_key, bytes(32)))
    assert opened == lie and not DEAL.valid(0, 4, opened)  # opens, but the proof fails
    box = bytearray(seal.seal_share(honest, NODES[2].public_key, bytes(32)))
    box[-1] ^= 1
    assert _open(NODES[2], bytes(box)) is None  # tampered: does not open
    assert _open(NODES[2], bytes(box[:-1])) is None
    garbage = sodium.crypto_box_seal(bytes(96), NODES[2].curve_public)
    assert _open(NODES[2], garbage) is None  # opens to bytes that are not a share


@settings(max_examples=50, deadline=None)
@given(st.binary(min_size=144, max_size=144))
def test_M26_random_bytes_never_open(sealed: bytes) -> None:
    assert _open(NODES[2], sealed) is None


def test_M27_a_handover_lets_the_players_left_open_every_card() -> None:
    shares = tuple(DEAL.share(1, token) for token in range(54))
    assert check_handover(1, shares, DEAL.publics, DEAL.deck, TABLE, ROUND) is None
    token = 11
    points = [DEAL.share(0, token).point, shares[token].point, DEAL.share(2, token).point]
    assert mental.open_card(DEAL.deck[token], points) is not None
    # The handover alone opens nothing: every player left is still needed.
    assert mental.open_card(DEAL.deck[token], [shares[token].point]) is None


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
