"""Blitz! at the table without a network: the hosted game (``host.GAME``) dealt to a few
seats, each with its own secrets, its duties sent and its bodies applied in one order."""

from __future__ import annotations

from collections.abc import Sequence
from hashlib import blake2b

from dutchblitz.protocol.games.faceoff.host import GAME
from dutchblitz.protocol.games.faceoff.table import FaceoffMove, FaceoffTable, Refused
from dutchblitz.protocol.games.faceoff.wire import Message, Payload, decode, encode
from dutchblitz.protocol.table.rules import SeatSecrets
from dutchblitz.protocol.wire.messages import GameBody, Start

ROUND = 1


def secrets(seat: int, salt: bytes = b"") -> SeatSecrets:
    private = blake2b(b"seat-%d" % seat + salt, digest_size=32).digest()
    return SeatSecrets(ROUND, private, b"", b"", lambda s: None)


def dealt(
    players: int = 4, typed: bool = True, salt: bytes = b""
) -> tuple[FaceoffTable, list[SeatSecrets]]:
    seats = tuple(range(players))
    orders = {seat: list(GAME.deck(seat)) for seat in seats}
    table = GAME.deal(seats, orders, Start(75, typed, 1), players, frozenset(seats))
    return table, [secrets(seat, salt) for seat in seats]


def send(table: FaceoffTable, seat: int, body: GameBody | Message) -> Refused | None:
    if not isinstance(body, GameBody):
        body = GameBody(GAME.game_id, encode(Payload(ROUND, body)))
    number, move = GAME.move_from_body(body.payload, seat)
    assert number == ROUND
    return GAME.apply(table, move)


def duties(
    table: FaceoffTable, keys: Sequence[SeatSecrets], skip: frozenset[int] = frozenset()
) -> int:
    """Send every seat's duties, seat by seat, until none is owed; how many were sent."""
    sent = 0
    while True:
        owed = [
            (seat, body)
            for seat in table.seats
            if seat not in skip
            for body in GAME.seat_duties(table, seat, keys[seat])
        ]
        if not owed:
            return sent
        seat, body = owed[0]
        assert send(table, seat, body) is None
        sent += 1


def decoded(body: GameBody) -> Message:
    return decode(body.payload).message


__all__ = ["FaceoffMove", "dealt", "decoded", "duties", "secrets", "send"]
