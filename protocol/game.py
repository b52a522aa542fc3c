"""The game as a state machine over the ordered log: lobby, rounds, scores, end.

``Game.apply`` takes one event of the total order (its sender and body) and
returns an ``Outcome``. Transitions are data: ``_TRANSITIONS`` maps (phase,
body type) to a handler, and a missing pair is a refusal that names the phase.
Every node applies the same events in the same order and so reaches the same
public state. A node's own secret (its deck orders) comes in from outside.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .cards import ALL_BACKS, Card, card_from_code, check_backs, post_count
from .messages import Admit, Body, Bye, Cut, Deal, Play, Profile, Ready, Reveal, Start, Suspect
from .moves import Move
from .rules import Reason, Refusal, apply
from .scoring import DEFAULT_TARGET, add_scores, game_winner, round_scores
from .state import Slot, Table, deal
from .wire_moves import WireMoveError, move_from_play

MAX_NAME = 32


class Phase(StrEnum):
    LOBBY = "lobby"
    DEALING = "dealing"
    PLAYING = "playing"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an event did: ``refusal`` is None when it was accepted."""

    refusal: str | None = None
    by: int | None = None  # for a lost race: the seat that won it
    move: Move | None = None

    @property
    def accepted(self) -> bool:
        return self.refusal is None


ACCEPTED = Outcome()


@dataclass(slots=True)
class Member:
    node: bytes
    seat: int
    name: str
    back: str
    ready: bool = False
    present: bool = True


@dataclass(frozen=True, slots=True)
class RoundResult:
    round: int
    scores: dict[int, int]
    blitz_by: int | None


