"""Blitz! as a table game: ``FaceoffGame``, the ``TableGame`` the table hosts under tag
``faceoff`` (registered as ``GAME``; spec/faceoff.md F-46 to F-56).

A whole game of Blitz! is one round of the table. The fair deal runs as for every game and
only starts it: Blitz!'s cards are turned by the table's openings (table.py,
table/openings.py), so a seat's deck for the fair deal is a stand-in (decks.py), and the
fair deal's binding picks who turns first (F-51). The table's one boolean option, Post stacking
in Dutch Blitz, is Blitz!'s answer mode here: on (the default), typed; off, spoken (F-23,
F-51).

What a seat owes the round, how its bots play, and what a person's seat sees and sends are
the seat's part of the game, ``FaceoffSeat`` (seat.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from ...table.rules import Form, Json, TableGame
from ...wire.messages import Start
from . import TAG, TITLE, bots, tv
from .decks import BACKS, Token, TokenDeck, binding, check_backs
from .pack import table_digest, table_pack
from .seat import FaceoffSeat
from .state import MIN_FACEOFF_SEATS, Mode, new_game, scores
from .table import FaceoffMove, FaceoffTable, Refused, Stage
from .views import TableView, public_form
from .wire import (
    GAME_ID,
    WireError,
    decode,
)

WORST_ROUND: Final = 0  # a flag leaves no won card to take


class FaceoffGame(
    FaceoffSeat, TokenDeck, TableGame[FaceoffTable, FaceoffMove, TableView, Token, bots.Level]
):
    """Blitz!'s ``TableGame`` (protocol/table/rules.py): its round here, its seats'
    part in ``FaceoffSeat`` (seat.py)."""

    tag: str = TAG
    game_id: int = GAME_ID
    name: str = TITLE
    backs: tuple[str, ...] = BACKS
    worst_round: int = WORST_ROUND
    # F-2, F-57: a deal for fewer is never made; the table ends the game instead (P-239).
    # Once dealt, the game plays on down to two players (F-40).
    min_seats: int = MIN_FACEOFF_SEATS
    rounds_option: bool = True  # one round is the whole game (F-41)
    owes_bodies: bool = True
    vectors: tuple[tuple[str, str], ...] = (("faceoff_wire.json", "games.faceoff.wire_vectors"),)

    def check_backs(self, backs: Sequence[str]) -> str | None:
        return check_backs(backs)

    def data_digest(self) -> bytes:
        """F-33: the pack this node plays, its answer lists with it; a START carries it."""
        return table_digest()

    # -- the round ------------------------------------------------------------------------

    def deal(
        self,
        seats: Sequence[int],
        orders: Mapping[int, Sequence[Token | None]],
        options: Start,
        players: int,
        active: frozenset[int],
    ) -> FaceoffTable:
        """F-51: the first to turn is picked by the fair deal's binding; the mode is the
        table's option."""
        mode = Mode.TYPED if options.post_stacking else Mode.SPOKEN
        first = binding(orders, seats)[0] % len(seats)
        table = FaceoffTable(tuple(seats), new_game(table_pack(), len(seats), first, mode))
        for index, seat in enumerate(table.seats):
            if seat not in active:
                table.leave(index)
        return table

    def seats(self, state: FaceoffTable) -> tuple[int, ...]:
        return state.seats

    def set_active(self, state: FaceoffTable, seat: int, active: bool) -> None:
        if not active and seat in state.seats:
            state.leave(state.seats.index(seat))  # F-39: a return cannot undo it

    def move_from_body(self, payload: bytes, seat: int) -> tuple[int, FaceoffMove]:
        try:
            decoded = decode(payload)
        except WireError as refused:
            raise ValueError(str(refused)) from None
        return decoded.round, FaceoffMove(seat, decoded.round, decoded.message)

    def apply(self, state: FaceoffTable, move: FaceoffMove) -> Refused | None:
        if not isinstance(move, FaceoffMove):
            return Refused("bad_move")
        if move.seat not in state.seats:
            return Refused("not_dealt")
        return state.take(state.seats.index(move.seat), move.message, table_digest())

    def round_over(self, state: FaceoffTable) -> bool:
        return state.stage is Stage.DONE

    def round_scores(self, state: FaceoffTable) -> dict[int, int]:
        return dict(zip(state.seats, scores(state.game), strict=True))

    def ended_by(self, state: FaceoffTable) -> int | None:
        return None

    def game_winner(self, totals: Mapping[int, int], target: int) -> int | None:
        """F-41, F-42: one round is the game; the most won cards win (the first seat of a
        tie, as the table names one winner)."""
        return self.final_winner(totals)

    def final_winner(self, totals: Mapping[int, int]) -> int | None:
        return max(totals, key=lambda seat: (totals[seat], -seat)) if totals else None

    def public_form(self, state: FaceoffTable) -> list[Form]:
        return [
            list(state.seats),
            state.stage.value,
            sorted(state.ends.items()),
            state.opening,
            sorted(state.parts.items()),
            -1 if state.wish is None else state.wish,
            [state.window, state.moves, state.pending_since, state.duel_since],
            [[seat, text] for seat, text in state.news],
            [] if state.last is None else list(state.last),
            [] if state.dropped is None else list(state.dropped),
            sorted(state.strangers),
            public_form(state.game),
        ]

    def copy(self, state: FaceoffTable) -> FaceoffTable:
        return state.copy()

    def moves(self, state: FaceoffTable) -> int:
        return state.moves

    def tv_board(self, state: FaceoffTable, names: Mapping[int, str]) -> Mapping[str, Json]:
        if not isinstance(state, FaceoffTable) or state.stage is Stage.CHAINS:
            return {"centre": [], "areas": {}, "headline": "Shuffling the draw piles"}
        shown = self.seat_view(state, None, None)
        assert shown is not None
        return tv.board(shown, state.seats, names)


GAME = FaceoffGame()
