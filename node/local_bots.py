"""The bots a node seats at its own table, each a peer of its own in this process with its
own folder, key and log under the node's state directory (``bots/N``), written down
(node/seat/bots.py) so that a restarted node seats them again."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from dutchblitz.protocol.games.registry import all_levels, level_in, level_name
from dutchblitz.protocol.seat.duties import Wishes

from .net.roster import Roster, Source
from .seat import bots as botseats
from .seat.local import LocalSeat
from .store.state import StateDir

if TYPE_CHECKING:
    from .runtime import Node

log = logging.getLogger("dutchblitz.node")


@dataclass(slots=True)
class BotSeat:
    number: int
    seat: LocalSeat
    level: str


def bot_name(level: str, node_id: bytes) -> str:
    """A bot's name says "bot" and its level, so every node's screens can tell (no wire
    change); "flat-out bot 3f9" fits the table's 16 columns."""
    return f"{level} bot {node_id.hex()[:3]}"


@dataclass(slots=True)
class LocalBots:
    """The bots ``node`` hosts, in the order they were seated."""

    node: Node
    seats: list[BotSeat] = field(default_factory=list)

    def seat_kept(self) -> list[asyncio.Task[None]]:
        """Seat again, in the background, the bots this node hosted when it last ran.

        Each restores its own log like the player's seat: back in the game it was in,
        or, from a lobby, seated afresh.
        """
        node = self.node
        assert node.state_root is not None
        kept_bots = botseats.load(node.state_root, all_levels()) if not node.options.watch else []
        return [
            asyncio.ensure_future(self._seat_quietly(self.add(kept.level, kept.number, True), kept))
            for kept in kept_bots
        ]

    async def _seat_quietly(self, work: Awaitable[LocalSeat], kept: botseats.KeptBot) -> None:
        try:
            await work
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.warning("cannot seat bot %d (%s) again: %s", kept.number, kept.level, error)

    def keep(self) -> None:
        """Write down which bots this node hosts, for its next start."""
        if self.node.state_root is not None:
            kept = [botseats.KeptBot(bot.number, bot.level) for bot in self.seats]
            botseats.save(self.node.state_root, kept)

    async def add(self, level: str, number: int | None = None, restore: bool = False) -> LocalSeat:
        """Seat a bot of ``level`` at our table, as a peer of its own in this process.

        ``number`` and ``restore``: a bot this node hosted before a restart, back from
        its own folder and log.
        """
        node, main = self.node, self.node.main
        assert main is not None and node.interface is not None and node.state_root is not None
        used = {bot.number for bot in self.seats}
        if number is None or number in used:
            number = _new_bot_number(used, self._folders())
        store = StateDir(node.state_root / "bots" / str(number))
        signer = store.identity()
        node_id = signer.node_id
        transport = await node.open_transport(signer, store.root)
        local = {main.node_id, *self.nodes()}
        _introduce(transport.roster, main.roster, local)
        for seat_here in [main, *(bot.seat for bot in self.seats)]:
            seat_here.roster.learn(node_id, signer.public_key, Source.LOCAL)
        found = level_in(bot_game(node), level)
        level = level_name(found)
        wishes = Wishes(name=bot_name(level, node_id), ready=True, target=node.options.target)
        config = node.seat_config(wishes, found)
        config.restore = restore  # a bot seated in the lobby sits down afresh
        seat = LocalSeat(config, store, transport, node_id)
        seat.watchers.append(node.notify)
        self.seats.append(BotSeat(number, seat, level))
        self.keep()
        seat.meet(main.node_id, main.endpoint)
        main.meet(node_id, transport.endpoint)
        await seat.start()
        return seat

    def _folders(self) -> list[Path]:
        assert self.node.state_root is not None
        folder = self.node.state_root / "bots"
        return [p for p in folder.iterdir() if p.is_dir()] if folder.is_dir() else []

    async def remove(self) -> bool:
        """Take the most recently seated local bot away (it says goodbye)."""
        if not self.seats:
            return False
        bot = self.seats.pop()
        self.keep()
        await bot.seat.sit_down_first()  # a `-` just after its `+`: no seat left behind
        await bot.seat.leave()
        self.node.notify()
        return True

    def nodes(self) -> set[bytes]:
        return {bot.seat.node_id for bot in self.seats}


def bot_game(node: Node) -> str:
    """The game a bot seated now is made for: the one the lobby shows (P-241)."""
    main = node.main
    if main is None:
        return node.options.game
    return main.config.wishes.game or main.game_tag()


def relevel_bots(node: Node, tag: str) -> None:
    """The lobby now shows game ``tag``: each bot of ``node`` takes that game's matching
    level, and the name that says it."""
    for bot in node.bots.seats:
        level = level_in(tag, bot.level)
        bot.level = level_name(level)
        bot.seat.steward.level = level
        bot.seat.config.wishes.name = bot_name(bot.level, bot.seat.node_id)
        bot.seat.poke()
    node.bots.keep()


def _new_bot_number(used: set[int], folders: list[Path]) -> int:
    """A new bot is a new player: a folder never used, so never a key and log of a bot
    taken away earlier, which the table holds as gone (its folder stays, as all logs)."""
    taken = used | {int(p.name) for p in folders if p.name.isdigit()}
    return next(n for n in range(1, 10_000) if n not in taken)


def _introduce(roster: Roster, players: Roster, local: set[bytes]) -> None:
    """What a new bot's roster learns of the player's: the local seats vouch for each
    other; the rest it learns as the player did."""
    for other, key in players.keys.items():
        if other in local:
            roster.learn(other, key, Source.LOCAL)
        elif players.allows(other):
            roster.learn(other, key, Source.HELLO)
