"""The state of a game of Blitz!: where every card is, the face-off under way, what was said.

Cards are named by their number in the layout (pack.py): 0 to 53 the category cards, 54 to
57 the Duels. The state never knows the order of the draw piles (F-8): a pile is a count of
cards nobody has seen, on top of the cards put back under it (tie-break cards, F-36), and
the set ``unseen`` says which cards have not been turned yet, not where they lie.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from .pack import DIE, THREE_PLAYER_FACE, Pack, cards_in_game, is_duel

MIN_FACEOFF_SEATS: Final = 3  # F-2
MAX_FACEOFF_SEATS: Final = 8  # F-2


class Mode(StrEnum):
    """F-23: how answers are given."""

    TYPED = "typed"
    SPOKEN = "spoken"


class Phase(StrEnum):
    TURN = "turn"  # the player ``turn`` must turn a card (F-9)
    ROLL = "roll"  # a Duel was turned: the table rolls the die (F-14)
    FACEOFF = "faceoff"  # two players answer (F-18)
    TIE_DRAW = "tie_draw"  # a tie: the tie-break card is to be turned (F-35)
    OVER = "over"  # F-41


class Ending(StrEnum):
    PILES_OUT = "piles_out"  # F-41: both draw piles are empty
    DESERTED = "deserted"  # F-40: fewer than two players are left at the table


@dataclass(frozen=True, slots=True)
class Faceoff:
    """Two players in a face-off; ``a`` came first in the order of F-21. ``tie_card`` is the
    tie-break card both answer (F-36), from draw pile ``tie_pile``. ``claimant`` is the player
    whose claim (spoken) or unlisted answer (typed) waits for its window or its vote; ``answer``
    that answer's key and ``text`` the answer as typed. ``voting`` while a contest is being
    voted on, with the seats for and against in ``yes`` and ``no``."""

    a: int
    b: int
    tie_card: int | None = None
    tie_pile: int = 0
    claimant: int | None = None
    answer: str = ""
    text: str = ""
    voting: bool = False
    yes: frozenset[int] = frozenset()
    no: frozenset[int] = frozenset()

    def other(self, seat: int) -> int:
        return self.b if seat == self.a else self.a


@dataclass(frozen=True, slots=True)
class Game:
    """A game of Blitz!. Play piles and won piles are listed bottom first; ``under`` lists,
    for each draw pile, the known cards under its hidden ones, the next to come first."""

    pack: Pack
    seats: int
    mode: Mode
    removed_face: int | None
    in_game: tuple[int, ...]
    hidden: tuple[int, int]
    under: tuple[tuple[int, ...], tuple[int, ...]]
    unseen: frozenset[int]
    play: tuple[tuple[int, ...], ...]
    won: tuple[tuple[int, ...], ...]
    duels: tuple[int, ...]
    active: frozenset[int]
    phase: Phase = Phase.TURN
    turn: int = 0
    mover: int = 0
    again: bool = False
    die: int | None = None
    faceoff: Faceoff | None = None
    said: frozenset[str] = frozenset()
    ending: Ending | None = None
    turned: int = 0
    faceoffs: int = 0
    since_turn: int = 0  # F-20: face-offs begun since a turn last turned a card

    def top(self, seat: int) -> int | None:
        pile = self.play[seat]
        return pile[-1] if pile else None

    def pile_size(self, pile: int) -> int:
        return self.hidden[pile] + len(self.under[pile])

    def draw_left(self) -> int:
        return self.pile_size(0) + self.pile_size(1)

    def places(self) -> list[int]:
        """Every card seen so far where it lies: play piles, won piles, the Duel pile, under
        the draw piles, the tie-break card; the unseen cards are in the draw piles."""
        found = [c for pile in (*self.play, *self.won, self.duels, *self.under) for c in pile]
        if self.faceoff is not None and self.faceoff.tie_card is not None:
            found.append(self.faceoff.tie_card)
        return found

    def category_card_left(self) -> bool:
        """F-36: whether a category card may still come from the draw piles."""
        if any(not is_duel(c) for c in self.unseen):
            return True
        return any(not is_duel(c) for pile in self.under for c in pile)


def new_game(pack: Pack, seats: int, first: int = 0, mode: Mode = Mode.TYPED) -> Game:
    """F-2, F-6, F-8: a game for ``seats`` players; ``first`` turns the first card. The
    table shuffles the cards in the game and cuts them into two draw piles, the first of
    ``ceil(n / 2)`` cards; the state knows only how many each holds."""
    if not MIN_FACEOFF_SEATS <= seats <= MAX_FACEOFF_SEATS:
        raise ValueError(f"Blitz! seats {MIN_FACEOFF_SEATS} to {MAX_FACEOFF_SEATS}, not {seats}")
    if not 0 <= first < seats:
        raise ValueError(f"no seat {first} to start")
    removed = THREE_PLAYER_FACE if seats == MIN_FACEOFF_SEATS else None
    cards = cards_in_game(removed)
    first_pile = (len(cards) + 1) // 2
    return Game(
        pack=pack,
        seats=seats,
        mode=Mode(mode),
        removed_face=removed,
        in_game=cards,
        hidden=(first_pile, len(cards) - first_pile),
        under=((), ()),
        unseen=frozenset(cards),
        play=((),) * seats,
        won=((),) * seats,
        duels=(),
        active=frozenset(range(seats)),
        turn=first,
        mover=first,
    )


def duel_pair(state: Game) -> tuple[int, int] | None:
    """F-15: the active Duel's two symbols, or None before the first roll."""
    return None if state.die is None else DIE[state.die]


def scores(state: Game) -> tuple[int, ...]:
    """F-42: each seat's won cards."""
    return tuple(len(w) for w in state.won)


def winners(state: Game) -> tuple[int, ...]:
    """F-42: the seats at the table with the most won cards (every seat if none is left)."""
    count = scores(state)
    eligible = sorted(state.active) or list(range(state.seats))
    best = max(count[s] for s in eligible)
    return tuple(s for s in eligible if count[s] == best)
