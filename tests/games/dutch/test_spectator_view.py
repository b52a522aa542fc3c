"""A spectator sees a round of Dutch as nobody at the table (spec/dutch.md D-42): only the
faces open to all. Over random rounds, the public view (``round_view(state, None)``) and
what a move did told to nobody (``happened(..., None)``) hold no other face; through the
table's ``Game`` as real nodes run it, the spectator's node (node/seat/spectator.py
``public_view``, on the log it follows) shows every row face down but for the cards
turned up, and offers no move."""

from __future__ import annotations

from dutchblitz.node.seat.spectator import public_view
from dutchblitz.protocol.games.dutch.cards import FULL_DECK, DutchCard
from dutchblitz.protocol.games.dutch.game import GAME as PLAYER
from dutchblitz.protocol.games.dutch.moves import Discard, Draw, Look, Move, Spot, Throw
from dutchblitz.protocol.games.dutch.rules import apply
from dutchblitz.protocol.games.dutch.scoring import reveal_tokens
from dutchblitz.protocol.games.dutch.state import Phase, Round
from dutchblitz.protocol.games.dutch.table import DutchTable
from dutchblitz.protocol.games.dutch.views import CardView, Did, SeatView, happened, round_view
from dutchblitz.protocol.table.state import Phase as TablePhase
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.dutch.table import peeked, play, random_round
from tests.games.dutch.tablerig import Rig

HANDS = ["5h 9c Kd Qs", "2c 3c 4c 7d", "Ah Jd 8s 6h"]


def _open_to_all(state: Round) -> set[int]:
    revealed = set(reveal_tokens(state)) if state.phase is Phase.OVER else set()
    return set(state.public) | revealed


def _as_spectator_holds(state: Round) -> Round:
    """The round as a spectator's node holds it: only the faces open to all."""
    known = _open_to_all(state)
    faces = tuple(f if t in known else None for t, f in enumerate(state.faces))
    return Round(**{**{k: getattr(state, k) for k in state.__slots__}, "faces": faces})


def _check_public(state: Round) -> None:
    view = round_view(state, None)
    known = _open_to_all(state)
    assert view.me is None and view.mine is None and view.watching
    assert not (view.my_turn or view.can_throw or view.can_call or view.turning_over)
    for hand, player in zip(state.hands, view.players, strict=True):
        for token, card in zip(hand, player.hand, strict=True):
            if token is None or card is None:
                assert token is None and card is None
            elif card.face is not None:
                assert token in known and card.face_up and card.face == state.faces[token]
            else:
                assert token not in known
    if view.drawn is not None:
        assert state.drawn is not None
        assert view.drawn.face is None or state.drawn in known
    assert round_view(_as_spectator_holds(state), None) == view


def _check_told(before: Round, seat: int, move: Move, after: Round) -> None:
    told = happened(before, seat, move, apply(before, seat, move), None)
    if told.face is not None:
        assert any(after.faces[t] == told.face for t in _open_to_all(after))


@settings(max_examples=40, deadline=None)
@given(seats=st.integers(3, 8), order=st.permutations(FULL_DECK), seed=st.integers(0, 2**32))
def test_d42_the_public_view_never_holds_a_face_not_open_to_all(
    seats: int, order: list[DutchCard], seed: int
) -> None:
    steps, state = random_round(seats, order, seed)
    for before, seat, move, after in steps:
        _check_public(before)
        _check_told(before, seat, move, after)
    _check_public(state)
    view = round_view(state, None)  # D-30: the reveal is open to all, and so the score
    assert view.score is not None and len(view.score.scores) == seats


def test_d42_a_spectator_sees_a_missed_throw_but_no_draw_and_no_queen_s_look() -> None:
    start = peeked(HANDS, draw="Qh 7s 6c")
    assert happened(start, 0, Draw(), apply(start, 0, Draw()), None).face is None
    state = play(start, (0, Draw()))
    assert round_view(state, None).drawn == CardView(None)
    state = play(state, (0, Discard()))
    assert state.action == 12
    outcome = apply(state, 0, Look(Spot(1, 3)))
    assert happened(state, 0, Look(Spot(1, 3)), outcome, None).face is None
    assert round_view(outcome.state, None).players[1].hand[3] == CardView(None)
    state = play(outcome.state, (1, Draw()), (1, Discard()))  # 7s on the pile
    outcome = apply(state, 2, Throw(3))  # 6h: no match, face up to all (D-23)
    told = happened(state, 2, Throw(3), outcome, None)
    assert told.did is Did.MISSED and told.face == DutchCard(2 * 13 + 5)
    shown = round_view(outcome.state, None).players[2].hand[3]
    assert shown == CardView(DutchCard(2 * 13 + 5), face_up=True)


def _real_faces(rig: Rig, table: DutchTable) -> set[int]:
    """The tokens any seat knows a face of, through its own secrets: none but the public
    ones may show to a spectator."""
    known: set[int] = set()
    assert table.round is not None
    for seat in range(rig.players):
        view = PLAYER.seat_view(table, table.seats[seat], rig.secrets(seat))
        assert view is not None and view.round is not None
        known |= {
            token
            for hand, player in zip(table.round.hands, view.round.players, strict=True)
            for token, card in zip(hand, player.hand, strict=True)
            if token is not None and card is not None and card.face is not None
        }
    return known


def _check_spectator(rig: Rig) -> SeatView | None:
    watched = public_view(rig.replayed())  # the spectator follows the same log
    if rig.game.phase != TablePhase.PLAYING or rig.game.table is None:
        return None
    table = rig.table()
    assert isinstance(watched, SeatView) and watched == PLAYER.seat_view(table, None, None)
    assert PLAYER.seat_view(table, 99, None) == watched  # a seat not dealt in sees the same
    if watched.round is None or table.round is None:
        return watched
    known = _open_to_all(table.round)
    for hand, player in zip(table.round.hands, watched.round.players, strict=True):
        for token, card in zip(hand, player.hand, strict=True):
            if token is not None and card is not None and card.face is not None:
                assert token in known and card.face_up
    assert all(h.face is None for h in watched.news if h.did in (Did.DREW, Did.LOOKED))
    assert not watched.waiting and watched.round.me is None
    return watched


def test_d42_a_spectator_of_real_nodes_sees_only_the_cards_turned_up() -> None:
    rig = Rig(players=3, seed=7, target=1)
    seen: list[SeatView] = []
    hidden_somewhere = False
    for _ in range(2000):
        watched = _check_spectator(rig)
        if watched is not None and watched.round is not None:
            seen.append(watched)
            table = rig.table()
            assert table.round is not None
            hidden_somewhere |= bool(_real_faces(rig, table) - _open_to_all(table.round))
        if rig.game.phase == TablePhase.OVER or not rig.step():
            break
    assert seen and hidden_somewhere  # the players knew cards the spectator did not
    assert any(h.did is Did.DREW for v in seen for h in v.news)
    assert public_view(rig.replayed()) is not None  # between rounds, the last one
