"""Properties of the rules over random deals and random play.

Play is simultaneous, as on the LAN: each tick every player who is not waiting on
a stuck call picks a random legal move from the table as it stands, and the tick's
moves are then applied in a random order, so some lose races or fall back to
another pile. Hypothesis picks the player count and the seed of that randomness.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

from dutchblitz.protocol.games.blitz import plays, rules
from dutchblitz.protocol.games.blitz.cards import DECK_SIZE, Card, card_from_code, new_deck
from dutchblitz.protocol.games.blitz.digest import full_digest, public_digest
from dutchblitz.protocol.games.blitz.moves import (
    CentrePlay,
    Move,
    PostPlay,
    StuckCall,
    WoodFlip,
    WoodTurn,
)
from dutchblitz.protocol.games.blitz.state import Table, deal, redact
from hypothesis import given, settings
from hypothesis import strategies as st

# A round ends by Blitz, or by R-25 after 30 idle stalemates: random play takes at
# most some 1,500 moves, so this bound only stops a round that would never end.
TICK_BOUND = 10_000
FAST = settings(max_examples=25, deadline=None)
SLOWER = settings(max_examples=12, deadline=None)

players = st.integers(min_value=2, max_value=8)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def shuffled_deal(count: int, rng: random.Random) -> Table:
    orders = {}
    for seat in range(count):
        order = new_deck(seat)
        rng.shuffle(order)
        orders[seat] = order
    table = deal(range(count), orders)
    if rng.random() < 0.25:  # now and then a player has left before the first move
        table.areas[rng.randrange(count)].active = False
    return table


def random_ticks(table: Table, rng: random.Random) -> Iterator[list[Move]]:
    """Until the round ends: the moves the players decide on the table as it stands.

    The caller applies each tick's moves, in the random order given, before asking
    for the next tick. Each player has at most one move in flight, as a node that
    decides on its own moves in flight would (R-23).
    """
    for _ in range(TICK_BOUND):
        if table.over:
            return
        decided = [move for seat in table.seats if (move := _choose(table, seat, rng))]
        rng.shuffle(decided)
        yield decided


def random_play(table: Table, rng: random.Random) -> Iterator[tuple[Move, rules.Refusal | None]]:
    """Play ``table`` to its end by random ticks; yield each move with its outcome."""
    for tick in random_ticks(table, rng):
        for move in tick:
            yield move, rules.apply(table, move)


def _choose(table: Table, seat: int, rng: random.Random) -> Move | None:
    area = table.areas[seat]
    if area.stuck or not area.active:
        return None  # a stuck player waits for the centre or a stalemate to change things
    moves = plays.legal_moves(table, seat)
    return rng.choice(moves) if moves else None


def garbage(table: Table, rng: random.Random) -> Move:
    """A move that is probably illegal: a legal move with one field changed, or random fields."""
    seat = rng.choice(table.seats)
    legal = plays.legal_moves(table, seat)
    if legal and rng.random() < 0.6:
        return _mutated(rng.choice(legal), table, rng)
    return _random_fields(table, rng)


def _random_card(table: Table, rng: random.Random, seat: int) -> Card:
    """Mostly a card of ``seat``'s own deck, where the interesting mistakes are."""
    deck = seat if seat in table.areas and rng.random() < 0.8 else rng.choice(table.seats)
    return card_from_code(deck * DECK_SIZE + rng.randrange(DECK_SIZE))


def _mutated(move: Move, table: Table, rng: random.Random) -> Move:
    fields = [name for name in ("card", "shows", "pile", "slot", "source") if hasattr(move, name)]
    if not fields:
        return replace(move, seat=rng.randrange(-1, len(table.seats) + 1))
    name = rng.choice(fields)
    if name in ("card", "shows"):
        value: object = _random_card(table, rng, move.seat)
        if name == "shows" and rng.random() < 0.3:
            value = None
    else:
        value = rng.randrange(-1, 6)
    return replace(move, **{name: value})  # type: ignore[arg-type]


