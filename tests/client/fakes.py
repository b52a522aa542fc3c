"""A ``Session`` for client tests: a real ``Game`` built with protocol functions.

The fake plays our own moves on the optimistic game at once and on the stable
game only when ``confirm`` is called, the way a node shows a move before the
network makes it final. It records every call, can refuse on request, and can
make another seat play from a full table it keeps on the side.
"""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dutchblitz.node.api import (
    Notice,
    NoticeKind,
    PlayerInfo,
    Refused,
    Snapshot,
    TvLink,
    Why,
)
from dutchblitz.protocol.games.blitz.cards import Card, new_deck
from dutchblitz.protocol.games.blitz.intents import Action, Intent
from dutchblitz.protocol.games.blitz.moves import Move, Source, StuckCall
from dutchblitz.protocol.games.blitz.plays import centre_play, flip_or_turn, legal_moves, post_play
from dutchblitz.protocol.games.blitz.rules import apply
from dutchblitz.protocol.games.blitz.state import Table, deal, visible_codes
from dutchblitz.protocol.games.blitz.wire_moves import play_from_move
from dutchblitz.protocol.table.fairdeal import secret_hash, share_hash
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.views import game_view
from dutchblitz.protocol.wire.messages import (
    Admit,
    Body,
    Commit,
    Deal,
    Profile,
    Ready,
    Share,
    Start,
)

