"""A finished game played again, offered to the screens as ``api.Replaying``.

The game file is checked whole first (``protocol.gamefile``): a file that fails any
check is never shown. The snapshot at each stop is built as a node builds its own, so
the table's own screens draw it.
"""

from __future__ import annotations

from dutchblitz.protocol.replays.gamefile import CheckedGame, check_game_file
from dutchblitz.protocol.replays.steps import Replay
from dutchblitz.protocol.table.player import GameSeatView
from dutchblitz.protocol.table.state import Game
from dutchblitz.protocol.views import GameView, Phase, game_view

from .api import HiddenCards, PlayerInfo, Snapshot


class ReplaySession:
    """One replay: where it stands, and whose view it shows (``api.Replaying``)."""

    def __init__(self, checked: CheckedGame, title: str) -> None:
        self.checked = checked
        self.title = title
        self.replay = Replay(checked)
        self._stop = 0
        self._view: int | None = None

    @classmethod
    def of(cls, data: bytes, title: str) -> ReplaySession:
        """Check ``data`` (``GameFileError`` if it fails) and replay it from its start."""
        return cls(check_game_file(data), title)

    # -- where it stands -------------------------------------------------------------------

    @property
    def stop(self) -> int:
        return self._stop

    @property
    def stops(self) -> int:
        return len(self.replay.stops)

    @property
    def round(self) -> int:
        return self.replay.round_of(self._stop)

    @property
    def rounds(self) -> int:
        return len(self.replay.round_starts)

    @property
    def view(self) -> int | None:
        return self._view

    def go(self, stop: int) -> None:
        self._stop = max(0, min(stop, self.stops - 1))

    def first_stop(self, number: int) -> int | None:
        return self.replay.round_starts.get(number)

    def next_view(self) -> None:
        views: list[int | None] = [None, *self.replay.players]
        self._view = views[(views.index(self._view) + 1) % len(views)]

    # -- what the screens read ---------------------------------------------------------------

    def hidden(self) -> HiddenCards | None:
        if self._view is None:
            return None
        return self.replay.seat_cards(self._stop, self._view)

    def snapshot(self) -> Snapshot:
        game = self.replay.game_at(self._stop, self._view)
        view = game_view(game)
        final = self.checked.final
        me = final.node_of(self._view) if self._view is not None else None
        return Snapshot(
            table=self.checked.file.table,
            interface="",
            endpoint="",
            my_node=me or b"",
            my_seat=self._view,
            players=self._players(view),
            game=view,
            stable=view,
            pending_moves=0,
            peers_seen=0,
            seconds_running=0.0,
            can_start=False,
            bot_levels=(),
            option=view.post_stacking,
            length=(view.target, view.rounds),
            game_tag=game.rules.tag,
            # A replay knows no secret: it shows only faces open to all (D-42).
            seat_view=public_view(game),
        )

    def _players(self, view: GameView) -> tuple[PlayerInfo, ...]:
        # Nobody is asked for a rematch in a replay: at the end, the players show as gone.
        over = view.phase == Phase.OVER
        return tuple(
            PlayerInfo(
                seat=member.seat,
                node=member.node,
                name=member.name,
                back=member.back,
                ready=member.ready,
                present=member.present and not over,
                is_me=member.seat == self._view,
                is_local_bot=False,
                fingerprint=self.checked.fingerprint(member.node),
            )
            for member in sorted(view.members.values(), key=lambda m: m.seat)
        )


def public_view(game: Game) -> GameSeatView | None:
    """The game's own view of its round as nobody at the table sees it (a spectator and a
    replay hold no secrets): the round being played; between rounds, the last one. None
    for a game whose screens read the table's views."""
    table = game.table if game.table is not None else game.last_table
    return None if table is None else game.rules.seat_view(table, None, None)
