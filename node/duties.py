"""What a seat owes the table next, and its bot's moves.

A person types their name and presses ready; the node does the rest for them:
it sends the profile it was asked for, deals its own deck at the start of each
round (shuffled here, with the node's own randomness or ``--seed``), reveals
the deck when the round is over (spec/protocol.md P-87) and, when asked to
(``--players N``), starts the game. A bot seat also plays, one move in flight
at a time. The ``Steward`` decides from the replica's games and sends through
the seat; it never touches a socket.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from dutchblitz.protocol.cards import Card, card_from_code, check_backs, new_deck
from dutchblitz.protocol.core import Replica
from dutchblitz.protocol.effects import LogEntry
from dutchblitz.protocol.game import Game, Member, Phase
from dutchblitz.protocol.messages import Body, Deal, Profile, Ready, Reveal, Start
from dutchblitz.protocol.state import visible_codes
from dutchblitz.protocol.wire_moves import play_from_move

from .bots import Bot, Level

DECK = 40


@dataclass(slots=True)
class Wishes:
    """What the person (or the command line) asked this seat to be."""

    name: str
    back: str | None = None  # None: keep the back the table gave
    ready: bool = False
    start_at: int | None = None  # start once this many players are seated and ready
    target: int = 75


def lobby_duty(game: Game, me: Member, wishes: Wishes, stable: Game) -> Body | None:
    """The next lobby event: the profile, then readiness, then (maybe) the start."""
    if game.phase != Phase.LOBBY:
        return None
    if me.name != wishes.name or (wishes.back is not None and me.back != wishes.back):
        return Profile(wishes.name, wishes.back or me.back)
    if me.ready != wishes.ready:
        return Ready(wishes.ready)
    if wishes.start_at is not None and can_start(stable, me.node, wishes.start_at):
        return Start(wishes.target, True)
    return None


def can_start(game: Game, node: bytes, at_least: int = 2) -> bool:
    """Whether a Start from ``node`` would be accepted now, with ``at_least`` players."""
    if game.phase != Phase.LOBBY:
        return False
    seated = game.seated()
    if len(seated) < at_least or node not in {m.node for m in seated}:
        return False
    if not all(m.ready for m in seated):
        return False
    return check_backs([m.back for m in seated]) is None


def deal_due(game: Game, seat: int) -> int | None:
    """The round this seat must deal now, or None."""
    if game.phase == Phase.DEALING and seat in game.players and seat not in game.deals:
        return game.round
    return None


def reveals_due(stable: Game, dealt: set[int], revealed: set[int]) -> list[int]:
    """Finished rounds whose deal this seat has not yet revealed."""
    return [r.round for r in stable.results if r.round in dealt and r.round not in revealed]


class Steward:
    """Sends what one seat owes the table, through ``submit``; keeps its deck orders."""

    def __init__(
        self,
        node_id: bytes,
        wishes: Wishes,
        level: Level | None,
        seed: int | None,
        save_order: Callable[[int, list[int]], None],
        submit: Callable[[Body], bool],
    ) -> None:
        self.node_id = node_id
        self.wishes = wishes
        self.seed = seed
        self.save_order = save_order
        self.submit = submit
        self.orders: dict[int, list[Card]] = {}
        self.revealed: set[int] = set()
        self.start_sent = False
        self.think_rng: random.Random = random.SystemRandom()
        self.bot = None if level is None else Bot(level, self._rng("bot"))

    def _rng(self, purpose: str) -> random.Random:
        if self.seed is None:
            return random.SystemRandom()
        return random.Random(f"{self.seed}-{self.node_id.hex()}-{purpose}")

    def take_orders(self, replica: Replica, stored: dict[int, list[int]]) -> None:
        """A fresh log: forget what was owed, and load the deck orders kept on disk."""
        self.orders.clear()
        self.revealed.clear()
        self.start_sent = False
        for round_number, codes in stored.items():
            if len(codes) == DECK and all(0 <= code < 8 * DECK for code in codes):
                order = [card_from_code(code) for code in codes]
                self.orders[round_number] = order
                replica.stable.own_orders[round_number] = order

    def on_own_event(self, entry: LogEntry, stable: Game) -> None:
        """One of our events became final: learn from its outcome."""
        body = entry.body
        if isinstance(body, Reveal):
            self.revealed.add(body.round)
        elif isinstance(body, Start):
            self.start_sent = False
        elif isinstance(body, Profile) and not entry.outcome.accepted:
            me = stable.members.get(self.node_id)
            if entry.outcome.refusal == "back_taken":
                self.wishes.back = None  # keep the back we hold rather than ask again
            elif me is not None:
                self.wishes.name = me.name

    def step(self, replica: Replica) -> None:
        """Send whatever is owed now, and the bot's next move."""
        if not replica.can_play():
            return
        game = replica.optimistic()
        me = game.members.get(self.node_id)
        if me is None:
            return
        pending = replica.pending_own()
        for round_number in reveals_due(replica.stable, set(self.orders), self.revealed):
            if not any(isinstance(b, Reveal) and b.round == round_number for b in pending):
                codes = tuple(card.code for card in self.orders[round_number])
                self.submit(Reveal(round_number, b"", codes))
        if game.phase == Phase.LOBBY and not pending:
            self._lobby(game, me, replica.stable)
        due = deal_due(game, me.seat)
        if due is not None:
            self._deal(replica, due, me.seat, len(game.players))
        elif game.phase == Phase.PLAYING and not pending:
            self._play(game, me.seat)

    def _lobby(self, game: Game, me: Member, stable: Game) -> None:
        body = lobby_duty(game, me, self.wishes, stable)
        if isinstance(body, Start):
            if self.start_sent:
                return
            self.start_sent = True
        if body is not None:
            self.submit(body)

    def _deal(self, replica: Replica, round_number: int, seat: int, players: int) -> None:
        order = self.orders.get(round_number)
        if order is None or order[0].deck != seat:
            order = new_deck(seat)
            self._rng(str(round_number)).shuffle(order)
            self.save_order(round_number, [card.code for card in order])  # before the Deal
            self.orders[round_number] = order
        replica.stable.own_orders[round_number] = order
        self.submit(Deal(round_number, visible_codes(order, players), b""))

    def _play(self, game: Game, seat: int) -> None:
        table = game.table
        if self.bot is None or table is None or seat not in table.areas:
            return
        area = table.areas[seat]
        if not area.active or area.stuck:
            return  # a stuck player waits for a centre play or the stalemate
        move = self.bot.choose(table, seat)
        if move is not None:
            self.submit(play_from_move(move, game.round))
