"""Bot players: they choose moves from what their own node knows, like a person would.

A bot seat is an ordinary peer: it sees the optimistic table of its own node and
sends moves through the same protocol. It looks only at what its player could see:
its own face-up cards, how many cards its hand and Wood pile hold, the centre, and
the other players' face-up cards; never a hidden card, its own Blitz pile included.

Levels differ in how fast they play (``think``) and in how well (``Style``):

* ``easy`` overlooks many centre plays and never plans: any move it sees will do.
* ``normal`` overlooks a few and takes the plainly best move: Blitz cards first.
* ``fast`` sees every play and plans: contested centre plays before its own moves,
  and it never buries a Post card under a Wood card (which ends rounds dead).
* ``flat-out`` also empties its Blitz pile on purpose: it frees Blitz cards onto its
  Posts, watches the centre for the card that lets its next Blitz card go, and keeps
  back a card that would let another player's Blitz card go.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ...table.player import Rng as Rng  # the randomness a bot draws from
from .cards import Card
from .moves import (
    CentrePlay,
    Move,
    PostPlay,
    Source,
    StuckCall,
    WoodFlip,
    WoodTurn,
)
from .plays import legal_moves
from .state import Area, Table


class Style(StrEnum):
    """How a bot picks among the moves it sees."""

    ANY = "any"  # any of them, at random: it never plans
    GREEDY = "greedy"  # the plainly best: Blitz cards first, then Post, then Wood
    PLANNED = "planned"  # contested moves first; never buries a Post card under the Wood's
    BLITZ = "blitz"  # planned, and it works its Blitz pile empty on purpose


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    think: tuple[float, float]  # seconds between moves, low and high
    style: Style
    misses: float = 0.0  # chance of overlooking each centre play it has
    # Moves on its own cards alone (Post plays, Wood flips and turns) it may have on their
    # way at once; a centre play or stuck call always waits until nothing else is.
    in_flight: int = 1


LEVELS = {
    "easy": Level("easy", (0.8, 1.6), Style.ANY, misses=0.35),
    "normal": Level("normal", (0.35, 0.8), Style.GREEDY, misses=0.25),
    "fast": Level("fast", (0.12, 0.3), Style.PLANNED, misses=0.08),
    "flat-out": Level("flat-out", (0.0, 0.0), Style.BLITZ, in_flight=4),
}


def think_time(level: Level, rng: Rng) -> float:
    low, high = level.think
    return low if high <= low else rng.uniform(low, high)


@dataclass(slots=True)
class Bot:
    """One bot seat's memory: how long it has flipped without anything changing."""

    level: Level
    rng: Rng
    flips: int = 0
    seen_centre: int = -1
    seen_stalemates: int = -1

    def choose(self, table: Table, seat: int) -> Move | None:
        """A move for ``seat``, or None when the round is over or the seat is out."""
        area = table.areas[seat]
        if area.stuck:
            return None  # wait for a centre play or the stalemate rotation
        moves = legal_moves(table, seat)
        if not moves:
            return None
        centre = sum(len(pile.cards) for pile in table.piles)
        if (centre, table.stalemates) != (self.seen_centre, self.seen_stalemates):
            # A new centre card, or a stalemate that turned every hand: the hand holds
            # other chances now, so a whole pass through it comes before a stuck call.
            self.seen_centre, self.seen_stalemates, self.flips = centre, table.stalemates, 0
        passed = self.flips > (len(area.hand) + len(area.wood)) // 3 + 2
        stuck = [m for m in moves if isinstance(m, StuckCall)]
        if stuck and passed:
            return stuck[0]  # a whole pass through the hand found nothing: say so
        seen = [m for m in moves if not self._overlooks(m)]
        if not seen:
            return None
        move = self._pick(table, area, seen, passed)
        if isinstance(move, WoodFlip | WoodTurn):
            self.flips += 1
        elif not isinstance(move, StuckCall):
            self.flips = 0
        return move

    def _overlooks(self, move: Move) -> bool:
        return isinstance(move, CentrePlay) and self.rng.random() < self.level.misses

    def _pick(self, table: Table, area: Area, moves: list[Move], passed: bool) -> Move:
        style = self.level.style
        if style == Style.ANY:
            return self.rng.choice(moves)
        if style == Style.GREEDY:
            return max(moves, key=_greedy_worth)
        # Ties go to a random one of the best, so two planned bots do not always collide.
        ranked = [
            (_planned_worth(m, table, area, style, passed), self.rng.random(), m) for m in moves
        ]
        return max(ranked, key=lambda item: item[:2])[2]


