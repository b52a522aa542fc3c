"""Word toy's moves in a GAME body's payload (spec/protocol.md P-223, P-224).

``WT``, the round (4 bytes, big-endian), the kind (1 byte), the card (1 byte), then the
kind's own field: an answer's UTF-8 text, an objection's answer number (2 bytes), a
close's move count (4 bytes). Anything else does not read: ``ValueError``.
"""

from __future__ import annotations

from typing import Final

from tests.games.wordtoy.rules import MAX_ANSWER, Answer, Close, Message, Object

MAGIC: Final = b"WT"
HEAD: Final = len(MAGIC) + 4 + 1 + 1
ANSWER, OBJECT, CLOSE = 1, 2, 3
MAX_TEXT_BYTES: Final = 4 * MAX_ANSWER  # before it is normalised


def encode(round_number: int, message: Message) -> bytes:
    head = MAGIC + round_number.to_bytes(4, "big")
    if isinstance(message, Answer):
        text = message.text.encode("utf-8")
        if not 0 < len(text) <= MAX_TEXT_BYTES:
            raise ValueError("an answer of 1 to 120 bytes")
        return head + bytes([ANSWER, message.card]) + text
    if isinstance(message, Object):
        return head + bytes([OBJECT, message.card]) + message.answer.to_bytes(2, "big")
    return head + bytes([CLOSE, message.card]) + message.moves.to_bytes(4, "big")


def decode(payload: bytes) -> tuple[int, Message]:
    """The round a payload names and its move; ValueError if it does not read."""
    if len(payload) < HEAD or not payload.startswith(MAGIC):
        raise ValueError("not a word toy move")
    round_number = int.from_bytes(payload[2:6], "big")
    kind, card, rest = payload[6], payload[7], payload[HEAD:]
    if kind == ANSWER and 0 < len(rest) <= MAX_TEXT_BYTES:
        try:
            return round_number, Answer(card, rest.decode("utf-8"))
        except UnicodeDecodeError:
            raise ValueError("an answer that is not UTF-8") from None
    if kind == OBJECT and len(rest) == 2:
        return round_number, Object(card, int.from_bytes(rest, "big"))
    if kind == CLOSE and len(rest) == 4:
        return round_number, Close(card, int.from_bytes(rest, "big"))
    raise ValueError(f"a move of kind {kind} that does not read")