NAMES = ("Ada", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
BOT_LEVELS = ("easy", "normal", "fast", "flat-out")


def node_id(seat: int) -> bytes:
    return bytes([seat + 1]) * 16


def shuffled(seat: int, seed: int) -> list[Card]:
    order = new_deck(seat)
    random.Random(seed * 100 + seat).shuffle(order)
    return order


def lobby_game(players: int, *, ready: bool = False) -> Game:
    """A lobby of ``players`` members, seat 0 founding it, all named, ready if asked."""
    game = Game()
    founder = node_id(0)
    for seat in range(players):
        assert game.apply(founder, Admit(node_id(seat), 1)).accepted
        node = node_id(seat)
        assert game.apply(node, Profile(NAMES[seat], game.members[node].back)).accepted
        if ready:
            assert game.apply(node, Ready(True)).accepted
    return game


@dataclass
class Dealt:
    game: Game
    truth: Table  # every card known: lets the fake make other seats' moves


def playing_game(players: int, *, me: int = 0, seed: int = 1) -> Dealt:
    """A game in its first round, as seat ``me``'s node knows it."""
    game = lobby_game(players, ready=True)
    assert game.apply(node_id(0), Start(75, True)).accepted
    orders = {seat: shuffled(seat, seed) for seat in range(players)}
    game.own_orders[game.round] = orders[me]
    shares = {seat: bytes([seat]) * 32 for seat in range(players)}
    for seat in range(players):
        node, secret = node_id(seat), bytes([seat + 100]) * 32
        commit = Commit(
            game.round,
            secret_hash(node, game.round, secret),
            share_hash(node, game.round, shares[seat]),
        )
        assert game.apply(node, commit).accepted
    for seat in range(players):
        assert game.apply(node_id(seat), Share(game.round, shares[seat])).accepted
    for seat in range(players):
        deal_body = Deal(game.round, visible_codes(orders[seat], players), b"")
        assert game.apply(node_id(seat), deal_body).accepted
    assert game.phase == Phase.PLAYING
    truth = deal(range(players), orders, players=players)
    return Dealt(game, truth)


@dataclass
class FakeSession:
    game: Game
    me: int = 0
    truth: Table | None = None
    table: str = "kitchen"
    peers_seen: int = 1
    seconds_running: float = 0.0
    bots: set[int] = field(default_factory=set)
    fingerprints: dict[int, str] = field(default_factory=dict)
    door: str = ""
    private: bool = False
    calls: list[tuple[Any, ...]] = field(default_factory=list)
    refusal: Refused | None = None  # every action returns this while it is set
    notices: list[Notice] = field(default_factory=list)
    left: bool = False
    post_stacking: bool = True  # the lobby's choice, what our START carries
    game_tag: str = ""  # the game the screens show ("": the client's own)
    bot_levels: tuple[str, ...] = BOT_LEVELS  # the game's levels, as the node offers them
    profile: int = 1  # the node's profile (2, 3...: the default state directory was taken)
    length: tuple[int, int | None] = (75, None)  # the lobby's choice: a target, maybe rounds
    scores_left: float = 0.0  # as the node would say: seconds until it says "seen" itself
    count_in: float = 0.0  # seconds of count-in left as of each snapshot
    tv: TvLink | None = None  # the TV view the node serves (--web)
    stable: Game = field(init=False)
    pending: list[Body] = field(default_factory=list)
    callbacks: list[Callable[[], None]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.stable = self.game.copy()

    # -- Session ---------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        return Snapshot(
            table=self.table,
            interface="lo 127.0.0.1 (test)",
            endpoint="tcp://127.0.0.1:5555",
            my_node=node_id(self.me),
            my_seat=self.me,
            players=self.player_infos(),
            game=game_view(self.game),
            stable=game_view(self.stable),
            pending_moves=len(self.pending),
            peers_seen=self.peers_seen,
            seconds_running=self.seconds_running,
            can_start=self.game.phase == Phase.LOBBY
            and all(m.ready for m in self.game.seated())
            and len(self.game.seated()) >= 2,
            bot_levels=self.bot_levels,
            profile=self.profile,
            door=self.door,
            private=self.private,
            option=self.post_stacking
            if self.game.phase == Phase.LOBBY
            else self.game.post_stacking,
            scores_left=self.scores_left,
            count_in=self.count_in,
            tv=self.tv,
            game_tag=self.game_tag,
            length=self.length if self.game.phase == Phase.LOBBY else (self.game.target, None),
        )

    def player_infos(self) -> tuple[PlayerInfo, ...]:
        return tuple(
            PlayerInfo(
                seat=m.seat,
                node=m.node,
                name=m.name,
                back=m.back,
                ready=m.ready,
                present=m.present,
                is_me=m.seat == self.me,
                is_local_bot=m.seat in self.bots,
                fingerprint=self.fingerprints.get(m.seat, ""),
            )
            for m in sorted(self.game.members.values(), key=lambda m: m.seat)
        )

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        self.callbacks.append(callback)
        return lambda: self.callbacks.remove(callback)

    def take_notices(self) -> list[Notice]:
        taken, self.notices = self.notices, []
        return taken

    def play(self, move: object) -> Refused | None:
        self.calls.append(("play", move))
        if not isinstance(move, Intent):
            return self.refusal
        if self.refusal is not None:
            return self.refusal
        table = self.game.table
        if self.game.phase != Phase.PLAYING or table is None:
            return Refused(Why.NOT_IN_PLAYING)
        if self.count_in > 0:
            return Refused(Why.COUNT_IN, count=math.ceil(self.count_in))
        move = own_move(table, self.me, move.action, move.slot)
        if move is None:
            return Refused.of("not_legal_now")
        body = play_from_move(move, self.game.round)
        outcome = self.game.apply(node_id(self.me), body)
        if not outcome.accepted:
            return refused(outcome.refusal)  # refused locally: nothing is sent
        if self.truth is not None:
            assert apply(self.truth, move) is None
        self.pending.append(body)
        self.notify()
        return None

    def seen_scores(self) -> Refused | None:
        self.calls.append(("seen_scores",))
        if self.me not in self.game.still_looking():
            return Refused(Why.NO_SCORES)
        outcome = self.game.apply(node_id(self.me), Ready(True))
        self.scores_left = 0.0
        self.notify()
        return refused(outcome.refusal)

    def set_name(self, name: str) -> Refused | None:
        return self._lobby("set_name", name, lambda m: Profile(name, m.back))

    def set_back(self, back: str) -> Refused | None:
        return self._lobby("set_back", back, lambda m: Profile(m.name, back))

    def set_ready(self, ready: bool) -> Refused | None:
        return self._lobby("set_ready", ready, lambda m: Ready(ready))

    def start(self) -> Refused | None:
        return self._lobby("start", None, lambda m: Start(75, self.post_stacking))

    def set_option(self, on: bool) -> Refused | None:
        self.calls.append(("set_option", on))
        if self.game.phase != Phase.LOBBY:
            return Refused(Why.LOBBY_ONLY, what="set_option")
        self.post_stacking = on
        return None

    def set_length(self, target: int, rounds: int | None = None) -> Refused | None:
        self.calls.append(("set_length", target, rounds))
        if self.game.phase != Phase.LOBBY:
            return Refused(Why.LOBBY_ONLY, what="set_length")
        self.length = (target, rounds)
        return None

    def set_game(self, tag: str) -> Refused | None:
        self.calls.append(("set_game", tag))
        if self.game.phase != Phase.LOBBY:
            return Refused(Why.LOBBY_ONLY, what="set_game")
        self.game_tag = tag
        return None

    def add_bot(self, level: str) -> Refused | None:
        self.calls.append(("add_bot", level))
        if self.refusal is not None:
            return self.refusal
        seat = len(self.game.members)
        assert self.game.apply(node_id(self.me), Admit(node_id(seat), 1)).accepted
        self.game.apply(node_id(seat), Ready(True))
        self.bots.add(seat)
        self.stable = self.game.copy()
        return None

    def remove_bot(self) -> Refused | None:
        self.calls.append(("remove_bot",))
        if self.refusal is not None:
            return self.refusal
        if not self.bots:
            return Refused(Why.NO_LOCAL_BOT)
        seat = max(self.bots)
        self.bots.discard(seat)
        self.game.leave(node_id(seat))
        self.stable = self.game.copy()
        return None

    async def leave(self) -> None:
        self.calls.append(("leave",))
        self.left = True
        await asyncio.sleep(0)

    # -- what a test does to the session ------------------------------------------------

    def notify(self) -> None:
        for callback in list(self.callbacks):
            callback()

    def push(self, kind: NoticeKind, text: str = "", refused: Refused | None = None) -> None:
        self.notices.append(Notice(kind, text, refused))
        self.notify()

    def confirm(self) -> None:
        """The network has made every pending move final."""
        for body in self.pending:
            self.stable.apply(node_id(self.me), body)
        self.pending.clear()
        self.notify()

    def opponent_plays(self, seat: int) -> Move | None:
        """Seat ``seat`` makes its best legal move (a centre play if it has one)."""
        assert self.truth is not None
        moves = legal_moves(self.truth, seat)
        move = next((m for m in moves if not isinstance(m, StuckCall)), None)
        if move is None:
            return None
        body = play_from_move(move, self.game.round)
        assert self.game.apply(node_id(seat), body).accepted
        assert self.stable.apply(node_id(seat), body).accepted
        assert apply(self.truth, move) is None
        self.notify()
        return move

    def _lobby(self, name: str, value: Any, body: Callable[[Any], Body]) -> Refused | None:
        self.calls.append((name,) if value is None else (name, value))
        if self.refusal is not None:
            return self.refusal
        node = node_id(self.me)
        outcome = self.game.apply(node, body(self.game.members[node]))
        self.stable = self.game.copy()
        self.notify()
        return refused(outcome.refusal)


def refused(code: str | None) -> Refused | None:
    """The node's answer for a refusal code of the table or the rules (None: taken)."""
    return None if code is None else Refused.of(code)


def own_move(table: Table, seat: int, action: Action, slot: int) -> Move | None:
    """The move one keystroke asks for, the way a node picks its legal target."""
    if action == Action.BLITZ_TO_CENTRE:
        return centre_play(table, seat, Source.BLITZ)
    if action == Action.WOOD_TO_CENTRE:
        return centre_play(table, seat, Source.WOOD)
    if action == Action.POST_TO_CENTRE:
        return centre_play(table, seat, Source.POST, slot)
    if action == Action.BLITZ_TO_POST:
        return post_play(table, seat, Source.BLITZ, slot)
    if action == Action.WOOD_TO_POST:
        return post_play(table, seat, Source.WOOD, slot)
    if action == Action.FLIP:
        return flip_or_turn(table, seat)
    return StuckCall(seat) if action == Action.STUCK else None


def playing_session(players: int, *, seed: int = 1, **options: Any) -> FakeSession:
    dealt = playing_game(players, seed=seed)
    return FakeSession(dealt.game, truth=dealt.truth, **options)
