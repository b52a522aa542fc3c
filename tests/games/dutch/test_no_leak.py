"""No hidden card leaves its owner's node unopened (spec/dutch.md section 10, spec/dutch-deal.md
M-19, M-24 to M-26, M-33): every GAME body of whole games between bots, on the real group,
checked against the cards' real values. Every body reaches every node, so for each seat the
test gathers every share it could read (those sent to all, those sealed to it, and its own)
and opens every card it could: each must be one the rules opened to it."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.games.dutch.cards import CARDS_IN_DECK
from dutchblitz.protocol.games.dutch.mind import key_secret
from dutchblitz.protocol.games.dutch.scoring import reveal_tokens
from dutchblitz.protocol.games.dutch.table import DutchTable
from dutchblitz.protocol.games.dutch.wire import SealedShareMessage, decode
from dutchblitz.protocol.table.masked import elgamal, group, seal
from dutchblitz.protocol.table.masked.checks import ShareMessage

from tests.games.dutch.tablerig import Rig

SEATS = 4


def _real_cards(rig: Rig, table: DutchTable, number: int) -> list[int]:
    """The card under every token, opened with every seat's key (the test holds them all)."""
    deck, cards = table.deal.deck(), []
    for token in range(54):
        context = elgamal.opening_context(table.binding, number, token)
        points = [
            elgamal.decryption_share(key_secret(rig.secrets(seat)), deck[token], context).point
            for seat in range(SEATS)
        ]
        code = elgamal.open_card(deck[token], points, CARDS_IN_DECK)
        assert code is not None
        cards.append(code)
    return cards


@pytest.mark.parametrize(
    ("seed", "level"), [(s, lv) for s in range(4) for lv in ("careful", "forgetful")]
)
def test_no_seat_can_open_a_card_the_rules_did_not_open_to_it(seed: int, level: str) -> None:
    rig = Rig(seed=100 + seed, level=level, target=1)  # one round: its bodies are all of them
    game = rig.play()
    table = rig.table()
    number = 1
    assert table.round is not None and game.results
    cards = _real_cards(rig, table, number)
    points = set(elgamal.card_points(CARDS_IN_DECK))
    readable: dict[int, dict[int, set[int]]] = {
        s: {} for s in range(SEATS)
    }  # seat -> token -> seats
    for _, body in rig.bodies:
        assert not any(p in body.payload for p in points)  # no card travels unmasked
        message = decode(body.payload).message
        if isinstance(message, ShareMessage):
            for seat in range(SEATS):
                readable[seat].setdefault(message.token, set()).add(message.seat)
        elif isinstance(message, SealedShareMessage):
            true = group.times(
                key_secret(rig.secrets(message.seat)), table.deal.deck()[message.token].c1
            )
            for seat in range(SEATS):
                opened = seal.unseal(key_secret(rig.secrets(seat)), message.sealed)
                assert (opened == true) == (seat == message.to)  # sealed to one seat only
                if opened == true:
                    readable[seat].setdefault(message.token, set()).add(message.seat)
    state = table.round
    for seat in range(SEATS):
        for token, senders in readable[seat].items():
            if senders | {seat} != set(range(SEATS)):
                continue  # a share is missing: the card stays hidden from this seat
            # This seat can open the card: the rules must have let it see it.
            assert state.knows(seat, token) or token in _revealed(table), (seat, token)
            assert state.faces[token] is None or state.faces[token].code == cards[token]


def _revealed(table: DutchTable) -> set[int]:
    """The cards turned face up (D-10, D-11, D-21, D-23) or shown at the reveal (D-30)."""
    assert table.round is not None
    return set(table.round.public) | set(reveal_tokens(table.round))
