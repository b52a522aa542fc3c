"""What everyone may see of a game of Blitz! (spec/faceoff.md F-43), and its public form.

Nothing in Blitz! is private to one seat: every turned card is turned for all to see, and
the only hidden thing, the order of the draw piles, the state does not know (F-8). So one
view serves every seat, a spectator and a replay; ``seat`` only says whose screen it is.
``public_form(state)`` is the whole state as plain lists, ints and strings, for the table's
digest: two nodes that applied the same moves hold the same form.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .pack import DIE, SYMBOLS, is_duel, symbol_of
from .rules import category_for, tie_drawer
from .state import Ending, Game, Mode, Phase, scores, winners

FORM_TAG = "faceoff/1"


@dataclass(frozen=True, slots=True)
class CardFace:
    """A turned category card as a screen shows it: its number, symbol and category."""

    card: int
    symbol: str
    category: str


@dataclass(frozen=True, slots=True)
class FaceoffView:
    """The face-off under way: who is in it, the card each must answer, what waits."""

    a: int
    b: int
    a_answers: CardFace
    b_answers: CardFace
    tie_card: CardFace | None
    claimant: int | None
    answer: str
    text: str
    voting: bool
    yes: int
    no: int
    voters: frozenset[int] = frozenset()  # who has voted, so a screen stops asking them


@dataclass(frozen=True, slots=True)
class TableView:
    """A game as seen by ``seat`` (None: a spectator); the same for everyone but ``seat``."""

    seat: int | None
    pack: str
    mode: Mode
    phase: Phase
    turn: int
    tops: tuple[CardFace | None, ...]
    play_left: tuple[int, ...]
    won: tuple[int, ...]
    active: frozenset[int]
    draw_left: tuple[int, int]
    duel_pair: tuple[str, str] | None
    faceoff: FaceoffView | None
    tie_drawer: int | None
    said: tuple[str, ...]
    ending: Ending | None
    winners: tuple[int, ...]
    turned: int = 0  # cards turned by turns so far (tie-break cards not counted)
    faceoffs: int = 0  # face-offs started so far: one more with no card turned is a cascade
    duels: int = 0  # Duels turned so far
    # F-20: the face-offs in a row that a won card made with no card turned in between:
    # 0 for the first after a turn, 1 for the first cascade, and so on.
    cascade: int = 0
    # The last face-off won, as the table saw it: winner, loser, and the winning answer as
    # typed ("" for a concession or a spoken claim); None before the first.
    last: tuple[int, int, str] | None = None
    dropped: tuple[int, str] | None = None  # in this face-off, what a vote refused: who, what
    strangers: frozenset[int] = frozenset()  # seats left out for playing another pack (F-47)


def card_face(state: Game, card: int) -> CardFace:
    if is_duel(card):
        return CardFace(card, "Duel", "")
    title = state.pack.category_of(card).title
    return CardFace(card, str(SYMBOLS[symbol_of(card)]), title)


def _faceoff(state: Game) -> FaceoffView | None:
    duel = state.faceoff
    if duel is None or state.phase is not Phase.FACEOFF:
        return None
    return FaceoffView(
        a=duel.a,
        b=duel.b,
        a_answers=card_face(state, category_for(state, duel.a)),
        b_answers=card_face(state, category_for(state, duel.b)),
        tie_card=None if duel.tie_card is None else card_face(state, duel.tie_card),
        claimant=duel.claimant,
        answer=duel.answer,
        text=duel.text,
        voting=duel.voting,
        yes=len(duel.yes),
        no=len(duel.no),
        voters=duel.yes | duel.no,
    )


def view(state: Game, seat: int | None = None) -> TableView:
    """F-43: the table as ``seat`` sees it, which is as everyone sees it."""
    pair = None if state.die is None else DIE[state.die]
    tops = tuple(state.top(s) for s in range(state.seats))
    faces = tuple(None if t is None else card_face(state, t) for t in tops)
    return TableView(
        seat=seat,
        pack=state.pack.pack,
        mode=state.mode,
        phase=state.phase,
        turn=state.turn,
        tops=faces,
        play_left=tuple(len(p) for p in state.play),
        won=scores(state),
        active=state.active,
        draw_left=(state.pile_size(0), state.pile_size(1)),
        duel_pair=None if pair is None else (str(SYMBOLS[pair[0]]), str(SYMBOLS[pair[1]])),
        faceoff=_faceoff(state),
        tie_drawer=tie_drawer(state) if state.phase is Phase.TIE_DRAW else None,
        said=tuple(sorted(state.said)),
        ending=state.ending,
        winners=winners(state) if state.phase is Phase.OVER else (),
        turned=state.turned,
        faceoffs=state.faceoffs,
        duels=len(state.duels),
        cascade=max(0, state.since_turn - 1) if state.faceoff is not None else 0,
    )


def _faceoff_form(state: Game) -> list[Any]:
    duel = state.faceoff
    if duel is None:
        return []
    tie = -1 if duel.tie_card is None else duel.tie_card
    claimant = -1 if duel.claimant is None else duel.claimant
    return [duel.a, duel.b, tie, duel.tie_pile, claimant, duel.answer, duel.text,
            int(duel.voting), sorted(duel.yes), sorted(duel.no)]  # fmt: skip


def public_form(state: Game) -> list[Any]:
    """F-43: the state as plain data for the table's digest (FORM_TAG names this layout)."""
    return [
        FORM_TAG,
        state.pack.digest,
        state.seats,
        state.mode.value,
        -1 if state.removed_face is None else state.removed_face,
        state.phase.value,
        state.turn,
        state.mover,
        int(state.again),
        -1 if state.die is None else state.die,
        list(state.hidden),
        [list(p) for p in state.under],
        sorted(state.unseen),
        [list(p) for p in state.play],
        [list(p) for p in state.won],
        list(state.duels),
        sorted(state.active),
        _faceoff_form(state),
        sorted(state.said),
        "" if state.ending is None else state.ending.value,
        state.turned,
        state.faceoffs,
    ]
