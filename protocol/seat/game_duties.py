"""What a seat owes its game's own round, for a game whose seats owe bodies (table/player.py
``owes_bodies``): Dutch's keys, shuffles and decryption shares, sent for a person's seat and
a bot's alike; a bot's moves decided with the seat's secrets (there and for a game with
``bots_use_secrets``); and any game's timed duty.

The node hands in what the game may not find in the log: the round's private seed (drawn
with the fair deal's secret, kept in deals.log beside it: ``RoundSecret.private``), the node
key's X25519 pair, and the other seats' node keys (each signed event carries its sender's
key). Duties are decided on the stable game, as the fair deal's are, and a body already on
its way is not sent again.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..games.registry import level_for
from ..limits import SECRET_SIZE
from ..replica.core import Replica
from ..table.fairdeal import RoundSecret
from ..table.rules import AnyGame, SeatSecrets
from ..table.state import Game, Phase
from ..wire.codec import decode
from ..wire.fields import ProtocolError
from ..wire.messages import Body, GameBody

PRIVATE_SIZE = SECRET_SIZE  # 32 random bytes, fresh each round (spec/dutch-deal.md M-5)


def wants_private(game: Game) -> bool:
    """Whether the game's seats draw a private seed each round beside the deal's secret."""
    return holds_secrets(game.rules)


def holds_secrets(rules: AnyGame) -> bool:
    """Whether each seat of this game holds ``SeatSecrets`` for its round: one that owes
    bodies of its own (``owes_bodies``), or whose bots decide with them (``bots_use_secrets``)."""
    return rules.owes_bodies or rules.bots_use_secrets


class GameDuties:
    """One seat's duties to its game's round, with its secrets (kept by the ``Steward``)."""

    def __init__(self, node_id: bytes, secrets: Mapping[int, RoundSecret]) -> None:
        self.node_id = node_id
        self.secrets = secrets  # the Steward's, shared: round -> what this seat keeps
        self.keys: dict[bytes, bytes] = {}  # node id -> its Ed25519 key
        self.seat_secrets: dict[int, SeatSecrets] = {}

    def secrets_for(self, replica: Replica, game: Game) -> SeatSecrets | None:
        """This seat's secrets for ``game``'s round (for its screen's view too), if kept."""
        return self._for(replica, game)

    def _for(self, replica: Replica, game: Game) -> SeatSecrets | None:
        number = game.round
        held = self.seat_secrets.get(number)
        if held is not None:
            return held
        kept = self.secrets.get(number)
        signer = replica.signer
        if kept is None or not kept.private or signer is None:
            return None  # no seed for this round: the seat sits it out (the fair deal's rule)
        held = SeatSecrets(
            number,
            kept.private,
            signer.curve_public,
            signer.curve_secret(),
            lambda seat: self._node_key(replica, seat),
        )
        self.seat_secrets = {number: held}  # a round's secrets are not needed after it
        return held

    def _node_key(self, replica: Replica, seat: int) -> bytes | None:
        node = replica.stable.node_of(seat)
        if node is None:
            return None
        key = self.keys.get(node)
        if key is None:
            key = node_key(replica, node)
            if key is not None:
                self.keys[node] = key
        return key

    def owed(self, replica: Replica) -> list[Body]:
        """The bodies this seat owes its game's round now, less those on their way."""
        stable = replica.stable
        if not stable.rules.owes_bodies or stable.phase != Phase.PLAYING:
            return []
        me = stable.members.get(self.node_id)
        secrets = self._for(replica, stable)
        if me is None or not me.present or secrets is None or stable.table is None:
            return []
        pending = replica.pending_own()
        bodies = stable.rules.seat_duties(stable.table, me.seat, secrets)
        return [body for body in bodies if body not in pending]

    def timed(self, replica: Replica) -> tuple[float, Body] | None:
        """The body this seat sends once the table has stayed as it is for a while, and
        that while (``TableGame.timed_duty``), unless it is on its way."""
        stable = replica.stable
        if stable.phase != Phase.PLAYING or stable.table is None:
            return None  # asked of every game: by default it has none
        me = stable.members.get(self.node_id)
        if me is None or not me.present:
            return None
        timed = stable.rules.timed_duty(stable.table, me.seat, stable.round)
        if timed is None or timed[1] in replica.pending_own():
            return None
        return timed

    def farewell(self, replica: Replica) -> list[Body]:
        """What this seat sends before its goodbye so that the round goes on without it
        (``TableGame.seat_farewell``; spec/dutch-deal.md M-37), less what is on its way."""
        stable = replica.stable
        if not stable.rules.owes_bodies or stable.phase != Phase.PLAYING:
            return []
        me = stable.members.get(self.node_id)
        secrets = self._for(replica, stable)
        if me is None or not me.present or secrets is None or stable.table is None:
            return []
        pending = replica.pending_own()
        bodies = stable.rules.seat_farewell(stable.table, me.seat, secrets)
        return [body for body in bodies if body not in pending]

    def bot_body(self, replica: Replica, game: Game, seat: int, level: object) -> GameBody | None:
        """A bot's next move at ``seat`` on ``game`` (the optimistic one), or None; ``level``
        a level of any game, or its name: the game's bot plays the one of its own that
        stands for it (``registry.level_for``)."""
        if not holds_secrets(game.rules) or game.table is None:
            return None
        secrets = self._for(replica, game)
        if secrets is None:
            return None
        return game.rules.seat_bot(game.table, seat, secrets, level_for(game.rules, level))


def node_key(replica: Replica, node: bytes) -> bytes | None:
    """``node``'s Ed25519 key, from the signature of one of its events in the stable log."""
    for (sender, _), raw in replica.order.stable_raws.items():
        if sender != node:
            continue
        try:
            auth = decode(raw).auth
        except ProtocolError:
            continue
        if auth:
            return auth[:32]
    return None
