"""What one seat may see of a round of Dutch, for its screen: frozen data, built from the
round and never holding a face the rules have not opened to that seat (spec/dutch.md,
section 10).

``round_view(state, seat)`` is the table as that seat sees it; ``happened(before, seat,
move, outcome, viewer)`` is what a move did, worded later by the client, with a face only
when the viewer may know it. At the end of a round every card in a hand is opened to all
(D-30), so the view of an ended round shows the faces its holder has learnt. A viewer who
is nobody at the table (``None``: a spectator) sees only the faces open to all (D-42).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import DutchCard
from .moves import (
    CallDutch,
    Discard,
    Draw,
    Give,
    InitialPeek,
    Leave,
    Look,
    Move,
    Outcome,
    Replace,
    Skip,
    Spot,
    Swap,
    Throw,
)
from .scoring import DutchResult, reveal_tokens, score_round
from .state import Ending, Phase, Round

__all__ = [
    "CardView",
    "Did",
    "DutchResult",
    "Ending",
    "Happening",
    "Phase",
    "PlayerView",
    "RoundView",
    "ScoreView",
    "SeatView",
    "happened",
    "round_view",
]


@dataclass(frozen=True, slots=True)
class CardView:
    """A card in a hand: its face if the viewer may know it; ``face_up`` when everyone
    may (a thrown card that did not match, or the reveal), else a face is remembered."""

    face: DutchCard | None
    face_up: bool = False


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    hand: tuple[CardView | None, ...]  # None: a gap a thrown card left (D-22)
    at_table: bool
    peeked: bool

    @property
    def cards(self) -> int:
        return sum(card is not None for card in self.hand)


@dataclass(frozen=True, slots=True)
class ScoreView:
    """The round's score once every revealed card is known (D-31, D-32)."""

    hand_totals: tuple[int, ...]
    scores: tuple[int, ...]
    result: DutchResult
    extra: tuple[DutchCard, ...]  # a failed caller's two cards
    next_starter: int


@dataclass(frozen=True, slots=True)
class RoundView:
    """A round as seat ``me`` sees it (``me`` None: as nobody at the table sees it, with
    no row of its own and no move to make, D-42). ``drawn`` is the card the player to move
    holds: its face only for its drawer."""

    me: int | None
    players: tuple[PlayerView, ...]
    drawn: CardView | None
    discard_top: DutchCard | None
    discarded: int
    draw_left: int
    phase: Phase
    turn: int
    action: int | None
    window: bool
    ended_turn: int | None
    caller: int | None
    ending: Ending | None
    score: ScoreView | None

    @property
    def watching(self) -> bool:
        """Whether this is the view of nobody at the table."""
        return self.me is None

    @property
    def mine(self) -> PlayerView | None:
        return None if self.me is None else self.players[self.me]

    @property
    def my_turn(self) -> bool:
        return self.phase not in (Phase.PEEK, Phase.OVER) and self.turn == self.me

    @property
    def turning_over(self) -> bool:
        """D-41: I drew a card that is still being opened to me: nothing to decide yet."""
        drawn = self.drawn
        held = self.my_turn and self.phase is Phase.DECIDE
        return held and drawn is not None and drawn.face is None

    @property
    def can_throw(self) -> bool:
        """D-21, D-28: the window is open, and my hand is not locked by my own call."""
        mine = self.mine
        return self.window and mine is not None and self.caller != self.me and mine.at_table

    @property
    def can_call(self) -> bool:
        """D-28: my turn just ended, the window is open, and nobody has called."""
        mine = self.me is not None
        return mine and self.window and self.caller is None and self.ended_turn == self.me


def _known(state: Round, seat: int | None, token: int, revealed: frozenset[int]) -> CardView:
    face_up = token in state.public or token in revealed
    if face_up or (seat is not None and seat in state.seen_by[token]):
        return CardView(state.faces[token], face_up)
    return CardView(None)


def _score(state: Round) -> ScoreView | None:
    try:
        score = score_round(state)
    except ValueError:  # not over, or a revealed card not opened to this node yet
        return None
    extra = tuple(state.faces[t] for t in score.extra)
    return ScoreView(
        score.hand_totals,
        score.scores,
        score.result,
        tuple(card for card in extra if card is not None),
        score.next_starter,
    )


