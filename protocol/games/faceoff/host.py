"""Blitz! as a table game: ``FaceoffGame``, the ``TableGame`` the table hosts under tag
``faceoff`` (registered as ``GAME``; spec/faceoff.md F-46 to F-56).

A whole game of Blitz! is one round of the table. The fair deal runs as for every game and
only starts it: Blitz!'s cards are turned by the table's openings (table.py,
table/openings.py), so a seat's deck for the fair deal is a stand-in (decks.py), and the
fair deal's binding picks who turns first (F-51). The table's one boolean option, Post stacking
in Dutch Blitz, is Blitz!'s answer mode here: on (the default), typed; off, spoken (F-23,
F-51).

Every seat owes the round its chain end and a link for each opening (``seat_duties``), a
person's as a bot's, and closes a window nobody acted in once it has lasted its length
(``timed_duty``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from hashlib import blake2b
from typing import Final

from ...table import openings
from ...table.player import ActRefusal, Rng
from ...table.rules import Form, Json, SeatSecrets, TableGame
from ...wire.messages import Body, GameBody, Start
from . import TAG, TITLE, bots, tv
from .decks import BACKS, Token, TokenDeck, binding, check_backs
from .moves import Answer, Claim, Concede, Contest, TurnFrom, Vote
from .pack import Pack, shipped
from .state import MIN_FACEOFF_SEATS, Mode, Phase, new_game, scores
from .table import FaceoffTable, Refused, Stage
from .views import TableView, public_form, view
from .wire import (
    GAME_ID,
    Chain,
    Claimed,
    Closed,
    Conceded,
    Contested,
    Link,
    Message,
    Payload,
    Said,
    Voted,
    WireError,
    Wish,
    decode,
    encode,
)

LANGUAGE: Final = "en"  # the pack a table plays (F-33: every node must hold the same)
WORST_ROUND: Final = 0  # a flag leaves no won card to take
# F-29: how long a window lasts at a table of people, in seconds.
ANSWER_WINDOW_S: Final = 6.0  # an unlisted typed answer, before silence accepts it
CLAIM_WINDOW_S: Final = 4.0  # a spoken claim, before silence accepts it
VOTE_WINDOW_S: Final = 10.0  # a vote, before it closes with the votes in
# A bot's pace is held here, from when the table last changed (``race_hold``), not in its
# looks (``think_time``), which the node also waits before a seat's links: those go at once.
ANSWER_HOLD_S: Final = 2.5  # before it answers a face-off, as a person thinks...
ANSWER_SPREAD_S: Final = 3.0  # ...and up to this much longer, by seat and moment
ANSWER_FLOOR_S: Final = 1.5  # a bot of a known level: this, then its level's answer time
MOVE_HOLD_S: Final = 0.4  # before a turn, a contest or a vote
LOOK_S: Final = (0.05, 0.15)  # between looks
CHAIN_CONTEXT: Final = b"faceoff-openings"


@cache
def pack() -> Pack:
    return shipped(LANGUAGE)


def digest() -> bytes:
    return bytes.fromhex(pack().digest)


def _chain(secrets: SeatSecrets) -> tuple[bytes, ...]:
    kept = secrets.memo.get("faceoff-chain")
    if not isinstance(kept, tuple):
        kept = openings.chain(secrets.private, CHAIN_CONTEXT)
        secrets.memo["faceoff-chain"] = kept
    return kept


def _body(round_number: int, message: Message) -> GameBody:
    return GameBody(GAME_ID, encode(Payload(round_number, message)))


class _Whim:
    """A bot's own randomness, drawn from its seat's private seed: never consensus."""

    def __init__(self, seed: bytes) -> None:
        self.seed, self.drawn = seed, 0

    def random(self) -> float:
        self.drawn += 1
        value = blake2b(self.drawn.to_bytes(4, "big"), key=self.seed, digest_size=8).digest()
        return int.from_bytes(value, "big") / 2**64


@dataclass(frozen=True, slots=True)
class FaceoffMove:
    """A seat's body as the table applies it: the seat, the round it names, its message."""

    seat: int
    round: int
    message: Message


