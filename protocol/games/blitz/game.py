"""Dutch Blitz as the table and the node know it: ``BlitzGame``, its ``TableGame``
(protocol/table/rules.py), registered as ``GAME``. The seat's part is ``BlitzPlayer``
(player.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...table.fairdeal import RoundRecord
from ...table.fairdeal import deck_order as shuffled
from ...table.rules import Form, Json, SeatCards, TableGame
from ...wire.messages import Play, Start
from . import audit, rules, scoring, state, tv, views
from .bots import Level
from .cards import ALL_BACKS, BLITZ_SIZE, Card, card_from_code, check_backs, new_deck, post_count
from .digest import public_form
from .moves import Move
from .player import BlitzPlayer
from .wire_moves import move_from_play, play_from_move

MIN_ROUND_SCORE = -20  # ten Blitz cards left and nothing in the centre: the worst round


def deck_order(seat: int, secret: bytes, joint: bytes) -> list[Card]:
    """A seat's Dutch Blitz deck for a round, top first: the canonical deck, shuffled."""
    order: list[Card] = shuffled(new_deck(seat), secret, joint)
    return order


class BlitzGame(BlitzPlayer, TableGame[state.Table, Move, None, Card, Level]):
    """Dutch Blitz (spec/rules.md): one 40-card deck per seat, everyone plays at once."""

    tag: str = "blitz"
    game_id: int = 1  # Dutch's is 2 (games/dutch/wire.py)
    name: str = "Dutch Blitz"
    backs: tuple[str, ...] = ALL_BACKS
    worst_round: int = MIN_ROUND_SCORE
    min_seats: int = 1  # a player left alone plays the round out
    vectors: tuple[tuple[str, str], ...] = (("rules.json", "games.blitz.rules_vectors"),)

    def check_backs(self, backs: Sequence[str]) -> str | None:
        return check_backs(list(backs))

    def deck(self, seat: int) -> list[Card]:
        return new_deck(seat)

    def owner(self, order: Sequence[Card]) -> int:
        return order[0].deck

    def card(self, code: int) -> Card:
        return card_from_code(code)

    def shown(self, order: Sequence[Card], players: int) -> tuple[int, ...]:
        return state.visible_codes(order, players)

    def known_order(
        self, seat: int, shown: Sequence[int], players: int
    ) -> list[Card | None] | None:
        """The Post row and the Blitz top, each a card of this seat's deck, once each."""
        if len(shown) != post_count(players) + 1 or any(
            not 0 <= code < 320 or code // 40 != seat for code in shown
        ):
            return None
        cards = [card_from_code(code) for code in shown]
        if len(set(cards)) != len(cards):
            return None
        return audit.face_up(cards)

    def fits(self, order: Sequence[Card], shown: Sequence[int], players: int) -> bool:
        posts = post_count(players)
        face_up = [*order[:posts], *order[posts + BLITZ_SIZE - 1 : posts + BLITZ_SIZE]]
        return [card.code for card in face_up] == list(shown)

    def deal(
        self,
        seats: Sequence[int],
        orders: Mapping[int, Sequence[Card | None]],
        options: Start,
        players: int,
        active: frozenset[int],
    ) -> state.Table:
        table = state.deal(seats, orders, post_stacking=options.post_stacking, players=players)
        for seat in seats:
            table.areas[seat].active = seat in active
        return table

    def seats(self, table: state.Table) -> tuple[int, ...]:
        return tuple(table.seats)

    def set_active(self, table: state.Table, seat: int, active: bool) -> None:
        rules.set_active(table, seat, active)

    def move_from_play(self, play: Play, seat: int) -> Move:
        return move_from_play(play, seat)

    def play_from_move(self, move: Move, round: int) -> Play:
        return play_from_move(move, round)

    def apply(self, table: state.Table, move: Move) -> rules.Refusal | None:
        return rules.apply(table, move)

    def round_over(self, table: state.Table) -> bool:
        return table.over

    def round_scores(self, table: state.Table) -> dict[int, int]:
        return scoring.round_scores(table)

    def ended_by(self, table: state.Table) -> int | None:
        return table.blitz_by

    def game_winner(self, totals: Mapping[int, int], target: int) -> int | None:
        return scoring.game_winner(totals, target)

    def public_form(self, table: state.Table) -> list[Form]:
        form: list[Form] = public_form(table)
        return form

    def copy(self, table: state.Table) -> state.Table:
        return table.copy()

    def replay(self, record: RoundRecord, seat: int, deck: Sequence[Card]) -> str | None:
        return audit.replay(record, seat, deck)

    def table_view(self, table: state.Table) -> views.TableView:
        return views.table_view(table)

    def seat_cards(self, table: state.Table, seat: int) -> SeatCards[Card] | None:
        return views.seat_cards(table, seat)

    def tv_board(self, table: state.Table, names: Mapping[int, str]) -> Mapping[str, Json]:
        return tv.board(views.table_view(table))


GAME = BlitzGame()
