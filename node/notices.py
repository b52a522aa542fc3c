"""What a session tells its player, from what becomes final: a lost race, a refusal, a
Blitz, the end of a round or of the game, who sat down, left, was removed or is back,
a flag of the audit. Each is a ``Notice`` (node/api.py), kept until the client takes it.
"""

from __future__ import annotations

import asyncio
from collections import deque

from dutchblitz.protocol.replica.core import Replica
from dutchblitz.protocol.replica.effects import Alarm, Delivered, Effect, LogEntry, Withdrawn
from dutchblitz.protocol.table.lobby import other_data
from dutchblitz.protocol.table.records import RoundResult
from dutchblitz.protocol.table.rules import AnyGame
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.wire.messages import Admit, Bye, Profile, Ready, Start, Suspect

from .api import MAX_NOTICES, News, Notice, NoticeKind, Refused, Told
from .seat.local import LocalSeat

GONE_TOGETHER_S = 1.5  # players gone this close are told as one (a node and its bots)
SHORT_DATA = 8  # hex digits of a data digest a player reads (P-294)


class SessionNotices:
    """The notices of one seat's session, and what it has told already."""

    def __init__(self, table: str, seat: LocalSeat, player: AnyGame) -> None:
        self.table = table  # the table's name, as the player gave it
        self.seat = seat
        self.player = player
        self.queue: deque[Notice] = deque(maxlen=MAX_NOTICES)
        # (id of the replica, game number, rounds noticed): a rematch starts counting again.
        self._results_seen: tuple[int, int, int] = (0, 0, 0)
        self._flags_seen: tuple[int, int] = (0, 0)  # (id of the replica, flags noticed)
        self._over_noticed: set[tuple[int, int]] = set()
        self._data_told: set[tuple[int, int]] = set()  # (id of the replica, game number)
        self._stalemates_seen: tuple[int, int, int] = (0, 0, 0)  # (replica id, round, count)
        self._seen_members: set[bytes] = set()
        # Newcomers admitted as "player N": told once their own name is in (their PROFILE).
        self._unnamed: set[bytes] = set()
        self._held_at_start: dict[bytes, int] = {}
        self._away: set[bytes] = set()
        self._gone: tuple[float, Told | None] = (0.0, None)  # the last "gone" notice
        self._void_moves = 0  # our moves that did not count because we were away
        self._games_seen = 1
        if seat.replica is not None:
            self.begin_at(seat.replica)
        # The screen may begin before the seat reloads its log (the lobby shows at once).
        seat.seating.reloaded.append(self.begin_at)

    def begin_at(self, replica: Replica) -> None:
        """What ``replica``'s log holds now is not news: after a restart, its events become
        final again as the others are heard."""
        # Every node the log has seated so far: one seated again is back, not new.
        self._seen_members = set(replica.stable.members)
        self._held_at_start = {n: st.held for n, st in replica.streams.items()}
        # Players removed during the game and not back: a START in the deal went on without
        # them (spec/rules.md R-50). Effects come after a batch of events is applied, so
        # this follows the events themselves, not the game as it stands.
        stable = replica.stable
        self._away = {m.node for m in stable.members.values() if m.seat in stable.away}
        self._games_seen = stable.game_number

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
        entry, stable = effect.entry, replica.stable
        if self._old_news(entry):
            # Told before this node restarted: what it ended or flagged is no news either.
            self._results_seen = (id(replica), stable.game_number, len(stable.results))
            self._flags_seen = (id(replica), len(stable.flags))
            self._games_seen = stable.game_number
            return
        if stable.phase == Phase.LOBBY and stable.game_number > self._games_seen:
            self._games_seen = stable.game_number  # alone after the end (P-258): no rematch
        if entry.sender == self.seat.node_id and not entry.outcome.accepted:
            self._on_own_refused(entry, stable)
        elif entry.outcome.accepted:
            told = _ACCEPTED_NEWS.get(type(entry.body))
            if told is not None:
                told(self, entry, stable)
        self._notice_flags(id(replica), stable)
        self._notice_stalemate(id(replica), stable)
        ended = replica.ended
        over = ended is not None and ended[2].game_number == stable.game_number
        self._notice_results(over, id(replica), stable)

    def _on_own_refused(self, entry: LogEntry, stable: Game) -> None:
        """Our own event, refused: a race lost to another player's card, or a refusal."""
        outcome = entry.outcome
        if self.player.lost_race(outcome.refusal or ""):
            card = self.player.moved_card(outcome.move)
            self.notice(NoticeKind.LOST_RACE, _lost_race(stable, outcome.by, card))
        elif not isinstance(entry.body, Start | Admit | Suspect):  # a second one: harmless
            self.refused(Refused.of(outcome.refusal or ""))

    def _on_started(self, entry: LogEntry, stable: Game) -> None:
        """A START that began a new game: a rematch (a START in a deal ends a wait: R-57);
        and, once a game, a START whose game data is not ours (P-294)."""
        self._other_data(entry, stable)
        if stable.game_number > self._games_seen:
            self._games_seen = stable.game_number
            self._away.clear()  # a rematch seats those present
            self.notice(NoticeKind.INFO, Told(News.REMATCH))

    def _other_data(self, entry: LogEntry, stable: Game) -> None:
        """P-294: the START names other data for its game than this node holds, so this
        node's seat will not play there (F-47 leaves it out): say so, once a game."""
        assert isinstance(entry.body, Start)
        differs = other_data(stable.rules, entry.body)
        game = (id(self.seat.replica), stable.game_number)
        if differs is None or game in self._data_told:
            return
        self._data_told.add(game)
        names = tuple("" if d is None else d.hex()[:SHORT_DATA] for d in differs)
        self.notice(NoticeKind.ALARM, Told(News.OTHER_DATA, what=stable.rules.name, names=names))

    def _on_ready(self, entry: LogEntry, stable: Game) -> None:
        """Another player's READY once the game is over: it wants a rematch."""
        assert isinstance(entry.body, Ready)
        member = stable.members.get(entry.sender)
        if stable.phase != Phase.OVER or member is None or not entry.body.ready:
            return
        if entry.sender != self.seat.node_id:
            self.notice(NoticeKind.JOINED, Told(News.WANTS_REMATCH, who=member.name))

    def _on_bye(self, entry: LogEntry, stable: Game) -> None:
        member = stable.members.get(entry.sender)
        if member is not None:
            self._note_gone(member.name, removed=False)

    def _on_presence(self, effect: Delivered) -> None:
        """Who sat down, who is back, who was removed, and a deal that went on without some."""
        entry, replica = effect.entry, self.seat.replica
        if replica is None or not entry.outcome.accepted:
            return
        change = _PRESENCE.get(type(entry.body))
        if change is not None:
            change(self, entry, replica.stable, self._old_news(entry))

    def _on_admitted(self, entry: LogEntry, stable: Game, old: bool) -> None:
        """ADMIT: ourselves back (with the moves that did not count), another back, a
        newcomer (told once named), or ourselves seated for the next game."""
        body, me = entry.body, self.seat.node_id
        assert isinstance(body, Admit)
        returning = body.node in self._seen_members
        self._seen_members.add(body.node)
        self._away.discard(body.node)
        if old:
            return
        if body.node == me:
            self._on_admitted_myself(returning, stable)
            return
        member = stable.members.get(body.node)
        if member is not None and returning:
            self.notice(NoticeKind.JOINED, Told(News.BACK, who=member.name))
        elif member is not None:
            self._unnamed.add(body.node)  # "sat down" waits for the name the table shows

    def _on_admitted_myself(self, returning: bool, stable: Game) -> None:
        if returning:
            void, self._void_moves = self._void_moves, 0
            self.notice(NoticeKind.JOINED, Told(News.BACK_AT_TABLE, count=void))
        elif stable.phase == Phase.OVER:
            self.notice(NoticeKind.INFO, Told(News.NEXT_GAME, what=self.table))

    def _on_named(self, entry: LogEntry, stable: Game, old: bool) -> None:
        """A newcomer's first PROFILE: it sat down, under the name the table shows."""
        if entry.sender not in self._unnamed:
            return
        self._unnamed.discard(entry.sender)
        member = stable.members.get(entry.sender)
        if member is not None and not old:
            self.notice(NoticeKind.JOINED, Told(News.SAT_DOWN, who=member.name))

    def _on_suspected(self, entry: LogEntry, stable: Game, old: bool) -> None:
        """SUSPECT: a player removed, away from the game until it is back."""
        body = entry.body
        assert isinstance(body, Suspect)
        member = stable.members.get(body.node)
        if stable.phase != Phase.LOBBY:
            self._away.add(body.node)
        if member is not None and body.node != self.seat.node_id and not old:
            self._note_gone(member.name, removed=True)

    def _on_went_on(self, entry: LogEntry, stable: Game, old: bool) -> None:
        """A START in a deal that went on without the players away (R-57)."""
        if not self._away or stable.phase == Phase.LOBBY:
            return
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
            for kind, told in _result_news(result, stable, me):
                self.notice(kind, told)
        self._results_seen = (replica_id, stable.game_number, len(stable.results))
        game = (replica_id, stable.game_number)
        if over and game not in self._over_noticed:
            self._over_noticed.add(game)
            self.notice(NoticeKind.GAME_OVER, _game_over_news(stable, me))


