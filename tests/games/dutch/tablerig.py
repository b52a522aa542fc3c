"""A table of Dutch played through the table's ``Game`` in one process: every seat's duties
and bot moves, with its own secrets, applied in turn as an ideal network would order them.

``Rig.bodies`` keeps every GAME body in the order applied, with its sender, so a test can
check what was sent; ``tamper`` lets a seat's outgoing body be changed (a cheat).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

from dutchblitz.protocol.games.dutch.game import GAME as RULES
from dutchblitz.protocol.games.dutch.table import DutchTable
from dutchblitz.protocol.seat.deal_duties import deal_duties
from dutchblitz.protocol.table.fairdeal import RoundSecret
from dutchblitz.protocol.table.rules import SeatSecrets
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.wire.auth import Signer
from dutchblitz.protocol.wire.messages import Admit, Body, Bye, GameBody, Ready, Start

Tamper = Callable[[int, GameBody], GameBody]


def _bytes(*parts: object) -> bytes:
    return hashlib.blake2b(repr(parts).encode(), digest_size=32).digest()


@dataclass
class Rig:
    players: int = 4
    seed: int = 0
    target: int = 10
    level: str = "careful"
    rounds: int | None = None  # the game's length in rounds (spec/protocol.md P-237)
    # The game the founding ADMIT names (None: Dutch Blitz), and the one the START names
    # (spec/protocol.md P-234, P-241): Dutch either way, unless a test founds another.
    founded: str | None = RULES.tag
    named: str | None = None
    tamper: Tamper | None = None
    game: Game = field(default_factory=lambda: Game(rules=RULES))
    bodies: list[tuple[int, GameBody]] = field(default_factory=list)  # (table seat, body)
    log: list[tuple[bytes, Body]] = field(default_factory=list)  # every event, in order
    tables: list[DutchTable] = field(default_factory=list)  # each round's, at its end

    def __post_init__(self) -> None:
        self.signers = [Signer(_bytes("key", self.seed, i)) for i in range(self.players)]
        self.nodes = [s.node_id for s in self.signers]
        self.kept: dict[int, dict[int, RoundSecret]] = {i: {} for i in range(self.players)}
        self.seat_secrets: dict[tuple[int, int], SeatSecrets] = {}
        first = self.nodes[0]
        self.apply(first, Admit(first, 1, self.founded))
        for node in self.nodes[1:]:
            self.apply(first, Admit(node, 1))
        for node in self.nodes:
            self.apply(node, Ready(True))
        self.apply(first, Start(self.target, True, self.rounds, self.named))

    def apply(self, node: bytes, body: Body) -> None:
        table = self.game.table
        self.log.append((node, body))
        self.game.apply(node, body)
        if table is not None and self.game.table is not table:
            self.tables.append(table)

    def secrets(self, seat: int) -> SeatSecrets:
        number = self.game.round
        held = self.seat_secrets.get((number, seat))
        if held is None:
            signer = self.signers[seat]
            held = SeatSecrets(
                number,
                self.kept[seat][number].private,
                signer.curve_public,
                signer.curve_secret(),
                lambda s: self.signers[s].public_key,
            )
            self.seat_secrets[(number, seat)] = held
        return held

    def _fresh(self, seat: int) -> Callable[[int], RoundSecret]:
        def fresh(number: int) -> RoundSecret:
            kept = RoundSecret(*(_bytes(part, self.seed, seat, number) for part in "abc"))
            self.kept[seat][number] = kept
            return kept

        return fresh

    def _send(self, seat: int, body: GameBody) -> None:
        if self.tamper is not None:
            body = self.tamper(seat, body)
        self.bodies.append((seat, body))
        self.apply(self.nodes[seat], body)

    def step(self) -> bool:
        """One pass over the seats: each sends what it owes, then its bot's move."""
        moved = False
        for seat, node in enumerate(self.nodes):
            game = self.game
            if not game.members[node].present:
                continue  # gone: it says nothing more
            if seat in game.still_looking():
                self.apply(node, Ready(True))  # the scores were seen (spec/rules.md R-54)
            for body in deal_duties(game, node, [], self.kept[seat], self._fresh(seat)):
                self.apply(node, body)
                moved = True
            if game.phase != Phase.PLAYING or seat not in game.players:
                continue
            for body in RULES.seat_duties(game.table, seat, self.secrets(seat)):
                self._send(seat, body)
                moved = True
            if game.phase != Phase.PLAYING:
                continue
            move = RULES.seat_bot(game.table, seat, self.secrets(seat), RULES.levels[self.level])
            if move is not None:
                self._send(seat, move)
                moved = True
        return moved

    def goodbye(self, seat: int, farewell: bool = True) -> None:
        """``seat``'s player leaves: its game's farewell (unless a crash), then its BYE."""
        game = self.game
        if farewell and game.phase == Phase.PLAYING and seat in game.players:
            for body in RULES.seat_farewell(game.table, seat, self.secrets(seat)):
                self._send(seat, body)
        self.apply(self.nodes[seat], Bye())

    def play(self, limit: int = 2000) -> Game:
        """Play until the game is over (or nothing moves); the game as it ends."""
        for _ in range(limit):
            if self.game.phase == Phase.OVER or not self.step():
                break
        if self.game.table is not None and self.game.table not in self.tables:
            self.tables.append(self.game.table)
        return self.game

    def replayed(self) -> Game:
        """Another node's game: the same log applied afresh, as every node applies it."""
        other = Game(rules=RULES)
        for node, body in self.log:
            other.apply(node, body)
        return other

    def table(self) -> DutchTable:
        table = self.game.table
        assert isinstance(table, DutchTable)
        return table
