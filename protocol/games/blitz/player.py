"""A Dutch Blitz seat's player and bots as the node knows them: ``BlitzPlayer``, the
``SeatPlayer`` part of Dutch Blitz's ``TableGame`` (game.py).

A key press names an action (intents.py: ``Intent``, "blitz_to_centre", "post_to_centre"
with a Post stack, ...); the node picks no target: this module does, on the table the
player sees, and checks the move against the rules there, so that a fast key press never
sends a move that cannot count. Refusals are codes Dutch Blitz's face words
(client/games/blitz/words.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ...table.player import ActRefusal, CameBack, HeldPlays, PlayBot, Rng, SeatPlayer
from ...wire.messages import Body, MoveKind, Play
from . import plays, rules
from .bots import LEVELS, Bot, Level, think_time
from .intents import Action, Intent, KeyRefusal
from .moves import CentrePlay, Move, PostPlay, Source, StuckCall, WoodFlip
from .rules import Reason
from .state import Area, Table

if TYPE_CHECKING:
    from ...table.state import Game
    from .playqueue import PlayQueue


class BlitzPlayer(SeatPlayer[Table, Move, None, Level]):
    """Dutch Blitz's ``SeatPlayer`` (protocol/table/player.py): keys that name actions,
    plays held behind those on their way, and the table's own bot for PLAY moves
    (protocol/seat/duties.py); no view of its own, no duties."""

    @property
    def levels(self) -> dict[str, Level]:
        return LEVELS

    @property
    def max_held(self) -> int:
        from .playqueue import MAX_HELD  # see ``plays``

        return MAX_HELD

    def think_time(self, level: Level, rng: Rng) -> float:
        return think_time(level, rng)

    def play_bot(self, level: object, rng: Rng) -> PlayBot | None:
        return TableBot(Bot(level, rng)) if isinstance(level, Level) else None

    def check(self, state: Table, seat: int, action: str) -> ActRefusal | None:
        if seat not in state.areas:
            return ActRefusal("not_playing")
        area = state.areas[seat]
        if not area.active:
            return ActRefusal("not_active")
        if area.stuck and action != Action.STUCK:
            return ActRefusal("stuck")
        return None

    def build(self, state: Table, seat: int, action: str, slot: int) -> Move | ActRefusal:
        move = _build(action, slot, state, seat, state.areas[seat])
        if isinstance(move, ActRefusal):
            return move
        refusal = rules.apply(state.copy(), move)
        return ActRefusal(refusal.reason) if refusal is not None else move

    def keyed(self, move: object) -> tuple[str, int] | None:
        return (move.action, move.slot) if isinstance(move, Intent) else None

    # ``seat_view`` and ``body`` are the defaults: Dutch Blitz's screens read the table's
    # views (protocol/views.py), and a key names an action, whose move ``build`` makes.

    def plays(self, node_id: bytes, submit: Callable[[Body], bool]) -> HeldPlays[Move]:
        # Imported here: the play queue reaches the replica, whose table reaches the
        # registry of games, which holds this game.
        from .playqueue import PlayQueue

        queue: PlayQueue = PlayQueue(node_id, submit)
        return queue

    def came_back(self, returned: CameBack[Move]) -> ActRefusal:
        move, reason = returned.move, returned.reason
        if isinstance(move, CentrePlay | PostPlay):
            held = str(move.card)
        elif isinstance(move, WoodFlip):
            held = "flip"
        elif isinstance(move, StuckCall):
            held = "stuck"
        else:
            held = "turn"
        if reason in (Reason.NOT_ON_TOP, Reason.EMPTY_SOURCE):
            return ActRefusal("play_before", held=held)
        return ActRefusal(reason, held=held)

    def moved_card(self, move: Move) -> str:
        return str(move.card) if isinstance(move, CentrePlay | PostPlay) else ""

    def lost_race(self, code: str) -> bool:
        return code == Reason.PILE_TAKEN

    def stalemates(self, state: Table | None) -> int:
        return state.stalemates if state is not None else 0


def _build(action: str, slot: int, table: Table, me: int, area: Area) -> Move | ActRefusal:
    if action == Action.BLITZ_TO_CENTRE:
        return _to_centre(table, me, Source.BLITZ, 0, area.blitz, KeyRefusal.BLITZ_EMPTY)
    if action == Action.WOOD_TO_CENTRE:
        return _to_centre(table, me, Source.WOOD, 0, area.wood, Reason.WOOD_EMPTY)
    if action == Action.POST_TO_CENTRE:
        if not 0 <= slot < len(area.post):
            return ActRefusal(KeyRefusal.NO_POST, count=slot + 1)
        return _to_centre(table, me, Source.POST, slot, area.post[slot], KeyRefusal.POST_EMPTY)
    if action == Action.FLIP:
        move = plays.flip_or_turn(table, me)
        return move if move is not None else ActRefusal(KeyRefusal.NOTHING_TO_FLIP)
    if action == Action.STUCK:
        if area.stuck:
            return ActRefusal(KeyRefusal.ALREADY_STUCK)
        playable = rules.visible_centre_plays(table, me)
        if playable:
            return ActRefusal(KeyRefusal.CAN_PLAY, what=str(playable[0][2]))
        return StuckCall(me)
    source = Source.BLITZ if action == Action.BLITZ_TO_POST else Source.WOOD
    return _to_post(table, me, source, slot, area)


def _to_centre(
    table: Table, me: int, source: Source, slot: int, pile: Sequence[object], empty: str
) -> Move | ActRefusal:
    if not pile:
        return ActRefusal(empty)
    move = plays.centre_play(table, me, source, slot)
    if move is None:
        return ActRefusal(KeyRefusal.NO_PILE_FOR, what=str(pile[-1]))
    return move


def _to_post(table: Table, me: int, source: Source, slot: int, area: Area) -> Move | ActRefusal:
    pile = area.blitz if source == Source.BLITZ else area.wood
    if not table.post_stacking:
        return ActRefusal(Reason.STACKING_OFF)
    if not 0 <= slot < len(area.post):
        return ActRefusal(KeyRefusal.NO_POST, count=slot + 1)
    if not pile:
        return ActRefusal(Reason.EMPTY_SOURCE)
    move = plays.post_play(table, me, source, slot)
    if move is None:
        top = area.post[slot][-1] if area.post[slot] else None
        return ActRefusal(KeyRefusal.CANNOT_STACK, what=str(pile[-1]), other=str(top))
    return move


class TableBot:
    """Dutch Blitz's bot at a table (``PlayBot``): its next play; none while it is stuck,
    which it stays until a centre play or the stalemate, and until the lapse of its stuck
    call is final (P-153)."""

    __slots__ = ("bot",)

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    @property
    def level(self) -> Level:
        return self.bot.level

    @property
    def rng(self) -> Rng:
        return self.bot.rng

    @property
    def in_flight(self) -> int:
        return self.bot.level.in_flight

    def may_follow(self, body: Body) -> bool:
        """A move on the bot's own cards alone (a Post play, a Wood flip or turn) cannot
        lose a race: nobody else touches those cards."""
        return isinstance(body, Play) and body.move in (MoveKind.POST, MoveKind.FLIP, MoveKind.TURN)

    def next_play(self, stable: Game, state: object, seat: int, round_number: int) -> Play | None:
        # Imported here, as ``plays``: the play queue reaches the replica.
        from .playqueue import stuck_call_stands
        from .wire_moves import play_from_move

        assert isinstance(state, Table)
        area = state.areas.get(seat)
        if area is None or not area.active or area.stuck:
            return None
        if stuck_call_stands(stable, seat, round_number):
            return None  # as a person does
        move = self.bot.choose(state, seat)
        return None if move is None else play_from_move(move, round_number)
