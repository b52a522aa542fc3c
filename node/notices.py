"""What a session tells its player, from what becomes final: a lost race, a refusal, a
Blitz, the end of a round or of the game, who sat down, left, was removed or is back,
a flag of the audit. Each is a ``Notice`` (node/api.py), kept until the client takes it.
"""

from __future__ import annotations

import asyncio
from collections import deque

from dutchblitz.protocol.effects import Alarm, Delivered, Effect, LogEntry, Withdrawn
from dutchblitz.protocol.messages import Admit, Bye, Profile, Ready, Start, Suspect
from dutchblitz.protocol.table.game import Game, Phase
from dutchblitz.protocol.table.player import PlayerRules

from .api import MAX_NOTICES, News, Notice, NoticeKind, Refused, Told
from .seat import LocalSeat

GONE_TOGETHER_S = 1.5  # players gone this close are told as one (a node and its bots)


class SessionNotices:
    """The notices of one seat's session, and what it has told already."""

    def __init__(self, table: str, seat: LocalSeat, player: PlayerRules) -> None:
        self.table = table  # the table's name, as the player gave it
        self.seat = seat
        self.player = player
        self.queue: deque[Notice] = deque(maxlen=MAX_NOTICES)
        # (id of the replica, game number, rounds noticed): a rematch starts counting again.
        self._results_seen: tuple[int, int, int] = (0, 0, 0)
        self._flags_seen: tuple[int, int] = (0, 0)  # (id of the replica, flags noticed)
        self._over_noticed: set[tuple[int, int]] = set()
        self._stalemates_seen: tuple[int, int, int] = (0, 0, 0)  # (replica id, round, count)
        # Every node the log has seated so far (a restored log's included): one seated again
        # is back, not new.
        replica = seat.replica
        self._seen_members: set[bytes] = set() if replica is None else set(replica.stable.members)
        # Newcomers admitted as "player N": told once their own name is in (their PROFILE).
        self._unnamed: set[bytes] = set()
        # What this node held when the session began: after a restart, the events of its
        # log become final again as the others are heard, and are not news any more.
        self._held_at_start: dict[bytes, int] = (
            {} if replica is None else {n: st.held for n, st in replica.streams.items()}
        )
        # Players removed during the game and not back: a START in the deal went on without
        # them (spec/rules.md R-50). Effects come after a batch of events is applied, so
        # this follows the events themselves, not the game as it stands.
        self._away: set[bytes] = (
            set()
            if replica is None
            else {m.node for m in replica.stable.members.values() if m.seat in replica.stable.away}
        )
        self._gone: tuple[float, Told | None] = (0.0, None)  # the last "gone" notice
        self._void_moves = 0  # our moves that did not count because we were away
        self._games_seen = 1 if replica is None else replica.stable.game_number

    def take(self) -> list[Notice]:
        taken = list(self.queue)
        self.queue.clear()
        return taken

    def notice(self, kind: NoticeKind, told: Told) -> None:
        self.queue.append(Notice(kind, told=told))

    def refused(self, refused: Refused) -> None:
        self.queue.append(Notice(NoticeKind.REFUSED, refused=refused))

    def on_effect(self, effect: Effect, live: bool) -> None:
        if not live:
            return
        if isinstance(effect, Delivered):
            self._on_delivered(effect)
            self._on_presence(effect)
        elif isinstance(effect, Withdrawn) and effect.reason == "removed_from_table":
            self._void_moves += 1  # told once, when we are back at the table
        elif isinstance(effect, Withdrawn):
            self.refused(Refused.of(effect.reason))
        elif isinstance(effect, Alarm) and effect.kind == "desync":
            self.notice(NoticeKind.ALARM, Told(News.DESYNC, detail=effect.detail))

    def _on_delivered(self, effect: Delivered) -> None:
        replica = self.seat.replica
        if replica is None:
            return
        entry = effect.entry
        stable = replica.stable
        outcome = entry.outcome
        body = entry.body
        if self._old_news(entry):
            # Told before this node restarted: what it ended or flagged is no news either.
            self._results_seen = (id(replica), stable.game_number, len(stable.results))
            self._flags_seen = (id(replica), len(stable.flags))
            self._games_seen = stable.game_number
            return
        if entry.sender == self.seat.node_id and not outcome.accepted:
            if self.player.lost_race(outcome.refusal or ""):
                card = self.player.moved_card(outcome.move)
                self.notice(NoticeKind.LOST_RACE, _lost_race(stable, outcome.by, card))
            elif not isinstance(body, Start | Admit | Suspect):  # a second one: harmless
                self.refused(Refused.of(outcome.refusal or ""))
        elif outcome.accepted and isinstance(body, Start) and stable.game_number > self._games_seen:
            self._games_seen = stable.game_number  # (a START in a deal ends a wait: R-57)
            self._away.clear()  # a rematch seats those present
            self.notice(NoticeKind.INFO, Told(News.REMATCH))
        elif outcome.accepted and isinstance(body, Ready) and stable.phase == Phase.OVER:
            member = stable.members.get(entry.sender)
            if member is not None and entry.sender != self.seat.node_id and body.ready:
                self.notice(NoticeKind.JOINED, Told(News.WANTS_REMATCH, who=member.name))
        elif outcome.accepted and isinstance(body, Bye):
            member = stable.members.get(entry.sender)
            if member is not None:
                self._note_gone(member.name, removed=False)
        self._notice_flags(id(replica), stable)
        self._notice_stalemate(id(replica), stable)
        ended = replica.ended
        over = ended is not None and ended[2].game_number == stable.game_number
        self._notice_results(over, id(replica), stable)

    def _on_presence(self, effect: Delivered) -> None:
        """Who sat down, who is back, who was removed, and a deal that went on without some."""
        entry, replica = effect.entry, self.seat.replica
        if replica is None or not entry.outcome.accepted:
            return
        body, stable, me = entry.body, replica.stable, self.seat.node_id
        old = self._old_news(entry)
        if isinstance(body, Admit):
            member = stable.members.get(body.node)
            returning = body.node in self._seen_members
            self._seen_members.add(body.node)
            self._away.discard(body.node)
            if old:
                return
            if body.node == me and returning:
                void, self._void_moves = self._void_moves, 0
                self.notice(NoticeKind.JOINED, Told(News.BACK_AT_TABLE, count=void))
            elif member is not None and body.node != me and returning:
                self.notice(NoticeKind.JOINED, Told(News.BACK, who=member.name))
            elif member is not None and body.node != me:
                self._unnamed.add(body.node)  # "sat down" waits for the name the table shows
            elif body.node == me and stable.phase == Phase.OVER:
                self.notice(NoticeKind.INFO, Told(News.NEXT_GAME, what=self.table))
        elif isinstance(body, Profile) and entry.sender in self._unnamed:
            self._unnamed.discard(entry.sender)
            member = stable.members.get(entry.sender)
            if member is not None and not old:
                self.notice(NoticeKind.JOINED, Told(News.SAT_DOWN, who=member.name))
        elif isinstance(body, Suspect):
            member = stable.members.get(body.node)
            if stable.phase != Phase.LOBBY:
                self._away.add(body.node)
            if member is not None and body.node != me and not old:
                self._note_gone(member.name, removed=True)
        elif isinstance(body, Start) and self._away and stable.phase != Phase.LOBBY:
            names = tuple(sorted(m.name for n, m in stable.members.items() if n in self._away))
            self._away.clear()
            if not old:
                # The round as players count it (a rematch's go on from the last game's);
                # a deal left with too few players ends the game instead (P-239).
                ended = stable.phase == Phase.OVER
                news = News.ENDS_WITHOUT if ended else News.GOES_ON_WITHOUT
                told = Told(news, names=names, count=0 if ended else stable.shown_round())
                self.notice(NoticeKind.LEFT, told)

    def _old_news(self, entry: LogEntry) -> bool:
        """An event this node held before it restarted (final only now): told already."""
        return entry.seq <= self._held_at_start.get(entry.sender, 0)

    def _note_gone(self, name: str, removed: bool) -> None:
        """A player gone, in one notice with those gone the same way just before: a node's
        bots go with it ("Ada and easy bot 1c2 were removed: not heard from")."""
        now = asyncio.get_running_loop().time()
        since, told = self._gone
        news = News.REMOVED if removed else News.LEFT
        last = self.queue[-1] if self.queue else None
        together = now - since < GONE_TOGETHER_S and told is not None and told.news == news
        if together and told is not None and last is not None and last.told == told:
            self.queue.pop()
            told = Told(news, names=(*told.names, name))
        else:
            told = Told(news, names=(name,))
        self._gone = (now, told)
        self.notice(NoticeKind.LEFT, told)

    def _notice_flags(self, replica_id: int, stable: Game) -> None:
        """Each flag the audit raises, once, as an alarm (spec/rules.md R-44 to R-48)."""
        known_id, seen = self._flags_seen
        if known_id != replica_id or seen > len(stable.flags):
            seen = 0 if known_id != replica_id else len(stable.flags)  # an unaudited mark went
        names = {m.seat: m.name for m in stable.members.values()}
        for flag in stable.flags[seen:]:
            who = names.get(flag.seat, "?")
            shown = stable.shown_round(flag.round)
            told = Told(
                News.FLAGGED, who=who, count=shown, what=flag.kind.value, detail=flag.detail
            )
            self.notice(NoticeKind.ALARM, told)
        self._flags_seen = (replica_id, len(stable.flags))

    def _notice_stalemate(self, replica_id: int, stable: Game) -> None:
        """Each stalemate rotation (spec/rules.md R-24), once, on every screen."""
        count = self.player.stalemates(stable.table)
        known_id, known_round, seen = self._stalemates_seen
        if (known_id, known_round) == (replica_id, stable.round) and count > seen:
            self.notice(NoticeKind.INFO, Told(News.STALEMATE))
        self._stalemates_seen = (replica_id, stable.round, count)

    def _notice_results(self, over: bool, replica_id: int, stable: Game) -> None:
        known_id, known_game, seen = self._results_seen
        if (known_id, known_game) != (replica_id, stable.game_number):
            seen = 0
        me = stable.seat_of(self.seat.node_id)
        for result in stable.results[seen:]:
            names = {m.seat: m.name for m in stable.members.values()}
            if result.void:  # a leaver took the only key to some cards with it
                gone = tuple(
                    names.get(seat, "?")
                    for seat, m in sorted(stable.by_seat().items())
                    if seat in result.scores and not m.present
                )
                told = Told(News.ROUND_VOID, count=stable.shown_round(result.round), names=gone)
                self.notice(NoticeKind.ROUND_OVER, told)
                continue
            if result.blitz_by is not None:
                who = "" if result.blitz_by == me else names.get(result.blitz_by, "?")
                self.notice(NoticeKind.BLITZ, Told(News.BLITZ, who=who))
            scores = tuple(  # "" names this node's own player: the words say "you"
                ("" if seat == me else names.get(seat, "?"), points)
                for seat, points in sorted(result.scores.items())
            )
            shown = stable.shown_round(result.round)
            told = Told(News.ROUND_SCORES, count=shown, scores=scores)
            self.notice(NoticeKind.ROUND_OVER, told)
        self._results_seen = (replica_id, stable.game_number, len(stable.results))
        game = (replica_id, stable.game_number)
        if over and game not in self._over_noticed and stable.winner is not None:
            self._over_noticed.add(game)
            winner = stable.by_seat()[stable.winner]
            points = stable.totals.get(stable.winner, 0)
            who = "" if stable.winner == me else winner.name
            self.notice(NoticeKind.GAME_OVER, Told(News.GAME_WON, who=who, count=points))
        elif over and game not in self._over_noticed and stable.results:
            self._over_noticed.add(game)  # every round dealt was void
            self.notice(NoticeKind.GAME_OVER, Told(News.NO_WINNER))


def _lost_race(game: Game, by: int | None, card: str) -> Told:
    winner = game.by_seat().get(by) if by is not None else None
    name = winner.name if winner is not None else ""
    return Told(News.LOST_RACE, who=name, what=card)
