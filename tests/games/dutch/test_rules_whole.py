"""spec/dutch.md, the rules checked whole: every card's code and points (D-1, D-2), every
kind of move from a seat not at the table or gone (D-8), every action skipped (D-13), the
turn passing over seats that left (D-19), throws of one rank in either order (D-24), thrown
special cards (D-25), each penalty case on its own (D-27), the last turns after a call with
a seat gone (D-29), and refusals that change nothing in random rounds (D-40)."""

from __future__ import annotations

import random

import pytest
from dutchblitz.protocol.games.dutch.cards import FULL_DECK, DutchCard, Suit
from dutchblitz.protocol.games.dutch.legal import legal_moves
from dutchblitz.protocol.games.dutch.moves import (
    CallDutch,
    Discard,
    Draw,
    Give,
    InitialPeek,
    Leave,
    Look,
    Move,
    Replace,
    Skip,
    Spot,
    Swap,
    Throw,
)
from dutchblitz.protocol.games.dutch.rules import apply
from dutchblitz.protocol.games.dutch.scoring import score_round
from dutchblitz.protocol.games.dutch.state import Ending, Phase, Round

from tests.games.dutch.table import card, labels, ok, peeked, play, random_round, table

THREE = ("2c 3c 4c 5c", "2d 3d 4d 5d", "2h 3h 4h 5h")
FOUR = (*THREE, "2s 3s 4s 5s")
EVERY_MOVE: tuple[Move, ...] = (
    InitialPeek(0, 1),
    Draw(),
    Discard(),
    Replace(0),
    Swap(Spot(0, 0), Spot(1, 0)),
    Look(Spot(1, 0)),
    Give(1),
    Skip(),
    Throw(0),
    CallDutch(),
    Leave(),
)


@pytest.mark.parametrize("suit", list(Suit))
@pytest.mark.parametrize("rank", range(1, 14))
def test_every_card_has_its_code(suit: Suit, rank: int) -> None:
    """D-1: code = suit * 13 + rank - 1, clubs 0 to spades 3, Ace 1 to King 13."""
    found = DutchCard(suit * 13 + rank - 1)
    assert (found.suit, found.rank, found.is_joker) == (suit, rank, False)
    letter = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))
    assert card(f"{letter}{'cdhs'[suit]}") == found


def test_the_deck_is_54_cards_and_two_jokers() -> None:
    """D-1: 52 cards, one of each suit and rank, and the Jokers 52 and 53."""
    assert [c.code for c in FULL_DECK] == list(range(54))
    assert [c.code for c in FULL_DECK if c.is_joker] == [52, 53]
    assert {(c.suit, c.rank) for c in FULL_DECK if not c.is_joker} == {
        (suit, rank) for suit in Suit for rank in range(1, 14)
    }
    for code in (-1, 54, 255):
        with pytest.raises(ValueError):
            DutchCard(code)


def _points(found: DutchCard) -> int:
    """D-2, as written: a number card its number, Ace 1, Jack 11, Queen 12, a red King 0,
    a black King 13, a Joker -1."""
    if found.is_joker:
        return -1
    if found.rank == 13:
        return 0 if found.suit in (Suit.DIAMONDS, Suit.HEARTS) else 13
    return found.rank


@pytest.mark.parametrize("found", FULL_DECK, ids=str)
def test_every_card_has_its_points(found: DutchCard) -> None:
    """D-2: every one of the 54 cards."""
    assert found.points == _points(found)


def test_the_points_of_the_whole_deck() -> None:
    """D-2: four suits of 1 to 12 (78 each), two black Kings (13 each), two Jokers (-1)."""
    assert sum(c.points for c in FULL_DECK) == 4 * 78 + 2 * 13 - 2


@pytest.mark.parametrize("move", EVERY_MOVE, ids=lambda m: type(m).__name__)
@pytest.mark.parametrize("seat", [3, 7, -1])
def test_every_move_from_a_seat_not_at_the_table_is_refused(move: Move, seat: int) -> None:
    """D-8, D-40: `unknown_seat`, before the move's own checks, and nothing changes."""
    state = peeked(THREE, draw="9s")
    outcome = apply(state, seat, move)
    assert outcome.refusal is not None and outcome.refusal.reason == "unknown_seat"
    assert outcome.state is state and not outcome.openings


