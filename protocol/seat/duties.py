"""What a seat owes the table next, and its bot's moves.

A person types their name and presses ready; the node does the rest for them:
it sends the profile it was asked for, takes its part in the fair deal of each
round (a commitment, its share, then its face-up cards: spec/rules.md R-40 to
R-43, with the node's own randomness or ``--seed``), reveals its secret when
the round is over (R-44), says that the scores were seen when its ``Pace``
says so (R-54) and, when asked to (``--players N``), starts the game. A bot
seat also plays, one move in flight at a time, once its count-in is over
(R-55). The ``Steward`` decides from the replica's games and sends through the
seat; it never touches a socket, and its randomness comes from
the node (``draw``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..games.registry import DEFAULT_GAME, game_for, level_for, level_in
from ..replica.core import Replica
from ..replica.effects import LogEntry
from ..table.fairdeal import SECRET_SIZE, SHARE_SIZE, RoundSecret
from ..table.player import PlayBot, Rng
from ..table.rules import AnyGame
from ..table.state import Game, Member, Phase
from ..wire.messages import Body, Options, Profile, Ready, Reveal, Start
from .deal_duties import Grace, deal_duties, grace_duty, owned, repeated_start
from .game_duties import PRIVATE_SIZE, GameDuties, holds_secrets, wants_private
from .pace import Pace


@dataclass(slots=True)
class Wishes:
    """What the person (or the command line) asked this seat to be."""

    name: str
    back: str | None = None  # None: keep the back the table gave
    ready: bool = False
    # The game whose lobby the person was ready for: a lobby met again after that game
    # (the last player left at its end, P-258) waits for them to say so again. None: every
    # lobby (a bot, or a node started ready from the command line).
    ready_for: int | None = None
    start_at: int | None = None  # start once this many players are seated and ready
    target: int = 75
    post_stacking: bool = True  # what our START carries: the table's choice (R-19, P-142)
    game: str | None = None  # the game our START names (P-241); None: the table's own
    rounds: int | None = None  # a number of rounds instead of the target (P-237), if offered


def _rounds(wishes: Wishes, rules: AnyGame) -> int | None:
    """The rounds a START of ours carries for ``rules``: only where the game offers them
    (P-237), and where the player chose none, the game's usual length."""
    if not rules.rounds_option:
        return None
    return rules.default_rounds if wishes.rounds is None else wishes.rounds


def table_options(wishes: Wishes, game: Game) -> Options | None:
    """The OPTIONS our wishes make, or None when they are the lobby's already (P-261)."""
    named = started_game(wishes, game)
    rounds = _rounds(wishes, game.rules if named is None else game_for(named))
    wished = (wishes.target, wishes.post_stacking, rounds, named)
    if wished == (game.target, game.post_stacking, game.rounds, game.offered):
        return None
    return Options(wishes.target, wishes.post_stacking, rounds or 0, named)


def adopt_options(wishes: Wishes, game: Game) -> None:
    """Our wishes take the lobby's options, the table's own (P-261): every screen shows
    them, and a START of ours carries them."""
    wishes.target, wishes.post_stacking = game.target, game.post_stacking
    wishes.rounds, wishes.game = game.rounds, game.offered


def started_game(wishes: Wishes, stable: Game) -> str | None:
    """The game a START of ours names: none when it is the one the table hosts (P-241)."""
    return None if wishes.game in (None, stable.rules.tag) else wishes.game


def our_start(wishes: Wishes, stable: Game) -> Start:
    """The START our player's choices make: the game, its length, Post stacking. Rounds
    go only to a game that offers them (P-237); the game's data digest, to a game that
    has data (P-292)."""
    named = started_game(wishes, stable)
    rules = stable.rules if named is None else game_for(named)
    rounds = _rounds(wishes, rules)
    return Start(wishes.target, wishes.post_stacking, rounds, named, rules.data_digest())


