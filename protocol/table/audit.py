"""The audit's events and flags (spec/rules.md R-44 to R-48): reveals, backdated
notices, and the penalty a flag costs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..wire.messages import Backdated, Reveal
from .fairdeal import audit_kept
from .records import ACCEPTED, PENALISED, Flag, FlagKind, Outcome, Phase, RoundResult

if TYPE_CHECKING:
    from .state import Game


def reveal(game: Game, sender: bytes, body: Reveal) -> Outcome:
    seat = game.members[sender].seat
    record = game.records.get(body.round)
    if record is None:
        return game.refuse("nothing_to_reveal")
    if seat not in record.seats:
        return game.refuse("not_dealt")
    if (body.round, seat) in game.revealed:
        return game.refuse("already_revealed")
    game.revealed.add((body.round, seat))
    game.flags = [
        f for f in game.flags if (f.round, f.seat, f.kind) != (body.round, seat, FlagKind.UNAUDITED)
    ]
    problem = audit_kept(game.audits, record, seat, body.secret, body.order, game.rules)
    if problem is not None:
        flag(game, body.round, seat, FlagKind.MISMATCH, problem)
    return ACCEPTED


def backdated(game: Game, sender: bytes, body: Backdated) -> Outcome:
    target = game.members.get(body.node)
    if target is None or body.node == sender or body.lamport > body.announced:
        return game.refuse("bad_notice")
    event = f"event {body.seq} "
    if any(
        f.kind == FlagKind.BACKDATED and f.node == body.node and f.detail.startswith(event)
        for f in game.flags
    ):
        return game.refuse("already_flagged")  # one flag per event, whoever reports it
    detail = (
        f"{event}stamped {body.lamport} after announcing {body.announced}"
        f" (seen by {game.members[sender].name})"
    )
    flag(game, game.round, target.seat, FlagKind.BACKDATED, detail)
    return ACCEPTED


def game_findings(game: Game) -> None:
    """Flag every cheat the game's round has found (``TableGame.findings``), once each."""
    for seat, detail in game.rules.findings(game.table):
        flag(game, game.round, seat, FlagKind.MISMATCH, detail)


def owed_reveals(
    game: Game, seat: int, kind: FlagKind, detail: str, stamp: int | None = None
) -> None:
    """Flag ``kind`` each finished round ``seat`` was dealt and has not revealed; for a
    goodbye of Lamport stamp ``stamp``, a round that ended at that stamp or later, which
    its sender cannot have seen end, is flagged ``unaudited`` instead (P-296)."""
    for number, record in game.records.items():
        if seat in record.seats and (number, seat) not in game.revealed:
            ended = game.ended_at.get(number)
            unseen = stamp is not None and ended is not None and ended >= stamp
            flag(game, number, seat, FlagKind.UNAUDITED if unseen else kind, detail)


def flag(game: Game, round_number: int, seat: int, kind: FlagKind, detail: str) -> None:
    """Record a flag once per round, seat and kind; a penalised one costs the round."""
    if kind != FlagKind.BACKDATED and any(
        (f.round, f.seat, f.kind) == (round_number, seat, kind) for f in game.flags
    ):
        return
    node = game.node_of(seat) or b""
    penalised_before = any(
        (f.round, f.seat) == (round_number, seat) and f.kind in PENALISED for f in game.flags
    )
    game.flags.append(Flag(round_number, seat, node, kind, detail))
    if kind in PENALISED and not penalised_before:
        _penalise(game, round_number, seat)


def _penalise(game: Game, round_number: int, seat: int) -> None:
    """The round's score of ``seat`` becomes the worst possible (R-46)."""
    worst = game.rules.worst_round
    for index, result in enumerate(game.results):
        if result.round != round_number or seat not in result.scores:
            continue
        old = result.scores[seat]
        if old <= worst:
            return
        scores = {**result.scores, seat: worst}
        game.results[index] = RoundResult(result.round, scores, result.blitz_by)
        game.totals[seat] = game.totals.get(seat, 0) + worst - old
        if game.phase == Phase.OVER:
            game.winner = _final_winner(game, game.totals, game.target)
        return


def _final_winner(game: Game, totals: dict[int, int], target: int) -> int | None:
    """The winner of a finished game after penalties: for a game of rounds, the game's own
    (P-238, None: a draw); else the one highest total, if any."""
    if game.rounds is not None and game.rules.rounds_option:
        return game.rules.final_winner(totals)
    winner = game.rules.game_winner(totals, target)
    if winner is not None or not totals:
        return winner
    best = max(totals.values())
    leaders = [seat for seat, total in totals.items() if total == best]
    return leaders[0] if len(leaders) == 1 else None