@pytest.mark.parametrize("move", EVERY_MOVE, ids=lambda m: type(m).__name__)
def test_every_move_from_a_seat_that_left_is_refused(move: Move) -> None:
    """D-8, D-40: `not_active`, even on its turn (the turn passed on when it left)."""
    state = play(peeked(THREE, draw="9s 8s"), (0, Draw()), (0, Discard()), (1, Leave()))
    outcome = apply(state, 1, move)
    assert outcome.refusal is not None and outcome.refusal.reason == "not_active"
    assert outcome.state is state


def test_moves_take_effect_one_at_a_time_in_the_order() -> None:
    """D-8: two draws of the same turn: the first in the order is the turn's, the second is
    refused against the state the first left."""
    state = peeked(THREE, draw="9s 8s")
    first = ok(state, 0, Draw()).state
    assert apply(first, 0, Draw()).refusal.reason == "wrong_stage"
    assert first.drawn == state.draw[0] and first.draw == state.draw[1:]


@pytest.mark.parametrize("special", ["Jc", "Qc", "Ac"])
@pytest.mark.parametrize("how", ["discard", "replace"])
def test_every_action_may_be_skipped(special: str, how: str) -> None:
    """D-13: a Jack, a Queen or an Ace, discarded or replaced out of the hand: skipping it
    ends the turn and changes no hand, no pile but the discard, and opens nothing."""
    hands = THREE if how == "discard" else (f"{special} 3c 4c 5c", *THREE[1:])
    drawn = special if how == "discard" else "9s"
    state = play(peeked(hands, draw=f"{drawn} 8s"), (0, Draw()))
    state = ok(state, 0, Discard() if how == "discard" else Replace(0)).state
    assert state.phase is Phase.ACTION
    outcome = ok(state, 0, Skip())
    after = outcome.state
    assert not outcome.openings and after.turn == 1 and after.phase is Phase.DRAW
    assert (after.hands, after.draw, after.discard) == (state.hands, state.draw, state.discard)


@pytest.mark.parametrize(
    ("drawn", "finish"),
    [
        ("9s", ()),  # no action: the turn ends with the discard
        ("Qs", (Look(Spot(2, 0)),)),  # after the action
        ("Js", (Skip(),)),  # after the skip
    ],
)
def test_a_turn_ends_and_passes_over_seats_that_left(drawn: str, finish: tuple[Move, ...]) -> None:
    """D-19: the turn ends at the discard, after the action, or after the skip; the next is
    the next seat up that is still at the table, after the last seat 0."""
    state = play(peeked(FOUR, draw=f"9c {drawn} 8s 7s", starter=2), (3, Leave()))
    state = play(state, (2, Draw()), (2, Discard()))
    assert state.turn == 0  # 3 left: after seat 2 comes seat 0
    state = play(state, (0, Draw()), (0, Discard()), *((0, move) for move in finish))
    assert state.turn == 1 and state.phase is Phase.DRAW


def test_throws_of_one_rank_match_in_either_order() -> None:
    """D-24: each throw is matched against the top at its place in the order: both match,
    whichever comes first, and the first in the order is first on the pile."""
    start = play(peeked(THREE, draw="5s 8c"), (0, Draw()), (0, Discard()))
    one = play(start, (1, Throw(3)), (2, Throw(3)))
    other = play(start, (2, Throw(3)), (1, Throw(3)))
    assert [str(one.faces[t]) for t in one.discard] == ["5s", "5d", "5h"]
    assert [str(other.faces[t]) for t in other.discard] == ["5s", "5h", "5d"]
    for state in (one, other):
        assert labels(state, 1)[3] is None and labels(state, 2)[3] is None  # no penalty


@pytest.mark.parametrize("thrown", ["Jd", "Qd", "Ad"])
def test_a_thrown_special_card_gives_no_action(thrown: str) -> None:
    """D-25: a thrown Jack, Queen or Ace matches and does nothing: no action is due, and
    the turn stays where it was."""
    rank = thrown[0]
    hands = ("2c 3c 4c 5c", f"{thrown} 3d 4d 5d", THREE[2])
    state = play(peeked(hands, draw=f"{rank}s 8c"), (0, Draw()), (0, Discard()), (0, Skip()))
    before = state
    state = ok(state, 1, Throw(0)).state
    assert state.phase is Phase.DRAW and state.turn == before.turn == 1 and state.action is None
    assert labels(state, 1)[0] is None


def test_a_thrown_joker_brings_no_penalty() -> None:
    """D-25: a Joker thrown on a Joker matches, and takes no card from the draw pile, while
    the Joker put on the pile by its turn brought its player one (D-17)."""
    hands = ("2c 3c 4c 5c", "** 3d 4d 5d", THREE[2])
    state = play(peeked(hands, draw="* 8c 7c"), (0, Draw()), (0, Discard()))
    assert len(state.hands[0]) == 5
    before = state
    state = ok(state, 1, Throw(0)).state
    assert labels(state, 1) == [None, "3d", "4d", "5d"] and state.draw == before.draw
    assert [str(state.faces[t]) for t in state.discard] == ["*", "*"]


