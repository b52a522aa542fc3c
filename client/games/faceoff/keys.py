"""Blitz!'s keys at the table, by what they do. One key per action; the answer line takes
every other key while its player may type an answer (F-24).

Which keys are live depends on the moment: ``live(view)`` lists them, for the key bar and
for a binder that turns a key into an action.
"""

from __future__ import annotations

from typing import Final

from dutchblitz.protocol.games.faceoff.state import Mode, Phase
from dutchblitz.protocol.games.faceoff.views import TableView

PILE_KEYS: Final = ("1", "2")  # turn the top card of draw pile 1 or 2 (piles 0 and 1, F-9)
SEND: Final = "Enter"  # send the typed answer
CLEAR: Final = "Esc"  # clear the typed answer
GIVE_UP: Final = "Tab"  # concede the face-off (F-26): never part of an answer
CLAIM: Final = "Space"  # spoken: "I answered first" (F-25)
CONTEST: Final = "c"  # contest the answer or claim that waits (F-27)
ACCEPT: Final = "y"  # vote to accept (F-28)
REFUSE: Final = "n"  # vote to refuse (F-28)
HELP: Final = "?"


def in_faceoff(view: TableView) -> bool:
    duel = view.faceoff
    return duel is not None and view.seat in (duel.a, duel.b)


def may_answer(view: TableView) -> bool:
    """Whether this seat may answer (type, or claim) now: in the face-off, nothing waits."""
    duel = view.faceoff
    return in_faceoff(view) and duel is not None and duel.claimant is None and not duel.voting


def typing(view: TableView) -> bool:
    """Whether letters go to the answer line now (typed mode, this seat may answer)."""
    return view.mode is Mode.TYPED and may_answer(view)


def may_vote(view: TableView) -> bool:
    duel = view.faceoff
    return (
        duel is not None
        and duel.voting
        and view.seat is not None
        and view.seat in view.active
        and view.seat not in duel.voters
    )


def may_contest(view: TableView) -> bool:
    duel = view.faceoff
    return (
        duel is not None
        and not duel.voting
        and duel.claimant is not None
        and view.seat is not None
        and view.seat in view.active
        and view.seat != duel.claimant
    )


def may_turn(view: TableView) -> bool:
    if view.seat is None:
        return False
    if view.phase is Phase.TURN:
        return view.turn == view.seat
    return view.phase is Phase.TIE_DRAW and view.tie_drawer == view.seat


def live(view: TableView) -> list[tuple[str, str]]:
    """The keys that do something now, and what: for the key bar."""
    keys: list[tuple[str, str]] = []
    if may_turn(view):
        keys += [(f"{PILE_KEYS[0]}/{PILE_KEYS[1]}", "turn a card")]
    if typing(view):
        keys += [(SEND, "send"), (CLEAR, "clear"), (GIVE_UP, "give up")]
    elif may_answer(view):
        keys += [(CLAIM, "I answered first"), (GIVE_UP, "give up")]
    elif in_faceoff(view) and view.faceoff is not None and not view.faceoff.voting:
        keys.append((GIVE_UP, "give up"))  # F-26: the other's answer waits: grant it
    if may_contest(view):
        keys.append((CONTEST, "contest"))
    if may_vote(view):
        keys += [(ACCEPT, "accept"), (REFUSE, "refuse")]
    if not typing(view):
        keys.append((HELP, "help"))
    return keys
