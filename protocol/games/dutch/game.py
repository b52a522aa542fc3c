"""Dutch as a table game: ``DutchGame``, the ``TableGame`` the table hosts under tag ``dutch``
(registered as ``GAME``; its seat's part, ``DutchPlayer``, is in player.py).

The table's fair deal runs as for every game (spec/rules.md R-40 to R-44); for Dutch it only
starts the round and fixes what every proof of it is bound to (M-29): Dutch's cards are dealt
by its own deal with no dealer, in GAME bodies (table.py), and no DEAL shows any of them.
A seat's deck for the fair deal is therefore a stand-in, the 40-card deck DBP/1's DEAL and
REVEAL carry, of which a DEAL shows four codes.

Every seat owes the round its key, its shuffle and its shares, a person's as a bot's: the
table's duties ask ``seat_duties`` (player.py), with the seat's own secrets. Cheats the
round finds are flagged by the table (``findings``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from hashlib import blake2b
from typing import Final

from ...table.rules import Form, Json, SeatDecks, TableGame
from ...wire.messages import Start
from ..blitz.cards import ALL_BACKS, DECK_SIZE, Card, card_from_code, check_backs, new_deck
from . import tv
from .bots import BotLevel
from .hidden import Refused
from .player import RACE_HOLD_S, DutchPlayer
from .state import MAX_DUTCH_SEATS, MIN_DUTCH_SEATS
from .table import BINDING_BYTES, DutchMove, DutchTable, Stage
from .views import SeatView
from .wire import GAME_ID, Message, WireError, decode

__all__ = ["GAME", "RACE_HOLD_S", "DutchGame", "DutchMove", "StandInDeck", "binding", "handed_on"]

SHOWN: Final = 4  # the fewest face-up codes a DEAL carries (spec/protocol.md)
# A flag names its cheat on every screen (R-46's penalty is made for a game won by the
# highest score: no Dutch round scores this much, so a flag leaves a Dutch score as it is).
WORST_ROUND: Final = 999


@lru_cache(maxsize=512)
def _decoded(payload: bytes) -> tuple[int, Message]:
    """A payload's round and message. Cached: decoding checks every point of a deck, and a
    node reads each body again for its optimistic game (and the simulator, once per node)."""
    decoded = decode(payload)
    return decoded.round, decoded.message


def binding(orders: Mapping[int, Sequence[Card | None]], seats: Sequence[int]) -> bytes:
    """M-29: 16 bytes the round's proofs are bound to: a hash of every dealt seat's DEAL, so
    fresh each round (the fair deal's joint randomness chose them) and the same on every node."""
    digest = blake2b(digest_size=BINDING_BYTES, person=b"dutch-binding-v1")
    for seat in seats:
        digest.update(bytes([seat]))
        for card in orders[seat][:SHOWN]:
            assert card is not None  # a DEAL shows them (``known_order``)
            digest.update(card.code.to_bytes(2, "big"))
    return digest.digest()


class StandInDeck(SeatDecks[Card]):
    """The fair deal's stand-in deck (the module's docstring): the ``SeatDecks`` part of a
    game that deals no card of it. No move names its cards, so ``replay`` is the default:
    Dutch's own audit ran in the round (M-34)."""

    def deck(self, seat: int) -> list[Card]:
        return new_deck(seat)

    def owner(self, order: Sequence[Card]) -> int:
        return order[0].deck

    def card(self, code: int) -> Card:
        return card_from_code(code)

    def shown(self, order: Sequence[Card], players: int) -> tuple[int, ...]:
        return tuple(card.code for card in order[:SHOWN])

    def known_order(
        self, seat: int, shown: Sequence[int], players: int
    ) -> list[Card | None] | None:
        if len(shown) != SHOWN or any(
            not 0 <= code < DECK_SIZE * MAX_DUTCH_SEATS or code // DECK_SIZE != seat
            for code in shown
        ):
            return None
        return [*(card_from_code(code) for code in shown), *[None] * (DECK_SIZE - SHOWN)]

    def fits(self, order: Sequence[Card], shown: Sequence[int], players: int) -> bool:
        return [card.code for card in order[:SHOWN]] == list(shown)


class DutchGame(
    DutchPlayer, StandInDeck, TableGame[DutchTable, DutchMove, SeatView, Card, BotLevel]
):
    """Dutch's ``TableGame`` (protocol/table/rules.py): its round, its findings, what a
    round hands the next, played to a target or for a number of rounds; the seat's part
    is ``DutchPlayer`` (player.py)."""

    tag: str = "dutch"
    game_id: int = GAME_ID
    name: str = "Dutch"
    backs: tuple[str, ...] = ALL_BACKS
    worst_round: int = WORST_ROUND
    min_seats: int = MIN_DUTCH_SEATS  # D-4: fewer left at the table end the game (P-239)
    rounds_option: bool = True  # D-37
    vectors: tuple[tuple[str, str], ...] = (
        ("dutch_deal.json", "games.dutch.vectors"),
        ("dutch_rules.json", "games.dutch.rules_vectors"),
        ("dutch_wire.json", "games.dutch.wire_vectors"),
        ("dutch_digests.json", "conformance.digest_vectors"),  # Dutch's, read as digests.json
    )

    def check_backs(self, backs: Sequence[str]) -> str | None:
        if not MIN_DUTCH_SEATS <= len(backs) <= MAX_DUTCH_SEATS:
            return f"Dutch is played by {MIN_DUTCH_SEATS} to {MAX_DUTCH_SEATS}"  # D-4
        return check_backs(list(backs))

    # -- the round ----------------------------------------------------------------------

    def deal(
        self,
        seats: Sequence[int],
        orders: Mapping[int, Sequence[Card | None]],
        options: Start,
        players: int,
        active: frozenset[int],
    ) -> DutchTable:
        table = DutchTable(tuple(seats), binding(orders, seats))
        for index, seat in enumerate(table.seats):
            if seat not in active:
                table.leave(index)
        return table

    def seats(self, state: DutchTable) -> tuple[int, ...]:
        return state.seats

    def set_active(self, state: DutchTable, seat: int, active: bool) -> None:
        if not active and seat in state.seats:
            state.leave(state.seats.index(seat))  # a return cannot undo it (M-35)

    def move_from_body(self, payload: bytes, seat: int) -> tuple[int, DutchMove]:
        try:
            number, message = _decoded(payload)
        except WireError as refused:
            raise ValueError(str(refused)) from None
        return number, DutchMove(seat, number, message)

    def tv_board(self, state: DutchTable, names: Mapping[int, str]) -> Mapping[str, Json]:
        return tv.board(state, names)

    def apply(self, state: DutchTable, move: DutchMove) -> Refused | None:
        if not isinstance(move, DutchMove):
            return Refused("bad_move")
        if move.seat not in state.seats:
            return Refused("not_dealt")
        return state.take(state.seats.index(move.seat), move.message, move.round)

    def round_over(self, state: DutchTable) -> bool:
        return state.stage is Stage.DONE

    def round_scores(self, state: DutchTable) -> dict[int, int]:
        return dict(zip(state.seats, state.scores(), strict=True))

    def ended_by(self, state: DutchTable) -> int | None:
        caller = None if state.round is None else state.round.caller
        return None if caller is None else state.seats[caller]

    def game_winner(self, totals: Mapping[int, int], target: int) -> int | None:
        """D-38, D-39: once a total reaches the target, the lowest total wins (the first
        seat of a tie, as the table names one winner)."""
        if not totals or max(totals.values()) < target:
            return None
        return min(totals, key=lambda seat: (totals[seat], seat))

    def final_winner(self, totals: Mapping[int, int]) -> int | None:
        """D-37, D-39: after the rounds chosen, the lowest total wins (``rounds_option``)."""
        return min(totals, key=lambda seat: (totals[seat], seat)) if totals else None

    def public_form(self, state: DutchTable) -> list[Form]:
        return public_form(state)

    def copy(self, state: DutchTable) -> DutchTable:
        return state.copy()

    def moves(self, state: DutchTable) -> int:
        return state.moves

    # -- what a round hands the next --------------------------------------------------

    def carry(self, state: DutchTable) -> DutchTable:
        """D-33, D-34: the next round takes its starter and the seats dealt a fifth card
        from this one (``carried``)."""
        return state

    def carried(self, state: DutchTable, last: DutchTable) -> None:
        """A seat not dealt this round passes the start to the next dealt seat after it."""
        starter, penalised = handed_on(last)
        later = [i for i, seat in enumerate(state.seats) if seat >= starter]
        state.starter = later[0] if later else 0
        state.penalised = frozenset(state.seats.index(s) for s in penalised if s in state.seats)

    # -- findings -------------------------------------------------------------------------

    def refused_body(self, state: DutchTable, seat: int, reason: str) -> None:
        """M-39: a Dutch body from a dealt seat that does not read is its sender's cheat."""
        if seat in state.seats:
            state.unreadable(state.seats.index(seat), reason)

    def findings(self, state: DutchTable) -> list[tuple[int, str]]:
        return [(state.seats[c.seat], f"{c.kind}: {c.detail}") for c in state.cheats]


def handed_on(state: DutchTable) -> tuple[int, tuple[int, ...]]:
    """D-33, D-34: the next round's starter and the seats dealt a fifth card, as table
    seats; after a round that ended unscored, the next seat starts."""
    if state.score is None:
        return state.seats[(state.starter + 1) % state.players], ()
    penalised = tuple(state.seats[i] for i in sorted(state.score.penalised))
    return state.seats[state.score.next_starter], penalised


def public_form(state: DutchTable) -> list[Form]:
    """What every node agrees on, for digests: never a face opened to one player only."""
    form: list[Form] = [
        list(state.seats),
        state.binding,
        [state.starter, sorted(state.penalised)],
        state.stage.value,
        sorted(state.deal.publics.items()),
        len(state.deal.shuffles),
        sorted([token, sorted(by)] for token, by in state.deal.shares.items()),
        sorted([token, to, sorted(by)] for (token, to), by in state.deal.sealed.items()),
        [[g.token, g.seat] for g in state.grants],
        len(state.queue),
        sorted(state.deal.audits),
        [[c.seat, c.kind.value, c.detail] for c in state.cheats],
        list(state.scores()),
        sorted(state.left),
        sorted(state.deal.handovers),
        state.dropped,
    ]
    played = state.round
    if played is not None:
        form += [
            [list(hand) for hand in played.hands],
            list(played.draw),
            list(played.discard),
            [[t, c.code] for t, c in enumerate(played.faces) if c is not None],
            [sorted(seen) for seen in played.seen_by],
            sorted(played.active),
            sorted(played.peeked),
            [played.phase.value, played.turn, played.drawn, played.action, played.window],
            [played.ended_turn, played.caller, played.ending and played.ending.value, played.turns],
        ]
    return form


GAME = DutchGame()
