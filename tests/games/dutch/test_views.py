"""A seat's view of a round holds no face that seat may not know (spec/dutch.md section 10,
D-30): over random rounds, every face in the view is one the rules opened to the seat, the
view built on the seat's own node (which holds only those faces) is the same view, and what
a move did names a face only to those who may know it."""

from __future__ import annotations

from dutchblitz.protocol.games.dutch.cards import FULL_DECK, DutchCard
from dutchblitz.protocol.games.dutch.moves import (
    Discard,
    Draw,
    Look,
    Move,
    Replace,
    Spot,
    Throw,
)
from dutchblitz.protocol.games.dutch.rules import apply
from dutchblitz.protocol.games.dutch.scoring import reveal_tokens
from dutchblitz.protocol.games.dutch.state import Phase, Round
from dutchblitz.protocol.games.dutch.views import CardView, Did, happened, round_view
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.dutch.table import peeked, play, random_round


def _known_tokens(state: Round, seat: int) -> set[int]:
    revealed = set(reveal_tokens(state)) if state.phase is Phase.OVER else set()
    return {t for t in range(54) if state.knows(seat, t) or t in revealed}


def _as_node_holds(state: Round, seat: int) -> Round:
    """The round as ``seat``'s own node holds it: only the faces opened to it."""
    known = _known_tokens(state, seat)
    faces = tuple(f if t in known else None for t, f in enumerate(state.faces))
    return Round(**{**{k: getattr(state, k) for k in state.__slots__}, "faces": faces})


def _shown(state: Round, seat: int) -> list[tuple[int, CardView]]:
    """(token, card view) for every card the view shows, with the token under it."""
    view = round_view(state, seat)
    pairs = [
        (token, card)
        for hand, player in zip(state.hands, view.players, strict=True)
        for token, card in zip(hand, player.hand, strict=True)
        if token is not None and card is not None
    ]
    if state.drawn is not None:
        assert view.drawn is not None
        pairs.append((state.drawn, view.drawn))
    return pairs


def _check_view(state: Round) -> None:
    for seat in range(state.seats):
        known = _known_tokens(state, seat)
        for token, card in _shown(state, seat):
            if card.face is not None:
                assert token in known and card.face == state.faces[token]
            else:
                assert token not in known
        assert round_view(_as_node_holds(state, seat), seat) == round_view(state, seat)


def _check_happening(before: Round, seat: int, move: Move, after: Round) -> None:
    outcome = apply(before, seat, move)
    for viewer in range(before.seats):
        told = happened(before, seat, move, outcome, viewer)
        if told.face is not None:
            assert told.face in {after.faces[t] for t in _known_tokens(after, viewer)}
            assert any(after.faces[t] == told.face and after.knows(viewer, t) for t in range(54))


@settings(max_examples=40, deadline=None)
@given(seats=st.integers(3, 8), order=st.permutations(FULL_DECK), seed=st.integers(0, 2**32))
def test_a_view_never_holds_a_face_its_seat_may_not_know(
    seats: int, order: list[DutchCard], seed: int
) -> None:
    steps, state = random_round(seats, order, seed)
    for before, seat, move, after in steps:
        _check_view(before)
        _check_happening(before, seat, move, after)
    _check_view(state)
    view = round_view(state, 0)
    assert view.score is not None and len(view.score.scores) == seats


HANDS = ["5h 9c Kd Qs", "2c 3c 4c 7d", "Ah Jd 8s 6h"]


def test_a_queen_shows_the_face_to_its_looker_alone() -> None:
    state = play(peeked(HANDS, draw="Qh 7s"), (0, Draw()), (0, Discard()))
    assert state.action == 12
    move = Look(Spot(1, 3))
    outcome = apply(state, 0, move)
    assert happened(state, 0, move, outcome, 0).face == DutchCard(1 * 13 + 6)  # 7d
    assert happened(state, 0, move, outcome, 1).face is None
    assert happened(state, 0, move, outcome, 2).face is None
    looker = round_view(outcome.state, 0).players[1].hand[3]
    owner = round_view(outcome.state, 1).players[1].hand[3]
    assert looker is not None and looker.face is not None and not looker.face_up
    assert owner is not None and owner.face is None


def test_a_drawn_card_is_shown_to_its_drawer_and_a_replaced_one_to_all() -> None:
    state = play(peeked(HANDS, draw="Qh 7s"), (0, Draw()))
    assert round_view(state, 0).drawn == CardView(DutchCard(2 * 13 + 11))
    assert round_view(state, 1).drawn == CardView(None)
    outcome = apply(state, 0, Replace(2))
    told = happened(state, 0, Replace(2), outcome, 1)
    assert told.did is Did.REPLACED and told.face is not None and told.face.label() == "Kd"


def test_a_missed_throw_stays_face_up_and_costs_a_penalty() -> None:
    state = play(peeked(HANDS, draw="9h 7s 6c"), (0, Draw()), (0, Discard()))
    assert round_view(state, 2).can_throw and round_view(state, 0).can_call
    outcome = apply(state, 2, Throw(3))  # 6h on the 9h
    told = happened(state, 2, Throw(3), outcome, 1)
    assert told.did is Did.MISSED and told.penalty
    card = round_view(outcome.state, 1).players[2].hand[3]
    assert card == CardView(DutchCard(2 * 13 + 5), face_up=True)
    assert round_view(outcome.state, 2).players[2].cards == 5