@pytest.mark.parametrize(
    ("case", "penalised"),
    [
        ("a joker discarded by its turn", 0),
        ("a throw that does not match", 1),
        ("a throw that matches", None),
        ("a card drawn and discarded", None),
    ],
)
def test_each_penalty_case(case: str, penalised: int | None) -> None:
    """D-27: a penalty card for a Joker put on the pile by its turn (D-17) and a throw that
    does not match (D-23), each on its own; none for a matching throw or a plain turn."""
    drawn = "*" if "joker" in case else "5s"
    state = play(peeked(THREE, draw=f"{drawn} 8c 7c"), (0, Draw()), (0, Discard()))
    if "does not match" in case:
        state = ok(state, 1, Throw(0)).state
    elif "matches" in case:
        state = ok(state, 1, Throw(3)).state
    grown = [seat for seat in range(3) if sum(t is not None for t in state.hands[seat]) > 4]
    assert grown == ([] if penalised is None else [penalised]), case


def test_a_failed_dutch_is_a_penalty_card_in_the_next_round() -> None:
    """D-27 (D-33): the failed caller is dealt a fifth card, face down, next round; the
    others four."""
    state = play(peeked(THREE, draw="9s 8s 7s"), (0, Draw()), (0, Discard()), (0, CallDutch()))
    state = play(state, (1, Draw()), (1, Discard()), (2, Draw()), (2, Discard()))
    score = score_round(state)
    assert score.penalised == {0}
    following = table(("2c 3c 4c 5c 6c", *THREE[1:]), penalised=sorted(score.penalised))
    assert [len(hand) for hand in following.hands] == [5, 4, 4]
    assert not following.seen_by[following.hands[0][4]]


def test_the_last_turns_pass_over_a_seat_that_left() -> None:
    """D-29: after a call every other player still at the table plays one last turn, in
    order, and the round ends when the turn would come back to the caller; the last turn
    opens no window, and the caller plays no more."""
    state = play(peeked(FOUR, draw="9s 8s 7s 6s"), (0, Draw()), (0, Discard()), (0, CallDutch()))
    state = play(state, (2, Leave()), (1, Draw()), (1, Discard()))
    assert state.turn == 3 and state.phase is Phase.DRAW  # seat 2 left: passed over
    state = play(state, (3, Draw()), (3, Discard()))
    assert state.phase is Phase.OVER and state.ending is Ending.DUTCH and not state.window
    assert state.turns == 3
    refused = apply(state, 0, Draw()).refusal
    assert refused is not None and refused.reason == "round_over"


def _every_move(state: Round, seats: int) -> list[tuple[int, Move]]:
    moves: list[Move] = [*EVERY_MOVE, Replace(9), Throw(3), Give(2), Look(Spot(0, 9))]
    return [(seat, move) for seat in range(-1, seats + 1) for move in moves]


@pytest.mark.parametrize("seed", range(4))
def test_a_refused_move_changes_nothing_in_random_rounds(seed: int) -> None:
    """D-40: along random rounds, every move the rules refuse, from any seat, returns the
    state it was given and opens nothing; every legal move is accepted."""
    order = list(FULL_DECK)
    random.Random(seed).shuffle(order)
    steps, _ = random_round(3, order, seed)
    for before, _, _, _ in steps[:: max(1, len(steps) // 25)]:
        legal = {(seat, move) for seat in before.active for move in legal_moves(before, seat)}
        for seat, move in _every_move(before, 3):
            outcome = apply(before, seat, move)
            if outcome.refusal is not None:
                assert outcome.state is before and not outcome.openings, (seat, move)
                assert (seat, move) not in legal
        for seat, move in legal:
            assert apply(before, seat, move).refusal is None


def test_round_over_comes_before_every_other_reason() -> None:
    """D-40: after the round, a move from a seat not at the table is `round_over` too."""
    state = play(peeked(THREE, draw="9s 8s 7s"), (0, Draw()), (0, Discard()), (0, CallDutch()))
    state = play(state, (1, Draw()), (1, Discard()), (2, Draw()), (2, Discard()))
    for seat in (0, 5):
        for move in EVERY_MOVE:
            refused = apply(state, seat, move).refusal
            assert refused is not None and refused.reason == "round_over"
