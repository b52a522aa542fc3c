"""Word toy as a table game: ``WordToy``, the one ``TableGame`` object (protocol/table/rules.py)
registered under tag ``wordtoy`` by ``node.py``, from this folder alone.

The fair deal runs for every round and only starts it: a seat's deck is a stand-in of
tokens (``Token``), of which a DEAL shows ``SHOWN``; a hash of every dealt seat's DEAL
(fresh each round, the same on every node) draws the round's categories. Moves ride GAME
bodies (``wire.py``). A seat owes nothing of its own but the close of a silent card
(``timed_duty``); its bots decide with the seat's private seed (``bots_use_secrets``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from hashlib import blake2b
from types import MappingProxyType
from typing import Final

from dutchblitz.protocol.limits import DECK_CODES, MAX_PLAYERS
from dutchblitz.protocol.table.player import ActRefusal, GameMove, Rng
from dutchblitz.protocol.table.rules import Form, Json, SeatDecks, SeatSecrets, TableGame
from dutchblitz.protocol.wire.messages import Body, GameBody, Start

from tests.games.wordtoy import bots, views
from tests.games.wordtoy.rules import (
    Answer,
    Close,
    Message,
    Object,
    Refusal,
    Round,
    apply,
    new_round,
    winner,
)
from tests.games.wordtoy.views import WordView
from tests.games.wordtoy.wire import decode, encode

TAG: Final = "wordtoy"
GAME_ID: Final = 201  # outside the ids the project's games use (high card has 200)
SHOWN: Final = 4
BACKS: Final = ("acorn", "bell", "comb", "drum", "egg", "fern", "gate", "hat")
ANSWER_WINDOW_S: Final = 5.0  # silence accepts a waiting answer after this
CARD_WINDOW_S: Final = 15.0  # a card nobody answers goes to nobody after this
LOOK_S: Final = (0.05, 0.15)


@dataclass(frozen=True, slots=True, order=True)
class Token:
    """A stand-in card of the fair deal: only its code."""

    code: int


@dataclass(frozen=True, slots=True)
class WordMove:
    """A move as the table applies it: the table seat that sent it and its message."""

    seat: int
    message: Message


@dataclass(slots=True)
class WordTable:
    """A round at the table: the table seats dealt in (game index -> seat) and the round."""

    seats: tuple[int, ...]
    round: Round

    def index(self, seat: int) -> int | None:
        return self.seats.index(seat) if seat in self.seats else None


class TokenDeck(SeatDecks[Token]):
    def deck(self, seat: int) -> list[Token]:
        return [Token(seat * DECK_CODES + i) for i in range(DECK_CODES)]

    def owner(self, order: Sequence[Token]) -> int:
        return order[0].code // DECK_CODES

    def shown(self, order: Sequence[Token], players: int) -> tuple[int, ...]:
        return tuple(token.code for token in order[:SHOWN])

    def known_order(
        self, seat: int, shown: Sequence[int], players: int
    ) -> list[Token | None] | None:
        if len(shown) != SHOWN or any(
            not 0 <= code < DECK_CODES * MAX_PLAYERS or code // DECK_CODES != seat for code in shown
        ):
            return None
        return [*(Token(code) for code in shown), *[None] * (DECK_CODES - SHOWN)]

    def fits(self, order: Sequence[Token], shown: Sequence[int], players: int) -> bool:
        return [token.code for token in order[:SHOWN]] == list(shown)


def seed(orders: Mapping[int, Sequence[Token | None]], seats: Sequence[int]) -> bytes:
    """16 bytes of every dealt seat's DEAL, in seat order: the round's draw."""
    digest = blake2b(digest_size=16, person=b"wordtoy-draw-v1")
    for seat in seats:
        digest.update(bytes([seat]))
        for token in orders[seat][:SHOWN]:
            assert token is not None  # a DEAL shows them (``known_order``)
            digest.update(token.code.to_bytes(2, "big"))
    return digest.digest()


class WordToy(TokenDeck, TableGame[WordTable, WordMove, WordView, Token, bots.Level]):
    tag: str = TAG
    game_id: int = GAME_ID
    name: str = views.TITLE
    backs: tuple[str, ...] = BACKS
    worst_round: int = 0
    min_seats: int = 2
    rounds_option: bool = True
    default_rounds: int | None = 2  # a START with no rounds chosen carries two
    bots_use_secrets: bool = True  # ``seat_bot``, with the seat's private seed

    def check_backs(self, backs: Sequence[str]) -> str | None:
        if not 2 <= len(backs) <= len(BACKS):
            return f"word toy is played by 2 to {len(BACKS)}"
        if len(set(backs)) != len(backs):
            return "each player needs a different back"
        return None

    # -- the round --------------------------------------------------------------------

    def deal(
        self,
        seats: Sequence[int],
        orders: Mapping[int, Sequence[Token | None]],
        options: Start,
        players: int,
        active: frozenset[int],
    ) -> WordTable:
        table = WordTable(tuple(seats), new_round(len(seats), seed(orders, seats)))
        table.round.active = {i for i, seat in enumerate(seats) if seat in active}
        return table

    def seats(self, state: WordTable) -> tuple[int, ...]:
        return state.seats

    def set_active(self, state: WordTable, seat: int, active: bool) -> None:
        index = state.index(seat)
        if index is not None:
            (state.round.active.add if active else state.round.active.discard)(index)

    def move_from_body(self, payload: bytes, seat: int) -> tuple[int, WordMove]:
        round_number, message = decode(payload)
        return round_number, WordMove(seat, message)

    def apply(self, state: WordTable, move: WordMove) -> Refusal | None:
        index = state.index(move.seat)
        if index is None:
            return Refusal("not_dealt")
        refused = apply(state.round, index, move.message)
        if refused is not None and refused.by is not None:
            return Refusal(refused.reason, state.seats[refused.by])
        return refused

    def round_over(self, state: WordTable) -> bool:
        return state.round.over

    def round_scores(self, state: WordTable) -> dict[int, int]:
        return dict(zip(state.seats, state.round.won, strict=True))

    def ended_by(self, state: WordTable) -> int | None:
        return None

    def game_winner(self, totals: Mapping[int, int], target: int) -> int | None:
        """Too few left to deal (P-239): the one player on the most cards, at ``target``."""
        if not totals or max(totals.values()) < target:
            return None
        return winner(sorted(totals.items()))

    def final_winner(self, totals: Mapping[int, int]) -> int | None:
        """After the rounds chosen: most cards wins; a tie is a draw (None, P-238)."""
        return winner(sorted(totals.items()))

    def public_form(self, state: WordTable) -> list[Form]:
        r = state.round
        return [
            list(state.seats), list(r.cards), r.card, r.numbered, r.moves, list(r.won),
            [[s.seat, s.text, s.number] for s in r.queue],
            [[d.category, -1 if d.seat is None else d.seat, d.text] for d in r.decided],
            [] if r.dropped is None else list(r.dropped), sorted(r.active),
        ]  # fmt: skip

    def copy(self, state: WordTable) -> WordTable:
        return WordTable(state.seats, state.round.copy())

    def moves(self, state: WordTable) -> int:
        return state.round.moves

    def table_view(self, state: WordTable) -> views.Live:
        return views.Live(MappingProxyType(self.round_scores(state)))

    def tv_board(self, state: WordTable, names: Mapping[int, str]) -> Mapping[str, Json]:
        return views.board(views.view(state.round, state.seats, None), names)

    # -- bots -------------------------------------------------------------------------

    @property
    def levels(self) -> Mapping[str, bots.Level]:
        return bots.LEVELS

    def think_time(self, level: bots.Level, rng: Rng) -> float:
        return float(rng.uniform(*LOOK_S))

    def seat_bot(
        self, state: WordTable, seat: int, secrets: SeatSecrets, level: bots.Level
    ) -> GameBody | None:
        index = state.index(seat)
        if index is None:
            return None
        message = bots.move(state.round, index, level, secrets.private, secrets.round)
        return None if message is None else GameBody(GAME_ID, encode(secrets.round, message))

    def race_hold(self, state: WordTable, seat: int, level: bots.Level | None = None) -> float:
        index = state.index(seat)
        if index is None:
            return 0.0
        return bots.thinking(state.round, index, level or bots.LEVELS["sharp"])

    # -- duties -----------------------------------------------------------------------

    def timed_duty(
        self, state: WordTable, seat: int, round_number: int
    ) -> tuple[float, GameBody] | None:
        """Silence closes the card: sent by the first player present, so that one seat
        closes it and no other's close is refused."""
        r = state.round
        index = state.index(seat)
        if r.over or index is None or index != min(r.active, default=None):
            return None
        length = ANSWER_WINDOW_S if r.queue else CARD_WINDOW_S
        return length, GameBody(GAME_ID, encode(round_number, Close(r.card, r.moves)))

    # -- a person's seat ----------------------------------------------------------------

    def seat_view(
        self, state: WordTable, seat: int | None, secrets: SeatSecrets | None
    ) -> WordView | None:
        if not isinstance(state, WordTable):
            return None
        return views.view(state.round, state.seats, None if seat is None else state.index(seat))

    def body(
        self,
        state: WordTable,
        seat: int,
        move: GameMove,
        round_number: int,
        secrets: SeatSecrets | None,
    ) -> Body | ActRefusal:
        """A person's ``Typed`` answer or ``Objection``, checked on the round as it stands."""
        index = state.index(seat) if isinstance(state, WordTable) else None
        if index is None:
            return ActRefusal("not_playing")
        message = _message(state.round, move)
        if message is None:
            return ActRefusal("bad_move")
        refused = apply(state.round.copy(), index, message)
        if refused is not None:
            return ActRefusal(refused.reason)
        try:
            return GameBody(GAME_ID, encode(round_number, message))
        except ValueError:
            return ActRefusal("bad_answer")

    def lost_race(self, code: str) -> bool:
        return code == "stale"


@dataclass(frozen=True, slots=True)
class Typed:
    """A person's answer, as the face sends it: the text typed, and the card it was typed
    for (the card on screen at its first letter): a card decided meanwhile refuses it."""

    text: str
    card: int


@dataclass(frozen=True, slots=True)
class Objection:
    """A person objects to the answer that waits."""


def _message(state: Round, move: GameMove) -> Message | None:
    if isinstance(move, Typed):
        return Answer(move.card, move.text)
    if isinstance(move, Objection):
        head = state.waiting()
        return None if head is None else Object(state.card, head.number)
    return None


GAME = WordToy()
