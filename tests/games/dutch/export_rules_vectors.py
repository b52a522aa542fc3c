"""Write the rules vectors of Dutch, spec/vectors/dutch_rules.json (spec/dutch.md).

    python -m tests.games.dutch.export_rules_vectors            # from the repository root

Each case is a scripted round below, played by the reference rules; the file is what they
give. test_rules_vectors checks that the committed file is what this writes.
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

from dutchblitz.protocol.games.dutch.moves import (
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
from dutchblitz.protocol.games.dutch.rules_vectors import describe, play

from tests.games.dutch.table import deck

TARGET = Path(__file__).resolve().parents[3] / "spec" / "vectors" / "dutch_rules.json"
ABOUT = (
    "Rules vectors for Dutch (spec/dutch.md): see protocol/games/dutch/rules_vectors.py for "
    "the format. A card code is suit * 13 + rank - 1 (clubs 0, diamonds 1, hearts 2, spades "
    "3; Ace 1 to King 13), the Jokers 52 and 53; the deck lists the card under each token. "
    "Regenerate with python -m tests.games.dutch.export_rules_vectors."
)
THREE = ("2c 3c 4c 5c", "2d 3d 4d 5d", "2h 3h 4h 5h")
PEEKS = [(s, InitialPeek(0, 1)) for s in range(3)]
D, X = Draw(), Discard()

# (spec id, name, hands, draw pile top first, starter, penalised, moves)
SCENARIOS: list[tuple[str, str, tuple[str, ...], str, int, tuple[int, ...], list[Any]]] = [
    (
        "D-5",
        "3 seats, seat 1 dealt a fifth card",
        ("2c 3c 4c 5c", "2d 3d 4d 5d 6d", THREE[2]),
        "",
        0,
        (1,),
        [],
    ),
    (
        "D-6",
        "peeks open two own cards; a second is refused",
        THREE,
        "",
        1,
        (),
        [(2, InitialPeek(3, 1)), (2, InitialPeek(0, 2)), (0, D)],
    ),
    ("D-7", "the starter draws once everyone has peeked", THREE, "9s", 1, (), [*PEEKS, (0, D)]),
    (
        "D-11",
        "replace: the drawn card goes down, the old one up",
        THREE,
        "9s",
        0,
        (),
        [*PEEKS, (0, D), (0, Replace(2))],
    ),
    (
        "D-14",
        "a Jack swaps two cards of two hands",
        THREE,
        "Jc",
        0,
        (),
        [*PEEKS, (0, D), (0, X), (0, Swap(Spot(0, 0), Spot(2, 3)))],
    ),
    (
        "D-15",
        "a Queen looks at another player's card",
        THREE,
        "Qc",
        0,
        (),
        [*PEEKS, (0, D), (0, X), (0, Look(Spot(1, 2)))],
    ),
    (
        "D-16",
        "an Ace gives the top card to an opponent, not to oneself",
        THREE,
        "Ac 8s",
        0,
        (),
        [*PEEKS, (0, D), (0, X), (0, Give(0)), (0, Give(2))],
    ),
    (
        "D-17",
        "a discarded Joker brings a penalty card",
        THREE,
        "* 8s",
        0,
        (),
        [*PEEKS, (0, D), (0, X)],
    ),
    (
        "D-18",
        "a black King is thrown on a red King",
        ("Ks 3c 4c 5c", *THREE[1:]),
        "Kh",
        0,
        (),
        [*PEEKS, (0, D), (0, X), (0, Throw(0))],
    ),
    (
        "D-20",
        "a throw after the next draw is refused at no cost",
        ("2c 3c 4c 9c", *THREE[1:]),
        "9s 7h",
        0,
        (),
        [*PEEKS, (0, D), (0, X), (1, D), (0, Throw(3))],
    ),
    (
        "D-22",
        "matching throws leave gaps",
        ("2c 3c 9d 9c", "9h 3d 4d 5d", THREE[2]),
        "9s",
        0,
        (),
        [*PEEKS, (0, D), (0, X), (1, Throw(0)), (0, Throw(3)), (0, Throw(2))],
    ),
    (
        "D-23",
        "a wrong throw stays face up and brings a penalty",
        THREE,
        "9s 6c",
        0,
        (),
        [*PEEKS, (0, D), (0, X), (1, Throw(2))],
    ),
    (
        "D-28",
        "a call locks the caller's hand",
        THREE,
        "9s Jc",
        0,
        (),
        [
            *PEEKS,
            (0, D),
            (0, X),
            (1, CallDutch()),
            (0, CallDutch()),
            (0, Throw(0)),
            (1, D),
            (1, X),
            (1, Swap(Spot(0, 0), Spot(2, 0))),
            (1, Skip()),
        ],
    ),
    (
        "D-31",
        "a successful Dutch scores 0",
        ("Ac 2c 3c 4c", "9d 9h 9s 9c", "8d 8h 8s 8c"),
        "5s 5h 5d",
        0,
        (),
        [*PEEKS, (0, D), (0, X), (0, CallDutch()), (1, D), (1, X), (2, D), (2, X)],
    ),
    (
        "D-32",
        "a tie fails the Dutch: two cards are added",
        ("9d 9h 9s 9c", "8d 8h 10s 10c", "Jc Jd Jh Js"),
        "2s 7s 5d 3h 4h",
        1,
        (),
        [*PEEKS, (1, D), (1, X), (1, CallDutch()), (2, D), (2, X), (0, D), (0, X)],
    ),
    (
        "D-36",
        "a player leaves holding a drawn card",
        THREE,
        "9s 8s",
        0,
        (),
        [*PEEKS, (0, D), (0, Leave()), (1, D)],
    ),
]


def _move(seat: int, move: Move) -> dict[str, Any]:
    encoded: dict[str, Any] = {"seat": seat, "type": type(move).__name__}
    for field in fields(move):  # type: ignore[arg-type]
        value = getattr(move, field.name)
        if value == field.default:  # Leave's handed_over: the file says only what differs
            continue
        name = "to" if isinstance(move, Give) else field.name
        encoded[name] = [value.seat, value.slot] if isinstance(value, Spot) else value
    return encoded


def case(scenario: tuple[str, str, tuple[str, ...], str, int, tuple[int, ...], list[Any]]) -> Any:
    spec, name, hands, draw, starter, penalised, moves = scenario
    vector: dict[str, Any] = {
        "spec": spec,
        "name": name,
        "seats": len(hands),
        "starter": starter,
        "penalised": list(penalised),
        "deck": [c.code for c in deck(hands, draw, penalised)],
        "moves": [_move(seat, move) for seat, move in moves],
    }
    state, found = play(vector)
    vector["expect"] = found
    vector["after"] = describe(state)
    if state.phase.value == "over":
        from dutchblitz.protocol.games.dutch.scoring import score_round

        vector["scores"] = list(score_round(state).scores)
    return vector


def build() -> dict[str, Any]:
    return {"about": ABOUT, "cases": [case(s) for s in SCENARIOS]}


def main() -> None:
    TARGET.write_text(json.dumps(build(), indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
