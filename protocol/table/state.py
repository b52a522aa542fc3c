"""The game as a state machine over the ordered log: lobby, rounds, scores, end.

``Game.apply`` takes one event of the total order (its sender and body) and
returns an ``Outcome``. Transitions are data: ``_TRANSITIONS`` maps (phase,
body type) to a handler, and a missing pair is a refusal that names the phase.
Every node applies the same events in the same order and so reaches the same
public state. A node's own secret (its deck orders) comes in from outside.

This is the table; the game it hosts is ``rules``, its ``TableGame`` (table/rules.py).
The lobby's handlers are in lobby.py, the fair deal's in deal.py, a round's moves in play.py,
a member's leaving in departure.py, the audit's in audit.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..games.registry import DEFAULT_GAME, game_for
from ..limits import DEFAULT_TARGET
from ..wire.messages import (
    Admit,
    Backdated,
    Body,
    Bye,
    Commit,
    Cut,
    Deal,
    GameBody,
    Options,
    Play,
    Profile,
    Ready,
    Reveal,
    Share,
    Start,
    Suspect,
    Unsuspect,
)
from . import absence, audit, deal, departure, lobby, play
from .fairdeal import AuditKey, RoundRecord, Step
from .records import (
    ACCEPTED,
    Flag,
    FlagKind,
    Member,
    Outcome,
    Phase,
    RoundResult,
)
from .rules import AnyGame, Card, Form

__all__ = [
    "ACCEPTED",
    "Flag",
    "FlagKind",
    "Game",
    "Member",
    "Outcome",
    "Phase",
    "RoundResult",
]


@dataclass(slots=True)
class Game:
    """The whole game as the ordered log has made it."""

    phase: Phase = Phase.LOBBY
    members: dict[bytes, Member] = field(default_factory=dict)
    players: tuple[int, ...] = ()
    target: int = DEFAULT_TARGET
    post_stacking: bool = True
    round: int = 0
    deals: dict[int, list[Card | None]] = field(default_factory=dict)  # seat -> its known order
    # The round's state: the game's own object (Dutch Blitz: games/blitz/state.py Table).
    table: Any = None
    totals: dict[int, int] = field(default_factory=dict)
    results: list[RoundResult] = field(default_factory=list)
    winner: int | None = None
    races_lost: int = 0
    refused: int = 0
    events: int = 0
    # This node's own secret: its deck order for each round, top first. Never shared
    # until the reveal; it lets this node's replica know its own hidden cards.
    own_orders: dict[int, Sequence[Card]] = field(default_factory=dict)
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
    rules: AnyGame = field(default_factory=lambda: game_for(DEFAULT_GAME))
    # The last round of this game, when it hands the next something (``TableGame.carry``).
    carry: Any = None
    # The last finished round's state, for the screens between rounds (its reveal and
    # scores): never changed once the round is over, and no digest reads it.
    last_table: Any = None
    rounds: int | None = None  # the game's length in rounds, when its START gave one (P-237)
    # The game the lobby's options name (P-261), for the START to name; None: ``rules``.
    offered: str | None = None
    # Each reveal's audit, kept so that a copy of this game applying the same REVEAL does
    # not replay the round again (fairdeal.audit_kept): shared by every copy, never read
    # by a digest.
    audits: dict[AuditKey, tuple[RoundRecord, str | None]] = field(
        default_factory=dict, compare=False, repr=False
    )
    # P-296: the Lamport stamp of the event that ended each finished round, and of the
    # event being applied (None where the applier has none: a play tried locally).
    ended_at: dict[int, int] = field(default_factory=dict)
    stamp: int | None = None

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
            for seat in deal.present_players(self)
            if not seats[seat].ready and not (self.commits_closed and seat not in self.commits)
        ]

    def copy(self) -> Game:
        return Game(
            self.phase,
            {node: m.copy() for node, m in self.members.items()},
            self.players,
            self.target,
            self.post_stacking,
            self.round,
            {seat: order[:] for seat, order in self.deals.items()},
            None if self.table is None else self.rules.copy(self.table),
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
            self.rules,
            self.carry,  # a value the game never changes once made
            self.last_table,  # never changed once its round is over
            self.rounds,
            self.offered,
            self.audits,  # shared on purpose: answers of a pure function, as own_orders
            dict(self.ended_at),
            self.stamp,
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

    def apply(self, sender: bytes, body: Body, stamp: int | None = None) -> Outcome:
        """Apply one ordered event, of Lamport stamp ``stamp`` where the applier knows it
        (P-296). Never raises on a peer's bad event: refuses it."""
        self.events += 1
        self.stamp = stamp
        if not isinstance(body, Admit) and sender not in self.members:
            return self.refuse("not_member")
        if not isinstance(body, Admit) and not self.members[sender].present:
            return self.refuse("not_present")
        handler = _TRANSITIONS.get((self.phase, type(body)))
        if handler is None:
            return self.refuse(f"not_in_{self.phase.value}")
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
        stamp = self.stamp if kind is FlagKind.WITHHELD else None  # a goodbye's (P-296)
        audit.owed_reveals(self, member.seat, kind, "left the table without revealing it", stamp)
        playing = self.set_active(member.seat, False)
        if playing and member.seat not in self.away:
            absence.gone(self, [member.seat])  # a goodbye is never waited for
        if playing and self.rules.round_over(self.table):
            self.end_round()  # the 30th stalemate: a dead round; a void one
        if self.phase == Phase.DEALING:
            deal.step_on(self)  # each step waits only for present players
        if self.phase == Phase.OVER and sum(m.present for m in self.members.values()) < 2:
            lobby.alone_after_the_end(self)

    def set_active(self, seat: int, active: bool) -> bool:
        """A dealt player left or came back; True while the round is being played."""
        if self.table is None or seat not in self.rules.seats(self.table):
            return False
        self.rules.set_active(self.table, seat, active)  # may turn a stalemate
        if active:
            absence.back(self, seat)  # a round that waited for it goes on
        if self.phase != Phase.PLAYING:
            return False
        self.steps.append((seat, active))
        return True

    def awaited(self) -> list[int]:
        """The players the deal under way, or a round that waits for them (R-59), is waiting
        for although they are not present."""
        if self.phase != Phase.DEALING:
            return absence.waiting(self)
        return [seat for seat in self.players if seat in self.away]

    def refuse(self, reason: str, by: int | None = None, move: object = None) -> Outcome:
        self.refused += 1
        if by is not None:
            self.races_lost += 1
        return Outcome(reason, by, move)

    def next_round(self) -> None:
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

    def end_round(self) -> None:
        scores = self.rules.round_scores(self.table)
        ended_by, void = self.rules.ended_by(self.table), absence.void(self)
        self.results.append(RoundResult(self.round, scores, ended_by, void))
        if self.stamp is not None:
            self.ended_at[self.round] = self.stamp
        self.totals = {s: self.totals.get(s, 0) + scores.get(s, 0) for s in {*self.totals, *scores}}
        seats = self.rules.seats(self.table)
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
                audit.flag(
                    self, self.round, seat, FlagKind.UNAUDITED, "left before the round's end"
                )
        self.carry = self.rules.carry(self.table)
        self.last_table = self.table
        over, self.winner = _ends(self)
        if over:
            lobby.game_over(self)
        else:
            self.next_round()

    # -- the public state, for digests and views ----------------------------------------

    def public_form(self) -> list[Form]:
        length: list[Form] = [] if self.rounds is None else [["rounds", self.rounds]]
        if self.offered is not None:
            length.append(["offered", self.offered])
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
            None if self.table is None else self.rules.public_form(self.table),
            sorted(self.totals.items()),
            [
                [r.round, sorted(r.scores.items()), r.blitz_by, *(["void"] if r.void else [])]
                for r in self.results
            ],
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
            *length,
        ]


