"""Blitz!'s bots against each other on the pure rules: how the game plays, by self-play.

    python bench/faceoff_selfplay.py [--games 200] [--seed 1] [--mode typed|spoken]
                                     [--pack PACK.json]

No sockets and no clock: the bench plays the table itself, on simulated time. It turns cards
from a seeded shuffle (the hidden-card service), rolls a seeded die, closes a waiting
answer's window ``ANSWER_WINDOW`` seconds after it came and a vote's ``VOTE_WINDOW`` after it
opened, and never has a tie (every bot acts at its own instant). Each bot waits the delay its
level asks for (``bots.delay``) before each look.

For each table size from 3 to 6 seats, bots of the two levels sit alternately (easy, sharp,
easy...). Prints, per size: face-offs per card turned, the share of face-offs that held a
vote, the shares decided by a vote, by the list, by silence and by a concession, and how
much of the win each level takes per seat, against an even share of 1.00 (a shared win is
split).
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from dutchblitz.protocol.games.faceoff import pack
from dutchblitz.protocol.games.faceoff.bots import LEVELS, Level, bot_move, delay
from dutchblitz.protocol.games.faceoff.moves import (
    TABLE,
    Answer,
    Concede,
    Contest,
    Move,
    Roll,
    Turn,
    TurnFrom,
    Vote,
    WindowClosed,
)
from dutchblitz.protocol.games.faceoff.rules import apply
from dutchblitz.protocol.games.faceoff.state import Game, Mode, Phase, new_game, winners

ANSWER_WINDOW = 6.0  # seconds an unlisted answer or a claim waits for a contest (F-29)
VOTE_WINDOW = 8.0  # seconds a vote stays open (F-29)
MAX_STEPS = 20000  # a game that runs longer is a bug in the bots or the rules


@dataclass
class Tally:
    games: int = 0
    turned: int = 0
    faceoffs: int = 0
    voted: int = 0  # face-offs that held at least one vote
    decided: Counter[str] = field(default_factory=Counter)
    win: Counter[str] = field(default_factory=Counter)  # shares of wins, by level
    seats: Counter[str] = field(default_factory=Counter)  # seats played, by level


@dataclass
class Dealer:
    """The hidden-card service: each draw pile's shuffled cards, top first."""

    piles: tuple[list[int], list[int]]

    @classmethod
    def shuffled(cls, state: Game, rng: random.Random) -> Dealer:
        cards = sorted(state.unseen)
        rng.shuffle(cards)
        return cls((cards[: state.hidden[0]], cards[state.hidden[0] :]))

    def open(self, state: Game, pile: int) -> int:
        if state.hidden[pile]:
            return self.piles[pile][len(self.piles[pile]) - state.hidden[pile]]
        return state.under[pile][0]


def _how(before: Game, move: Move) -> str:
    """How a face-off that this move ended was decided."""
    duel = before.faceoff
    if isinstance(move, Vote) or (duel is not None and duel.voting):
        return "vote"
    if isinstance(move, WindowClosed):
        return "silence"
    if isinstance(move, Answer):
        return "list"
    return "concede" if isinstance(move, Concede) else "other"


def _window(state: Game, now: float, old: float | None, was: tuple[object, ...]) -> float | None:
    """When the table closes the window of what waits now (None: nothing waits)."""
    duel = state.faceoff
    if state.phase is not Phase.FACEOFF or duel is None or duel.claimant is None:
        return None
    if old is not None and was == (duel.claimant, duel.voting):
        return old
    return now + (VOTE_WINDOW if duel.voting else ANSWER_WINDOW)


