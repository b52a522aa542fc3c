"""A table of Blitz! played through the table's ``Game`` in one process: the founding ADMIT,
the lobby's START, every seat's fair deal, its chains and links, its bot's moves and the
windows it closes, each applied in turn as an ideal network would order them.

``Rig.log`` keeps every event in the order applied, so a test can replay it as another
node would (``replayed``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from dutchblitz.protocol.games.faceoff.host import GAME as RULES
from dutchblitz.protocol.games.faceoff.table import FaceoffTable
from dutchblitz.protocol.seat.deal_duties import deal_duties
from dutchblitz.protocol.table.fairdeal import RoundSecret
from dutchblitz.protocol.table.rules import SeatSecrets
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.wire.auth import Signer
from dutchblitz.protocol.wire.messages import Admit, Body, Bye, Ready, Start, Suspect


def _bytes(*parts: object) -> bytes:
    return hashlib.blake2b(repr(parts).encode(), digest_size=32).digest()


@dataclass
class Rig:
    players: int = 4
    seed: int = 0
    level: str = "sharp"
    typed: bool = True
    game: Game = field(default_factory=lambda: Game(rules=RULES))
    log: list[tuple[bytes, Body]] = field(default_factory=list)  # every event, in order

    def __post_init__(self) -> None:
        self.signers = [Signer(_bytes("key", self.seed, i)) for i in range(self.players)]
        self.nodes = [s.node_id for s in self.signers]
        self.kept: dict[int, dict[int, RoundSecret]] = {i: {} for i in range(self.players)}
        self.seat_secrets: dict[tuple[int, int], SeatSecrets] = {}
        first = self.nodes[0]
        self.apply(first, Admit(first, 1, RULES.tag))
        for node in self.nodes[1:]:
            self.apply(first, Admit(node, 1))
        for node in self.nodes:
            self.apply(node, Ready(True))
        self.apply(first, Start(1, self.typed, 1))

    def apply(self, node: bytes, body: Body) -> None:
        """One event of the total order, as every node applies it: it never raises."""
        self.log.append((node, body))
        self.game.apply(node, body)

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

    def present(self, seat: int) -> bool:
        return self.game.members[self.nodes[seat]].present

    def deal_step(self, seats: Collection[int] | None = None) -> bool:
        """Each present seat (of ``seats``, if given) sends the step of the fair deal it
        owes, if any."""
        moved = False
        for seat, node in enumerate(self.nodes):
            if seats is not None and seat not in seats:
                continue
            if not self.present(seat) or self.game.phase != Phase.DEALING:
                continue
            for body in deal_duties(self.game, node, [], self.kept[seat], self._fresh(seat)):
                self.apply(node, body)
                moved = True
        return moved

    def step(self) -> bool:
        """One pass over the seats: each sends its deal's step, its duties, its bot's move;
        when nobody had anything to send, the first window due is closed (F-52)."""
        moved = self.deal_step()
        for seat, node in enumerate(self.nodes):
            game = self.game
            if not self.present(seat) or game.phase != Phase.PLAYING:
                continue
            for body in RULES.seat_duties(game.table, seat, self.secrets(seat)):
                self.apply(node, body)
                moved = True
            if game.phase != Phase.PLAYING:
                continue
            move = RULES.seat_bot(game.table, seat, self.secrets(seat), RULES.levels[self.level])
            if move is not None:
                self.apply(node, move)
                moved = True
        return moved or self._close_a_window()

    def _close_a_window(self) -> bool:
        if self.game.phase != Phase.PLAYING:
            return False
        for seat, node in enumerate(self.nodes):
            if self.present(seat):
                due = RULES.timed_duty(self.game.table, seat, self.game.round)
                if due is not None:
                    self.apply(node, due[1])
                    return True
        return False

    def bye(self, seat: int) -> None:
        self.apply(self.nodes[seat], Bye())

    def removed(self, seat: int, by: int) -> None:
        """``seat`` is removed by ``by``'s SUSPECT (spec/protocol.md P-92): not heard from."""
        self.apply(self.nodes[by], Suspect(self.nodes[seat], 1))

    def play(self, limit: int = 5000, idle: int = 50) -> Game:
        """Play until the game is over, or nothing has moved for ``idle`` passes in a row
        (a bot's look may find no answer yet); the game as it ends."""
        still = 0
        for _ in range(limit):
            if self.game.phase in (Phase.OVER, Phase.LOBBY) or still >= idle:
                break
            still = 0 if self.step() else still + 1
        return self.game

    def replayed(self) -> Game:
        """Another node's game: the same log applied afresh, as every node applies it."""
        other = Game(rules=RULES)
        for node, body in self.log:
            other.apply(node, body)
        return other

    def table(self) -> FaceoffTable:
        table = self.game.table
        assert isinstance(table, FaceoffTable)
        return table