Handler = Callable[[Game, bytes, Any], Outcome]


def _ends(game: Game) -> tuple[bool, int | None]:
    """Whether the game ends after this round, and its winner. Played to a target, it ends
    once the game names a winner. Played to a number of rounds, it ends once they are
    played, whatever the totals (P-238): its winner is the game's own, and nobody where the
    game names none (a draw)."""
    if game.rounds is None:
        winner = game.rules.game_winner(game.totals, game.target)
        return winner is not None, winner
    if absence.counted_rounds(game) < game.rounds or not game.rules.rounds_option:
        return False, None
    return True, game.rules.final_winner(game.totals)


def _stream_cut(game: Game, sender: bytes, body: Cut) -> Outcome:
    return ACCEPTED  # where a stream ends is the core's business; kept in the log


def _withdrawn_suspicion(game: Game, sender: bytes, body: Unsuspect) -> Outcome:
    """An UNSUSPECT changes nothing here: the SUSPECT it withdraws keeps its place (P-92)."""
    return ACCEPTED


_ANY_PHASE = (Phase.LOBBY, Phase.DEALING, Phase.PLAYING, Phase.OVER)
_TRANSITIONS: Mapping[tuple[Phase, type], Handler] = {
    **{(phase, Admit): lobby.admit for phase in _ANY_PHASE},
    **{(phase, Bye): departure.bye for phase in _ANY_PHASE},
    **{(phase, Suspect): departure.suspect for phase in _ANY_PHASE},
    **{(phase, Unsuspect): _withdrawn_suspicion for phase in _ANY_PHASE},
    **{(phase, Reveal): audit.reveal for phase in _ANY_PHASE},
    **{(phase, Cut): _stream_cut for phase in _ANY_PHASE},
    **{(phase, Backdated): audit.backdated for phase in _ANY_PHASE},
    (Phase.DEALING, Commit): deal.commit,
    (Phase.DEALING, Share): deal.share,
    (Phase.LOBBY, Profile): lobby.profile,
    (Phase.LOBBY, Ready): lobby.ready,
    (Phase.DEALING, Ready): deal.seen,
    (Phase.LOBBY, Start): lobby.start,
    (Phase.LOBBY, Options): lobby.options,
    (Phase.OVER, Ready): lobby.ready,
    (Phase.OVER, Profile): lobby.profile,
    (Phase.OVER, Start): lobby.rematch,
    (Phase.DEALING, Start): deal.go_without,
    (Phase.PLAYING, Start): absence.go_without,
    (Phase.DEALING, Deal): deal.deal,
    (Phase.PLAYING, Play): play.play,
    (Phase.PLAYING, GameBody): play.game_body,
}
