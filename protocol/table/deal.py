"""The fair deal's events: commit, share, deal, and a START that deals on without those
away (spec/rules.md R-40 to R-43, R-56, R-57). What a deck is and what a DEAL shows of it
is the game's (``TableGame``); the order of the steps is the table's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..wire.messages import Commit, Deal, Ready, Share, Start
from . import absence
from .audit import flag, owed_reveals
from .fairdeal import deck_order, joint_randomness, secret_hash, share_hash
from .lobby import game_over
from .records import ACCEPTED, FlagKind, Outcome, Phase

if TYPE_CHECKING:
    from .rules import Card
    from .state import Game


def present_players(game: Game) -> list[int]:
    """The players each step of the deal waits for: those present, and those away (R-56)."""
    present = {m.seat for m in game.members.values() if m.present} | game.away
    return [seat for seat in game.players if seat in present]


def go_without(game: Game, sender: bytes, body: Start) -> Outcome:
    """A START in the deal: the grace is over, deal on without those away (R-57)."""
    if not game.away:
        return game.refuse("nobody_away")
    if body.game is not None or (body.target, body.post_stacking) != (
        game.target,
        game.post_stacking,
    ):
        return game.refuse("not_this_game")  # it names no game: the game is dealing (P-241)
    game.away.clear()
    step_on(game)
    return ACCEPTED


def step_on(game: Game) -> None:
    """Take each step of the deal that no longer waits for anyone."""
    maybe_close_commits(game)  # each step waits only for present players
    maybe_fix_joint(game)
    maybe_begin_play(game)


def commit(game: Game, sender: bytes, body: Commit) -> Outcome:
    seat = game.members[sender].seat
    if body.round != game.round:
        return game.refuse("wrong_round")
    if seat not in game.players:
        return game.refuse("not_a_player")
    if seat in game.commits:
        return game.refuse("already_committed")
    if game.commits_closed:
        return game.refuse("commits_closed")
    owed_reveals(game, seat, FlagKind.WITHHELD, "committed to a new round without revealing")
    game.commits[seat] = (body.secret_hash, body.share_hash)
    maybe_close_commits(game)
    return ACCEPTED


def maybe_close_commits(game: Game) -> None:
    if game.phase != Phase.DEALING or game.commits_closed or not game.commits:
        return
    if all(seat in game.commits for seat in present_players(game)):
        game.commits_closed = True
        maybe_fix_joint(game)


def share(game: Game, sender: bytes, body: Share) -> Outcome:
    seat = game.members[sender].seat
    if body.round != game.round:
        return game.refuse("wrong_round")
    if seat not in game.commits:
        return game.refuse("not_committed")
    if not game.commits_closed:
        return game.refuse("commits_open")
    if seat in game.shares or game.joint is not None:
        return game.refuse("already_shared")
    if share_hash(sender, game.round, body.share) != game.commits[seat][1]:
        flag(game, game.round, seat, FlagKind.MISMATCH, "its share does not match its commitment")
        return game.refuse("bad_share")
    game.shares[seat] = body.share
    maybe_fix_joint(game)
    return ACCEPTED


def maybe_fix_joint(game: Game) -> None:
    if not game.commits_closed or game.joint is not None or not game.shares:
        return
    present = set(present_players(game))
    if any(seat in present and seat not in game.shares for seat in game.commits):
        return
    game.dealers = tuple(sorted(game.shares))
    game.joint = joint_randomness(game.round, [game.shares[s] for s in game.dealers])
    maybe_begin_play(game)


def deal(game: Game, sender: bytes, body: Deal) -> Outcome:
    seat = game.members[sender].seat
    if body.round != game.round:
        return game.refuse("wrong_round")
    if seat not in game.players:
        return game.refuse("not_a_player")
    if game.joint is None:
        return game.refuse("not_shared")
    if seat not in game.dealers:
        return game.refuse("not_a_dealer")
    if seat in game.deals:
        return game.refuse("already_dealt")
    order = _order_for(game, seat, body)
    if order is None:
        return game.refuse("bad_deal")
    game.deals[seat] = order
    game.visible[seat] = tuple(body.visible)
    maybe_begin_play(game)
    return ACCEPTED


def _order_for(game: Game, seat: int, body: Deal) -> list[Card | None] | None:
    """The deck order this replica knows: the full one for its own seat."""
    rules, players = game.rules, len(game.players)
    known = rules.known_order(seat, body.visible, players)
    if known is None:
        return None
    own = game.own_orders.get(game.round)
    secret = game.own_secrets.get(game.round)
    node = game.node_of(seat)
    if (
        (own is None or rules.owner(own) != seat)
        and secret is not None
        and game.joint is not None
        and node is not None
        and secret_hash(node, game.round, secret) == game.commits[seat][0]
    ):
        own = deck_order(rules.deck(seat), secret, game.joint)
    if own is not None and rules.owner(own) == seat:
        return list(own) if rules.fits(own, body.visible, players) else None
    return known


def seen(game: Game, sender: bytes, body: Ready) -> Outcome:
    """READY while dealing round 2 on: the player has seen the scores (R-54)."""
    member = game.members[sender]
    if game.shown_round() < 2:
        return game.refuse("nothing_to_see")
    if member.seat not in game.players:
        return game.refuse("not_a_player")
    if not body.ready:
        return game.refuse("seen_only")
    if member.ready:
        return game.refuse("already_seen")
    member.ready = True
    maybe_begin_play(game)
    return ACCEPTED


def maybe_begin_play(game: Game) -> None:
    dealt = _dealt_seats_if_all_in(game)
    if dealt is None:
        return
    if len(dealt) < game.rules.min_seats:
        _end_short(game)
        return
    # The game's options for its own deal: the game is ``game.rules`` already, so they name
    # none (a START that names one only ever names another, P-241).
    options = Start(game.target, game.post_stacking, game.rounds)
    present = {m.seat for m in game.members.values() if m.present}
    game.started_active = frozenset(seat for seat in dealt if seat in present)
    game.table = game.rules.deal(dealt, game.deals, options, len(game.players), game.started_active)
    if game.carry is not None:
        game.rules.carried(game.table, game.carry)
    absence.settle(game)
    game.steps = []
    game.phase = Phase.PLAYING
    if game.rules.round_over(game.table):
        game.end_round()  # a game whose round is decided by the deal alone


def _dealt_seats_if_all_in(game: Game) -> list[int] | None:
    """The seats that dealt, in seat order, once play may begin; None while the deal
    waits: for the joint randomness, for a deal from a dealer present or away, or for a
    player who will play to have seen the scores (R-54)."""
    if game.phase != Phase.DEALING or game.joint is None or not game.deals:
        return None
    present = {m.seat for m in game.members.values() if m.present}
    expected = present | game.away
    if any(seat in expected and seat not in game.deals for seat in game.dealers):
        return None
    dealt = [seat for seat in game.players if seat in game.deals]
    return None if _scores_unseen(game, dealt, present) else dealt


def _scores_unseen(game: Game, dealt: list[int], present: set[int]) -> bool:
    """From round 2 on, a player present who will play has not seen the scores (R-54)."""
    if game.shown_round() < 2:
        return False
    seats = game.by_seat()
    return any(seat in present and not seats[seat].ready for seat in dealt)


def _end_short(game: Game) -> None:
    """Too few players are left to deal another round (P-239): the game is over as its
    totals stand, won by whoever the game's rules would name were the target reached; when
    every round it dealt was void, nobody has won anything (R-61)."""
    reached = min(game.totals.values(), default=0)
    all_void = bool(game.results) and absence.counted_rounds(game) == 0
    game.winner = None if all_void else game.rules.game_winner(game.totals, reached)
    game_over(game)