def _random_fields(table: Table, rng: random.Random) -> Move:
    seat = rng.randrange(-1, len(table.seats) + 1)
    source, slot = rng.randrange(-1, 4), rng.randrange(-1, 6)
    pile = None if rng.random() < 0.3 else rng.randrange(-1, len(table.piles) + 2)
    played, shows = _random_card(table, rng, seat), _random_card(table, rng, seat)
    makers = [
        lambda: CentrePlay(seat, source, slot, played, pile, shows),  # type: ignore[arg-type]
        lambda: PostPlay(seat, source, played, slot, shows),  # type: ignore[arg-type]
        lambda: WoodFlip(seat, shows),
        lambda: WoodTurn(seat),
        lambda: StuckCall(seat),
    ]
    return rng.choice(makers)()  # type: ignore[no-untyped-call]


def assert_cards_conserved(table: Table) -> None:
    """Each deck's 40 cards are all somewhere, unknown ones counted, none twice."""
    in_centre = Counter(c.deck for pile in table.piles for c in pile.cards)
    for seat, area in table.areas.items():
        assert area.card_count() + in_centre[seat] == DECK_SIZE, f"seat {seat} lost a card"
        known = area.located() + [c for p in table.piles for c in p.cards if c.deck == seat]
        assert len(known) == len(set(known)), f"seat {seat} holds a card twice"
        assert all(c.deck == seat for c in area.located()), f"seat {seat} holds another's card"


@SLOWER
@given(players, seeds)
def test_cards_are_conserved_after_every_move_on_every_replica(count: int, seed: int) -> None:
    rng = random.Random(seed)
    full = shuffled_deal(count, rng)
    replicas = [redact(full, seat) for seat in full.seats]
    for move, _ in random_play(full, rng):
        assert_cards_conserved(full)
        for replica in replicas:
            rules.apply(replica, move)
            assert_cards_conserved(replica)


@FAST
@given(players, seeds)
def test_the_same_deal_and_moves_give_the_same_digests(count: int, seed: int) -> None:
    rng = random.Random(seed)
    table = shuffled_deal(count, rng)
    again = table.copy()
    played = list(random_play(table, rng))
    outcomes = [rules.apply(again, move) for move, _ in played]
    assert outcomes == [refusal for _, refusal in played]
    assert full_digest(again) == full_digest(table)
    assert public_digest(again) == public_digest(table)


@SLOWER
@given(players, seeds)
def test_a_refused_move_changes_nothing(count: int, seed: int) -> None:
    rng = random.Random(seed)
    table = shuffled_deal(count, rng)
    for _move, _refusal in random_play(table, rng):
        for _ in range(2):
            before = full_digest(table)
            if rules.apply(table, garbage(table, rng)) is not None:
                assert full_digest(table) == before


@FAST
@given(players, seeds)
def test_random_legal_play_always_ends_the_round(count: int, seed: int) -> None:
    rng = random.Random(seed)
    table = shuffled_deal(count, rng)
    moves = sum(1 for _ in random_play(table, rng))
    assert table.over, f"no end after {moves} moves"
    assert (table.blitz_by is None) == (table.idle_stalemates >= rules.DEADLOCK_STALEMATES)


@FAST
@given(players, seeds)
def test_every_replica_accepts_what_the_full_table_accepts(count: int, seed: int) -> None:
    rng = random.Random(seed)
    full = shuffled_deal(count, rng)
    replicas = [redact(full, seat) for seat in full.seats]
    for tick in random_ticks(full, rng):
        for move in tick:
            refusal = rules.apply(full, move)
            for replica in replicas:
                # Honest moves are refused only for public reasons (lost races), so
                # a replica refuses exactly the same ones.
                assert rules.apply(replica, move) == refusal, f"a replica disagrees on {move}"
        stray = garbage(full, rng)
        if rules.apply(full, stray) is None:
            # A replica may accept a false ``shows`` it cannot check, so only a stray
            # move the full table accepted goes on to the replicas.
            for replica in replicas:
                assert rules.apply(replica, stray) is None, f"a replica refused {stray}"
    assert {public_digest(replica) for replica in replicas} == {public_digest(full)}