def round_view(state: Round, seat: int | None) -> RoundView:
    """What ``seat`` may see of ``state``: every face it was shown, none other. ``seat``
    None: what anyone in the room may see, the faces open to all (D-42)."""
    if seat is not None and not 0 <= seat < state.seats:
        raise ValueError(f"no seat {seat} at this round")
    revealed = frozenset(reveal_tokens(state)) if state.phase is Phase.OVER else frozenset()
    players = tuple(
        PlayerView(
            seat=owner,
            hand=tuple(None if t is None else _known(state, seat, t, revealed) for t in hand),
            at_table=owner in state.active,
            peeked=owner in state.peeked,
        )
        for owner, hand in enumerate(state.hands)
    )
    top = state.top()
    return RoundView(
        me=seat,
        players=players,
        drawn=None if state.drawn is None else _known(state, seat, state.drawn, revealed),
        discard_top=None if top is None else state.faces[top],
        discarded=len(state.discard),
        draw_left=len(state.draw),
        phase=state.phase,
        turn=state.turn,
        action=state.action,
        window=state.window,
        ended_turn=state.ended_turn,
        caller=state.caller,
        ending=state.ending,
        score=_score(state) if state.phase is Phase.OVER else None,
    )


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one table seat may see of a round of Dutch at the table: what a node's snapshot
    carries for its screen (``DutchPlayer.seat_view``). ``seats`` are the table's seats of
    Dutch seats 0 to n-1; ``stage`` is where the round is (table.py ``Stage``: "keys" and
    "shuffle" while the deck is masked and shuffled, "play", "reveal", "audit", "done");
    ``round`` is None until the cards are dealt; ``news`` what the latest moves did, the
    latest last; ``waiting`` whether a move waits, in the order, for a card to be opened."""

    seats: tuple[int, ...]
    stage: str
    round: RoundView | None
    news: tuple[Happening, ...] = ()
    waiting: bool = False

    def dutch_seat(self, seat: int | None) -> int | None:
        """The Dutch seat of a table seat (None: not dealt in)."""
        return self.seats.index(seat) if seat in self.seats else None


# -- what a move did ----------------------------------------------------------------------


class Did(StrEnum):
    PEEKED = "peeked"  # D-6: looked at two of their own cards
    DREW = "drew"
    DISCARDED = "discarded"
    REPLACED = "replaced"  # the drawn card took a slot; the old card went on the pile
    SWAPPED = "swapped"  # Jack
    LOOKED = "looked"  # Queen
    GAVE = "gave"  # Ace
    SKIPPED = "skipped"
    MATCHED = "matched"  # a throw that matched
    MISSED = "missed"  # a throw that did not match: a penalty card
    CALLED = "called"
    LEFT = "left"


@dataclass(frozen=True, slots=True)
class Happening:
    """One accepted move as a viewer may know it. ``face`` is the card it turned up or
    showed the viewer (None when the viewer may not know it); ``spots`` the cards it
    named; ``other`` the seat an Ace gave to; ``penalty`` whether a penalty card came of it
    (a Joker, D-17; a missed throw, D-23); ``action`` the special card's rank it gave."""

    did: Did
    seat: int
    face: DutchCard | None = None
    spots: tuple[Spot, ...] = ()
    other: int | None = None
    penalty: bool = False
    action: int | None = None


def _penalised(before: Round, after: Round) -> bool:
    """Whether the move took a penalty card from the draw pile (it lapses when empty)."""
    return len(after.draw) < len(before.draw)


def _put_down(before: Round, after: Round, seat: int, did: Did, slot: int | None) -> Happening:
    token = after.top()
    face = None if token is None else after.faces[token]
    spots = () if slot is None else (Spot(seat, slot),)
    action = after.action if after.phase is Phase.ACTION and after.turn == seat else None
    penalty = face is not None and face.is_joker and _penalised(before, after)
    return Happening(did, seat, face, spots, penalty=penalty, action=action)


def happened(
    before: Round, seat: int, move: Move, outcome: Outcome, viewer: int | None
) -> Happening:
    """What ``seat``'s accepted ``move`` did, as ``viewer`` may know it (None: nobody at
    the table, who knows only the faces open to all, D-42)."""
    if not outcome.accepted:
        raise ValueError("a refused move did nothing")
    return _HAPPENED[type(move)](before, outcome.state, seat, move, viewer)


# Each kind of move's happening: f(before, after, seat, move, viewer). A face is shown
# when it is open to all, or to the viewer that drew or looked at it.
_Told = Callable[[Round, Round, int, Any, "int | None"], Happening]


def _peeked(
    before: Round, after: Round, seat: int, move: InitialPeek, viewer: int | None
) -> Happening:
    return Happening(Did.PEEKED, seat, spots=(Spot(seat, move.first), Spot(seat, move.second)))


def _drew(before: Round, after: Round, seat: int, move: Draw, viewer: int | None) -> Happening:
    token = before.draw[0] if before.draw else None
    face = after.faces[token] if token is not None and viewer == seat else None
    return Happening(Did.DREW, seat, face)


def _looked(before: Round, after: Round, seat: int, move: Look, viewer: int | None) -> Happening:
    token = before.hands[move.spot.seat][move.spot.slot]
    face = after.faces[token] if token is not None and viewer == seat else None
    return Happening(Did.LOOKED, seat, face, (move.spot,))


def _threw(before: Round, after: Round, seat: int, move: Throw, viewer: int | None) -> Happening:
    """A card thrown on the discard: matched, or missed and a penalty card taken."""
    token = before.hands[seat][move.slot]
    face = None if token is None else after.faces[token]
    matched = after.hands[seat][move.slot] is None
    did = Did.MATCHED if matched else Did.MISSED
    penalty = not matched and _penalised(before, after)
    return Happening(did, seat, face, (Spot(seat, move.slot),), penalty=penalty)


_HAPPENED: dict[type, _Told] = {
    InitialPeek: _peeked,
    Draw: _drew,
    Discard: lambda before, after, seat, move, viewer: _put_down(
        before, after, seat, Did.DISCARDED, None
    ),
    Replace: lambda before, after, seat, move, viewer: _put_down(
        before, after, seat, Did.REPLACED, move.slot
    ),
    Swap: lambda before, after, seat, move, viewer: Happening(
        Did.SWAPPED, seat, spots=(move.first, move.second)
    ),
    Look: _looked,
    Give: lambda before, after, seat, move, viewer: Happening(Did.GAVE, seat, other=move.seat),
    Throw: _threw,
    CallDutch: lambda before, after, seat, move, viewer: Happening(Did.CALLED, seat),
    Skip: lambda before, after, seat, move, viewer: Happening(
        Did.SKIPPED, seat, action=before.action
    ),
    Leave: lambda before, after, seat, move, viewer: Happening(Did.LEFT, seat),
}
