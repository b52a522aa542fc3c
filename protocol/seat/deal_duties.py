"""What a seat owes the fair deal next: its reveals, commitment, share and deal.

Shared by the node's steward, the simulator and the test harness. Decisions are
taken from the *stable* game, so that a commitment closes, and shares and deals
go out, only on what every node agrees on (spec/rules.md R-40 to R-44).
Randomness comes in from the caller: ``fresh`` draws (and keeps) a round's secret.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..table.fairdeal import RoundSecret, deck_order, secret_hash, share_hash
from ..table.state import Game, Phase
from ..wire.messages import Body, Commit, Deal, Reveal, Share, Start


def deal_duties(
    stable: Game,
    node: bytes,
    pending: list[Body],
    secrets: Mapping[int, RoundSecret],
    fresh: Callable[[int], RoundSecret],
) -> list[Body]:
    """The events ``node`` should send now, in order; none that are already pending."""
    member = stable.members.get(node)
    if member is None or not member.present:
        return []
    seat = member.seat
    # Reveals come first: a commitment to a new round with one still owed is withheld.
    owed: list[Body] = list(_reveals_due(stable, seat, pending, secrets))
    if stable.phase != Phase.DEALING or seat not in stable.players:
        return owed
    step: Body | None
    if seat not in stable.commits:
        step = _commitment_due(stable, node, pending, secrets, fresh)
    else:
        step = _share_or_deal_due(stable, seat, pending, secrets)
    return owed if step is None else [*owed, step]


def _due(pending: list[Body], kind: type, number: int) -> bool:
    """No event of this kind for this round is already on its way."""
    return not any(isinstance(b, kind) and getattr(b, "round", None) == number for b in pending)


def _reveals_due(
    stable: Game, seat: int, pending: list[Body], secrets: Mapping[int, RoundSecret]
) -> list[Reveal]:
    """The seat's secret, and its deck, for every round it dealt in and has not revealed.

    This runs after every message a seat handles: the rounds already revealed, nearly
    all of them, are passed over before anything else is looked at."""
    revealed, owed = stable.revealed, []
    for number in sorted(n for n in stable.records if (n, seat) not in revealed):
        record = stable.records[number]
        kept = secrets.get(number)
        if seat in record.seats and kept is not None and _due(pending, Reveal, number):
            deck = deck_order(stable.rules.deck(seat), kept.secret, record.joint)
            owed.append(Reveal(number, kept.secret, tuple(c.code for c in deck)))
    return owed


def _commitment_due(
    stable: Game,
    node: bytes,
    pending: list[Body],
    secrets: Mapping[int, RoundSecret],
    fresh: Callable[[int], RoundSecret],
) -> Commit | None:
    """The seat's commitment to this round's secret and share (drawn now if new), while
    the commitments are open."""
    number = stable.round
    if stable.commits_closed or not _due(pending, Commit, number):
        return None
    kept = secrets.get(number) or fresh(number)
    stable.own_secrets[number] = kept.secret
    return Commit(
        number, secret_hash(node, number, kept.secret), share_hash(node, number, kept.share)
    )


def _share_or_deal_due(
    stable: Game, seat: int, pending: list[Body], secrets: Mapping[int, RoundSecret]
) -> Share | Deal | None:
    """Once committed: the seat's share when the commitments close, then its deal once
    the joint randomness is known; nothing if its secret is lost (it sits the round out)."""
    number = stable.round
    kept = secrets.get(number)
    if kept is None:
        return None
    stable.own_secrets[number] = kept.secret
    if stable.joint is None:
        sharing = stable.commits_closed and seat not in stable.shares
        return Share(number, kept.share) if sharing and _due(pending, Share, number) else None
    if seat not in stable.dealers or seat in stable.deals or not _due(pending, Deal, number):
        return None
    order = deck_order(stable.rules.deck(seat), kept.secret, stable.joint)
    return Deal(number, stable.rules.shown(order, len(stable.players)), b"")


def owned(secrets: Mapping[int, RoundSecret]) -> dict[int, bytes]:
    """The secrets to hand a Game as ``own_secrets``."""
    return {number: kept.secret for number, kept in secrets.items()}


@dataclass(frozen=True, slots=True)
class Grace:
    """How long a deal waits for a player removed without a goodbye (spec/rules.md R-56).

    ``seconds`` counts from when this node last heard that player. The lowest present
    seat speaks first; each later one waits ``step`` longer, in case the first is gone too.
    """

    seconds: float = 10.0
    step: float = 1.0


def grace_duty(
    stable: Game,
    node: bytes,
    pending: list[Body],
    silent_for: Callable[[bytes], float],
    grace: Grace,
) -> Start | None:
    """The START that ends the deal's wait for those away, once their grace is over (R-57).

    Whichever such START comes first in the order decides, the same on every node;
    ``silent_for`` is how long this node has not heard a node, in seconds.
    """
    member = stable.members.get(node)
    awaited = stable.awaited()
    if member is None or not member.present or not awaited:
        return None
    if any(isinstance(body, Start) for body in pending):
        return None
    by_seat = stable.by_seat()
    present = [seat for seat in stable.players if by_seat[seat].present]
    rank = present.index(member.seat) if member.seat in present else len(present)
    wait = grace.seconds + rank * grace.step
    if any(silent_for(by_seat[seat].node) < wait for seat in awaited):
        return None
    return repeated_start(stable)


def repeated_start(stable: Game) -> Start:
    """A START of the game on: a rematch's (R-50) or one that deals on without those away
    (R-57). It repeats the game's options, names no game, and carries the game's data
    digest when it has data (spec/protocol.md P-292)."""
    return Start(
        stable.target, stable.post_stacking, stable.rounds, None, stable.rules.data_digest()
    )
