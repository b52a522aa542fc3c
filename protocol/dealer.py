"""What a seat owes the fair deal next: its reveals, commitment, share and deal.

Shared by the node's steward, the simulator and the test harness. Decisions are
taken from the *stable* game, so that a commitment closes, and shares and deals
go out, only on what every node agrees on (spec/rules.md R-40 to R-44).
Randomness comes in from the caller: ``fresh`` draws (and keeps) a round's secret.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .fairdeal import RoundSecret, deck_order, secret_hash, share_hash
from .messages import Body, Commit, Deal, Reveal, Share, Start
from .table.game import Game, Phase


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
    owed: list[Body] = []

    def due(kind: type, number: int) -> bool:
        return not any(isinstance(b, kind) and getattr(b, "round", None) == number for b in pending)

    # Reveals come first: a commitment to a new round with one still owed is withheld.
    # (This runs after every message a seat handles: the rounds already revealed, nearly
    # all of them, are passed over before anything else is looked at.)
    revealed = stable.revealed
    for number in sorted(n for n in stable.records if (n, seat) not in revealed):
        record = stable.records[number]
        kept = secrets.get(number)
        if seat not in record.seats or kept is None:
            continue
        if due(Reveal, number):
            deck = deck_order(stable.rules.deck(seat), kept.secret, record.joint)
            codes = tuple(c.code for c in deck)
            owed.append(Reveal(number, kept.secret, codes))
    if stable.phase != Phase.DEALING or seat not in stable.players:
        return owed
    number = stable.round
    if seat not in stable.commits:
        if not stable.commits_closed and due(Commit, number):
            kept = secrets.get(number) or fresh(number)
            stable.own_secrets[number] = kept.secret
            owed.append(
                Commit(
                    number,
                    secret_hash(node, number, kept.secret),
                    share_hash(node, number, kept.share),
                )
            )
        return owed
    kept = secrets.get(number)
    if kept is None:
        return owed  # the secret is lost: this seat sits the round out
    stable.own_secrets[number] = kept.secret
    sharing = stable.commits_closed and stable.joint is None and seat not in stable.shares
    dealing = stable.joint is not None and seat in stable.dealers and seat not in stable.deals
    if sharing and due(Share, number):
        owed.append(Share(number, kept.share))
    elif dealing and stable.joint is not None and due(Deal, number):
        order = deck_order(stable.rules.deck(seat), kept.secret, stable.joint)
        owed.append(Deal(number, stable.rules.shown(order, len(stable.players)), b""))
    return owed


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
    return Start(stable.target, stable.post_stacking, stable.rounds)
