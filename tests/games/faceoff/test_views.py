"""spec/faceoff.md F-43: one view for every seat, and the public form for the digest."""

from __future__ import annotations

from dataclasses import replace

from dutchblitz.protocol.games.faceoff.game import Match
from dutchblitz.protocol.games.faceoff.moves import TABLE, Claim, Roll, Tie, Turn
from dutchblitz.protocol.games.faceoff.state import Mode, Phase
from dutchblitz.protocol.games.faceoff.views import public_form, view
from dutchblitz.protocol.replica.digest import canonical_bytes

from tests.games.faceoff.table import EN, card, laid, ok, play, random_game


def test_F43_every_seat_sees_the_same_table() -> None:
    state = ok(laid(4, {1: [card(1, 1)]}, turn=0, mode=Mode.SPOKEN), 0, Turn(0, card(1))).state
    views = [view(state, seat) for seat in (0, 1, 2, None)]
    assert {v.seat for v in views} == {0, 1, 2, None}
    assert len({replace(v, seat=None) for v in views}) == 1
    seen = views[0]
    assert seen.tops[0].symbol == "B square" and seen.tops[0].category == "a band"
    assert seen.faceoff.a_answers.category == "category 9" and seen.faceoff.b_answers.card == 1
    assert seen.draw_left == (27, 29) and seen.phase is Phase.FACEOFF


def test_F43_the_view_shows_the_duel_pair_and_the_tiebreak() -> None:
    state = play(laid(4, {}, turn=0), (0, Turn(0, 54)), (TABLE, Roll(3)))
    assert view(state).duel_pair == ("A circle", "D star")
    spoken = ok(laid(4, {1: [card(1, 1)]}, turn=0, mode=Mode.SPOKEN), 0, Turn(0, card(1))).state
    tied = play(spoken, (0, Claim()), (TABLE, Tie()))
    assert view(tied).tie_drawer == 2 and view(tied).faceoff is None


def test_F43_the_public_form_is_plain_data_that_follows_the_state() -> None:
    states = random_game(4, seed=3)
    forms = [public_form(s) for s in states]
    for form in forms:
        assert canonical_bytes(form)  # msgpack takes it as it is: lists, ints, strings
        assert form[1] == EN.digest
    assert len({canonical_bytes(f) for f in forms}) == len(forms)  # every move shows
    assert view(states[-1]).winners


def test_F44_a_match_keeps_its_state_and_a_refusal_changes_nothing() -> None:
    match = Match(laid(4, {}, turn=0))
    before = match.state
    assert match.apply(1, Turn(0, card(2))).reason == "not_your_turn"
    assert match.state is before and not match.over
    assert match.apply(0, Turn(0, card(2))) is None and match.state.top(0) == card(2)
    assert match.public_form() == public_form(match.state) and match.view(2).seat == 2
