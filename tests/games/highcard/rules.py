"""High card: a toy second game, to show that a game is one folder.

Each round every player's shuffled deck shows its top card at the deal; the highest
value scores a point (a shared highest scores for each who holds it). The first to the
target alone at the top wins. There are no moves: the deal decides the round. It deals
Dutch Blitz's 40-card decks, since DBP/1's DEAL and REVEAL carry cards of that shape, and
a DEAL shows the top ``SHOWN`` cards (the fewest DBP/1 carries): the first is the flip.

``KnockingHighCard`` (tag ``highcard-knock``) is the same game with one move of its own,
carried in a GAME body: a round goes on after the deal until a dealt player knocks, and
the knocker ends it. It shows a game's own bodies reaching its rules through the table.

Each is a ``TableGame`` (dutchblitz/protocol/table/rules.py) and takes every default it
can: its seat's part is the interface's own, with its bot levels and their steady pace.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from dutchblitz.protocol.games.blitz.cards import (
    ALL_BACKS,
    DECK_SIZE,
    Card,
    card_from_code,
    check_backs,
    new_deck,
)
from dutchblitz.protocol.table.fairdeal import RoundRecord
from dutchblitz.protocol.table.player import Rng
from dutchblitz.protocol.table.rules import Form, MoveRefusal, TableGame
from dutchblitz.protocol.wire.messages import GameBody, Start

SHOWN = 4
KNOCK = b"knock"  # a knock's payload: this, then the round as 4 bytes, big-endian
# The bot levels, named as Dutch Blitz's so that a table's bots keep theirs from one game
# to the other, and each one's steady pace in seconds: high card has nothing to think about.
THINK_S = {"easy": 1.0, "normal": 0.5, "fast": 0.2, "flat-out": 0.0}
LEVELS = {name: name for name in THINK_S}


@dataclass(slots=True)
class Round:
    """A round of high card: each dealt seat's flipped card."""

    seats: tuple[int, ...]
    tops: Mapping[int, Card]
    knocked: list[int] = field(default_factory=list)  # the seat that knocked, once one has

    def best(self) -> list[int]:
        """The seats holding the highest value."""
        high = max(card.value for card in self.tops.values())
        return [seat for seat in self.seats if self.tops[seat].value == high]


@dataclass(frozen=True, slots=True)
class NoMoves:
    reason: str = "no_moves"
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Knock:
    seat: int


@dataclass(frozen=True, slots=True)
class KnockRefused:
    reason: str
    by: int | None = None


class HighCard(TableGame[Round, Knock, None, Card, str]):
    """High card's ``TableGame`` (dutchblitz/protocol/table/rules.py). Its one move is
    ``KnockingHighCard``'s; plain high card refuses every one."""

    tag: str = "highcard"
    game_id: int = 200  # outside the ids the project's games use
    name: str = "High card"
    backs: tuple[str, ...] = ALL_BACKS
    worst_round: int = -1

    @property
    def levels(self) -> Mapping[str, str]:
        return LEVELS

    def think_time(self, level: str, rng: Rng) -> float:
        return THINK_S[level]

    def check_backs(self, backs: Sequence[str]) -> str | None:
        return check_backs(list(backs))

    def deck(self, seat: int) -> list[Card]:
        return new_deck(seat)

    def owner(self, order: Sequence[Card]) -> int:
        return order[0].deck

    def shown(self, order: Sequence[Card], players: int) -> tuple[int, ...]:
        return tuple(card.code for card in order[:SHOWN])

    def known_order(
        self, seat: int, shown: Sequence[int], players: int
    ) -> list[Card | None] | None:
        if len(shown) != SHOWN or any(
            not 0 <= code < 320 or code // DECK_SIZE != seat for code in shown
        ):
            return None
        return [*(card_from_code(code) for code in shown), *[None] * (DECK_SIZE - SHOWN)]

    def fits(self, order: Sequence[Card], shown: Sequence[int], players: int) -> bool:
        return [card.code for card in order[:SHOWN]] == list(shown)

    def deal(
        self,
        seats: Sequence[int],
        orders: Mapping[int, Sequence[Card | None]],
        options: Start,
        players: int,
        active: frozenset[int],
    ) -> Round:
        return Round(tuple(seats), {seat: _top(orders[seat]) for seat in seats})

    def seats(self, state: Round) -> tuple[int, ...]:
        return state.seats

    def apply(self, state: Round, move: Knock) -> MoveRefusal | None:
        return NoMoves()

    def round_over(self, state: Round) -> bool:
        return True

    def round_scores(self, state: Round) -> dict[int, int]:
        best = state.best()
        return {seat: int(seat in best) for seat in state.seats}

    def ended_by(self, state: Round) -> int | None:
        best = state.best()
        return best[0] if len(best) == 1 else None

    def game_winner(self, totals: Mapping[int, int], target: int) -> int | None:
        if not totals or max(totals.values()) < target:
            return None
        leaders = [seat for seat, total in totals.items() if total == max(totals.values())]
        return leaders[0] if len(leaders) == 1 else None

    def public_form(self, state: Round) -> list[Form]:
        return [[seat, state.tops[seat].code] for seat in state.seats]

    def copy(self, state: Round) -> Round:
        return Round(state.seats, state.tops, list(state.knocked))

    # ``replay`` is the default: no moves, so the deal's card, checked by ``fits``, is the
    # whole round; ``set_active`` too: the round was decided at the deal.


class KnockingHighCard(HighCard):
    """High card whose round ends when a dealt player knocks: a GAME body's move."""

    tag: str = "highcard-knock"
    name: str = "High card (knock)"
    bots_send_bodies: bool = True

    def move_from_body(self, payload: bytes, seat: int) -> tuple[int, Knock]:
        if len(payload) != len(KNOCK) + 4 or not payload.startswith(KNOCK):
            raise ValueError("not a knock")
        return int.from_bytes(payload[len(KNOCK) :], "big"), Knock(seat)

    def apply(self, state: Round, move: Knock) -> MoveRefusal | None:
        if not isinstance(move, Knock):
            return KnockRefused("no_moves")
        if move.seat not in state.seats:
            return KnockRefused("not_dealt")
        if state.knocked:
            return KnockRefused("knocked", state.knocked[0])  # lost the race to knock
        state.knocked.append(move.seat)
        return None

    def round_over(self, state: Round) -> bool:
        return bool(state.knocked)

    def ended_by(self, state: Round) -> int | None:
        return state.knocked[0] if state.knocked else None

    def public_form(self, state: Round) -> list[Form]:
        return [*super().public_form(state), list(state.knocked)]

    def replay(self, record: RoundRecord, seat: int, deck: Sequence[Card]) -> str | None:
        knocks = [move for _, move in record.steps if isinstance(move, Knock)]
        return None if len(knocks) <= 1 else "two knocks in one round"

    def bot_body(self, state: Round, seat: int, round_number: int) -> GameBody | None:
        """A bot knocks at once, unless a knock has ended the round."""
        if state.knocked or seat not in state.seats:
            return None
        return GameBody(self.game_id, knock(round_number))


def _top(order: Sequence[Card | None]) -> Card:
    """The flip: a DEAL shows it, so every node knows it."""
    top = order[0]
    assert top is not None
    return top


def knock(round_number: int) -> bytes:
    return KNOCK + round_number.to_bytes(4, "big")


RULES = HighCard()
KNOCKING = KnockingHighCard()
