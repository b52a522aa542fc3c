"""Word toy's bots: each knows the shipped lists, and by its level, some of the time, an
answer to the card. A bot objects to a waiting answer that it knows belongs to another
category; an answer it does not know it lets through. Its randomness is drawn from its
seat's private seed (``SeatSecrets.private``), never from the consensus."""

from __future__ import annotations

from dataclasses import dataclass
from hashlib import blake2b
from typing import Final

from tests.games.wordtoy.rules import Answer, Message, Object, Round, accepted, known_words


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    knows: float  # the chance it knows an answer to a card
    answer_s: tuple[float, float]  # seconds it thinks before it answers: the least, the most


LEVELS: Final = {
    "easy": Level("easy", 0.5, (4.0, 7.0)),
    "sharp": Level("sharp", 0.9, (1.5, 3.5)),
}
OBJECT_S: Final = 0.5  # before it objects


def draw(private: bytes, *facts: int) -> float:
    """A number in [0, 1) from the seat's private seed and ``facts``: the same for the same
    facts, so a bot decides a card once, however often it looks."""
    data = b"".join(fact.to_bytes(4, "big") for fact in facts)
    return int.from_bytes(blake2b(data, key=private[:64], digest_size=8).digest(), "big") / 2**64


def objection(state: Round, index: int) -> Object | None:
    """An objection to the waiting answer of another, when the bot knows it for a word of
    another category."""
    head = state.waiting()
    category = state.category
    if head is None or category is None or head.seat == index:
        return None
    if head.text in known_words() and head.text not in category.answers:
        return Object(state.card, head.number)
    return None


def move(
    state: Round, index: int, level: Level, private: bytes, round_number: int
) -> Message | None:
    """The bot's next move at game seat ``index``, or None to wait."""
    category = state.category
    if category is None or index not in state.active:
        return None
    objecting = objection(state, index)
    if objecting is not None:
        return objecting
    if any(said.seat == index for said in state.queue):
        return None
    if draw(private, round_number, state.card, 0) >= level.knows:
        return None  # it does not know this one
    used = accepted(state) | {said.text for said in state.queue}
    left = sorted(category.answers - used)
    if not left:
        return None
    pick = int(draw(private, round_number, state.card, 1) * len(left))
    return Answer(state.card, left[pick])


def thinking(state: Round, index: int, level: Level) -> float:
    """Seconds the bot waits from when the table last changed, so that a person has a
    chance: before an objection, ``OBJECT_S``; before an answer, by its level."""
    if objection(state, index) is not None:
        return OBJECT_S
    low, high = level.answer_s
    # The round's categories make it differ from one round to the next.
    facts = bytes([index, state.card, *state.cards]) + state.moves.to_bytes(4, "big")
    jitter = blake2b(facts, digest_size=1)
    return low + (high - low) * jitter.digest()[0] / 255
