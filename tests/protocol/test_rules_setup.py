"""Rules that need no moves: the cards, the backs, the deal, the game's end, views and digests."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest
from dutchblitz.protocol.games.blitz.cards import (
    ALL_BACKS,
    DECK_SIZE,
    Card,
    Colour,
    card,
    card_from_code,
    check_backs,
    new_deck,
)
from dutchblitz.protocol.games.blitz.digest import full_digest, public_digest
from dutchblitz.protocol.games.blitz.scoring import game_winner
from dutchblitz.protocol.games.blitz.state import DealError, Slot, deal, redact, visible_order
from dutchblitz.protocol.limits import DEFAULT_TARGET


def fresh_orders(players: int) -> dict[int, list[Slot]]:
    return {seat: list(new_deck(seat)) for seat in range(players)}


def test_R1_a_deck_holds_ten_values_in_four_colours() -> None:
    deck = new_deck(0)
    assert len(deck) == DECK_SIZE == len(set(deck))
    assert {(c.colour, c.value) for c in deck} == {
        (colour, value) for colour in Colour for value in range(1, 11)
    }


@pytest.mark.parametrize(
    ("colour", "boy"),
    [(Colour.RED, True), (Colour.BLUE, True), (Colour.GREEN, False), (Colour.YELLOW, False)],
    ids=lambda v: str(v),
)
def test_R2_red_and_blue_are_boys_green_and_yellow_girls(colour: Colour, boy: bool) -> None:
    assert card(0, colour, 5).is_boy is boy


@pytest.mark.parametrize(
    ("deck", "colour", "value", "code"),
    [
        (0, Colour.RED, 1, 0),
        (0, Colour.YELLOW, 10, 39),
        (1, Colour.BLUE, 5, 54),
        (7, Colour.GREEN, 3, 302),
    ],
)
def test_R3_a_card_code_is_deck_colour_and_value(
    deck: int, colour: Colour, value: int, code: int
) -> None:
    assert card(deck, colour, value).code == code
    assert card_from_code(code) == Card(deck, colour, value)


def test_R3_codes_are_unique_across_eight_decks() -> None:
    codes = [c.code for seat in range(8) for c in new_deck(seat)]
    assert sorted(codes) == list(range(8 * DECK_SIZE))


@pytest.mark.parametrize("players", [0, 1, 9])
def test_R4_a_deal_for_fewer_than_2_or_more_than_8_is_rejected(players: int) -> None:
    with pytest.raises(DealError):
        deal(range(players), fresh_orders(players))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_R4_a_table_seats_2_to_8(players: int) -> None:
    assert len(deal(range(players), fresh_orders(players)).areas) == players


BACKS = [
    ("pump wagon", None),
    ("pump wagon bucket plow", None),
    ("plow bucket wagon", None),
    ("pump buggy", "not one of"),
    ("pump wagon bucket windmill", "not one of"),
    ("pump wagon bucket plow buggy", None),
    ("buggy lantern churn windmill pump", None),
    (" ".join(ALL_BACKS), None),
    ("pump pump", "different back"),
    ("pump wagon bucket plow buggy buggy", "different back"),
    ("pump wagon bucket plow tractor", "not one of"),
    ("pump", "2 to 8"),
    (" ".join([*ALL_BACKS, "tractor"]), "2 to 8"),
]


@pytest.mark.parametrize(("backs", "problem"), BACKS, ids=[b for b, _ in BACKS])
def test_R5_backs_are_distinct_and_standard_up_to_4_players(
    backs: str, problem: str | None
) -> None:
    found = check_backs(backs.split())
    assert (found is None) if problem is None else (found is not None and problem in found)


def _order(seat: int) -> list[Slot]:
    return list(new_deck(seat))


BAD_ORDERS = [
    ("39 cards", lambda: _order(0)[:39]),
    ("41 cards", lambda: [*_order(0), card(0, Colour.RED, 1)]),
    ("another deck's card", lambda: [card(1, Colour.RED, 1), *_order(0)[1:]]),
    ("a card twice", lambda: [*_order(0)[:39], card(0, Colour.RED, 1)]),
    ("an unknown Post card", lambda: [None, *_order(0)[1:]]),
    ("an unknown Blitz top", lambda: [*_order(0)[:14], None, *_order(0)[15:]]),
]


@pytest.mark.parametrize(
    "make", [m for _, m in BAD_ORDERS], ids=[f"R-6 {n}" for n, _ in BAD_ORDERS]
)
def test_R6_a_deal_needs_the_seats_own_40_cards_once(make: Callable[[], list[Slot]]) -> None:
    orders = fresh_orders(2)
    orders[0] = make()
    with pytest.raises(DealError):
        deal(range(2), orders)


def test_R6_unknown_hidden_cards_deal_and_the_same_order_deals_the_same_table() -> None:
    order = new_deck(1)
    orders = {0: _order(0), 1: visible_order(order, 2)}
    assert full_digest(deal(range(2), orders)) == full_digest(deal(range(2), orders))
    assert deal(range(2), orders).areas[1].hand == [None] * 25


WINNERS: list[tuple[str, Mapping[int, int], int, int | None]] = [
    ("R-29 nobody at the target yet", {0: 74, 1: 10}, DEFAULT_TARGET, None),
    ("R-29 one player reaches the target", {0: 75, 1: 10}, DEFAULT_TARGET, 0),
    ("R-29 several pass it, the highest wins", {0: 80, 1: 91, 2: 76}, DEFAULT_TARGET, 1),
    ("R-29 the target is the table's choice", {0: 30, 1: 12}, 30, 0),
    ("R-29 a smaller target not reached", {0: 29, 1: 12}, 30, None),
    ("R-30 a shared highest total at the target plays on", {0: 75, 1: 75}, DEFAULT_TARGET, None),
    ("R-30 a shared highest above the target", {0: 90, 1: 90, 2: 80}, DEFAULT_TARGET, None),
    ("R-30 a tie below the highest does not matter", {0: 80, 1: 80, 2: 81}, DEFAULT_TARGET, 2),
    ("R-30 a tie below the target does not matter", {0: 40, 1: 40}, DEFAULT_TARGET, None),
]


@pytest.mark.parametrize(
    ("totals", "target", "winner"), [w[1:] for w in WINNERS], ids=[w[0] for w in WINNERS]
)
def test_R29_R30_the_game_winner(
    totals: Mapping[int, int], target: int, winner: int | None
) -> None:
    assert game_winner(totals, target) == winner


@pytest.mark.parametrize("players", [2, 3, 4, 8])
def test_R33_a_replica_knows_its_own_cards_and_the_face_up_cards(players: int) -> None:
    full = deal(range(players), fresh_orders(players))
    for viewer in full.seats:
        replica = redact(full, viewer)
        assert replica.areas[viewer] == full.areas[viewer]
        for seat, area in replica.areas.items():
            if seat == viewer:
                continue
            assert area.post == full.areas[seat].post
            assert area.blitz == [None] * 9 + full.areas[seat].blitz[-1:]
            assert area.hand == [None] * len(full.areas[seat].hand)


@pytest.mark.parametrize("players", [2, 3, 4, 8])
def test_R37_every_replica_has_the_full_tables_public_digest(players: int) -> None:
    full = deal(range(players), fresh_orders(players))
    digests = {public_digest(redact(full, viewer)) for viewer in full.seats}
    assert digests == {public_digest(full)}


def test_R37_the_public_digest_follows_what_everyone_sees() -> None:
    table = deal(range(2), fresh_orders(2))
    before = public_digest(table)
    table.areas[1].stuck = True
    assert public_digest(table) != before


def test_R38_the_full_digest_covers_hidden_cards() -> None:
    orders = fresh_orders(2)
    swapped = dict(orders)
    hand = list(orders[0])
    hand[-1], hand[-2] = hand[-2], hand[-1]  # two cards deep in the hand change places
    swapped[0] = hand
    table, other = deal(range(2), orders), deal(range(2), swapped)
    assert public_digest(table) == public_digest(other)
    assert full_digest(table) != full_digest(other)
    assert full_digest(redact(table, 1)) != full_digest(table)