@dataclass(slots=True)
class Game:
    """The whole game as the ordered log has made it."""

    phase: Phase = Phase.LOBBY
    members: dict[bytes, Member] = field(default_factory=dict)
    players: tuple[int, ...] = ()
    target: int = DEFAULT_TARGET
    post_stacking: bool = True
    round: int = 0
    deals: dict[int, list[Slot]] = field(default_factory=dict)
    table: Table | None = None
    totals: dict[int, int] = field(default_factory=dict)
    results: list[RoundResult] = field(default_factory=list)
    winner: int | None = None
    races_lost: int = 0
    refused: int = 0
    events: int = 0
    # This node's own secret: its deck order for each round, top first. Never shared
    # until the reveal; it lets this node's replica know its own hidden cards.
    own_orders: dict[int, list[Card]] = field(default_factory=dict)

    # -- queries -------------------------------------------------------------------

    def seat_of(self, node: bytes) -> int | None:
        member = self.members.get(node)
        return None if member is None else member.seat

    def node_of(self, seat: int) -> bytes | None:
        for member in self.members.values():
            if member.seat == seat:
                return member.node
        return None

    def by_seat(self) -> dict[int, Member]:
        return {m.seat: m for m in self.members.values()}

    def seated(self) -> list[Member]:
        """Players in the lobby, or the game's players once it has started."""
        if self.phase == Phase.LOBBY:
            return sorted((m for m in self.members.values() if m.present), key=lambda m: m.seat)
        seats = self.by_seat()
        return [seats[seat] for seat in self.players]

    def copy(self) -> Game:
        return Game(
            self.phase,
            {node: _copy_member(m) for node, m in self.members.items()},
            self.players,
            self.target,
            self.post_stacking,
            self.round,
            {seat: order[:] for seat, order in self.deals.items()},
            None if self.table is None else self.table.copy(),
            dict(self.totals),
            list(self.results),
            self.winner,
            self.races_lost,
            self.refused,
            self.events,
            self.own_orders,  # shared on purpose: a secret input, never changed here
        )

    # -- transitions ---------------------------------------------------------------

    def apply(self, sender: bytes, body: Body) -> Outcome:
        """Apply one ordered event. Never raises on a peer's bad event: refuses it."""
        self.events += 1
        if not isinstance(body, Admit) and sender not in self.members:
            return self._refuse("not_member")
        if not isinstance(body, Admit) and not self.members[sender].present:
            return self._refuse("not_present")
        handler = _TRANSITIONS.get((self.phase, type(body)))
        if handler is None:
            return self._refuse(f"not_in_{self.phase.value}")
        return handler(self, sender, body)

    def leave(self, node: bytes) -> None:
        """A member has left, by Bye or by an agreed removal: its cards stay and score."""
        member = self.members.get(node)
        if member is None or not member.present:
            return
        member.present = False
        member.ready = False
        if self.table is not None and member.seat in self.table.areas:
            self.table.areas[member.seat].active = False
        if self.phase == Phase.DEALING:
            self._maybe_begin_play()

    def _refuse(self, reason: str, by: int | None = None, move: Move | None = None) -> Outcome:
        self.refused += 1
        if reason == Reason.PILE_TAKEN:
            self.races_lost += 1
        return Outcome(reason, by, move)

    def _admit(self, sender: bytes, body: Admit) -> Outcome:
        member = self.members.get(body.node)
        if member is not None:
            if sender not in self.members or not self.members[sender].present:
                return self._refuse("not_member")
            if member.present:
                return self._refuse("already_member")
            member.present = True  # a returning player gets its seat back
            if self.table is not None and member.seat in self.table.areas:
                self.table.areas[member.seat].active = True
            return ACCEPTED
        if not self.members and body.node != sender:
            return self._refuse("not_member")  # the first event of a table admits its founder
        if self.phase != Phase.LOBBY:
            return self._refuse("in_play")  # once dealt, only players who were seated return
        if self.members and (sender not in self.members or not self.members[sender].present):
            return self._refuse("not_member")
        seat = len(self.members)
        taken = {m.back for m in self.members.values() if m.present}
        back = next((b for b in ALL_BACKS if b not in taken), "")
        self.members[body.node] = Member(body.node, seat, f"player {seat + 1}", back)
        return ACCEPTED

    def _profile(self, sender: bytes, body: Profile) -> Outcome:
        member = self.members[sender]
        name = body.name.strip()
        if not name or len(name.encode()) > MAX_NAME:
            return self._refuse("bad_name")
        taken = {m.back for m in self.members.values() if m.present and m.node != sender}
        if body.back and body.back in taken:
            return self._refuse("back_taken")
        member.name, member.back = name, body.back
        return ACCEPTED

    def _ready(self, sender: bytes, body: Ready) -> Outcome:
        self.members[sender].ready = body.ready
        return ACCEPTED

    def _start(self, sender: bytes, body: Start) -> Outcome:
        seated = self.seated()
        if not all(m.ready for m in seated):
            return self._refuse("not_all_ready")
        problem = check_backs([m.back for m in seated])
        if problem is not None:
            return self._refuse("bad_backs")
        if body.target < 1:
            return self._refuse("bad_target")
        self.players = tuple(m.seat for m in seated)
        self.target, self.post_stacking = body.target, body.post_stacking
        self.totals = {seat: 0 for seat in self.players}
        self._next_round()
        return ACCEPTED

    def _next_round(self) -> None:
        self.round += 1
        self.phase = Phase.DEALING
        self.deals = {}
        self.table = None

    def _deal(self, sender: bytes, body: Deal) -> Outcome:
        seat = self.members[sender].seat
        if body.round != self.round:
            return self._refuse("wrong_round")
        if seat not in self.players:
            return self._refuse("not_a_player")
        if seat in self.deals:
            return self._refuse("already_dealt")
        order = self._order_for(seat, body)
        if order is None:
            return self._refuse("bad_deal")
        self.deals[seat] = order
        self._maybe_begin_play()
        return ACCEPTED

    def _order_for(self, seat: int, body: Deal) -> list[Slot] | None:
        """The deck order this replica knows: the full one for its own seat."""
        posts = post_count(len(self.players))
        if len(body.visible) != posts + 1 or any(
            not 0 <= code < 320 or code // 40 != seat for code in body.visible
        ):
            return None
        visible = [card_from_code(code) for code in body.visible]
        if len(set(visible)) != len(visible):
            return None
        own = self.own_orders.get(self.round)
        if own is not None and own[0].deck == seat:
            return list(own) if own[:posts] + own[posts + 9 : posts + 10] == visible else None
        order: list[Slot] = [None] * 40
        order[:posts] = visible[:posts]
        order[posts + 9] = visible[posts]
        return order

    def _maybe_begin_play(self) -> None:
        present = {m.seat for m in self.members.values() if m.present}
        waiting = [seat for seat in self.players if seat in present and seat not in self.deals]
        if waiting or not self.deals:
            return
        dealt = [seat for seat in self.players if seat in self.deals]
        self.table = deal(
            dealt, self.deals, post_stacking=self.post_stacking, players=len(self.players)
        )
        for seat in dealt:
            self.table.areas[seat].active = seat in present
        self.phase = Phase.PLAYING

    def _play(self, sender: bytes, body: Play) -> Outcome:
        seat = self.members[sender].seat
        if body.round != self.round:
            return self._refuse("wrong_round")
        try:
            move = move_from_play(body, seat)
        except WireMoveError:
            return self._refuse("bad_move")
        assert self.table is not None
        refusal = apply(self.table, move)
        if refusal is not None:
            return self._refuse_move(refusal, move)
        if self.table.over:
            self._end_round()
        return Outcome(move=move)

    def _refuse_move(self, refusal: Refusal, move: Move) -> Outcome:
        return self._refuse(str(refusal.reason), refusal.by, move)

    def _end_round(self) -> None:
        assert self.table is not None
        scores = round_scores(self.table)
        self.results.append(RoundResult(self.round, scores, self.table.blitz_by))
        self.totals = add_scores(self.totals, scores)
        self.winner = game_winner(self.totals, self.target)
        if self.winner is not None:
            self.phase = Phase.OVER
        else:
            self._next_round()

    def _reveal(self, sender: bytes, body: Reveal) -> Outcome:
        return ACCEPTED  # audited by the security layer; ordered here so all agree

    def _cut(self, sender: bytes, body: Cut) -> Outcome:
        return ACCEPTED  # where a stream ends is the core's business; kept in the log

    def _bye(self, sender: bytes, body: Bye) -> Outcome:
        self.leave(sender)
        return ACCEPTED

    def _suspect(self, sender: bytes, body: Suspect) -> Outcome:
        """The first Suspect of a member in the order removes it, on every node alike."""
        if not self.members[sender].present:
            return self._refuse("not_present")
        target = self.members.get(body.node)
        if target is None or not target.present:
            return self._refuse("not_present")
        self.leave(body.node)
        return ACCEPTED

    # -- the public state, for digests and views ----------------------------------------

    def public_form(self) -> list[Any]:
        from .digest import public_form

        return [
            self.phase.value,
            sorted(
                [m.node, m.seat, m.name, m.back, m.ready, m.present] for m in self.members.values()
            ),
            list(self.players),
            self.target,
            self.post_stacking,
            self.round,
            sorted(self.deals),
            None if self.table is None else public_form(self.table),
            sorted(self.totals.items()),
            [[r.round, sorted(r.scores.items()), r.blitz_by] for r in self.results],
            self.winner,
            self.races_lost,
            self.refused,
        ]


def _copy_member(member: Member) -> Member:
    return Member(member.node, member.seat, member.name, member.back, member.ready, member.present)


Handler = Callable[[Game, bytes, Any], Outcome]
_ANY_PHASE = (Phase.LOBBY, Phase.DEALING, Phase.PLAYING, Phase.OVER)
_TRANSITIONS: Mapping[tuple[Phase, type], Handler] = {
    **{(phase, Admit): Game._admit for phase in _ANY_PHASE},
    **{(phase, Bye): Game._bye for phase in _ANY_PHASE},
    **{(phase, Suspect): Game._suspect for phase in _ANY_PHASE},
    **{(phase, Reveal): Game._reveal for phase in _ANY_PHASE},
    **{(phase, Cut): Game._cut for phase in _ANY_PHASE},
    (Phase.LOBBY, Profile): Game._profile,
    (Phase.LOBBY, Ready): Game._ready,
    (Phase.LOBBY, Start): Game._start,
    (Phase.DEALING, Deal): Game._deal,
    (Phase.PLAYING, Play): Game._play,
}
