"""A whole round of Dutch played by three nodes that each know only what the rules open to
them, every card opened with mental poker (spec/dutch.md section 10, spec/dutch-deal.md).

Each node keeps its own state (faces unknown until opened) and its own key secret. A move
that turns a card up is applied once every node has opened it with everyone's shares; a
private opening (a draw, a peek, a Queen) is done with the other nodes' shares sent to the
one player alone. The test's referee holds the full table, to choose moves and to check.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from dutchblitz.protocol.games.dutch.cards import CARDS_IN_DECK, DutchCard
from dutchblitz.protocol.games.dutch.legal import legal_moves
from dutchblitz.protocol.games.dutch.moves import CallDutch, Move
from dutchblitz.protocol.games.dutch.rules import apply, needs_open
from dutchblitz.protocol.games.dutch.scoring import reveal_tokens, score_round
from dutchblitz.protocol.games.dutch.state import Phase, Round, deal, with_faces
from dutchblitz.protocol.table.masked import elgamal
from dutchblitz.protocol.table.masked.checks import ShareMessage, check_share_message

TABLE, ROUND, SEATS = bytes(16), 1, 3


class Tables:
    """The deal, every node's secret and state, and the referee's full table."""

    def __init__(self, seed: int) -> None:
        self.secrets = [elgamal.key_secret(bytes([seed, s]) * 16) for s in range(SEATS)]
        self.publics = [elgamal.public_key(x) for x in self.secrets]
        joint = elgamal.joint_key(self.publics)
        deck, steps = elgamal.initial_deck(CARDS_IN_DECK), []
        for seat in range(SEATS):
            steps.append(elgamal.shuffle(deck, joint, bytes([seed, 100 + seat]) * 16))
            deck = steps[-1].deck
        self.deck = deck
        faces = []
        for token in range(54):
            for step in reversed(steps):
                token = step.permutation[token]
            faces.append(DutchCard(token))
        self.full = deal(SEATS, faces=faces)
        self.nodes = [deal(SEATS) for _ in range(SEATS)]
        self.shares_sent: list[ShareMessage] = []

    def _share(self, seat: int, token: int, to: int | None) -> ShareMessage:
        context = elgamal.opening_context(TABLE, ROUND, token)
        share = elgamal.decryption_share(self.secrets[seat], self.deck[token], context)
        message = ShareMessage(seat, token, to, share)
        self.shares_sent.append(message)
        return message

    def open_to(self, token: int, to: int) -> None:
        """M-19: the others' shares go to ``to`` alone; it adds its own, never sent."""
        received = [self._share(s, token, to) for s in range(SEATS) if s != to]
        for message in received:
            assert check_share_message(message, self.publics, self.deck, TABLE, ROUND) is None
        context = elgamal.opening_context(TABLE, ROUND, token)
        own = elgamal.decryption_share(self.secrets[to], self.deck[token], context).point
        code = elgamal.open_card(
            self.deck[token], [own, *(m.share.point for m in received)], CARDS_IN_DECK
        )
        assert code is not None
        self.nodes[to] = with_faces(self.nodes[to], {token: DutchCard(code)})

    def open_to_all(self, token: int) -> None:
        sent = [self._share(s, token, None) for s in range(SEATS)]
        for seat in range(SEATS):
            if self.nodes[seat].faces[token] is None:
                points = [m.share.point for m in sent]
                code = elgamal.open_card(self.deck[token], points, CARDS_IN_DECK)
                assert code is not None
                self.nodes[seat] = with_faces(self.nodes[seat], {token: DutchCard(code)})

    def play(self, seat: int, move: Move) -> None:
        for token in needs_open(self.full, seat, move):
            self.open_to_all(token)
        outcome = apply(self.full, seat, move)
        assert outcome.accepted
        self.full = outcome.state
        for node in range(SEATS):
            mine = apply(self.nodes[node], seat, move)
            assert mine.refusal is None and mine.openings == outcome.openings
            self.nodes[node] = mine.state
        for opening in outcome.openings:
            assert opening.seat is not None
            self.open_to(opening.token, opening.seat)


def _choose(state: Round, rng: random.Random) -> tuple[int, Move]:
    choices = [(s, m) for s in sorted(state.active) for m in legal_moves(state, s)]
    if state.turns < 6:  # play a few turns before anyone calls
        choices = [(s, m) for s, m in choices if not isinstance(m, CallDutch)]
    return rng.choice(choices)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_nodes_learn_exactly_what_the_rules_open_to_them_and_agree(seed: int) -> None:
    tables, rng = Tables(seed), random.Random(seed)
    while tables.full.phase is not Phase.OVER:
        seat, move = _choose(tables.full, rng)
        tables.play(seat, move)
        for node, state in enumerate(tables.nodes):
            assert replace(state, faces=tables.full.faces) == tables.full
            known = {t for t in range(54) if state.faces[t] is not None}
            assert known == {t for t in range(54) if tables.full.knows(node, t)}
            assert all(state.faces[t] == tables.full.faces[t] for t in known)
    for message in tables.shares_sent:  # M-19: a share goes only where the rules open it
        if message.to is not None:
            assert tables.full.seen_by[message.token] >= {message.to}
    for token in reveal_tokens(tables.full):
        tables.open_to_all(token)
    scores = {score_round(state) for state in tables.nodes}
    assert scores == {score_round(tables.full)}
