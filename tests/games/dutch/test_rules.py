"""spec/dutch.md, rule by rule: each test names the D-ids it checks."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.games.dutch.cards import FULL_DECK, DutchCard
from dutchblitz.protocol.games.dutch.moves import (
    CallDutch,
    Discard,
    Draw,
    Give,
    InitialPeek,
    Leave,
    Look,
    Opening,
    Replace,
    Skip,
    Spot,
    Swap,
    Throw,
)
from dutchblitz.protocol.games.dutch.rules import apply, needs_open
from dutchblitz.protocol.games.dutch.state import Ending, Phase, deal, view, with_faces

from tests.games.dutch.table import card, labels, ok, peeked, play, table

THREE = ("2c 3c 4c 5c", "2d 3d 4d 5d", "2h 3h 4h 5h")


def test_D1_D2_the_deck_and_its_points() -> None:
    assert len(FULL_DECK) == 54 and len({c.code for c in FULL_DECK}) == 54
    assert sum(c.is_joker for c in FULL_DECK) == 2
    points = {str(c): c.points for c in FULL_DECK}
    assert points["Ac"] == 1 and points["10s"] == 10 and points["Jd"] == 11
    assert points["Qh"] == 12 and points["Kh"] == 0 and points["Kd"] == 0
    assert points["Ks"] == 13 and points["Kc"] == 13 and points["*"] == -1
    with pytest.raises(ValueError):
        DutchCard(54)


@pytest.mark.parametrize("seats", [2, 9])
def test_D4_three_to_eight_seats(seats: int) -> None:
    with pytest.raises(ValueError):
        deal(seats)
    assert deal(3).seats == 3 and deal(8).draw == tuple(range(32, 54))


def test_D3_D5_the_deal_by_tokens() -> None:
    state = deal(3, penalised=[1])
    assert state.hands == ((0, 3, 6, 9), (1, 4, 7, 10, 12), (2, 5, 8, 11))
    assert state.draw[0] == 13 and len(state.draw) == 41 and state.discard == ()
    assert all(f is None for f in state.faces)  # a node's own state: nothing opened yet
    assert not state.public and all(not s for s in state.seen_by)


def test_D6_D7_initial_peeks_open_two_own_cards_then_the_starter_draws() -> None:
    state = table(THREE, starter=1)
    outcome = ok(state, 2, InitialPeek(3, 1))
    assert outcome.openings == (Opening(11, 2), Opening(5, 2))
    assert outcome.state.phase is Phase.PEEK
    assert apply(outcome.state, 2, InitialPeek(0, 2)).refusal.reason == "already_peeked"
    assert apply(outcome.state, 0, Draw()).refusal.reason == "not_your_turn"
    state = play(outcome.state, (0, InitialPeek(0, 1)), (1, InitialPeek(2, 3)))
    assert state.phase is Phase.DRAW and state.turn == 1 and not state.window


def test_D8_moves_from_unknown_or_absent_seats_are_refused() -> None:
    state = peeked(THREE)
    assert apply(state, 3, Draw()).refusal.reason == "unknown_seat"
    state = ok(state, 2, Leave()).state
    assert apply(state, 2, Throw(0)).refusal.reason == "not_active"


def test_D9_drawing_opens_the_card_to_the_drawer_alone() -> None:
    state = peeked(THREE, draw="9s")
    outcome = ok(state, 0, Draw())
    token = outcome.state.drawn
    assert outcome.openings == (Opening(token, 0),) and str(outcome.state.faces[token]) == "9s"
    assert outcome.state.seen_by[token] == {0} and outcome.state.phase is Phase.DECIDE
    assert view(outcome.state, 1).drawn.face is None and view(outcome.state, 0).drawn.face


def test_D10_discarding_the_drawn_card_turns_it_up_and_ends_the_turn() -> None:
    state = ok(peeked(THREE, draw="9s"), 0, Draw()).state
    assert needs_open(state, 0, Discard()) == (state.drawn,)
    state = ok(state, 0, Discard()).state
    assert str(state.faces[state.top()]) == "9s" and state.top() in state.public
    assert state.turn == 1 and state.phase is Phase.DRAW and state.window


def test_D11_replacing_puts_the_drawn_card_face_down_and_the_old_one_up() -> None:
    state = ok(peeked(THREE, draw="9s"), 0, Draw()).state
    drawn = state.drawn
    assert needs_open(state, 0, Replace(2)) == (state.hands[0][2],)
    state = ok(state, 0, Replace(2)).state
    assert labels(state, 0) == ["2c", "3c", "9s", "5c"] and str(state.faces[state.top()]) == "4c"
    assert drawn not in state.public and state.seen_by[drawn] == {0}
    assert apply(state, 0, Replace(2)).refusal.reason == "not_your_turn"


@pytest.mark.parametrize(("drawn", "phase"), [("Jc", Phase.ACTION), ("Qc", Phase.ACTION),
    ("Ac", Phase.ACTION), ("Kc", Phase.DRAW), ("7c", Phase.DRAW)])  # fmt: skip
def test_D12_D18_jack_queen_ace_give_an_action_a_king_none(drawn: str, phase: Phase) -> None:
    state = play(peeked(THREE, draw=drawn), (0, Draw()), (0, Discard()))
    assert state.phase is phase and state.turn == (0 if phase is Phase.ACTION else 1)


def test_D12_a_special_card_replaced_out_of_a_hand_gives_its_action_too() -> None:
    state = play(peeked(("Qd 3c 4c 5c", *THREE[1:]), draw="9s"), (0, Draw()), (0, Replace(0)))
    assert state.phase is Phase.ACTION and state.action == 12


def test_D13_every_action_may_be_skipped() -> None:
    state = play(peeked(THREE, draw="Jc"), (0, Draw()), (0, Discard()), (0, Skip()))
    assert state.turn == 1 and state.phase is Phase.DRAW
    assert apply(state, 1, Skip()).refusal.reason == "wrong_stage"


def test_D14_a_jack_swaps_any_two_cards_and_knowledge_follows_the_card() -> None:
    state = play(peeked(THREE, draw="Jc"), (0, Draw()), (0, Discard()))
    assert apply(state, 0, Look(Spot(1, 0))).refusal.reason == "wrong_action"
    assert apply(state, 0, Swap(Spot(1, 0), Spot(1, 0))).refusal.reason == "same_spot"
    assert apply(state, 0, Swap(Spot(1, 9), Spot(1, 0))).refusal.reason == "bad_slot"
    mine = state.hands[0][0]
    state = ok(state, 0, Swap(Spot(0, 0), Spot(2, 3))).state
    assert labels(state, 0)[0] == "5h" and labels(state, 2)[3] == "2c"
    assert state.hands[2][3] == mine and state.seen_by[mine] == {0}
    assert state.turn == 1


def test_D15_a_queen_looks_at_one_card_for_its_discarder_alone() -> None:
    state = play(peeked(THREE, draw="Qc"), (0, Draw()), (0, Discard()))
    target = state.hands[2][3]
    outcome = ok(state, 0, Look(Spot(2, 3)))
    assert outcome.openings == (Opening(target, 0),)
    assert outcome.state.seen_by[target] == {0} and target not in outcome.state.public


def test_D16_an_ace_gives_the_top_of_the_pile_unseen_to_an_opponent() -> None:
    state = play(peeked(THREE, draw="Ac 8s"), (0, Draw()), (0, Discard()))
    assert apply(state, 0, Give(0)).refusal.reason == "not_an_opponent"
    given = state.draw[0]
    state = ok(state, 0, Give(2)).state
    assert state.hands[2][-1] == given and len(state.hands[2]) == 5
    assert not state.seen_by[given] and given not in state.public


def test_D17_D26_a_discarded_joker_brings_its_discarder_a_penalty_card() -> None:
    state = play(peeked(THREE, draw="* 8s"), (0, Draw()), (0, Discard()))
    assert labels(state, 0) == ["2c", "3c", "4c", "5c", "8s"] and state.turn == 1
    assert not state.seen_by[state.hands[0][4]]


def test_D18_a_king_matches_a_king_of_either_colour() -> None:
    state = play(peeked(("Ks 3c 4c 5c", *THREE[1:]), draw="Kh"), (0, Draw()), (0, Discard()))
    state = ok(state, 0, Throw(0)).state
    assert labels(state, 0)[0] is None and str(state.faces[state.top()]) == "Ks"


def test_D19_turns_go_round_in_seat_order() -> None:
    state = peeked(THREE, draw="9s 9c 9d 9h", starter=2)
    seen = []
    for _ in range(4):
        seen.append(state.turn)
        state = play(state, (state.turn, Draw()), (state.turn, Discard()))
    assert seen == [2, 0, 1, 2] and state.turns == 4


def test_D20_the_window_closes_when_the_next_draw_is_in_the_order() -> None:
    state = peeked(("2c 3c 4c 9c", *THREE[1:]), draw="9s 7h")
    assert apply(state, 0, Throw(3)).refusal.reason == "nothing_to_match"
    state = play(state, (0, Draw()), (0, Discard()))
    closed = ok(state, 1, Draw()).state
    assert apply(closed, 0, Throw(3)).refusal.reason == "window_closed"
    assert apply(closed, 0, CallDutch()).refusal.reason == "window_closed"


def test_D21_D22_a_matching_throw_leaves_a_gap_and_the_window_open() -> None:
    state = peeked(("2c 3c 9d 9c", "9h 3d 4d 5d", THREE[2]), draw="9s")
    state = play(state, (0, Draw()), (0, Discard()))
    assert needs_open(state, 1, Throw(0)) == (state.hands[1][0],)
    state = play(state, (1, Throw(0)), (0, Throw(3)), (0, Throw(2)))
    assert labels(state, 0) == ["2c", "3c", None, None] and labels(state, 1)[0] is None
    assert [str(state.faces[t]) for t in state.discard] == ["9s", "9h", "9c", "9d"]
    assert state.window and apply(state, 0, Throw(2)).refusal.reason == "empty_slot"


def test_D23_a_wrong_throw_stays_face_up_and_brings_a_penalty() -> None:
    state = play(peeked(THREE, draw="9s 6c"), (0, Draw()), (0, Discard()))
    thrown = state.hands[1][2]
    state = ok(state, 1, Throw(2)).state
    assert labels(state, 1) == ["2d", "3d", "4d", "5d", "6c"] and thrown in state.public


def test_D24_throws_take_effect_in_the_total_order() -> None:
    start = play(peeked(THREE, draw="5s 8c"), (0, Draw()), (0, Discard()))
    first = play(start, (2, Throw(3)), (1, Throw(3)))
    assert [str(first.faces[t]) for t in first.discard] == ["5s", "5h", "5d"]
    late = play(start, (1, Draw()))
    assert apply(late, 2, Throw(3)).refusal.reason == "window_closed"  # no penalty either
    assert late.hands[2] == start.hands[2]


def test_D25_a_thrown_special_card_gives_no_action_and_a_thrown_joker_no_penalty() -> None:
    hands = ("* Qc 4c 5c", "** Qd 4d 5d", THREE[2])
    state = play(peeked(hands, draw="Qs 8c"), (0, Draw()), (0, Discard()), (0, Skip()))
    state = play(state, (0, Throw(1)))
    assert state.phase is Phase.DRAW and state.turn == 1
    state = play(state, (1, Draw()), (1, Replace(0)), (0, Throw(0)))
    assert labels(state, 0) == [None, None, "4c", "5c"]


def test_D26_a_penalty_fills_the_first_gap() -> None:
    state = peeked(("2c 3c 9d 5c", *THREE[1:]), draw="9s 7h 6h")
    state = play(state, (0, Draw()), (0, Discard()), (0, Throw(2)), (0, Throw(0)))
    assert labels(state, 0) == ["2c", "3c", "7h", "5c"]


def test_D26_a_penalty_lapses_when_the_pile_is_empty() -> None:
    state = play(peeked(THREE, draw="9s"), (0, Draw()), (0, Discard()))
    state = state.__class__(**{**{f: getattr(state, f) for f in state.__slots__}, "draw": ()})
    state = ok(state, 1, Throw(0)).state
    assert len(state.hands[1]) == 4


def test_D27_penalty_cases_joker_wrong_throw_failed_dutch() -> None:
    from dutchblitz.protocol.games.dutch.scoring import score_round

    state = play(peeked(THREE, draw="9s 8s 7s"), (0, Draw()), (0, Discard()), (0, CallDutch()))
    state = play(state, (1, Draw()), (1, Discard()), (2, Draw()), (2, Discard()))
    assert state.phase is Phase.OVER
    assert score_round(state).penalised == {0}  # a tie at 14: the Dutch failed


def test_D28_dutch_is_called_by_whose_turn_just_ended_and_locks_the_hand() -> None:
    state = play(peeked(THREE, draw="9s Jc Qh"), (0, Draw()), (0, Discard()))
    assert apply(state, 1, CallDutch()).refusal.reason == "not_your_turn"
    state = ok(state, 0, CallDutch()).state
    assert state.caller == 0 and apply(state, 2, CallDutch()).refusal.reason == "dutch_taken"
    assert apply(state, 0, Throw(0)).refusal.reason == "locked"
    state = play(state, (1, Draw()), (1, Discard()))
    assert apply(state, 1, Swap(Spot(0, 0), Spot(2, 0))).refusal.reason == "locked"
    state = play(state, (1, Skip()), (2, Draw()), (2, Discard()))
    assert apply(state, 2, Look(Spot(0, 0))).refusal is None  # looking changes nothing


def test_D28_an_ace_cannot_give_to_the_caller() -> None:
    state = play(peeked(THREE, draw="9s Ac"), (0, Draw()), (0, Discard()), (0, CallDutch()))
    state = play(state, (1, Draw()), (1, Discard()))
    assert apply(state, 1, Give(0)).refusal.reason == "locked"
    assert apply(state, 1, Give(2)).refusal is None


def test_D29_every_other_player_has_one_last_turn_then_the_round_ends() -> None:
    state = play(peeked(THREE, draw="9s 8s 7s"), (0, Draw()), (0, Discard()), (0, CallDutch()))
    state = play(state, (1, Draw()), (1, Discard()))
    assert state.phase is Phase.DRAW and state.turn == 2
    state = play(state, (2, Draw()), (2, Discard()))
    assert state.phase is Phase.OVER and state.ending is Ending.DUTCH and not state.window


def test_D35_the_round_ends_when_the_pile_runs_out() -> None:
    state = peeked(THREE)
    while state.phase is not Phase.OVER:
        state = play(state, (state.turn, Draw()), (state.turn, Discard()))
        if state.phase is Phase.ACTION:
            state = play(state, (state.turn, Skip()))
    assert state.ending is Ending.PILE_OUT and not state.draw


def test_D36_a_player_who_leaves_is_skipped_and_their_cards_stay() -> None:
    state = play(peeked(THREE, draw="9s 8s 7s"), (0, Draw()))
    state = ok(state, 1, Leave()).state
    state = play(state, (0, Discard()))
    assert state.turn == 2 and len(state.hands[1]) == 4
    state = ok(state, 2, Leave()).state
    assert state.turn == 0 and state.window  # 2 left before drawing: the window stays open
    state = play(state, (0, Draw()), (0, Discard()))
    assert state.turn == 0
    assert ok(state, 0, Leave()).state.ending is Ending.DESERTED


def test_D36_leaving_with_a_drawn_card_discards_it() -> None:
    state = play(peeked(THREE, draw="9s"), (0, Draw()))
    assert needs_open(state, 0, Leave()) == (state.drawn,)
    state = ok(state, 0, Leave()).state
    assert str(state.faces[state.top()]) == "9s" and state.turn == 1


def test_D36_leaving_during_the_peeks_starts_the_round_without_them() -> None:
    state = play(table(THREE), (0, InitialPeek(0, 1)), (1, InitialPeek(0, 1)), (2, Leave()))
    assert state.phase is Phase.DRAW


def test_D40_a_card_not_opened_yet_cannot_be_turned_up() -> None:
    state = deal(3)
    for seat in range(3):
        state = ok(state, seat, InitialPeek(0, 1)).state
    state = ok(state, 0, Draw()).state
    refused = apply(state, 0, Discard())
    assert refused.refusal.reason == "face_not_open" and refused.state is state
    state = with_faces(state, {state.drawn: card("9s")})
    assert ok(state, 0, Discard()).state.top() == 12
    with pytest.raises(ValueError):
        with_faces(state, {12: card("8s")})


@pytest.mark.parametrize(
    ("seat", "move", "reason"),
    [
        (0, InitialPeek(0, 1), "not_peek_time"),
        (1, Draw(), "not_your_turn"),
        (0, Discard(), "wrong_stage"),
        (0, Skip(), "wrong_stage"),
        (0, CallDutch(), "window_closed"),
        (0, Give(1), "wrong_stage"),
    ],
)
def test_D40_refusals_change_nothing(seat: int, move: object, reason: str) -> None:
    state = peeked(THREE)
    outcome = apply(state, seat, move)  # type: ignore[arg-type]
    assert outcome.refusal.reason == reason and outcome.state is state and not outcome.openings


def test_D40_the_table_refuses_after_the_round() -> None:
    state = play(peeked(THREE, draw="9s 8s 7s"), (0, Draw()), (0, Discard()), (0, CallDutch()))
    state = play(state, (1, Draw()), (1, Discard()), (2, Draw()), (2, Discard()))
    assert apply(state, 1, Throw(0)).refusal.reason == "round_over"


def test_D36_D40_leaving_with_a_card_not_yet_opened_changes_nothing() -> None:
    state = deal(3)
    for seat in range(3):
        state = ok(state, seat, InitialPeek(0, 1)).state
    state = ok(state, 0, Draw()).state
    refused = apply(state, 0, Leave())
    assert refused.refusal.reason == "face_not_open" and refused.state is state


def test_D5_a_deck_with_a_card_twice_is_refused() -> None:
    with pytest.raises(ValueError):
        deal(3, faces=[card("Ac")] * 54)
    with pytest.raises(ValueError):
        deal(3, faces=[card("Ac")] * 53)


def _jack_turn() -> object:
    return play(peeked(THREE, draw="Jc 8s"), (0, Draw()), (0, Discard()))


@pytest.mark.parametrize(
    ("name", "setup", "seat", "move", "reason"),
    [
        ("peek: already before same", lambda: play(table(THREE), (0, InitialPeek(0, 1))), 0,
         InitialPeek(2, 2), "already_peeked"),
        ("peek: same before bad slot", lambda: table(THREE), 0, InitialPeek(9, 9), "same_spot"),
        ("swap: bad slot before same spot", _jack_turn, 0, Swap(Spot(9, 0), Spot(9, 0)),
         "bad_slot"),
        ("swap: action before slot", lambda: play(peeked(THREE, draw="Qc"), (0, Draw()),
         (0, Discard())), 0, Swap(Spot(9, 0), Spot(9, 0)), "wrong_action"),
        ("throw: locked before bad slot", lambda: play(peeked(THREE, draw="9s 8s"), (0, Draw()),
         (0, Discard()), (0, CallDutch())), 0, Throw(9), "locked"),
        ("call: taken before window", lambda: play(peeked(THREE, draw="9s 8s"), (0, Draw()),
         (0, Discard()), (0, CallDutch()), (1, Draw())), 2, CallDutch(), "dutch_taken"),
        ("draw: turn before stage", lambda: peeked(THREE), 2, Draw(), "not_your_turn"),
    ],
)  # fmt: skip
def test_D40_the_first_reason_in_the_spec_order_is_given(
    name: str, setup: object, seat: int, move: object, reason: str
) -> None:
    state = setup()  # type: ignore[operator]
    assert apply(state, seat, move).refusal.reason == reason, name  # type: ignore[arg-type]
