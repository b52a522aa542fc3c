"""spec/faceoff.md, rule by rule: each test names the F-ids it checks.

Cards by symbol: ``card(s, n)`` is the ``n``-th category card showing symbol ``s`` (A=0 ...
H=7). In the English fixture pack card 0 is "a fruit", 1 "a band", 2 "a sport", 3 "a music
style", 4 "a sport accessory", 5 "an animal", 6 "a dessert", 7 "a city".
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from dutchblitz.protocol.games.faceoff.moves import (
    TABLE,
    Answer,
    Claim,
    Concede,
    Contest,
    Leave,
    Roll,
    Tie,
    Turn,
    Vote,
    WindowClosed,
)
from dutchblitz.protocol.games.faceoff.rules import category_for, next_faceoff, tie_drawer
from dutchblitz.protocol.games.faceoff.state import (
    Ending,
    Faceoff,
    Game,
    Mode,
    Phase,
    new_game,
    scores,
    winners,
)
from dutchblitz.protocol.games.faceoff.views import view

from tests.games.faceoff.table import EN, card, laid, ok, play, refused

A, B, C, D, E, F, G, H = range(8)


def test_F2_three_to_eight_seats() -> None:
    for seats in (2, 9):
        with pytest.raises(ValueError):
            new_game(EN, seats)
    assert new_game(EN, 3).seats == 3 and new_game(EN, 8).seats == 8
    with pytest.raises(ValueError):
        new_game(EN, 4, first=4)


def test_F6_F8_F10_set_up_two_piles_the_first_player() -> None:
    four = new_game(EN, 4, first=2)
    assert four.hidden == (29, 29) and four.unseen == frozenset(range(58))
    assert four.turn == 2 and four.phase is Phase.TURN and four.removed_face is None
    three = new_game(EN, 3)
    assert three.hidden == (23, 23) and len(three.unseen) == 46 and three.removed_face == 5
    assert all(not p for p in four.play) and four.under == ((), ())


def test_F7_seats_and_table_events() -> None:
    state = new_game(EN, 4)
    assert refused(state, 4, Turn(0, 0)) == "unknown_seat"
    assert refused(state, TABLE, Turn(0, 0)) == "unknown_seat"
    assert refused(state, 0, Roll(1)) == "table_only"
    assert refused(state, 2, Tie()) == "table_only"
    assert refused(state, 1, WindowClosed()) == "table_only"
    gone = ok(state, 3, Leave()).state
    assert refused(gone, 3, Claim()) == "not_active"


@pytest.mark.parametrize(
    ("seat", "pile", "turned", "reason"),
    [
        (1, 0, 5, "not_your_turn"),
        (0, 2, 5, "bad_pile"),
        (0, 0, 9, "not_on_top"),  # card 9 is already on seat 1's play pile
    ],
)
def test_F9_F34_turn_refusals(seat: int, pile: int, turned: int, reason: str) -> None:
    state = laid(4, {1: [card(B, 1)]})
    assert refused(state, seat, Turn(pile, turned)) == reason


def test_F9_a_turned_card_covers_the_players_pile_and_the_turn_moves_on() -> None:
    state = laid(4, {0: [card(B)]}, turn=0)
    after = ok(state, 0, Turn(1, card(C))).state
    assert after.play[0] == (card(B), card(C)) and after.top(0) == card(C)
    assert after.hidden[1] == state.hidden[1] - 1 and card(C) not in after.unseen
    assert after.phase is Phase.TURN and after.turn == 1 and after.turned == 1
    empty = laid(4, {}, hidden=(0, 58 - 0))
    assert refused(empty, 0, Turn(0, 3)) == "pile_empty"


def test_F11_F18_same_symbols_make_a_faceoff_on_each_others_category() -> None:
    state = laid(4, {2: [card(A)]}, turn=0)
    state = ok(state, 0, Turn(0, card(A, 1))).state
    assert state.phase is Phase.FACEOFF and state.faceoff == Faceoff(0, 2)
    assert category_for(state, 0) == card(A) and category_for(state, 2) == card(A, 1)
    assert state.faceoffs == 1


def test_F12_empty_piles_and_absent_players_match_nothing() -> None:
    state = laid(4, {1: [card(A)]}, turn=0)
    state = ok(state, 1, Leave()).state
    state = ok(state, 0, Turn(0, card(A, 1))).state
    assert state.phase is Phase.TURN and state.turn == 2
    assert next_faceoff(laid(4, {})) is None


def test_F13_F14_a_duel_goes_to_the_middle_and_the_table_rolls() -> None:
    state = laid(4, {}, turn=1)
    state = ok(state, 1, Turn(0, 55)).state
    assert state.duels == (55,) and all(not p for p in state.play) and state.phase is Phase.ROLL
    assert refused(state, 1, Turn(0, 3)) == "wrong_phase"
    assert refused(state, TABLE, Roll(6)) == "bad_face"
    assert refused(state, TABLE, Roll(-1)) == "bad_face"
    assert refused(laid(4, {}), TABLE, Roll(0)) == "wrong_phase"


def test_F15_F38_the_rolled_pair_makes_faceoffs_now_and_later_and_the_drawer_turns_again() -> None:
    state = laid(4, {0: [card(A)], 3: [card(D)]}, turn=1)
    state = play(state, (1, Turn(0, 54)), (TABLE, Roll(3)))  # face 3: A + D
    assert state.die == 3 and state.faceoff == Faceoff(3, 0) and state.phase is Phase.FACEOFF
    state = ok(state, 3, Concede()).state  # seat 0 wins seat 3's D card
    assert state.won[0] == (card(D),) and state.phase is Phase.TURN and state.turn == 1
    state = ok(state, 1, Turn(1, card(D, 1))).state  # D matches A through the pair
    assert state.faceoff == Faceoff(1, 0)


def test_F15_a_new_duel_replaces_the_pair() -> None:
    state = laid(4, {0: [card(A)], 2: [card(C)]}, turn=1, die=3)
    state = play(state, (1, Turn(0, 54)), (TABLE, Roll(1)))  # C + D now, A + D no more
    assert state.phase is Phase.TURN and state.turn == 1
    state = ok(state, 1, Turn(0, card(D))).state
    assert state.faceoff == Faceoff(1, 2)


def test_F6_at_three_players_face_5_is_rolled_again() -> None:
    state = new_game(EN, 3)
    state = ok(state, 0, Turn(0, 54)).state
    again = ok(state, TABLE, Roll(5)).state
    assert again == state and again.phase is Phase.ROLL and again.die is None
    assert ok(state, TABLE, Roll(4)).state.die == 4
    four = ok(new_game(EN, 4), 0, Turn(0, 54)).state
    assert ok(four, TABLE, Roll(5)).state.die == 5


def test_F16_F17_nothing_is_turned_during_a_faceoff() -> None:
    state = ok(laid(4, {2: [card(A)]}), 0, Turn(0, card(A, 1))).state
    for seat in range(4):
        assert refused(state, seat, Turn(1, card(B))) == "wrong_phase"


def test_F19_F20_F22_the_winner_takes_the_top_card_and_the_cascade_follows() -> None:
    # Seat 2 holds C under A; seat 3 shows C. Seat 0 turns A: 0 against 2.
    state = laid(4, {2: [card(C), card(A)], 3: [card(C, 1)]}, turn=0)
    state = ok(state, 0, Turn(0, card(A, 1))).state
    assert state.faceoff == Faceoff(0, 2) and view(state).cascade == 0  # a turn's face-off
    state = ok(state, 2, Concede()).state
    assert state.won[0] == (card(A),) and state.play[0] == (card(A, 1),)
    assert state.play[2] == (card(C),) and state.mover == 2
    assert state.faceoff == Faceoff(2, 3) and state.faceoffs == 2  # F-20: the cascade
    assert view(state).cascade == 1
    state = ok(state, 2, Concede()).state
    assert state.won[3] == (card(C),) and state.play[2] == ()
    assert state.phase is Phase.TURN and state.turn == 1  # F-22: after the last who turned


def test_F21_the_faceoff_nearest_clockwise_from_the_mover_comes_first() -> None:
    state = laid(5, {0: [card(A)], 2: [card(A, 1)], 4: [card(A, 2)]}, mover=3)
    assert next_faceoff(state) == Faceoff(4, 0)
    assert next_faceoff(laid(5, {0: [card(A)], 2: [card(A, 1)], 4: [card(A, 2)]}, mover=1)) == (
        Faceoff(2, 4)
    )
    paired = laid(5, {1: [card(B)], 2: [card(A)], 4: [card(C)]}, mover=0, die=0)
    assert next_faceoff(paired) == Faceoff(1, 2)


def test_F23_answers_of_the_other_mode_are_refused() -> None:
    typed = ok(laid(4, {2: [card(A)]}), 0, Turn(0, card(A, 1))).state
    assert refused(typed, 0, Claim()) == "wrong_mode"
    spoken = ok(laid(4, {2: [card(A)]}, mode=Mode.SPOKEN), 0, Turn(0, card(A, 1))).state
    assert refused(spoken, 0, Answer("apple")) == "wrong_mode"


def _typed() -> Game:
    # Seat 0 shows "a band" (card 1), seat 1 "a sport" (card 9 shows B too).
    return ok(laid(4, {1: [card(B, 1)]}, turn=0), 0, Turn(0, card(B))).state


def test_F24_F31_a_listed_answer_wins_at_once() -> None:
    state = _typed()
    assert category_for(state, 0) == card(B, 1) and category_for(state, 1) == card(B)
    state = ok(state, 1, Answer("The Beatles")).state  # seat 1 names a band
    assert state.won[1] == (card(B),) and state.said == {"beatle"}
    assert state.phase is Phase.TURN


@pytest.mark.parametrize(
    ("seat", "text", "reason"),
    [(2, "queen", "not_in_faceoff"), (0, " ?! ", "empty_answer")],
)
def test_F24_typed_answer_refusals(seat: int, text: str, reason: str) -> None:
    assert refused(_typed(), seat, Answer(text)) == reason


def test_F24_nobody_answers_outside_a_faceoff() -> None:
    assert refused(laid(4, {}), 0, Answer("apple")) == "wrong_phase"


def test_F29_F31_an_unlisted_answer_waits_and_silence_accepts() -> None:
    state = ok(_typed(), 0, Answer("my uncle Paul's bagpipes")).state
    assert state.faceoff.claimant == 0 and state.faceoff.answer == "my uncle paul bagpipe"
    assert view(state).faceoff.text == "my uncle Paul's bagpipes"
    assert refused(state, 1, Answer("queen")) == "pending"
    state = ok(state, TABLE, WindowClosed()).state
    assert state.won[0] == (card(B, 1),) and state.phase is Phase.TURN


def test_F32_a_repeat_never_wins_and_a_refused_answer_stays_said() -> None:
    state = ok(_typed(), 0, Answer("hurling")).state
    state = play(state, (1, Contest()), (0, Vote(False)), (1, Vote(False)), (2, Vote(True)),
                 (3, Vote(False)))  # fmt: skip
    assert state.faceoff.claimant is None and state.phase is Phase.FACEOFF
    assert "hurling" in state.said
    assert refused(state, 0, Answer("Hurling!")) == "repeat"
    assert refused(state, 1, Answer("hurling")) == "repeat"


def _spoken() -> Game:
    return ok(laid(4, {1: [card(B, 1)]}, turn=0, mode=Mode.SPOKEN), 0, Turn(0, card(B))).state


def test_F25_F26_a_claim_then_a_concession() -> None:
    state = ok(_spoken(), 1, Claim()).state
    assert state.faceoff.claimant == 1
    assert refused(state, 0, Claim()) == "pending"
    assert refused(state, 2, Concede()) == "not_in_faceoff"
    state = ok(state, 0, Concede()).state
    assert state.won[1] == (card(B),)


def test_F26_a_player_may_concede_with_nothing_claimed() -> None:
    state = ok(_spoken(), 1, Concede()).state
    assert state.won[0] == (card(B, 1),)


def test_F27_contests() -> None:
    state = _spoken()
    assert refused(state, 2, Contest()) == "nothing_pending"
    state = ok(state, 0, Claim()).state
    assert refused(state, 0, Contest()) == "own_claim"
    voting = ok(state, 1, Contest()).state
    assert voting.faceoff.voting
    assert refused(voting, 3, Contest()) == "voting"
    assert refused(voting, 1, Concede()) == "voting"
    assert refused(voting, TABLE, Tie()) == "voting"
    assert refused(voting, 0, Claim()) == "voting"
    assert refused(laid(4, {}), 0, Contest()) == "wrong_phase"


@pytest.mark.parametrize(
    ("votes", "accepted"),
    [
        ([(0, True), (1, False), (2, True), (3, False)], True),  # a tied vote accepts
        ([(0, True), (1, False), (2, False), (3, False)], False),
        ([(0, True), (1, True), (2, True), (3, True)], True),
    ],
)
def test_F28_the_vote_closes_when_all_have_voted(votes: list, accepted: bool) -> None:
    state = play(_spoken(), (0, Claim()), (2, Contest()), *[(s, Vote(v)) for s, v in votes])
    assert state.phase is (Phase.TURN if accepted else Phase.FACEOFF)
    assert state.won[0] == ((card(B, 1),) if accepted else ())


@pytest.mark.parametrize(
    ("votes", "accepted"),
    [([], True), ([(3, False)], False), ([(3, False), (0, True)], True), ([(1, True)], True)],
)
def test_F28_F29_abstentions_do_not_count_when_the_window_closes(
    votes: list, accepted: bool
) -> None:
    state = play(_spoken(), (0, Claim()), (2, Contest()), *[(s, Vote(v)) for s, v in votes])
    state = ok(state, TABLE, WindowClosed()).state
    assert (state.won[0] == (card(B, 1),)) is accepted
    assert state.faceoff is None or not state.faceoff.voting


def test_F28_one_vote_each_and_only_in_a_vote() -> None:
    state = play(_spoken(), (0, Claim()), (2, Contest()), (2, Vote(False)))
    assert refused(state, 2, Vote(True)) == "already_voted"
    assert refused(_spoken(), 2, Vote(True)) == "no_vote"


def test_F29_a_window_with_nothing_waiting_is_refused() -> None:
    assert refused(_spoken(), TABLE, WindowClosed()) == "nothing_pending"
    state = ok(ok(_spoken(), 1, Claim()).state, TABLE, WindowClosed()).state
    assert state.won[1] == (card(B),)


def test_F35_a_tie_calls_a_named_player_to_turn_the_tiebreak_card() -> None:
    state = play(_spoken(), (0, Claim()), (TABLE, Tie()))
    assert state.phase is Phase.TIE_DRAW and state.faceoff == Faceoff(0, 1)
    assert tie_drawer(state) == 2
    assert refused(state, 0, Turn(0, card(C))) == "not_your_turn"
    assert refused(state, 3, Turn(0, card(C))) == "not_your_turn"
    assert refused(laid(4, {}), TABLE, Tie()) == "wrong_phase"
    assert refused(state, TABLE, Tie()) == "wrong_phase"


def test_F36_both_answer_the_tiebreak_card_which_goes_back_under_its_pile() -> None:
    state = play(_spoken(), (TABLE, Tie()), (2, Turn(1, card(E))))
    assert state.phase is Phase.FACEOFF and state.faceoff.tie_card == card(E)
    assert category_for(state, 0) == category_for(state, 1) == card(E)
    state = play(state, (1, Claim()), (0, Concede()))
    assert state.won[1] == (card(B),) and state.under == ((), (card(E),))
    assert state.play[2] == () and state.turn == 1


def test_F36_a_duel_drawn_for_a_tiebreak_goes_back_and_another_is_drawn() -> None:
    state = play(_spoken(), (TABLE, Tie()), (2, Turn(0, 56)))
    assert state.phase is Phase.TIE_DRAW and state.under == ((56,), ())
    assert state.duels == () and tie_drawer(state) == 2
    state = ok(state, 2, Turn(0, card(E))).state
    assert state.faceoff.tie_card == card(E)


def test_F36_a_tie_in_a_tiebreak_puts_the_card_back_and_draws_another() -> None:
    state = play(_spoken(), (TABLE, Tie()), (2, Turn(1, card(E))), (TABLE, Tie()))
    assert state.phase is Phase.TIE_DRAW and state.under == ((), (card(E),))


def test_F36_a_pile_of_duels_cannot_break_a_tie() -> None:
    # Pile 0 holds only Duel 54, put back under it; pile 1 one unseen card, E.
    state = laid(4, {0: [card(B)], 1: [card(B, 1)]}, mode=Mode.SPOKEN)
    rest = state.unseen - {54, card(E)}
    state = replace(state, unseen=frozenset({card(E)}), hidden=(0, 1), under=((54,), ()),
                    won=((), (), (), tuple(sorted(rest))), phase=Phase.FACEOFF,
                    faceoff=Faceoff(0, 1))  # fmt: skip
    state = ok(state, TABLE, Tie()).state
    assert refused(state, 2, Turn(0, 54)) == "no_category_card"
    assert ok(state, 2, Turn(1, card(E))).state.faceoff.tie_card == card(E)


def test_F37_with_no_category_card_left_a_tie_restarts_the_faceoff() -> None:
    state = ok(_spoken(), 0, Claim()).state
    state = replace(state, unseen=frozenset({57}), hidden=(1, 0))
    state = ok(state, TABLE, Tie()).state
    assert state.phase is Phase.FACEOFF and state.faceoff == Faceoff(0, 1)


def test_F39_a_faceoff_with_a_player_who_leaves_ends_with_no_winner() -> None:
    state = ok(_spoken(), 0, Claim()).state
    state = ok(state, 1, Leave()).state
    assert state.phase is Phase.TURN and state.turn == 2 and scores(state) == (0, 0, 0, 0)
    assert state.play[1] == (card(B, 1),)  # the piles stay
    tied = play(_spoken(), (TABLE, Tie()), (2, Turn(1, card(E))), (0, Leave()))
    assert tied.under == ((), (card(E),)) and tied.phase is Phase.TURN


def test_F39_turns_skip_a_player_who_left_and_a_vote_goes_on_without_them() -> None:
    state = ok(laid(4, {}, turn=1), 1, Leave()).state
    assert state.turn == 2
    state = ok(state, 2, Turn(0, card(C))).state
    assert state.turn == 3
    state = ok(state, 3, Turn(0, card(D))).state
    assert state.turn == 0
    voting = play(_spoken(), (0, Claim()), (2, Contest()), (0, Vote(True)), (1, Vote(False)),
                  (2, Vote(False)))  # fmt: skip
    assert voting.faceoff.voting
    after = ok(voting, 2, Leave()).state  # its vote is withdrawn: 1 for, 1 against
    assert after.faceoff.voting and after.faceoff.no == {1}
    after = ok(after, 3, Leave()).state  # everyone left at the table has voted: a tie
    assert after.won[0] == (card(B, 1),)


def test_F39_the_tiebreak_turner_who_leaves_is_replaced() -> None:
    state = play(_spoken(), (TABLE, Tie()), (2, Leave()))
    assert state.phase is Phase.TIE_DRAW and tie_drawer(state) == 3


def test_F40_fewer_than_two_players_end_the_game() -> None:
    state = play(laid(3, {}), (1, Leave()), (2, Leave()))
    assert state.phase is Phase.OVER and state.ending is Ending.DESERTED
    assert winners(state) == (0,)


def test_F41_the_game_ends_when_both_piles_are_empty_and_no_faceoff_is_left() -> None:
    state = laid(4, {2: [card(A)]}, turn=0, hidden=(1, 0), unseen=frozenset({card(A, 1)}))
    state = ok(state, 0, Turn(0, card(A, 1))).state
    assert state.phase is Phase.FACEOFF  # the last card made a face-off: it is played
    state = ok(state, 0, Concede()).state
    assert state.phase is Phase.OVER and state.ending is Ending.PILES_OUT
    assert refused(state, 0, Turn(0, 3)) == "game_over"
    assert refused(state, TABLE, Roll(0)) == "game_over"


def test_F42_most_won_cards_win_and_ties_share() -> None:
    state = laid(4, {}, won=((1, 2), (3, 4), (5,), (6, 7, 8)))
    assert winners(state) == (3,)
    gone = ok(state, 3, Leave()).state
    assert winners(gone) == (0, 1) and scores(gone) == (2, 2, 1, 3)


@pytest.mark.parametrize(
    ("state", "seat", "move", "reason"),
    [
        (_spoken(), 2, Answer("x"), "wrong_mode"),  # before not_in_faceoff
        (play(_spoken(), (0, Claim()), (1, Contest())), 0, Contest(), "voting"),
        (play(_spoken(), (0, Claim()), (1, Contest())), 3, Claim(), "not_in_faceoff"),
        (laid(4, {}), TABLE, Roll(9), "wrong_phase"),  # before bad_face
        (laid(4, {}), 1, Turn(7, 0), "not_your_turn"),  # before bad_pile
        (ok(_spoken(), TABLE, Tie()).state, 0, Turn(7, 0), "not_your_turn"),
        (_typed(), 0, Vote(True), "no_vote"),
        (laid(4, {}, phase=Phase.OVER), 9, Turn(0, 0), "game_over"),  # before unknown_seat
        (laid(4, {}, phase=Phase.OVER), 0, Roll(0), "game_over"),  # before table_only
    ],
)
def test_F44_the_first_reason_in_the_order_is_given(
    state: Game, seat: int, move: object, reason: str
) -> None:
    assert refused(state, seat, move) == reason  # type: ignore[arg-type]
