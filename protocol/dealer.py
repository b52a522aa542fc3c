"""What a seat owes the fair deal next: its reveals, commitment, share and deal.

Shared by the node's steward, the simulator and the test harness. Decisions are
taken from the *stable* game, so that a commitment closes, and shares and deals
go out, only on what every node agrees on (spec/rules.md R-40 to R-44).
Randomness comes in from the caller: ``fresh`` draws (and keeps) a round's secret.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .fairdeal import RoundSecret, deck_order, secret_hash, share_hash
from .game import Game, Phase
from .messages import Body, Commit, Deal, Reveal, Share
from .state import visible_codes


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
            codes = tuple(c.code for c in deck_order(seat, kept.secret, record.joint))
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
        order = deck_order(seat, kept.secret, stable.joint)
        owed.append(Deal(number, visible_codes(order, len(stable.players)), b""))
    return owed


def owned(secrets: Mapping[int, RoundSecret]) -> dict[int, bytes]:
    """The secrets to hand a Game as ``own_secrets``."""
    return {number: kept.secret for number, kept in secrets.items()}
