"""The lobby's events: admit, profile, ready (and "seen" between rounds), start, rematch.

Each handler takes the game, the event's sender and its body, and returns an ``Outcome``
(spec/rules.md R-31 onwards, R-49 to R-54).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..games.registry import DEFAULT_GAME, UnknownGame, game_for
from ..limits import MAX_NAME
from ..wire.messages import Admit, Options, Profile, Ready, Start
from .records import ACCEPTED, Member, Outcome, Phase
from .rules import AnyGame

if TYPE_CHECKING:
    from .state import Game


def admit(game: Game, sender: bytes, body: Admit) -> Outcome:
    if not game.members:
        return _found(game, sender, body)
    if body.game is not None:
        return game.refuse("bad_game")  # only the founding ADMIT names the game
    member = game.members.get(body.node)
    if member is not None:
        if sender not in game.members or not game.members[sender].present:
            return game.refuse("not_member")
        if member.present:
            return game.refuse("already_member")
        member.present = True  # a returning player gets its seat back
        member.since = body.first_seq
        _back_again(game, member)
        game.away.discard(member.seat)
        game.set_active(member.seat, True)
        return ACCEPTED
    if not game.admits_newcomers():
        return game.refuse("in_play")  # once dealt, only players who were seated return
    if sender not in game.members or not game.members[sender].present:
        return game.refuse("not_member")
    return _seat(game, body)


def _found(game: Game, sender: bytes, body: Admit) -> Outcome:
    """The first event of a table admits its founder and names the game it plays (P-233,
    P-234): from here on the table's rules are that game's, whatever the node's own, until
    a START names another (P-241)."""
    if body.node != sender:
        return game.refuse("not_member")
    if body.game == DEFAULT_GAME:
        return game.refuse("bad_game")  # Dutch Blitz's founding ADMIT names none
    try:
        game.rules = game_for(DEFAULT_GAME if body.game is None else body.game)
    except UnknownGame:
        return game.refuse("unknown_game")
    return _seat(game, body)


def _back_again(game: Game, member: Member) -> None:
    """A returning player keeps its back, unless a present member took it while it was
    away (a PROFILE checks only the present): then the first free one, as a newcomer's
    (P-266). Two seated players with one back would make every START refused for good."""
    taken = {m.back for m in game.members.values() if m.present and m.node != member.node}
    if member.back in taken:
        member.back = next((b for b in game.rules.backs if b not in taken), "")


def _seat(game: Game, body: Admit) -> Outcome:
    seat = len(game.members)
    taken = {m.back for m in game.members.values() if m.present}
    back = next((b for b in game.rules.backs if b not in taken), "")
    game.members[body.node] = Member(
        body.node, seat, f"player {seat + 1}", back, since=body.first_seq
    )
    return ACCEPTED


def profile(game: Game, sender: bytes, body: Profile) -> Outcome:
    member = game.members[sender]
    name = body.name.strip()
    if not name or len(name.encode()) > MAX_NAME:
        return game.refuse("bad_name")
    taken = {m.back for m in game.members.values() if m.present and m.node != sender}
    if body.back and body.back in taken:
        return game.refuse("back_taken")
    member.name, member.back = name, body.back
    return ACCEPTED


def ready(game: Game, sender: bytes, body: Ready) -> Outcome:
    game.members[sender].ready = body.ready
    return ACCEPTED


def options(game: Game, sender: bytes, body: Options) -> Outcome:
    """The lobby's options, one for the whole table (P-261): the latest accepted OPTIONS
    sets the length, Post stacking and the game the lobby shows and a START then carries.
    A refused OPTIONS changes nothing."""
    rules = game.rules
    if body.game is not None:
        if body.game == rules.tag:
            return game.refuse("bad_game")  # the table's own game is named by none
        try:
            rules = game_for(body.game)
        except UnknownGame:
            return game.refuse("unknown_game")
    if body.rounds and not rules.rounds_option:
        return game.refuse("bad_rounds")
    game.target, game.post_stacking = body.target, body.post_stacking
    game.rounds = body.rounds or None
    game.offered = body.game
    return ACCEPTED


def start(game: Game, sender: bytes, body: Start) -> Outcome:
    """A START in the lobby (P-170): it may name the game the table plays from here on
    (P-241), whose rules then decide the rest; a refused START changes nothing."""
    rules = game.rules
    if body.game is not None:
        if body.game == rules.tag:
            return game.refuse("bad_game")  # a START that keeps the game names none
        try:
            rules = game_for(body.game)
        except UnknownGame:
            return game.refuse("unknown_game")
    seated = game.seated()
    if not all(m.ready for m in seated):
        return game.refuse("not_all_ready")
    problem = rules.check_backs([m.back for m in seated])
    if problem is not None:
        return game.refuse("bad_backs")
    if body.target < 1:
        return game.refuse("bad_target")
    if body.rounds is not None and not rules.rounds_option:
        return game.refuse("bad_rounds")  # P-237
    game.rules = rules
    game.offered = None  # the START named it: it is the table's game now
    game.players = tuple(m.seat for m in seated)
    game.target, game.post_stacking = body.target, body.post_stacking
    game.rounds = body.rounds
    game.totals = {seat: 0 for seat in game.players}
    game.next_round()
    return ACCEPTED


def other_data(rules: AnyGame, body: Start) -> tuple[bytes | None, bytes | None] | None:
    """P-294: the data digest an accepted START carries and this node's own for the game
    it starts (``rules``), when the two differ; None when they are the same (a game with
    no data: both none). The table's decisions never read it (P-293): every node accepts
    the same STARTs whatever data it holds, and only its own screen says that it differs."""
    ours = rules.data_digest()
    return None if body.data == ours else (body.data, ours)


def game_over(game: Game) -> None:
    """The game is over: from now on READY asks for a rematch (R-49)."""
    game.phase = Phase.OVER
    for member in game.members.values():
        member.ready = False


def alone_after_the_end(game: Game) -> None:
    """After a game's end, fewer than two members are left present: no rematch can be
    played, so the table is a lobby again, for the next game (P-258). Its rounds go on
    counting as after a rematch (R-52); its options stay."""
    game.phase = Phase.LOBBY
    game.players = ()
    game.totals = {}
    game.results, game.winner = [], None
    game.carry = None
    game.game_number += 1
    game.rounds_before = game.round
    game.away.clear()
    for member in game.members.values():
        member.ready = False


def rematch(game: Game, sender: bytes, body: Start) -> Outcome:
    """The same table plays again (R-49 to R-52): scores reset, round 1 again."""
    if not game.audit_complete():
        return game.refuse("audit_open")
    present = [m for m in game.members.values() if m.present]
    if len(present) < 2:
        return game.refuse("too_few_players")
    players = game.rematch_ready()
    if not players:
        return game.refuse("not_all_ready")
    if body.game is not None or (body.target, body.post_stacking, body.rounds) != (
        game.target,
        game.post_stacking,
        game.rounds,
    ):
        return game.refuse("not_same_table")  # a rematch plays the same game (P-237, P-241)
    if game.rules.check_backs([m.back for m in players]) is not None:
        return game.refuse("bad_backs")
    game.players = tuple(m.seat for m in players)
    game.totals = {seat: 0 for seat in game.players}
    game.results, game.winner = [], None
    game.carry = None  # a new game starts afresh
    game.game_number += 1
    game.rounds_before = game.round
    game.away.clear()  # a rematch seats those present: nobody is waited for
    game.next_round()
    return ACCEPTED
