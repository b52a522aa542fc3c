"""A game of Blitz! at the table: the rules' state (state.py) with the table's services
around it, as one state every node builds alike from the GAME bodies in the order
(spec/faceoff.md F-46 to F-56).

* Hidden cards and the die (F-34, F-38): every seat publishes its chain end first (``Chain``,
  with its pack's digest, F-33); a card is turned or the die rolled by an opening of the
  table (table/openings.py), decided once every seat at the table has sent its link for it.
  The turning player only says from which pile (``Wish``); nobody knows the card before the
  last link is in the order.
* Windows (F-29): a waiting claim or answer, and a vote, open a window with a number; a
  ``Closed`` body names the window it closes, so a late or duplicate one closes nothing else.
* Ties (F-35): an answer or claim sent without having seen the other player's waiting one
  (its ``seen`` count is below the moves applied when that one was) is concurrent with it:
  the table puts a tie in its place.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Final

from ...table import openings
from .moves import (
    TABLE,
    Answer,
    Claim,
    Concede,
    Contest,
    Leave,
    Move,
    Roll,
    Tie,
    Turn,
    Vote,
    WindowClosed,
)
from .pack import DIE
from .rules import apply, tie_drawer
from .state import Game, Phase
from .wire import Chain, Claimed, Closed, Conceded, Contested, Link, Message, Said, Voted, Wish

NEWS_KEPT: Final = 8  # the latest answers a screen lists with who gave them


class Stage(StrEnum):
    CHAINS = "chains"  # every seat publishes its chain end (F-47)
    PLAY = "play"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class Refused:
    """A Blitz! body refused, with the rules' or the table's code (F-44, F-56)."""

    reason: str
    by: int | None = None


def _waiting(game: Game) -> tuple[int, int, str, bool, int | None] | None:
    """What a window is open for: a claim or answer that waits, or its vote."""
    duel = game.faceoff
    if game.phase is not Phase.FACEOFF or duel is None or duel.claimant is None:
        return None
    return (game.faceoffs, duel.claimant, duel.answer, duel.voting, duel.tie_card)


def _duel_key(game: Game) -> tuple[int, int, int, int | None] | None:
    duel = game.faceoff
    if game.phase is not Phase.FACEOFF or duel is None:
        return None
    return (game.faceoffs, duel.a, duel.b, duel.tie_card)


@dataclass(slots=True)
class FaceoffTable:
    """One round (one whole game) of Blitz! at the table; index ``i`` is table seat
    ``seats[i]``."""

    seats: tuple[int, ...]
    game: Game
    stage: Stage = Stage.CHAINS
    ends: dict[int, bytes] = field(default_factory=dict)  # each seat's latest link
    opening: int = 0  # openings decided so far
    parts: dict[int, bytes] = field(default_factory=dict)  # links in for the next one
    wish: int | None = None  # the pile the turning player asked for
    window: int = 0  # the number of the window open now, or of the last one
    moves: int = 0  # players' moves the rules took (F-53)
    pending_since: int = 0  # ``moves`` when what waits now was taken
    duel_since: int = 0  # ``moves`` when the face-off under way began
    news: tuple[tuple[int, str], ...] = ()  # (seat, answer as typed), the latest last
    last: tuple[int, int, str] | None = None  # the last face-off won: winner, loser, answer
    dropped: tuple[int, str] | None = None  # in this face-off, what a vote refused: who, what
    strangers: frozenset[int] = frozenset()  # seats whose chain named another pack (F-47)

    def copy(self) -> FaceoffTable:
        return replace(self, ends=dict(self.ends), parts=dict(self.parts))

    # -- the openings ---------------------------------------------------------------------

    def wanted(self) -> bool:
        """Whether an opening waits for links now (a roll, or a hidden card asked for)."""
        if self.stage is not Stage.PLAY:
            return False
        if self.game.phase is Phase.ROLL:
            return True
        return self.wish is not None and self.game.hidden[self.wish] > 0

    def owes_link(self, index: int) -> bool:
        return self.wanted() and index in self.game.active and index not in self.parts

    def _maybe_open(self) -> None:
        active = sorted(self.game.active)
        if not self.wanted() or any(i not in self.parts for i in active):
            return
        number = self.opening + 1
        value = openings.opened(number, {i: self.parts[i] for i in active}, active)
        self.opening = number
        self.ends.update(self.parts)
        self.parts = {}
        if self.game.phase is Phase.ROLL:
            self._rules(TABLE, Roll(openings.pick(value, len(DIE))))
            return
        assert self.wish is not None
        unseen = sorted(self.game.unseen)
        card = unseen[openings.pick(value, len(unseen))]
        self._turn(Turn(self.wish, card))

    def _turner(self) -> int | None:
        if self.game.phase is Phase.TURN:
            return self.game.turn
        if self.game.phase is Phase.TIE_DRAW:
            return tie_drawer(self.game)
        return None

    def _turn(self, move: Turn) -> Refused | None:
        turner = self._turner()
        self.wish = None
        if turner is None:
            return Refused("wrong_phase")
        return self._rules(turner, move)

    # -- the rules ------------------------------------------------------------------------

    def _rules(self, seat: int, move: Move) -> Refused | None:
        before, duel = _waiting(self.game), _duel_key(self.game)
        outcome = apply(self.game, seat, move)
        if outcome.refusal is not None:
            return Refused(outcome.refusal.reason.value)
        self._won(outcome.state, move)
        dropped = self._dropped(outcome.state)
        self.game = outcome.state
        if seat != TABLE:
            self.moves += 1
        after = _waiting(self.game)
        if after is not None and after != before:
            self.window += 1  # F-52: a new window for what waits now
            self.pending_since = self.moves
        if _duel_key(self.game) != duel:
            self.duel_since = self.moves
            self.dropped = None
        if dropped is not None:
            self.dropped = dropped
        if self.game.phase is Phase.OVER:
            self.stage = Stage.DONE
        return None

    def _won(self, after: Game, move: Move) -> None:
        """Remember who won the face-off ``move`` settled, for the screens."""
        duel = self.game.faceoff
        grew = [s for s, won in enumerate(after.won) if len(won) > len(self.game.won[s])]
        if duel is None or not grew:
            return
        text = move.text if isinstance(move, Answer) else duel.text
        self.last = (grew[0], duel.other(grew[0]), "" if isinstance(move, Concede) else text)

    def _dropped(self, after: Game) -> tuple[int, str] | None:
        """What a vote just refused, if it did: its author and its text (F-28)."""
        duel, then = self.game.faceoff, after.faceoff
        if duel is None or not duel.voting or duel.claimant is None or then is None:
            return None
        if then.voting or then.claimant is not None or after.won != self.game.won:
            return None
        return (duel.claimant, duel.text)

    def leave(self, index: int) -> None:
        """F-39: a seat left; an opening waits no more for its link (F-55)."""
        if index not in self.game.active or self.stage is Stage.DONE:
            return
        self._rules(index, Leave())
        self.parts.pop(index, None)
        if self.stage is Stage.CHAINS:
            self._chains_in()
        self._maybe_open()

    def _chains_in(self) -> None:
        if all(i in self.ends for i in self.game.active):
            self.stage = Stage.PLAY

    # -- one body -------------------------------------------------------------------------

    def take(self, index: int, message: Message, digest: bytes) -> Refused | None:
        """Apply seat ``index``'s body, or say why not (and change nothing)."""
        if self.stage is Stage.DONE:
            return Refused("game_over")
        if index not in self.game.active:
            return Refused("not_active")
        if isinstance(message, Chain):
            return self._chain(index, message, digest)
        if self.stage is not Stage.PLAY:
            return Refused("chains_open")
        if isinstance(message, Link):
            return self._link(index, message)
        if isinstance(message, Wish):
            return self._wish(index, message)
        if isinstance(message, Closed):
            return self._closed(message)
        return self._player(index, message)

    def _chain(self, index: int, message: Chain, digest: bytes) -> Refused | None:
        if self.stage is not Stage.CHAINS or index in self.ends:
            return Refused("chain_sent")
        if message.digest != digest:  # F-33: it checks answers against other lists
            self.strangers |= {index}
            self.leave(index)
            return None
        self.ends[index] = message.end
        self._chains_in()
        return None

    def _link(self, index: int, message: Link) -> Refused | None:
        if not self.wanted() or message.number != self.opening + 1:
            return Refused("no_opening")
        if index in self.parts:
            return Refused("link_sent")
        if not openings.follows(message.link, self.ends[index]):
            return Refused("bad_link")  # F-48: not the link after its last
        self.parts[index] = message.link
        self._maybe_open()
        return None

    def _wish(self, index: int, message: Wish) -> Refused | None:
        if self._turner() is None:
            return Refused("wrong_phase")
        if self._turner() != index:
            return Refused("not_your_turn")
        if self.wish is not None:
            return Refused("asked")
        if message.pile not in (0, 1):
            return Refused("bad_pile")
        if self.game.pile_size(message.pile) == 0:
            return Refused("pile_empty")
        if self.game.hidden[message.pile] == 0:  # only known cards: no opening needed
            return self._turn(Turn(message.pile, self.game.under[message.pile][0]))
        if self.game.phase is Phase.TIE_DRAW and not self.game.category_card_left():
            return Refused("no_category_card")
        self.wish = message.pile
        return None

    def _closed(self, message: Closed) -> Refused | None:
        if _waiting(self.game) is None or message.window != self.window:
            return Refused("stale_window")  # F-52: it names another window
        return self._rules(TABLE, WindowClosed())

    def _player(self, index: int, message: Message) -> Refused | None:
        if isinstance(message, Said | Claimed):
            if message.seen < self.duel_since:
                return Refused("stale")  # F-54: sent before this face-off began
            if self._concurrent(index, message.seen):
                return self._rules(TABLE, Tie())
        move = _move(message)
        if move is None:
            return Refused("bad_move")
        refused = self._rules(index, move)
        if refused is None and isinstance(message, Said):
            self.news = (*self.news, (index, message.text))[-NEWS_KEPT:]
        return refused

    def _concurrent(self, index: int, seen: int) -> bool:
        """F-53: ``index`` answers without having seen the other player's waiting one."""
        duel = self.game.faceoff
        return (
            duel is not None
            and self.game.phase is Phase.FACEOFF
            and not duel.voting
            and duel.claimant is not None
            and duel.claimant != index
            and index in (duel.a, duel.b)
            and seen < self.pending_since
        )


def _move(message: Message) -> Move | None:
    if isinstance(message, Said):
        return Answer(message.text)
    if isinstance(message, Claimed):
        return Claim()
    if isinstance(message, Conceded):
        return Concede()
    if isinstance(message, Contested):
        return Contest()
    if isinstance(message, Voted):
        return Vote(message.accept)
    return None


@dataclass(frozen=True, slots=True)
class FaceoffMove:
    """A seat's body as the table applies it: the seat, the round it names, its message."""

    seat: int
    round: int
    message: Message