def lobby_duty(game: Game, me: Member, wishes: Wishes, stable: Game) -> Body | None:
    """The next lobby event: the profile, then readiness, then (maybe) the start."""
    if game.phase != Phase.LOBBY:
        return None
    back = wishes.back or me.back
    changed = me.name != wishes.name or (wishes.back is not None and me.back != wishes.back)
    if changed and back:  # past eight players no back is left, and a PROFILE needs one
        return Profile(wishes.name, back)
    ready = wishes.ready and wishes.ready_for in (None, game.game_number)
    if me.ready != ready:
        return Ready(ready)
    start = our_start(wishes, stable)
    if wishes.start_at is not None and can_start(stable, me.node, wishes.start_at, start.game):
        return start
    return None


def rematch_duty(game: Game, me: Member, stable: Game, *, bot: bool) -> Body | None:
    """After a game's end (spec/rules.md R-49, R-50): a bot asks for a rematch by itself,
    and once everyone present wants one, the first of them in seat order starts it."""
    if game.phase != Phase.OVER or stable.phase != Phase.OVER or not stable.audit_complete():
        return None
    if bot and not me.ready:
        return Ready(True)
    players = stable.rematch_ready()
    if players and players[0].node == me.node:
        return repeated_start(stable)
    return None


def newcomer_profile(game: Game, me: Member, wishes: Wishes) -> Profile | None:
    """A node seated after a game's end, for the next one (R-58), gives its name then."""
    if game.phase != Phase.OVER or me.seat in game.players or me.name == wishes.name:
        return None
    back = wishes.back or me.back
    return Profile(wishes.name, back) if back else None


def can_start(game: Game, node: bytes, at_least: int = 2, named: str | None = None) -> bool:
    """Whether a Start from ``node`` would be accepted now, with ``at_least`` players;
    ``named``: the game the Start names (P-241), whose rules then judge the seats."""
    if game.phase != Phase.LOBBY:
        return False
    seated = game.seated()
    if len(seated) < at_least or node not in {m.node for m in seated}:
        return False
    if not all(m.ready for m in seated):
        return False
    rules = game.rules if named is None else game_for(named)
    return rules.check_backs([m.back for m in seated]) is None


def _play_bot(level: object, rng: Rng) -> PlayBot:
    """A bot seat's bot for PLAY moves, made for the default game at first (``level_in``)."""
    bot = game_for(DEFAULT_GAME).play_bot(level_in(DEFAULT_GAME, level), rng)
    assert bot is not None, "the default game has a bot for every level"
    return bot


