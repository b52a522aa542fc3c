"""Blitz!'s seat at a hosted table: ``FaceoffSeat``, the ``SeatPlayer`` half of its
``TableGame`` (protocol/table/player.py): what a seat owes the round, how its bots play and
pace themselves, what a person's seat sees, and the body a person's move becomes.

Every seat owes the round its chain end and a link for each opening (``seat_duties``), a
person's as a bot's, and closes a window nobody acted in once it has lasted its length
(``timed_duty``). The round itself, its layout, moves, ends and scores, is host.py's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from hashlib import blake2b
from typing import Final

from ...table import openings
from ...table.player import ActRefusal, Rng, SeatPlayer
from ...table.rules import SeatSecrets
from ...wire.messages import Body, GameBody
from . import bots
from .moves import Answer, Claim, Concede, Contest, TurnFrom, Vote
from .pack import table_digest
from .state import Mode, Phase
from .table import FaceoffMove, FaceoffTable, Stage
from .views import TableView, view
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
    encode,
)

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


class FaceoffSeat(SeatPlayer[FaceoffTable, FaceoffMove, TableView, bots.Level]):
    """What Blitz!'s seats, a person's and its bots, send and see at a hosted table."""

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
            return [_body(secrets.round, Chain(table_digest(), links[0]))]
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
        refused = trial.take(state.seats.index(seat), message, table_digest())
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