@dataclass
class Table:
    """One game on simulated time: the state, the bots' next looks, the open window."""

    state: Game
    levels: list[Level]
    rng: random.Random
    dealer: Dealer
    tally: Tally
    now: float = 0.0
    due: list[float] = field(default_factory=list)
    closes: float | None = None
    voted: set[int] = field(default_factory=set)  # the face-offs (by number) that voted

    def replan(self) -> None:
        self.due = [
            self.now + delay(self.state, s, lv, self.rng) for s, lv in enumerate(self.levels)
        ]

    def step(self, seat: int, move: Move) -> bool:
        before = self.state
        outcome = apply(before, seat, move)
        if outcome.refusal is not None:
            return False
        self.state = outcome.state
        if isinstance(move, Contest):
            self.voted.add(self.state.faceoffs)
        if sum(map(len, self.state.won)) > sum(map(len, before.won)):
            self.tally.decided[_how(before, move)] += 1
        duel = before.faceoff
        was = () if duel is None else (duel.claimant, duel.voting)
        self.closes = _window(self.state, self.now, self.closes, was)
        self.replan()
        return True

    def table_event(self) -> bool:
        """The table's own event, when one is due now: a roll, or a window that closed."""
        if self.state.phase is Phase.ROLL:
            return self.step(TABLE, Roll(self.rng.randrange(6)))
        if self.closes is not None and self.closes <= min(self.due):
            self.now = self.closes
            self.closes = None
            return self.step(TABLE, WindowClosed())
        return False

    def bot_turn(self) -> None:
        seat = min(range(len(self.due)), key=self.due.__getitem__)
        self.now = self.due[seat]
        chosen = bot_move(self.state, seat, self.levels[seat], self.rng)
        if isinstance(chosen, TurnFrom):
            chosen = Turn(chosen.pile, self.dealer.open(self.state, chosen.pile))
        if chosen is None or not self.step(seat, chosen):
            self.due[seat] = self.now + delay(self.state, seat, self.levels[seat], self.rng)


def play_one(book: pack.Pack, levels: list[Level], mode: Mode, rng: random.Random,
             tally: Tally) -> None:  # fmt: skip
    state = new_game(book, len(levels), first=rng.randrange(len(levels)), mode=mode)
    table = Table(state, levels, rng, Dealer.shuffled(state, rng), tally)
    table.replan()
    for _ in range(MAX_STEPS):
        if table.state.phase is Phase.OVER:
            break
        if not table.table_event():
            table.bot_turn()
    else:
        raise RuntimeError("a game did not end")
    final = table.state
    tally.games += 1
    tally.turned += final.turned
    tally.faceoffs += final.faceoffs
    tally.voted += len(table.voted)
    best = winners(final)
    for seat, level in enumerate(levels):
        tally.seats[level.name] += 1
        if seat in best:
            tally.win[level.name] += 1 / len(best)


def run(book: pack.Pack, seats: int, games: int, mode: Mode, seed: int) -> Tally:
    rng = random.Random(seed * 1000 + seats)
    order = list(LEVELS.values())
    levels = [order[s % len(order)] for s in range(seats)]
    tally = Tally()
    for _ in range(games):
        play_one(book, levels, mode, rng, tally)
    return tally


def share(tally: Tally, level: str) -> float:
    """A level's wins per seat, against an even share of 1.00 (every game has one win)."""
    seats, everyone = tally.seats[level], sum(tally.seats.values())
    return (
        0.0
        if not seats or not tally.games
        else (tally.win[level] / seats) / (tally.games / everyone)
    )


def row(seats: int, tally: Tally) -> str:
    decided = sum(tally.decided.values()) or 1
    parts = [f"{seats:>5}", f"{tally.faceoffs / max(tally.turned, 1):>8.2f}"]
    parts.append(f"{tally.voted / max(tally.faceoffs, 1):>6.0%}")
    parts += [f"{tally.decided[k] / decided:>7.0%}" for k in ("vote", "list", "silence", "concede")]
    parts += [f"{share(tally, name):>7.2f}" for name in LEVELS]
    return " ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mode", choices=[m.value for m in Mode], default=Mode.TYPED.value)
    parser.add_argument("--pack", type=Path, help="a pack file (default: the shipped en pack)")
    args = parser.parse_args()
    book = pack.shipped("en") if args.pack is None else pack.load(args.pack)
    names = " ".join(f"{name:>7}" for name in LEVELS)
    print(f"seats per-card voted    vote    list silence concede {names}")
    for seats in range(3, 7):
        print(row(seats, run(book, seats, args.games, Mode(args.mode), args.seed)))
    print(f"{args.games} games a size, {args.mode}; win columns: share per seat, 1.00 is even")


if __name__ == "__main__":
    main()
