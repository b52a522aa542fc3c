"""The game as a state machine over the ordered log: lobby, rounds, scores, end.

``Game.apply`` takes one event of the total order (its sender and body) and
returns an ``Outcome``. Transitions are data: ``_TRANSITIONS`` maps (phase,
body type) to a handler, and a missing pair is a refusal that names the phase.
Every node applies the same events in the same order and so reaches the same
public state. A node's own secret (its deck orders) comes in from outside.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from .fairdeal import (
    MIN_ROUND_SCORE,
    RoundRecord,
    Step,
    audit_reveal,
    deck_order,
    joint_randomness,
    secret_hash,
    share_hash,
)
from .games.blitz.cards import ALL_BACKS, Card, card_from_code, check_backs, post_count
from .games.blitz.moves import Move
from .games.blitz.rules import Reason, Refusal, apply, set_active
from .games.blitz.scoring import DEFAULT_TARGET, add_scores, game_winner, round_scores
from .games.blitz.state import Slot, Table, deal
from .games.blitz.wire_moves import WireMoveError, move_from_play
from .limits import MAX_NAME
from .messages import (
    Admit,
    Backdated,
    Body,
    Bye,
    Commit,
    Cut,
    Deal,
    Play,
    Profile,
    Ready,
    Reveal,
    Share,
    Start,
    Suspect,
)


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
    since: int = 1  # first sequence number of its stream at its latest admission


@dataclass(frozen=True, slots=True)
class RoundResult:
    round: int
    scores: dict[int, int]
    blitz_by: int | None


class FlagKind(StrEnum):
    MISMATCH = "mismatch"  # a reveal that does not fit its commitment, its deal or its moves
    WITHHELD = "withheld"  # a player moved on (or left) without revealing a finished round
    BACKDATED = "backdated"  # an event stamped below a clock its sender had announced
    UNAUDITED = "unaudited"  # removed before revealing: not held against the player


PENALISED = (FlagKind.MISMATCH, FlagKind.WITHHELD)


@dataclass(frozen=True, slots=True)
class Flag:
    """Something the audit found, the same on every node, at one place in the log."""

    round: int
    seat: int
    node: bytes
    kind: FlagKind
    detail: str


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
    # The fair deal of the current round (spec/rules.md R-40 on): who has committed, the
    # shares revealed, and once every share is in, the joint randomness and the dealers.
    commits: dict[int, tuple[bytes, bytes]] = field(default_factory=dict)
    shares: dict[int, bytes] = field(default_factory=dict)
    commits_closed: bool = False
    joint: bytes | None = None
    dealers: tuple[int, ...] = ()
    visible: dict[int, tuple[int, ...]] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)  # the round so far, for its record
    started_active: frozenset[int] = frozenset()
    records: dict[int, RoundRecord] = field(default_factory=dict)  # finished rounds
    revealed: set[tuple[int, int]] = field(default_factory=set)  # (round, seat)
    flags: list[Flag] = field(default_factory=list)
    # This node's own secrets, round -> secret: like ``own_orders``, an input from outside.
    own_secrets: dict[int, bytes] = field(default_factory=dict)
    # A rematch plays on in the same log: round numbers keep counting, so deals,
    # secrets and audit records stay apart, and players see them counted from this game's
    # first round (``shown_round``).
    game_number: int = 1
    rounds_before: int = 0
    # Players removed without a goodbye whom the deal still waits for: a short
    # absence costs no round. Emptied by a START in the deal, left by each one's return.
    away: set[int] = field(default_factory=set)

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

    def still_looking(self) -> list[int]:
        """The players whose "seen" the next round waits for (R-54): from a game's second
        round on, while dealing, each present player not yet ready, unless it sits out."""
        if self.phase != Phase.DEALING or self.shown_round() < 2:
            return []
        seats = self.by_seat()
        return [
            seat
            for seat in self._present_players()
            if not seats[seat].ready and not (self.commits_closed and seat not in self.commits)
        ]

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
            dict(self.commits),
            dict(self.shares),
            self.commits_closed,
            self.joint,
            self.dealers,
            dict(self.visible),
            self.steps[:],
            self.started_active,
            dict(self.records),  # each record is final once made
            set(self.revealed),
            list(self.flags),
            self.own_secrets,  # shared on purpose, as own_orders
            self.game_number,
            self.rounds_before,
            set(self.away),
        )

    def shown_round(self, number: int | None = None) -> int:
        """A round as players count it: from 1 in each game (the current round if None)."""
        return (self.round if number is None else number) - self.rounds_before

    def game_flags(self) -> list[Flag]:
        """This game's flags, each round as players count it (R-52): what its screens show."""
        if self.game_number == 1:
            return list(self.flags)
        return [
            replace(f, round=f.round - self.rounds_before)
            for f in self.flags
            if f.round > self.rounds_before
        ]

    def rematch_ready(self) -> list[Member]:
        """The players of a rematch, once everyone present wants one (R-49); [] before."""
        if self.phase != Phase.OVER or not self.audit_complete():
            return []
        present = sorted((m for m in self.members.values() if m.present), key=lambda m: m.seat)
        if len(present) < 2 or not all(m.ready for m in present):
            return []
        return present

    def admits_newcomers(self) -> bool:
        """Whether a node never seated may sit down now: in the lobby, or after a game's
        end, for the next one (R-58); never while a game is on (P-117)."""
        return self.phase in (Phase.LOBBY, Phase.OVER)

    def audit_complete(self) -> bool:
        """Whether every finished round's every dealt deck is revealed or accounted for."""
        settled = {(f.round, f.seat) for f in self.flags if f.kind != FlagKind.BACKDATED}
        return all(
            (number, seat) in self.revealed or (number, seat) in settled
            for number, record in self.records.items()
            for seat in record.seats
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

    def leave(self, node: bytes, kind: FlagKind = FlagKind.UNAUDITED) -> None:
        """A member has left, by Bye or by an agreed removal: its cards stay and score.

        Rounds it has not revealed are flagged ``kind``: withheld when it chose to go.
        """
        member = self.members.get(node)
        if member is None or not member.present:
            return
        member.present = False
        member.ready = False
        self._owed_reveals(member.seat, kind, "left the table without revealing it")
        if self.table is not None and member.seat in self.table.areas:
            set_active(self.table, member.seat, False)  # may turn a stalemate
            if self.phase == Phase.PLAYING:
                self.steps.append((member.seat, False))
                if self.table.over:
                    self._end_round()  # the 30th stalemate: a dead round
        if self.phase == Phase.DEALING:
            self._maybe_close_commits()  # each step waits only for present players
            self._maybe_fix_joint()
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
            member.since = body.first_seq
            self.away.discard(member.seat)
            if self.table is not None and member.seat in self.table.areas:
                set_active(self.table, member.seat, True)
                if self.phase == Phase.PLAYING:
                    self.steps.append((member.seat, True))
            return ACCEPTED
        if not self.members and body.node != sender:
            return self._refuse("not_member")  # the first event of a table admits its founder
        if not self.admits_newcomers():
            return self._refuse("in_play")  # once dealt, only players who were seated return
        if self.members and (sender not in self.members or not self.members[sender].present):
            return self._refuse("not_member")
        seat = len(self.members)
        taken = {m.back for m in self.members.values() if m.present}
        back = next((b for b in ALL_BACKS if b not in taken), "")
        self.members[body.node] = Member(
            body.node, seat, f"player {seat + 1}", back, since=body.first_seq
        )
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

    def _seen(self, sender: bytes, body: Ready) -> Outcome:
        """READY while dealing round 2 on: the player has seen the scores (R-54)."""
        member = self.members[sender]
        if self.shown_round() < 2:
            return self._refuse("nothing_to_see")
        if member.seat not in self.players:
            return self._refuse("not_a_player")
        if not body.ready:
            return self._refuse("seen_only")
        if member.ready:
            return self._refuse("already_seen")
        member.ready = True
        self._maybe_begin_play()
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

    def _rematch(self, sender: bytes, body: Start) -> Outcome:
        """The same table plays again (R-49 to R-52): scores reset, round 1 again."""
        if not self.audit_complete():
            return self._refuse("audit_open")
        present = [m for m in self.members.values() if m.present]
        if len(present) < 2:
            return self._refuse("too_few_players")
        players = self.rematch_ready()
        if not players:
            return self._refuse("not_all_ready")
        if (body.target, body.post_stacking) != (self.target, self.post_stacking):
            return self._refuse("not_same_table")
        if check_backs([m.back for m in players]) is not None:
            return self._refuse("bad_backs")
        self.players = tuple(m.seat for m in players)
        self.totals = {seat: 0 for seat in self.players}
        self.results, self.winner = [], None
        self.game_number += 1
        self.rounds_before = self.round
        self.away.clear()  # a rematch seats those present: nobody is waited for
        self._next_round()
        return ACCEPTED

    def _next_round(self) -> None:
        if self.round > self.rounds_before:  # not a game's first round: its START began it
            for member in self.members.values():
                member.ready = False  # each player says again that it has seen the scores
        self.round += 1
        self.phase = Phase.DEALING
        self.deals = {}
        self.table = None
        self.commits, self.shares, self.commits_closed = {}, {}, False
        self.joint, self.dealers, self.visible = None, (), {}
        self.steps, self.started_active = [], frozenset()

    # -- the fair deal: commit, share, deal (R-40 to R-43) ---------------------------------

    def _present_players(self) -> list[int]:
        """The players each step of the deal waits for: those present, and those away (R-56)."""
        present = {m.seat for m in self.members.values() if m.present} | self.away
        return [seat for seat in self.players if seat in present]

    def awaited(self) -> list[int]:
        """The players the deal under way is waiting for although they are not present."""
        if self.phase != Phase.DEALING:
            return []
        return [seat for seat in self.players if seat in self.away]

    def _go_without(self, sender: bytes, body: Start) -> Outcome:
        """A START in the deal: the grace is over, deal on without those away (R-57)."""
        if not self.away:
            return self._refuse("nobody_away")
        if (body.target, body.post_stacking) != (self.target, self.post_stacking):
            return self._refuse("not_this_game")
        self.away.clear()
        self._maybe_close_commits()
        self._maybe_fix_joint()
        self._maybe_begin_play()
        return ACCEPTED

    def _commit(self, sender: bytes, body: Commit) -> Outcome:
        seat = self.members[sender].seat
        if body.round != self.round:
            return self._refuse("wrong_round")
        if seat not in self.players:
            return self._refuse("not_a_player")
        if seat in self.commits:
            return self._refuse("already_committed")
        if self.commits_closed:
            return self._refuse("commits_closed")
        self._owed_reveals(seat, FlagKind.WITHHELD, "committed to a new round without revealing")
        self.commits[seat] = (body.secret_hash, body.share_hash)
        self._maybe_close_commits()
        return ACCEPTED

    def _maybe_close_commits(self) -> None:
        if self.phase != Phase.DEALING or self.commits_closed or not self.commits:
            return
        if all(seat in self.commits for seat in self._present_players()):
            self.commits_closed = True
            self._maybe_fix_joint()

    def _share(self, sender: bytes, body: Share) -> Outcome:
        seat = self.members[sender].seat
        if body.round != self.round:
            return self._refuse("wrong_round")
        if seat not in self.commits:
            return self._refuse("not_committed")
        if not self.commits_closed:
            return self._refuse("commits_open")
        if seat in self.shares or self.joint is not None:
            return self._refuse("already_shared")
        if share_hash(sender, self.round, body.share) != self.commits[seat][1]:
            self._flag(
                self.round, seat, FlagKind.MISMATCH, "its share does not match its commitment"
            )
            return self._refuse("bad_share")
        self.shares[seat] = body.share
        self._maybe_fix_joint()
        return ACCEPTED

    def _maybe_fix_joint(self) -> None:
        if not self.commits_closed or self.joint is not None or not self.shares:
            return
        present = set(self._present_players())
        if any(seat in present and seat not in self.shares for seat in self.commits):
            return
        self.dealers = tuple(sorted(self.shares))
        self.joint = joint_randomness(self.round, [self.shares[s] for s in self.dealers])
        self._maybe_begin_play()

    def _deal(self, sender: bytes, body: Deal) -> Outcome:
        seat = self.members[sender].seat
        if body.round != self.round:
            return self._refuse("wrong_round")
        if seat not in self.players:
            return self._refuse("not_a_player")
        if self.joint is None:
            return self._refuse("not_shared")
        if seat not in self.dealers:
            return self._refuse("not_a_dealer")
        if seat in self.deals:
            return self._refuse("already_dealt")
        order = self._order_for(seat, body)
        if order is None:
            return self._refuse("bad_deal")
        self.deals[seat] = order
        self.visible[seat] = tuple(body.visible)
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
        secret = self.own_secrets.get(self.round)
        node = self.node_of(seat)
        if (
            (own is None or own[0].deck != seat)
            and secret is not None
            and self.joint is not None
            and node is not None
            and secret_hash(node, self.round, secret) == self.commits[seat][0]
        ):
            own = deck_order(seat, secret, self.joint)
        if own is not None and own[0].deck == seat:
            return list(own) if own[:posts] + own[posts + 9 : posts + 10] == visible else None
        order: list[Slot] = [None] * 40
        order[:posts] = visible[:posts]
        order[posts + 9] = visible[posts]
        return order

    def _maybe_begin_play(self) -> None:
        if self.phase != Phase.DEALING or self.joint is None:
            return
        present = {m.seat for m in self.members.values() if m.present}
        expected = present | self.away
        waiting = [seat for seat in self.dealers if seat in expected and seat not in self.deals]
        if waiting or not self.deals:
            return
        dealt = [seat for seat in self.players if seat in self.deals]
        seats = self.by_seat()
        if self.shown_round() > 1 and any(
            seat in present and not seats[seat].ready for seat in dealt
        ):
            return  # a player who will play has not seen the scores yet
        self.table = deal(
            dealt, self.deals, post_stacking=self.post_stacking, players=len(self.players)
        )
        for seat in dealt:
            self.table.areas[seat].active = seat in present
        self.started_active = frozenset(seat for seat in dealt if seat in present)
        self.steps = []
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
        self.steps.append((seat, move))
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
        seats = tuple(self.table.seats)
        nodes = {seat: self.by_seat()[seat].node for seat in seats}
        assert self.joint is not None
        self.records[self.round] = RoundRecord(
            self.round,
            len(self.players),
            self.post_stacking,
            seats,
            nodes,
            {seat: self.visible[seat] for seat in seats},
            {seat: self.commits[seat] for seat in seats},
            self.joint,
            self.started_active,
            tuple(self.steps),
        )
        for seat in seats:
            if not self.members[nodes[seat]].present:
                self._flag(self.round, seat, FlagKind.UNAUDITED, "left before the round's end")
        self.winner = game_winner(self.totals, self.target)
        if self.winner is not None:
            self.phase = Phase.OVER
            for member in self.members.values():
                member.ready = False  # from now on READY asks for a rematch
        else:
            self._next_round()

    # -- the audit (R-44 to R-47) -------------------------------------------------------------

    def _reveal(self, sender: bytes, body: Reveal) -> Outcome:
        seat = self.members[sender].seat
        record = self.records.get(body.round)
        if record is None:
            return self._refuse("nothing_to_reveal")
        if seat not in record.seats:
            return self._refuse("not_dealt")
        if (body.round, seat) in self.revealed:
            return self._refuse("already_revealed")
        self.revealed.add((body.round, seat))
        self.flags = [
            f
            for f in self.flags
            if (f.round, f.seat, f.kind) != (body.round, seat, FlagKind.UNAUDITED)
        ]
        problem = audit_reveal(record, seat, body.secret, body.order)
        if problem is not None:
            self._flag(body.round, seat, FlagKind.MISMATCH, problem)
        return ACCEPTED

    def _backdated(self, sender: bytes, body: Backdated) -> Outcome:
        target = self.members.get(body.node)
        if target is None or body.node == sender or body.lamport > body.announced:
            return self._refuse("bad_notice")
        event = f"event {body.seq} "
        if any(
            f.kind == FlagKind.BACKDATED and f.node == body.node and f.detail.startswith(event)
            for f in self.flags
        ):
            return self._refuse("already_flagged")  # one flag per event, whoever reports it
        detail = (
            f"{event}stamped {body.lamport} after announcing {body.announced}"
            f" (seen by {self.members[sender].name})"
        )
        self._flag(self.round, target.seat, FlagKind.BACKDATED, detail)
        return ACCEPTED

    def _owed_reveals(self, seat: int, kind: FlagKind, detail: str) -> None:
        for number, record in self.records.items():
            if seat in record.seats and (number, seat) not in self.revealed:
                self._flag(number, seat, kind, detail)

    def _flag(self, round_number: int, seat: int, kind: FlagKind, detail: str) -> None:
        """Record a flag once per round, seat and kind; a penalised one costs the round."""
        if kind != FlagKind.BACKDATED and any(
            (f.round, f.seat, f.kind) == (round_number, seat, kind) for f in self.flags
        ):
            return
        node = self.node_of(seat) or b""
        penalised_before = any(
            (f.round, f.seat) == (round_number, seat) and f.kind in PENALISED for f in self.flags
        )
        self.flags.append(Flag(round_number, seat, node, kind, detail))
        if kind in PENALISED and not penalised_before:
            self._penalise(round_number, seat)

    def _penalise(self, round_number: int, seat: int) -> None:
        """The round's score of ``seat`` becomes the worst possible (R-46)."""
        for index, result in enumerate(self.results):
            if result.round != round_number or seat not in result.scores:
                continue
            old = result.scores[seat]
            if old <= MIN_ROUND_SCORE:
                return
            scores = {**result.scores, seat: MIN_ROUND_SCORE}
            self.results[index] = RoundResult(result.round, scores, result.blitz_by)
            self.totals[seat] = self.totals.get(seat, 0) + MIN_ROUND_SCORE - old
            if self.phase == Phase.OVER:
                self.winner = _final_winner(self.totals, self.target)
            return

    def _cut(self, sender: bytes, body: Cut) -> Outcome:
        return ACCEPTED  # where a stream ends is the core's business; kept in the log

    def _bye(self, sender: bytes, body: Bye) -> Outcome:
        self.leave(sender, FlagKind.WITHHELD)
        return ACCEPTED

    def _suspect(self, sender: bytes, body: Suspect) -> Outcome:
        """The first Suspect of a member in the order removes it, on every node alike."""
        if not self.members[sender].present:
            return self._refuse("not_present")
        target = self.members.get(body.node)
        if target is None or not target.present:
            return self._refuse("not_present")
        if body.held < target.since - 1:
            # About an earlier admission of a player who has since come back: void
            # (else suspicions of its last stay would keep removing it as it returns).
            return self._refuse("stale")
        if target.seat in self.players and self.phase in (Phase.DEALING, Phase.PLAYING):
            self.away.add(target.seat)  # before it leaves: the deal under way waits for it
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
            sorted([seat, *hashes] for seat, hashes in self.commits.items()),
            sorted(self.shares.items()),
            self.joint,
            sorted(self.revealed),
            [[f.round, f.seat, f.kind.value, f.detail] for f in self.flags],
            # Only while someone is away: the digest of every other state stays as it was.
            *([sorted(self.away)] if self.away else []),
        ]