class Steward:
    """Sends what one seat owes the table, through ``submit``; keeps its round secrets."""

    def __init__(
        self,
        node_id: bytes,
        wishes: Wishes,
        level: object | None,
        draw: Callable[[str], Rng],
        save_secret: Callable[[int, RoundSecret], None],
        submit: Callable[[Body], bool],
        pace: Pace | None = None,
        grace: Grace | None = None,
    ) -> None:
        self.node_id = node_id
        self.pace = pace  # None: the scores are seen at once and there is no count-in
        self.wishes = wishes
        self.draw = draw  # a random stream for each purpose, from the node (seeded or not)
        self.save_secret = save_secret
        self.submit = submit
        self.secrets: dict[int, RoundSecret] = {}
        self.start_sent = False
        self.level = level
        # The level of the game the seat was made for (TableGame.levels); each move asks
        # for the level of the game the table plays then (``level_in``).
        self.bot = None if level is None else _play_bot(level, draw("bot"))
        self.grace = Grace() if grace is None else grace
        self.game = GameDuties(node_id, self.secrets)
        self.private_wanted = False  # whether this table's game draws a private seed
        self.race_seen: tuple[tuple[int, int], float] | None = None  # (round, events), since
        self.timed_seen: tuple[tuple[int, int], float] | None = None  # the same, for a timed duty

    def take_secrets(self, replica: Replica, stored: dict[int, RoundSecret]) -> None:
        """A fresh log: forget what was owed, and load the round secrets kept on disk."""
        self.secrets = dict(stored)
        self.game = GameDuties(self.node_id, self.secrets)
        self.start_sent = False
        replica.stable.own_secrets.update(owned(self.secrets))

    def _fresh(self, round_number: int) -> RoundSecret:
        """A new secret and share for a round, written down before the commitment goes out."""
        rng = self.draw(f"secret-{round_number}")
        kept = RoundSecret(rng.randbytes(SECRET_SIZE), rng.randbytes(SHARE_SIZE))
        if self.private_wanted:  # drawn after the others: a Dutch Blitz deal draws as before
            kept = RoundSecret(kept.secret, kept.share, rng.randbytes(PRIVATE_SIZE))
        self.save_secret(round_number, kept)
        self.secrets[round_number] = kept
        return kept

    def deal_duties(self, replica: Replica, reveals_only: bool = False) -> bool:
        """Send what the fair deal asks of this seat now (only its reveals, and the game's
        farewell, when leaving); True if it asked for anything."""
        self.private_wanted = wants_private(replica.stable)
        bodies = deal_duties(
            replica.stable, self.node_id, replica.pending_own(), self.secrets, self._fresh
        )
        for body in bodies:
            if reveals_only and not isinstance(body, Reveal):
                continue
            self.submit(body)
        if reveals_only:  # leaving: the game's farewell goes before the BYE (seat_farewell)
            for body in self.game.farewell(replica):
                self.submit(body)
        return bool(bodies)

    def game_duties(self, replica: Replica, now: float = 0.0) -> bool:
        """Send what the game's own round asks of this seat now (``seat_duties``), and a
        timed duty once the table has stayed as it is for its length (``timed_duty``; at
        once without a pace); True if it asked for anything."""
        bodies = self.game.owed(replica)
        timed = None if bodies else self.game.timed(replica)
        if timed is not None:
            key = (replica.stable.round, replica.stable.events)
            if self.timed_seen is None or self.timed_seen[0] != key:
                self.timed_seen = (key, now)
            if self.pace is None or now - self.timed_seen[1] >= timed[0]:
                bodies = [timed[1]]
        for body in bodies:
            self.submit(body)
        return bool(bodies)

    def on_own_event(self, entry: LogEntry, stable: Game) -> None:
        """One of our events became final: learn from its outcome."""
        body = entry.body
        if isinstance(body, Start):
            self.start_sent = False
        elif isinstance(body, Profile) and not entry.outcome.accepted:
            me = stable.members.get(self.node_id)
            if entry.outcome.refusal == "back_taken":
                self.wishes.back = None  # keep the back we hold rather than ask again
            elif me is not None:
                self.wishes.name = me.name

    def step(self, replica: Replica, now: float = 0.0) -> None:
        """Send whatever is owed now (``now`` on the pace's clock), and the bot's next moves."""
        if not replica.can_play():
            return
        if not replica.pending_own():
            # The optimistic game is built only when it is needed: while a move of ours is
            # on its way, this runs after every message and has nothing to send.
            game = replica.optimistic()
            me = game.members.get(self.node_id)
            if me is None:
                return
            if game.phase == Phase.LOBBY:
                self._lobby(game, me, replica.stable)
            elif game.phase == Phase.OVER:
                profile = newcomer_profile(game, me, self.wishes)
                bot = self.bot is not None
                self._send_once(profile or rematch_duty(game, me, replica.stable, bot=bot))
        if self._seen_due(replica, now):
            self.submit(Ready(True))
        self.deal_duties(replica)
        self.game_duties(replica, now)
        self.end_grace(replica)
        if self.bot is not None:
            self._play(replica, self.bot, now)

    def _seen_due(self, replica: Replica, now: float) -> bool:
        """Whether to say now that this seat has seen the scores (R-54)."""
        stable = replica.stable
        if stable.phase != Phase.DEALING or (self.pace is not None and not self.pace.seen_due(now)):
            return False
        if any(isinstance(body, Ready) for body in replica.pending_own()):
            return False
        seat = stable.seat_of(self.node_id)
        return seat is not None and seat in stable.still_looking()

    def end_grace(self, replica: Replica) -> bool:
        """Deal on without the players away once their grace is over (spec/rules.md R-57);
        True if it did."""
        body = grace_duty(
            replica.stable, self.node_id, replica.pending_own(), silence(replica), self.grace
        )
        if body is not None:
            self.submit(body)
        return body is not None

    def _lobby(self, game: Game, me: Member, stable: Game) -> None:
        self._send_once(lobby_duty(game, me, self.wishes, stable))

    def _send_once(self, body: Body | None) -> None:
        """Send ``body``; a Start only once until one of ours is final."""
        if isinstance(body, Start):
            if self.start_sent:
                return
            self.start_sent = True
        if body is not None:
            self.submit(body)

    def _play(self, replica: Replica, bot: PlayBot, now: float) -> None:
        """The bot's moves: one at a time, or for a bot that never waits, a few in flight.

        A move on the bot's own cards alone (a Post play, a Wood flip or turn) cannot lose
        a race: nobody else touches those cards. Such moves may follow one another before
        the first is final. A centre play or a stuck call can be refused by what others
        do, so nothing follows it until it is final, and nothing goes while any other
        event of ours (a deal step, a profile) is on its way.
        """
        rules = replica.stable.rules
        if holds_secrets(rules):
            self._seat_bot(replica, now, level_for(rules, self.level))
            return
        level = level_in(rules.tag, self.level)  # the table's game may be another than at first
        if bot.level is not level:
            fresh = rules.play_bot(level, bot.rng)
            if fresh is not None:
                bot = self.bot = fresh
        for _ in range(bot.in_flight):
            body = self._bot_body_now(replica, bot, now)
            if body is None or not self.submit(body):
                return

    def _bot_body_now(self, replica: Replica, bot: PlayBot, now: float) -> Body | None:
        """The bot's next move if it may make one now: only behind moves of its own cards
        and no more than its level keeps in flight, during play, after its count-in."""
        pending = replica.pending_own()
        if len(pending) >= bot.in_flight or not all(map(bot.may_follow, pending)):
            return None
        game = replica.optimistic()
        me = game.members.get(self.node_id)
        table = game.table
        if game.phase != Phase.PLAYING or me is None or table is None:
            return None
        if self.pace is not None and self.pace.count_in_left(game, now) > 0:
            return None  # nobody plays before their own count-in ends
        if game.rules.bots_send_bodies:  # a game whose bots send GAME bodies
            return game.rules.bot_body(table, me.seat, game.round)
        return bot.next_play(replica.stable, table, me.seat, game.round)

    def _seat_bot(self, replica: Replica, now: float, level: object) -> None:
        """A bot of a game with seats' duties: one move at a time, after its duties."""
        if replica.pending_own():
            return
        game = replica.optimistic()
        me = game.members.get(self.node_id)
        if game.phase != Phase.PLAYING or me is None:
            return
        if self.pace is not None and self.pace.count_in_left(game, now) > 0:
            return  # nobody plays before their own count-in ends
        body = self.game.bot_body(replica, game, me.seat, level)
        if body is not None and not self._holding(game, me.seat, now, level):
            self.submit(body)

    def _holding(self, game: Game, seat: int, now: float, level: object = None) -> bool:
        """Whether the bot waits before a move that closes a race (``race_hold``), so that a
        person has a chance at it: timed from when the table last changed."""
        rules = game.rules
        if self.pace is None:
            return False  # the simulator's bots never wait
        hold = rules.race_hold(game.table, seat, level)  # as the bot's level thinks
        if hold <= 0:
            return False
        key = (game.round, game.events)
        if self.race_seen is None or self.race_seen[0] != key:
            self.race_seen = (key, now)
        return now - self.race_seen[1] < hold


def silence(replica: Replica) -> Callable[[bytes], float]:
    """How long, as of the replica's last ``now``, this node has not heard each node."""

    def silent_for(node: bytes) -> float:
        stream = replica.streams.get(node)
        return float("inf") if stream is None else replica.now - stream.last_heard

    return silent_for