class FaceoffGame(TokenDeck, TableGame[FaceoffTable, FaceoffMove, TableView, Token, bots.Level]):
    """Blitz!'s ``TableGame`` (protocol/table/rules.py)."""

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
        return digest()

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
        table = FaceoffTable(tuple(seats), new_game(pack(), len(seats), first, mode))
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
        return state.take(state.seats.index(move.seat), move.message, digest())

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

    # -- bots -----------------------------------------------------------------------------

    @property
    def levels(self) -> Mapping[str, bots.Level]:
        return bots.LEVELS

    def think_time(self, level: bots.Level, rng: Rng) -> float:
        return float(rng.uniform(*LOOK_S))

    def seat_bot(
        self, state: FaceoffTable, seat: int, secrets: SeatSecrets, level: bots.Level
    ) -> GameBody | None:
        if seat not in state.seats or state.stage is not Stage.PLAY or state.wanted():
            return None
        index = state.seats.index(seat)
        looks = int(secrets.memo.get("faceoff-looks", 0)) + 1
        secrets.memo["faceoff-looks"] = looks
        rng = _Whim(blake2b(secrets.private + looks.to_bytes(8, "big"), digest_size=16).digest())
        move = bots.bot_move(state.game, index, level, rng)
        if move is None or (isinstance(move, TurnFrom) and state.wish is not None):
            return None
        body = self.body(state, seat, move, secrets.round, secrets)
        return body if isinstance(body, GameBody) else None

    def race_hold(self, state: FaceoffTable, seat: int, level: bots.Level | None = None) -> float:
        """A bot thinks before it answers a face-off, as a person would, and glances at
        the table before anything else. Its level's answer time (``bots.Level.answer``)
        comes on top of a person's chance (``ANSWER_FLOOR_S``); a level not given waits
        ``ANSWER_HOLD_S`` and up to ``ANSWER_SPREAD_S`` more."""
        if seat not in state.seats:
            return 0.0
        index = state.seats.index(seat)
        if not bots.answering(state.game, index):
            return MOVE_HOLD_S
        jitter = blake2b(bytes([index]) + state.moves.to_bytes(4, "big"), digest_size=1).digest()
        share = jitter[0] / 255
        chosen = level
        if chosen is None:
            return ANSWER_HOLD_S + ANSWER_SPREAD_S * share
        low, high = chosen.answer
        return ANSWER_FLOOR_S + low + (high - low) * share

    # -- duties ---------------------------------------------------------------------------

    def seat_duties(self, state: FaceoffTable, seat: int, secrets: SeatSecrets) -> list[GameBody]:
        if seat not in state.seats:
            return []
        index = state.seats.index(seat)
        if index not in state.game.active:
            return []
        links = _chain(secrets)
        if state.stage is Stage.CHAINS and index not in state.ends:
            return [_body(secrets.round, Chain(digest(), links[0]))]
        if state.owes_link(index):
            number = state.opening + 1
            return [_body(secrets.round, Link(number, links[number]))]
        return []

    def timed_duty(
        self, state: FaceoffTable, seat: int, round_number: int
    ) -> tuple[float, GameBody] | None:
        """F-29, F-52: once a window has lasted its length, any seat at the table closes it."""
        if seat not in state.seats or state.seats.index(seat) not in state.game.active:
            return None
        duel = state.game.faceoff
        if state.game.phase is not Phase.FACEOFF or duel is None or duel.claimant is None:
            return None
        if duel.voting:
            length = VOTE_WINDOW_S
        else:
            length = CLAIM_WINDOW_S if state.game.mode is Mode.SPOKEN else ANSWER_WINDOW_S
        return length, _body(round_number, Closed(state.window))

    # -- a person's seat ------------------------------------------------------------------

    def seat_view(
        self, state: FaceoffTable, seat: int | None, secrets: SeatSecrets | None
    ) -> TableView | None:
        if not isinstance(state, FaceoffTable) or state.stage is Stage.CHAINS:
            return None  # nobody may turn a card before every chain is in (F-47)
        index = state.seats.index(seat) if seat in state.seats else None
        shown = view(state.game, index)
        return replace(shown, last=state.last, dropped=state.dropped, strangers=state.strangers)

    def tv_board(self, state: FaceoffTable, names: Mapping[int, str]) -> Mapping[str, Json]:
        if not isinstance(state, FaceoffTable) or state.stage is Stage.CHAINS:
            return {"centre": [], "areas": {}, "headline": "Shuffling the draw piles"}
        shown = self.seat_view(state, None, None)
        assert shown is not None
        return tv.board(shown, state.seats, names)

    def body(
        self,
        state: FaceoffTable,
        seat: int,
        move: object,
        round_number: int,
        secrets: SeatSecrets | None,
    ) -> Body | ActRefusal:
        if not isinstance(state, FaceoffTable) or seat not in state.seats:
            return ActRefusal("not_playing")
        if state.stage is not Stage.PLAY:
            return ActRefusal("not_play_time")
        message = _message(state, move)
        if message is None:
            return ActRefusal("bad_move")
        trial = state.copy()
        refused = trial.take(state.seats.index(seat), message, digest())
        if refused is not None:
            return ActRefusal(refused.reason)
        try:
            return GameBody(GAME_ID, encode(Payload(round_number, message)))
        except WireError as unwritten:
            return ActRefusal(unwritten.reason)

    def lost_race(self, code: str) -> bool:
        return code in ("stale", "pending", "wrong_phase", "stale_window")


def _message(state: FaceoffTable, move: object) -> Message | None:
    if isinstance(move, TurnFrom):
        return Wish(move.pile)
    if isinstance(move, Answer):
        return Said(state.moves, move.text)
    if isinstance(move, Claim):
        return Claimed(state.moves)
    if isinstance(move, Concede):
        return Conceded()
    if isinstance(move, Contest):
        return Contested()
    if isinstance(move, Vote):
        return Voted(move.accept)
    return None


GAME = FaceoffGame()
