"""Word toy's rules, its wire and its table game, without a network: a listed answer wins
at once, an unlisted one waits for objections or silence, a repeat is refused, a late
move loses the race; the payload reads back; a whole round through the table's ``Game``."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from types import SimpleNamespace

import pytest
from dutchblitz.protocol.games import registry
from dutchblitz.protocol.games.registry import level_for
from dutchblitz.protocol.seat.game_duties import holds_secrets
from dutchblitz.protocol.table.player import ActRefusal
from dutchblitz.protocol.table.rules import AnyGame
from dutchblitz.protocol.wire.messages import GameBody
from hypothesis import given
from hypothesis import strategies as st

from tests.games.wordtoy import bots, face, views, wire
from tests.games.wordtoy.game import (
    GAME,
    Objection,
    Token,
    Typed,
    WordMove,
    WordTable,
    seed,
)
from tests.games.wordtoy.rules import (
    CARDS,
    Answer,
    Close,
    Message,
    Object,
    Round,
    apply,
    categories,
    draw,
    new_round,
    normalise,
)

pytestmark = pytest.mark.timeout(60)


def fresh(players: int = 3, cards: tuple[int, ...] = (0, 1, 2)) -> Round:
    """A round whose cards are Fruits, Colours, Farm animals (the file's first three)."""
    state = new_round(players, b"seed")
    state.cards = cards
    return state


@dataclass(frozen=True)
class Step:
    seat: int
    message: Message
    refused: str | None = None


CASES = {
    "a listed answer wins the card at once": (
        [Step(1, Answer(0, "Kiwi"))],
        {"won": [0, 1, 0], "card": 1},
    ),
    "an unlisted answer waits, and silence accepts it": (
        [Step(0, Answer(0, "durian")), Step(2, Close(0, 1))],
        {"won": [1, 0, 0], "card": 1},
    ),
    "an objection drops it, and the next answer of the queue decides": (
        [Step(0, Answer(0, "durian")), Step(1, Answer(0, "pear")), Step(2, Object(0, 0))],
        {"won": [0, 1, 0], "card": 1},
    ),
    "the first in the order decides, even behind a listed one": (
        [Step(0, Answer(0, "durian")), Step(1, Answer(0, "pear")), Step(2, Close(0, 2))],
        {"won": [1, 0, 0], "card": 1},
    ),
    "silence with no answer gives the card to nobody": (
        [Step(0, Close(0, 0))],
        {"won": [0, 0, 0], "card": 1},
    ),
    "a late answer to a decided card loses the race": (
        [Step(1, Answer(0, "kiwi")), Step(2, Answer(0, "pear"), "stale")],
        {"won": [0, 1, 0], "card": 1},
    ),
    "a close after a move is stale": (
        [Step(0, Answer(0, "durian")), Step(1, Close(0, 0), "stale")],
        {"won": [0, 0, 0], "card": 0},
    ),
    "a player may not object to their own answer": (
        [Step(0, Answer(0, "durian")), Step(0, Object(0, 0), "own_answer")],
        {"won": [0, 0, 0], "card": 0},
    ),
    "one waiting answer each": (
        [Step(0, Answer(0, "durian")), Step(0, Answer(0, "lychee"), "yours_waits")],
        {"won": [0, 0, 0], "card": 0},
    ),
    "an answer accepted this round cannot win again": (
        [Step(0, Answer(0, "orange")), Step(1, Answer(1, "Orange!"), "said_before")],
        {"won": [1, 0, 0], "card": 1},
    ),
    "an empty answer is refused": (
        [Step(0, Answer(0, " ?! "), "bad_answer")],
        {"won": [0, 0, 0], "card": 0},
    ),
    "a seat not dealt is refused": (
        [Step(5, Answer(0, "kiwi"), "not_dealt")],
        {"won": [0, 0, 0], "card": 0},
    ),
}


@pytest.mark.parametrize(("steps", "after"), CASES.values(), ids=CASES.keys())
def test_a_card_is_decided_by_the_first_accepted_answer(
    steps: list[Step], after: dict[str, object]
) -> None:
    state = fresh()
    for step in steps:
        before = state.copy()
        refused = apply(state, step.seat, step.message)
        assert (None if refused is None else refused.reason) == step.refused
        if refused is not None:
            assert state == before, "a refused move changes nothing"
    assert state.won == after["won"] and state.card == after["card"]


def test_a_round_is_over_after_its_cards_and_then_refuses_moves() -> None:
    state = fresh()
    for card in range(CARDS):
        assert apply(state, 0, Close(card, state.moves)) is None
    assert state.over and [d.seat for d in state.decided] == [None] * CARDS
    refused = apply(state, 0, Answer(CARDS, "kiwi"))
    assert refused is not None and refused.reason == "over"


def test_the_draw_is_the_seeds_and_distinct() -> None:
    assert draw(b"a") == draw(b"a")
    assert len(set(draw(b"a"))) == CARDS
    assert {draw(bytes([n])) for n in range(20)} != {draw(b"a")}
    assert all(0 <= index < len(categories()) for index in draw(b"b"))


@pytest.mark.parametrize(
    ("typed", "key"), [("  Kiwi ", "kiwi"), ("Ice-Cream", "ice cream"), ("?!", "")]
)
def test_answers_are_compared_normalised(typed: str, key: str) -> None:
    assert normalise(typed) == key


@given(st.sampled_from([Answer(2, "Crème brûlée"), Object(1, 300), Close(0, 70_000)]),
       st.integers(0, 2**32 - 1))  # fmt: skip
def test_the_payload_reads_back(message: Message, round_number: int) -> None:
    assert wire.decode(wire.encode(round_number, message)) == (round_number, message)


@given(st.binary(max_size=40))
def test_any_payload_reads_or_is_refused_cleanly(payload: bytes) -> None:
    with contextlib.suppress(ValueError):
        wire.decode(payload)


def test_word_toy_is_a_table_game_from_its_own_folder() -> None:
    game: AnyGame = GAME  # mypy checks the interface; this checks the registry
    registry.register(game)
    assert registry.game_for("wordtoy") is GAME
    registry.unregister("wordtoy")  # forgotten again: no other test finds it
    assert "wordtoy" not in registry.tags()
    with registry.registered(game):
        assert registry.game_for("wordtoy") is GAME
    assert "wordtoy" not in registry.tags()
    assert GAME.check_backs(["acorn"]) is not None and GAME.check_backs(["a", "b"]) is None


def dealt(seats: tuple[int, ...] = (0, 1, 2)) -> WordTable:
    orders = {seat: GAME.deck(seat) for seat in seats}
    return GAME.deal(seats, orders, None, len(seats), frozenset(seats))  # type: ignore[arg-type]


def moved(body: object, seat: int) -> WordMove:
    """The move a body from ``seat`` carries, as the table hands it to the game."""
    assert isinstance(body, GameBody)
    return GAME.move_from_body(body.payload, seat)[1]


def test_the_table_maps_seats_and_scores_by_table_seat() -> None:
    table = dealt((0, 2, 5))
    category = categories()[table.round.cards[0]]
    body = GAME.body(table, 5, Typed(sorted(category.answers)[0], 0), 1, None)
    assert GAME.body(table, 9, Typed("x", 0), 1, None) == ActRefusal("not_playing")
    assert isinstance(body, GameBody)
    round_number, move = GAME.move_from_body(body.payload, 5)
    assert round_number == 1 and GAME.apply(table, move) is None
    assert GAME.round_scores(table) == {0: 0, 2: 0, 5: 1}
    late = GAME.apply(table, move)
    assert late is not None and late.reason == "stale" and late.by == 5  # by table seat


def test_a_person_objects_only_to_what_waits() -> None:
    table = dealt()
    refused = GAME.body(table, 1, Objection(), 1, None)
    assert getattr(refused, "code", None) == "bad_move"
    body = GAME.body(table, 0, Typed("zzz", 0), 1, None)
    assert GAME.apply(table, moved(body, 0)) is None
    own = GAME.body(table, 0, Objection(), 1, None)
    assert getattr(own, "code", None) == "own_answer"
    other = GAME.body(table, 1, Objection(), 1, None)
    assert GAME.apply(table, moved(other, 1)) is None
    assert table.round.dropped == (0, "zzz", 1)


def test_one_seat_closes_a_silent_card() -> None:
    table = dealt((0, 1, 2))
    assert GAME.timed_duty(table, 1, 1) is None
    timed = GAME.timed_duty(table, 0, 1)
    assert timed is not None and timed[0] == 15.0
    GAME.set_active(table, 0, False)
    assert GAME.timed_duty(table, 0, 1) is None and GAME.timed_duty(table, 1, 1) is not None


def test_a_bot_answers_from_the_list_and_objects_to_another_categorys_word() -> None:
    state = fresh()
    sharp = bots.Level("all-knowing", 1.0, (0.0, 0.0))
    answer = bots.move(state, 1, sharp, b"k" * 32, 1)
    assert isinstance(answer, Answer) and answer.text in categories()[0].answers
    apply(state, 0, Answer(0, "hammer"))  # a tool, not a fruit
    assert bots.move(state, 1, sharp, b"k" * 32, 1) == Object(0, 0)
    assert bots.thinking(state, 1, sharp) == bots.OBJECT_S
    state = fresh()
    apply(state, 0, Answer(0, "durian"))  # unknown to the bot: it lets it through
    assert not isinstance(bots.move(state, 1, sharp, b"k" * 32, 1), Object)


def test_the_seed_is_every_dealt_seats_deal() -> None:
    orders = {seat: [Token(seat * 40 + i) for i in range(40)] for seat in (0, 1)}
    other = {0: orders[0], 1: list(reversed(orders[1]))}
    assert seed(orders, (0, 1)) == seed(dict(orders), (0, 1)) != seed(other, (0, 1))


def test_the_tv_board_draws_only_public_places() -> None:
    table = dealt()
    apply(table.round, 0, Answer(table.round.card, "zzz"))
    board = GAME.tv_board(table, {0: "ada", 1: "bob", 2: "cy"})
    assert str(board["headline"]).startswith("Card 1 of 3") and '"zzz"' in str(board["headline"])
    areas = board["areas"]
    assert isinstance(areas, dict) and set(areas) == {"0", "1", "2"}


def test_the_node_hands_the_bot_its_own_level() -> None:
    """Whatever level a seat was given, ``seat_bot`` and ``race_hold`` get word toy's own."""
    assert level_for(GAME, "easy") is bots.LEVELS["easy"]
    assert level_for(GAME, "careful") is bots.LEVELS["sharp"]  # Dutch's second: our second
    state = dealt()
    easy, sharp = bots.LEVELS["easy"], bots.LEVELS["sharp"]
    assert GAME.race_hold(state, 0, easy) > GAME.race_hold(state, 0, sharp)


def test_an_answer_typed_for_a_card_decided_meanwhile_is_too_late() -> None:
    table = dealt()
    timed = GAME.timed_duty(table, 0, 1)
    assert timed is not None and GAME.apply(table, moved(timed[1], 0)) is None
    assert table.round.card == 1
    late = GAME.body(table, 1, Typed("kiwi", 0), 1, None)
    assert getattr(late, "code", None) == "stale"


def test_p238_a_tie_after_the_rounds_is_a_draw() -> None:
    """P-238: the table ends the game after its rounds; a tie names nobody."""
    assert GAME.final_winner({0: 2, 1: 3, 2: 1}) == 1
    assert GAME.final_winner({0: 3, 1: 3, 2: 1}) is None


def test_an_answer_goes_for_the_card_it_was_begun_on() -> None:
    """The face keeps that card in ``ClientState.typed_memo``, the frame's slot for it."""
    table = dealt()
    played: list[object] = []
    snap = SimpleNamespace(seat_view=views.view(table.round, table.seats, 0))
    state = SimpleNamespace(
        typed="", typed_memo=None, snap=snap, refresh=lambda: None,
        session=SimpleNamespace(play=lambda move: played.append(move)),
    )  # fmt: skip
    face.key(state, "k")  # type: ignore[arg-type]
    assert state.typed_memo == 0
    assert apply(table.round, 1, Close(0, 0)) is None  # decided while Ada types
    assert table.round.card == 1
    snap.seat_view = views.view(table.round, table.seats, 0)
    for pressed in ("i", "w", "i", face.ENTER):
        face.key(state, pressed)  # type: ignore[arg-type]
    assert played == [Typed("kiwi", 0)] and state.typed == ""


def test_word_toy_owes_no_bodies_and_its_bots_hold_secrets() -> None:
    assert not GAME.owes_bodies and holds_secrets(GAME)