def _game_over_news(stable: Game, me: int | None) -> Told:
    """How a game ended: too few were left to deal its first round (P-239), its winner,
    every round it dealt void (R-61), or a draw (P-238)."""
    if not stable.results:
        rules = stable.rules
        return Told(News.TOO_FEW, what=rules.name, count=rules.min_seats)
    if stable.winner is not None:
        winner = stable.by_seat()[stable.winner]
        points = stable.totals.get(stable.winner, 0)
        return Told(News.GAME_WON, who="" if stable.winner == me else winner.name, count=points)
    void = all(result.void for result in stable.results)
    return Told(News.NO_WINNER if void else News.DRAWN)


def _result_news(
    result: RoundResult, stable: Game, me: int | None
) -> list[tuple[NoticeKind, Told]]:
    """A round's end: who called, and the scores; or, for a void round, that it is void and
    who left holding cards only their key could open (spec/rules.md R-61, spec/dutch.md D-46)."""
    names = {m.seat: m.name for m in stable.members.values()}
    shown = stable.shown_round(result.round)
    if result.void:
        gone = tuple(
            names.get(seat, "?")
            for seat, m in sorted(stable.by_seat().items())
            if seat in result.scores and not m.present
        )
        return [(NoticeKind.ROUND_OVER, Told(News.ROUND_VOID, count=shown, names=gone))]
    news: list[tuple[NoticeKind, Told]] = []
    if result.blitz_by is not None:
        who = "" if result.blitz_by == me else names.get(result.blitz_by, "?")
        news.append((NoticeKind.BLITZ, Told(News.BLITZ, who=who)))
    scores = tuple(  # "" names this node's own player: the words say "you"
        ("" if seat == me else names.get(seat, "?"), points)
        for seat, points in sorted(result.scores.items())
    )
    news.append((NoticeKind.ROUND_OVER, Told(News.ROUND_SCORES, count=shown, scores=scores)))
    return news


def _lost_race(game: Game, by: int | None, card: str) -> Told:
    winner = game.by_seat().get(by) if by is not None else None
    name = winner.name if winner is not None else ""
    return Told(News.LOST_RACE, who=name, what=card)


# What an accepted event tells the player, by its body's type (the others tell nothing).
_ACCEPTED_NEWS = {
    Start: SessionNotices._on_started,
    Ready: SessionNotices._on_ready,
    Bye: SessionNotices._on_bye,
}
# How an accepted event changes who is at the table, by its body's type.
_PRESENCE = {
    Admit: SessionNotices._on_admitted,
    Profile: SessionNotices._on_named,
    Suspect: SessionNotices._on_suspected,
    Start: SessionNotices._on_went_on,
}
