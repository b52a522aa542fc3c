"""Bots for Blitz! at two levels, playing from the shipped answer lists like a person would.

What a bot does is not normative (spec/faceoff.md, "Bots"): any bot that sends only moves a
person could send is a fair one. These are pure: randomness comes in as an ``rng`` with
``random()`` (``random.Random`` fits), time as the delays they ask for.

A node (or the self-play bench) asks ``delay(state, seat, level, rng)`` how long the bot
waits before it looks again, then ``bot_move(state, seat, level, rng)`` what it does then
(None: nothing yet). A turn comes back as ``TurnFrom(pile)``: the table's hidden-card
service opens that pile's top card and puts ``Turn(pile, card)`` in the order (F-34).

* In a typed face-off a bot answers the category it must answer (F-18) with a listed answer
  nobody said yet (F-32), after a delay of its level; on each try it may find nothing yet
  (``misses``), and when no listed answer is left it concedes (F-26). An easy bot sometimes
  slips: it answers with a word of another category, which only a vote can refuse.
* In a spoken face-off it claims (F-25) when it finds an answer, and concedes when it has
  none: in spoken mode a miss is a concession.
* It contests an unlisted answer by the lists (``contests``: the chance it bothers) and votes
  by them: accept a listed answer, refuse an unlisted one, accept a spoken claim (it cannot
  hear one); by level it abstains (``abstains``).
* It turns from the fuller draw pile (pile 0 on a tie), and in a tie-break from the fuller
  pile that may still give a category card (F-36).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from .moves import Answer, Claim, Concede, Contest, Move, TurnFrom, Vote
from .normalise import normalise
from .pack import is_duel
from .rules import category_for, tie_drawer
from .state import Game, Mode, Phase

PILES: Final = (0, 1)


class Rng(Protocol):
    """The randomness a bot draws from, given by its node: the protocol reads none itself."""

    def random(self) -> float: ...


@dataclass(frozen=True, slots=True)
class Level:
    """A bot's pace and skill. Times are seconds, low and high."""

    name: str
    think: tuple[float, float]  # before a turn, a contest or a vote
    answer: tuple[float, float]  # before each try at an answer in a face-off
    misses: float  # chance a try finds no answer yet (spoken: the bot concedes)
    slips: float  # chance a typed answer is a word of another category
    contests: float  # chance it contests an unlisted answer it sees
    abstains: float  # chance it lets a vote go by

    def __str__(self) -> str:
        """Its name, as a player gives it (``TableGame.levels``' key)."""
        return self.name


LEVELS: Final = {
    "easy": Level("easy", (0.8, 1.8), (1.5, 5.0), misses=0.35, slips=0.2, contests=0.4,
                  abstains=0.3),
    "sharp": Level("sharp", (0.3, 0.8), (1.0, 3.5), misses=0.15, slips=0.05, contests=0.9,
                   abstains=0.0),
}  # fmt: skip


def _between(low: float, high: float, rng: Rng) -> float:
    return low if high <= low else low + (high - low) * rng.random()


def think_time(level: Level, rng: Rng) -> float:
    """How long a bot of ``level`` waits before it looks at the table again."""
    return _between(*level.think, rng)


def answer_time(level: Level, rng: Rng) -> float:
    """How long a bot of ``level`` thinks before each try at an answer."""
    return _between(*level.answer, rng)


def answering(state: Game, seat: int) -> bool:
    """Whether ``seat`` is a face-off player who may answer (or claim) now."""
    duel = state.faceoff
    return (
        state.phase is Phase.FACEOFF
        and duel is not None
        and seat in (duel.a, duel.b)
        and duel.claimant is None
        and not duel.voting
    )


def delay(state: Game, seat: int, level: Level, rng: Rng) -> float:
    """How long the bot waits before ``bot_move``: an answer's thinking, else a glance."""
    return answer_time(level, rng) if answering(state, seat) else think_time(level, rng)


def _usable(keys: Sequence[str] | frozenset[str], language: str, said: frozenset[str]) -> list[str]:
    """Keys a bot may type: not said, and typed as they are they give themselves (F-30)."""
    return sorted(k for k in keys if k not in said and normalise(k, language) == k)


def _pick(options: Sequence[str], rng: Rng) -> str:
    return options[min(int(rng.random() * len(options)), len(options) - 1)]


def listed_answers(state: Game, seat: int) -> list[str]:
    """The listed answers ``seat`` could still give in its face-off, in a fixed order."""
    category = state.pack.category_of(category_for(state, seat))
    return _usable(category.answers, state.pack.language, state.said)


def _slip(state: Game, seat: int, rng: Rng) -> str | None:
    """A word from another category's list that this one does not list, if any."""
    mine = category_for(state, seat)
    listed = state.pack.category_of(mine).answers
    other = int(rng.random() * len(state.pack.categories))
    if other == mine:
        return None
    keys = [k for k in state.pack.category_of(other).answers if k not in listed]
    options = _usable(keys, state.pack.language, state.said)
    return _pick(options, rng) if options else None


def _face_off(state: Game, seat: int, level: Level, rng: Rng) -> Move | None:
    options = listed_answers(state, seat) if state.mode is Mode.TYPED else ["?"]
    if not options:
        return Concede()  # nothing left on the list: give it up (F-26)
    if rng.random() < level.misses:
        return Concede() if state.mode is Mode.SPOKEN else None
    if state.mode is Mode.SPOKEN:
        return Claim()
    if rng.random() < level.slips and (slip := _slip(state, seat, rng)) is not None:
        return Answer(slip)
    return Answer(_pick(options, rng))


def judged(state: Game) -> bool:
    """How the lists judge what waits: a listed answer (or a spoken claim) is good."""
    duel = state.faceoff
    if duel is None or duel.claimant is None or state.mode is Mode.SPOKEN:
        return True
    category = state.pack.category_of(category_for(state, duel.claimant))
    return duel.answer in category.answers


def _waiting(state: Game, seat: int, level: Level, rng: Rng) -> Move | None:
    """A claim or an answer waits: contest it, or vote on it, by the lists."""
    duel = state.faceoff
    assert duel is not None
    if duel.voting:
        if seat in duel.yes | duel.no or rng.random() < level.abstains:
            return None
        return Vote(seat == duel.claimant or judged(state))
    if seat != duel.claimant and not judged(state) and rng.random() < level.contests:
        return Contest()
    return None


def _fuller(state: Game, piles: Sequence[int]) -> TurnFrom | None:
    sizes = [(state.pile_size(p), -p) for p in piles if state.pile_size(p)]
    return TurnFrom(-max(sizes)[1]) if sizes else None


def may_give_category(state: Game, pile: int) -> bool:
    """F-36: whether draw pile ``pile`` may still give a category card."""
    if state.hidden[pile] and any(not is_duel(c) for c in state.unseen):
        return True
    return any(not is_duel(c) for c in state.under[pile])


def bot_move(state: Game, seat: int, level: Level, rng: Rng) -> Move | TurnFrom | None:
    """What the bot at ``seat`` does now, or None to wait."""
    if seat not in state.active:
        return None
    if state.phase is Phase.TURN:
        return _fuller(state, PILES) if state.turn == seat else None
    if state.phase is Phase.TIE_DRAW:
        if tie_drawer(state) != seat:
            return None
        return _fuller(state, [p for p in PILES if may_give_category(state, p)])
    if state.phase is not Phase.FACEOFF or state.faceoff is None:
        return None
    if answering(state, seat):
        return _face_off(state, seat, level, rng)
    if state.faceoff.claimant is not None:
        return _waiting(state, seat, level, rng)
    return None