def _final_winner(totals: dict[int, int], target: int) -> int | None:
    """The winner of a finished game after penalties: the one highest total, if any."""
    winner = game_winner(totals, target)
    if winner is not None or not totals:
        return winner
    best = max(totals.values())
    leaders = [seat for seat, total in totals.items() if total == best]
    return leaders[0] if len(leaders) == 1 else None


def _copy_member(member: Member) -> Member:
    return Member(
        member.node,
        member.seat,
        member.name,
        member.back,
        member.ready,
        member.present,
        member.since,
    )


Handler = Callable[[Game, bytes, Any], Outcome]
_ANY_PHASE = (Phase.LOBBY, Phase.DEALING, Phase.PLAYING, Phase.OVER)
_TRANSITIONS: Mapping[tuple[Phase, type], Handler] = {
    **{(phase, Admit): Game._admit for phase in _ANY_PHASE},
    **{(phase, Bye): Game._bye for phase in _ANY_PHASE},
    **{(phase, Suspect): Game._suspect for phase in _ANY_PHASE},
    **{(phase, Reveal): Game._reveal for phase in _ANY_PHASE},
    **{(phase, Cut): Game._cut for phase in _ANY_PHASE},
    **{(phase, Backdated): Game._backdated for phase in _ANY_PHASE},
    (Phase.DEALING, Commit): Game._commit,
    (Phase.DEALING, Share): Game._share,
    (Phase.LOBBY, Profile): Game._profile,
    (Phase.LOBBY, Ready): Game._ready,
    (Phase.DEALING, Ready): Game._seen,
    (Phase.LOBBY, Start): Game._start,
    (Phase.OVER, Ready): Game._ready,
    (Phase.OVER, Profile): Game._profile,
    (Phase.OVER, Start): Game._rematch,
    (Phase.DEALING, Start): Game._go_without,
    (Phase.DEALING, Deal): Game._deal,
    (Phase.PLAYING, Play): Game._play,
}
