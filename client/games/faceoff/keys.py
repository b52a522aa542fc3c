"""Blitz!'s keys at the table, by what they do. One key per action; the answer line takes
every other key while its player may type an answer (F-24).

Which keys are live depends on the moment: ``live(view)`` lists them for the key bar, and
``press(view, typed, key)`` turns a key into an action for the table (a pure function).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, TypeAlias

from dutchblitz.protocol.games.faceoff.moves import (
    Answer,
    Claim,
    Concede,
    Contest,
    TurnFrom,
    Vote,
)
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
Action: TypeAlias = Answer | Claim | Concede | Contest | TurnFrom | Vote


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


# A key as the frame names it: a printable character, or one of these.
ENTER_KEY: Final = "enter"
ESCAPE_KEY: Final = "escape"
TAB_KEY: Final = "tab"
SPACE_KEY: Final = "space"
BACKSPACE_KEY: Final = "backspace"
MAX_TYPED: Final = 60  # an answer's length on the answer line


@dataclass(frozen=True, slots=True)
class Pressed:
    """What a key did: the answer line after it, and the action it asks for (None: none)."""

    typed: str
    action: Action | None = None
    hint: str = ""  # why a key did nothing, for a notice


def _typing(view: TableView, typed: str, key: str) -> Pressed:
    if key == ENTER_KEY:
        return Pressed("", Answer(typed)) if typed.strip() else Pressed(typed, hint="empty")
    if key == ESCAPE_KEY:
        return Pressed("")
    if key == BACKSPACE_KEY:
        return Pressed(typed[:-1])
    if key == TAB_KEY:
        return Pressed("", Concede())
    text = " " if key == SPACE_KEY else key
    if len(text) == 1 and text.isprintable() and len(typed) < MAX_TYPED:
        return Pressed(typed + text)
    return Pressed(typed)


def press(view: TableView, typed: str, key: str) -> Pressed:
    """One key at the table, as a pure function of the view and the answer line."""
    if typing(view):
        return _typing(view, typed, key)
    if key in PILE_KEYS and may_turn(view):
        return Pressed(typed, TurnFrom(PILE_KEYS.index(key)))
    if key == SPACE_KEY and may_answer(view):
        return Pressed(typed, Claim())
    if key == TAB_KEY and in_faceoff(view) and view.faceoff is not None:
        return Pressed(typed, None if view.faceoff.voting else Concede())
    if key == CONTEST and may_contest(view):
        return Pressed(typed, Contest())
    if key in (ACCEPT, REFUSE) and may_vote(view):
        return Pressed(typed, Vote(key == ACCEPT))
    return Pressed(typed, hint="" if key in (HELP, ESCAPE_KEY) else "not_now")
