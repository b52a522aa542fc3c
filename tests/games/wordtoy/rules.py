"""Word toy's rules, pure: a round is ``CARDS`` category cards; every player may answer.

Each card shows a category drawn from the shipped list (``categories.json``). Every
player may type an answer; answers queue in the table's total order. The first answer of
the queue decides the card: one in the category's list wins it at once; an unlisted one
waits, and any other player may object to it (it is dropped, and the next answer of the
queue decides); once the table has been silent for a while, a close accepts the waiting
answer, or with none the card goes to nobody. An answer accepted earlier in the round
cannot win again. A round scores each player's cards won; the game is two rounds, most
cards wins (a tie is a draw).

No time and no randomness here: the draw of the categories is the fair deal's, handed in
as ``seed``, and silence is a ``Close`` move that some seat sends.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from hashlib import blake2b
from pathlib import Path
from typing import Final, TypeAlias

CARDS: Final = 3  # category cards in a round
MAX_ANSWER: Final = 30  # characters of an answer, once normalised
SHIPPED: Final = Path(__file__).with_name("categories.json")


@dataclass(frozen=True, slots=True)
class Category:
    title: str
    answers: frozenset[str]


@cache
def categories() -> tuple[Category, ...]:
    """The shipped categories, in file order."""
    data = json.loads(SHIPPED.read_text(encoding="utf-8"))
    return tuple(
        Category(entry["title"], frozenset(normalise(a) for a in entry["answers"]))
        for entry in data["categories"]
    )


def known_words() -> frozenset[str]:
    """Every answer of every category: the words a bot knows."""
    return frozenset(word for category in categories() for word in category.answers)


def normalise(text: str) -> str:
    """An answer as it is compared: lower case, letters and digits, one space between."""
    return " ".join(re.findall(r"[^\W_]+", text.casefold()))


def draw(seed: bytes, count: int = CARDS) -> tuple[int, ...]:
    """``count`` distinct categories, in the order the seed (the fair deal's) draws them."""
    keyed = sorted(
        range(len(categories())),
        key=lambda index: blake2b(seed + bytes([index]), digest_size=8).digest(),
    )
    return tuple(keyed[:count])


# -- moves ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Answer:
    """An answer to the card ``card`` of the round."""

    card: int
    text: str


@dataclass(frozen=True, slots=True)
class Object:
    """An objection to the waiting answer numbered ``answer`` on the card ``card``."""

    card: int
    answer: int


@dataclass(frozen=True, slots=True)
class Close:
    """Silence: the table has not changed since move ``moves`` of card ``card``."""

    card: int
    moves: int


Message: TypeAlias = Answer | Object | Close


@dataclass(frozen=True, slots=True)
class Refusal:
    reason: str
    by: int | None = None  # the seat that got there first, for a lost race


@dataclass(frozen=True, slots=True)
class Said:
    """An answer in the queue of the card: who, what, and its number on the card."""

    seat: int
    text: str
    number: int


@dataclass(frozen=True, slots=True)
class Decided:
    """A card decided: its category's title, who won it (None: nobody) and with what."""

    category: str
    seat: int | None
    text: str


@dataclass(slots=True)
class Round:
    """A round by game seat index (0 to players - 1); the table maps them to its seats."""

    players: int
    cards: tuple[int, ...]  # the categories drawn, by index in ``categories()``
    card: int = 0  # the card being played; ``len(cards)`` once the round is over
    queue: list[Said] = field(default_factory=list)
    numbered: int = 0  # answers given on this card so far
    moves: int = 0  # moves accepted this round (a close names the one it follows)
    won: list[int] = field(default_factory=list)
    decided: list[Decided] = field(default_factory=list)
    dropped: tuple[int, str, int] | None = None  # the last answer objected to: seat, text, by
    active: set[int] = field(default_factory=set)

    @property
    def over(self) -> bool:
        return self.card >= len(self.cards)

    @property
    def category(self) -> Category | None:
        return None if self.over else categories()[self.cards[self.card]]

    def waiting(self) -> Said | None:
        """The answer that waits for objections or silence, if any."""
        return self.queue[0] if self.queue else None

    def copy(self) -> Round:
        return Round(
            self.players, self.cards, self.card, list(self.queue), self.numbered, self.moves,
            list(self.won), list(self.decided), self.dropped, set(self.active),
        )  # fmt: skip


def new_round(players: int, seed: bytes) -> Round:
    return Round(players, draw(seed), won=[0] * players, active=set(range(players)))


def accepted(state: Round) -> set[str]:
    """The answers that won a card this round: none may win again."""
    return {d.text for d in state.decided if d.seat is not None}


def apply(state: Round, seat: int, message: Message) -> Refusal | None:
    """Apply one move of ``seat`` in the table's order, or say why not (changing nothing)."""
    if state.over:
        return Refusal("over")
    if not 0 <= seat < state.players:
        return Refusal("not_dealt")
    if message.card != state.card:
        return Refusal("stale", _winner_of(state, message.card))
    if isinstance(message, Answer):
        return _answer(state, seat, message.text)
    if isinstance(message, Object):
        return _object(state, seat, message.answer)
    return _close(state, message.moves)


def _winner_of(state: Round, card: int) -> int | None:
    return state.decided[card].seat if 0 <= card < len(state.decided) else None


def _answer(state: Round, seat: int, text: str) -> Refusal | None:
    key = normalise(text)
    if not key or len(key) > MAX_ANSWER:
        return Refusal("bad_answer")
    if key in accepted(state) or any(said.text == key for said in state.queue):
        return Refusal("said_before")
    if any(said.seat == seat for said in state.queue):
        return Refusal("yours_waits")
    state.queue.append(Said(seat, key, state.numbered))
    state.numbered += 1
    state.moves += 1
    _settle(state)
    return None


def _object(state: Round, seat: int, number: int) -> Refusal | None:
    head = state.waiting()
    if head is None or head.number != number:
        return Refusal("stale")
    if head.seat == seat:
        return Refusal("own_answer")
    state.queue.pop(0)
    state.dropped = (head.seat, head.text, seat)
    state.moves += 1
    _settle(state)
    return None


def _close(state: Round, moves: int) -> Refusal | None:
    if moves != state.moves:
        return Refusal("stale")
    head = state.waiting()
    _decide(state, head)
    return None


def _settle(state: Round) -> None:
    """The queue's first answer decides the card at once when it is listed."""
    head = state.waiting()
    category = state.category
    if head is not None and category is not None and head.text in category.answers:
        _decide(state, head)


def _decide(state: Round, said: Said | None) -> None:
    category = state.category
    assert category is not None
    if said is not None:
        state.won[said.seat] += 1
    state.decided.append(
        Decided(
            category.title, None if said is None else said.seat, "" if said is None else said.text
        )
    )
    state.card += 1
    state.dropped = None  # an objection is news of its card only
    state.queue.clear()
    state.numbered = 0
    state.moves += 1


def winner(totals: Sequence[tuple[int, int]]) -> int | None:
    """The one seat with the most cards, or None on a tie (seat, total pairs)."""
    if not totals:
        return None
    best = max(total for _, total in totals)
    leaders = [seat for seat, total in totals if total == best]
    return leaders[0] if len(leaders) == 1 else None
