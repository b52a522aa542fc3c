"""The state of a round of Dutch: where every card is, and who may know each card.

Cards are named by *tokens*: a token is a position in the round's shuffled deck (D-3), so
the rules can move a card that nobody has seen. ``faces`` holds the card under each token
as far as the holder of this state knows it: a full table (a test, the simulator, the
audit) knows every face; a player's node knows only the faces opened to it (the table's
masked deck, protocol/table/masked/).
``seen_by`` and ``public`` say who the rules have let see each card, whoever holds the state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final

from .cards import CARDS_IN_DECK, DutchCard

MIN_DUTCH_SEATS: Final = 3  # D-4
MAX_DUTCH_SEATS: Final = 8  # D-4: 8 hands of 4 leave 22 cards to draw
HAND_CARDS: Final = 4  # D-5


class Phase(StrEnum):
    PEEK = "peek"  # D-6: the initial peeks, before the first turn
    DRAW = "draw"  # the player to move must draw; the race window may be open
    DECIDE = "decide"  # the player holds the drawn card: discard it or replace
    ACTION = "action"  # a Jack, Queen or Ace was discarded: its action, or skip
    OVER = "over"  # the round has ended: reveal and score


class Ending(StrEnum):
    DUTCH = "dutch"  # D-29: the last turns after a call were played
    PILE_OUT = "pile_out"  # D-35: the draw pile ran out
    DESERTED = "deserted"  # D-36: no player is left at the table
    STRANDED = "stranded"  # M-28: a player left without its keys: nothing can be opened


@dataclass(frozen=True, slots=True)
class Round:
    """A round of Dutch. Hands hold tokens, ``None`` for a gap a thrown card left (D-22);
    the draw pile is listed top first, the discard pile bottom first."""

    seats: int
    starter: int
    faces: tuple[DutchCard | None, ...]
    hands: tuple[tuple[int | None, ...], ...]
    draw: tuple[int, ...]
    discard: tuple[int, ...]
    seen_by: tuple[frozenset[int], ...]
    public: frozenset[int]
    active: frozenset[int]
    peeked: frozenset[int] = frozenset()
    phase: Phase = Phase.PEEK
    turn: int = 0
    drawn: int | None = None
    action: int | None = None  # the rank whose action is due in Phase.ACTION
    window: bool = False  # D-20: open from the end of a turn to the next draw
    ended_turn: int | None = None  # whose turn ended last, while the window is open
    caller: int | None = None
    ending: Ending | None = None
    turns: int = 0

    def face(self, token: int) -> DutchCard | None:
        return self.faces[token]

    def knows(self, seat: int, token: int) -> bool:
        """Whether the rules have let ``seat`` see the card under ``token``."""
        return token in self.public or seat in self.seen_by[token]

    def top(self) -> int | None:
        return self.discard[-1] if self.discard else None

    def drawn_unseen(self, seat: int) -> bool:
        """D-41: whether ``seat`` holds a card it drew and cannot see yet (its shares are on
        their way): it may not discard it or put it in place of another."""
        drawn = self.drawn
        return (
            self.phase is Phase.DECIDE
            and self.turn == seat
            and drawn is not None
            and self.faces[drawn] is None
        )

    def places(self) -> list[int]:
        """Every token where it lies: hands, draw pile, discard pile, the drawn card."""
        found = [t for hand in self.hands for t in hand if t is not None]
        found += [*self.draw, *self.discard]
        return [*found, self.drawn] if self.drawn is not None else found


def deal(
    seats: int,
    starter: int = 0,
    penalised: Iterable[int] = (),
    faces: Sequence[DutchCard | None] | None = None,
    active: Iterable[int] | None = None,
) -> Round:
    """D-5: deal a round from the shuffled deck. Token ``k * seats + s`` is card ``k`` of
    seat ``s``; each penalised seat, in seat order, then takes the next token as a fifth
    card (D-33); the rest is the draw pile, the lowest token on top."""
    if not MIN_DUTCH_SEATS <= seats <= MAX_DUTCH_SEATS:
        raise ValueError(f"Dutch seats {MIN_DUTCH_SEATS} to {MAX_DUTCH_SEATS}, not {seats}")
    if not 0 <= starter < seats:
        raise ValueError(f"no seat {starter} to start")
    known = tuple(faces) if faces is not None else (None,) * CARDS_IN_DECK
    if len(known) != CARDS_IN_DECK:
        raise ValueError(f"a Dutch deck has {CARDS_IN_DECK} cards, not {len(known)}")
    codes = [c.code for c in known if c is not None]
    if len(codes) != len(set(codes)):
        raise ValueError("a card appears twice in the deck")
    hands = [[k * seats + s for k in range(HAND_CARDS)] for s in range(seats)]
    next_token = HAND_CARDS * seats
    for seat in sorted(set(penalised)):
        hands[seat].append(next_token)
        next_token += 1
    return Round(
        seats=seats,
        starter=starter,
        faces=known,
        hands=tuple(tuple[int | None, ...](h) for h in hands),
        draw=tuple(range(next_token, CARDS_IN_DECK)),
        discard=(),
        seen_by=(frozenset(),) * CARDS_IN_DECK,
        public=frozenset(),
        active=frozenset(range(seats) if active is None else active),
    )


def with_faces(state: Round, opened: Mapping[int, DutchCard]) -> Round:
    """The state once cards were opened to its holder (the masked deck): faces learnt by token."""
    faces = list(state.faces)
    for token, card in opened.items():
        if faces[token] is not None and faces[token] != card:
            raise ValueError(f"token {token} was {faces[token]}, now opened as {card}")
        faces[token] = card
    return replace(state, faces=tuple(faces))


@dataclass(frozen=True, slots=True)
class SeenCard:
    """A card in a hand as one seat sees it: its token, and its face if that seat knows it."""

    token: int
    face: DutchCard | None


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may see of a round (the OpenSpiel observation): never a face the rules
    have not opened to that seat."""

    seat: int
    hands: tuple[tuple[SeenCard | None, ...], ...]
    drawn: SeenCard | None
    discard: tuple[DutchCard | None, ...]
    draw_left: int
    phase: Phase
    turn: int
    window: bool
    caller: int | None


def view(state: Round, seat: int) -> SeatView:
    def seen(token: int | None) -> SeenCard | None:
        if token is None:
            return None
        return SeenCard(token, state.faces[token] if state.knows(seat, token) else None)

    return SeatView(
        seat=seat,
        hands=tuple(tuple(seen(t) for t in hand) for hand in state.hands),
        drawn=seen(state.drawn),
        discard=tuple(state.faces[t] for t in state.discard),
        draw_left=len(state.draw),
        phase=state.phase,
        turn=state.turn,
        window=state.window,
        caller=state.caller,
    )