def _greedy_worth(move: Move) -> int:
    """Blitz cards first (they cost points), then Post, then Wood; flip before stuck."""
    if isinstance(move, CentrePlay):
        return {Source.BLITZ: 50, Source.POST: 40, Source.WOOD: 30}[move.source]
    if isinstance(move, PostPlay):
        return 20 if move.source == Source.BLITZ else 10
    if isinstance(move, WoodFlip):
        return 5
    if isinstance(move, StuckCall):
        return 0
    return 4  # turning the Wood pile over


def _planned_worth(move: Move, table: Table, area: Area, style: Style, passed: bool) -> int:
    """Centre plays, which others race for, before moves on one's own cards.

    Emptying a one-card Post stack pulls the Blitz top into it: nearly a Blitz play.
    A Wood card is never stacked on a Post: it would bury a card the centre may need,
    and two players who both do it end many rounds dead. The one exception, for a bot
    that works its Blitz pile, is a Wood card the Blitz top can then be stacked on.
    """
    blitz = style == Style.BLITZ
    if isinstance(move, CentrePlay):
        worth = {Source.BLITZ: 100, Source.POST: 70, Source.WOOD: 60}[move.source]
        if move.source == Source.POST and len(area.post[move.slot]) == 1:
            worth = 90
        return worth + _watching(move, table, area, passed) if blitz else worth
    if isinstance(move, PostPlay):
        if move.source == Source.BLITZ:
            return 80 if blitz else 50  # frees the next Blitz card
        blitz_top = area.blitz[-1] if area.blitz else None
        return 55 if blitz and _stacks_on(blitz_top, move.card) else -1
    if isinstance(move, WoodFlip):
        return 10
    if isinstance(move, StuckCall):
        return 0
    return 9  # turning the Wood pile over


def _watching(move: CentrePlay, table: Table, area: Area, passed: bool) -> int:
    """What a centre card does for one's own next Blitz card, and for everyone else's.

    A card that lets one's Blitz top go next is worth more; so is one another player
    could put in the same place (a race). A Wood or Post card that would let another
    player's Blitz card go (their Blitz top, or a one-card Post stack that the Blitz
    refills) is kept back, below a flip, until a whole pass through the hand is done.
    """
    played, worth = move.card, 0
    mine = area.blitz[-1] if area.blitz else None
    if _leads_to(played, mine):
        worth += 25
    others = [a for seat, a in table.areas.items() if seat != area.seat and a.active]
    if any(_same_place(played, top) for other in others for top in _tops(other)):
        worth += 15
    if move.source == Source.BLITZ or passed:
        return worth  # a Blitz card always goes; after a whole pass, so does everything
    if any(_leads_to(played, top) for other in others for top in _blitz_tops(other)):
        worth -= 55
    return worth


def _tops(area: Area) -> list[Card | None]:
    """The face-up cards of an area that anyone can see."""
    tops = [area.blitz[-1] if area.blitz else None, area.wood[-1] if area.wood else None]
    return tops + [stack[-1] for stack in area.post if stack]


def _blitz_tops(area: Area) -> list[Card | None]:
    """The face-up cards whose going to the centre empties the Blitz pile by one."""
    singles: list[Card | None] = [stack[-1] for stack in area.post if len(stack) == 1]
    return [area.blitz[-1] if area.blitz else None, *singles]


def _leads_to(played: Card, top: Card | None) -> bool:
    """Whether, once ``played`` is on its pile, that pile takes ``top`` next."""
    return top is not None and top.colour == played.colour and top.value == played.value + 1


def _same_place(played: Card, top: Card | None) -> bool:
    return top is not None and top.colour == played.colour and top.value == played.value


def _stacks_on(card: Card | None, below: Card) -> bool:
    """Whether ``card`` could go on a Post stack whose top is ``below`` (R-18)."""
    return card is not None and card.value == below.value - 1 and card.is_boy != below.is_boy
