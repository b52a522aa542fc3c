"""Conformance cases for the rules of Dutch, from spec/vectors/dutch_rules.json
(spec/dutch.md). The file holds ``cases``, each a deal and the moves made on it:

* ``spec``: the rule the case shows (``D-21``), and a ``name``;
* ``seats``, ``starter``, ``penalised`` (seats dealt a fifth card) and ``deck``: the 54
  card codes by token (D-3, D-5);
* ``moves``: each an object with its class name in ``type`` (``InitialPeek``, ``Draw``,
  ``Discard``, ``Replace``, ``Swap``, ``Look``, ``Give``, ``Skip``, ``Throw``,
  ``CallDutch``, ``Leave``), the mover's ``seat``, and its fields: ``first``, ``second``,
  ``slot``; a spot is ``[seat, slot]``; an Ace's target is ``to``;
* ``expect``: per move, ``"ok"`` or the refusal code;
* ``after``: the round after the last move: ``hands`` (codes, ``null`` for a gap),
  ``discard`` (bottom first), ``draw`` (how many are left), ``phase``, ``turn``,
  ``window``, ``caller``, and ``seen``: per seat, the hand-card codes that seat may know;
* optionally ``scores``: what each seat adds when the round is over (D-31 to D-34).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from ...conformance.case import Case
from .cards import DutchCard
from .moves import (
    CallDutch,
    Discard,
    Draw,
    Give,
    InitialPeek,
    Leave,
    Look,
    Move,
    Replace,
    Skip,
    Spot,
    Swap,
    Throw,
)
from .rules import apply
from .scoring import score_round
from .state import Phase, Round, deal


def _spot(value: Any) -> Spot:
    return Spot(int(value[0]), int(value[1]))


_MOVES: dict[str, Any] = {
    "InitialPeek": lambda m: InitialPeek(int(m["first"]), int(m["second"])),
    "Draw": lambda m: Draw(),
    "Discard": lambda m: Discard(),
    "Replace": lambda m: Replace(int(m["slot"])),
    "Swap": lambda m: Swap(_spot(m["first"]), _spot(m["second"])),
    "Look": lambda m: Look(_spot(m["spot"])),
    "Give": lambda m: Give(int(m["to"])),
    "Skip": lambda m: Skip(),
    "Throw": lambda m: Throw(int(m["slot"])),
    "CallDutch": lambda m: CallDutch(),
    "Leave": lambda m: Leave(),
}


def move_from(data: Mapping[str, Any]) -> Move:
    move: Move = _MOVES[str(data["type"])](data)
    return move


def describe(state: Round) -> dict[str, Any]:
    """The round as a vector states it (``after``)."""

    def code(token: int | None) -> int | None:
        face = None if token is None else state.faces[token]
        return None if face is None else face.code

    return {
        "hands": [[code(t) for t in hand] for hand in state.hands],
        "discard": [code(t) for t in state.discard],
        "draw": len(state.draw),
        "phase": state.phase.value,
        "turn": state.turn,
        "window": state.window,
        "caller": state.caller,
        "seen": [
            sorted(
                c
                for hand in state.hands
                for t in hand
                if t is not None and state.knows(seat, t) and (c := code(t)) is not None
            )
            for seat in range(state.seats)
        ],
    }


def play(vector: Mapping[str, Any]) -> tuple[Round, list[str]]:
    state = deal(
        int(vector["seats"]),
        int(vector.get("starter", 0)),
        vector.get("penalised", []),
        [DutchCard(int(c)) for c in vector["deck"]],
    )
    found = []
    for data in vector["moves"]:
        outcome = apply(state, int(data["seat"]), move_from(data))
        found.append("ok" if outcome.refusal is None else outcome.refusal.reason.value)
        state = outcome.state
    return state, found


def _check(vector: Mapping[str, Any]) -> str | None:
    state, found = play(vector)
    if found != vector["expect"]:
        return f"outcomes {found}"
    if describe(state) != vector["after"]:
        return f"round {describe(state)}"
    if "scores" in vector:
        scores = list(score_round(state).scores) if state.phase is Phase.OVER else None
        if scores != vector["scores"]:
            return f"scores {scores}"
    return None


def cases(data: Mapping[str, Any]) -> list[Case]:
    return [
        Case(str(v.get("spec", "?")), str(v.get("name", "?")), partial(_check, v))
        for v in data.get("cases", [])
    ]
