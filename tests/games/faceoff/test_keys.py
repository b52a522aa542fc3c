"""Blitz!'s keys (client/games/faceoff/keys.py): one key per action, letters to the answer
line only while its player may answer (spec/faceoff.md F-9, F-24 to F-28, F-35)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest
from dutchblitz.client.games.faceoff import face
from dutchblitz.client.games.faceoff.keys import Pressed, press
from dutchblitz.protocol.games.faceoff.moves import (
    Answer,
    Claim,
    Concede,
    Contest,
    TurnFrom,
    Vote,
)
from dutchblitz.protocol.games.faceoff.state import Faceoff, Game, Mode, Phase
from dutchblitz.protocol.games.faceoff.views import view
from prompt_toolkit.formatted_text import to_plain_text

from .table import card, laid


def game(**changes: object) -> Game:
    state = laid(4, {0: [card(0)], 1: [card(0, 1)], 2: [card(2)]})
    return replace(state, **changes)  # type: ignore[arg-type]


IN_FACEOFF = {"phase": Phase.FACEOFF, "faceoff": Faceoff(0, 1)}
WAITING = {"phase": Phase.FACEOFF, "faceoff": Faceoff(0, 1, claimant=1, answer="x", text="x")}
VOTING = {"phase": Phase.FACEOFF,
          "faceoff": Faceoff(0, 1, claimant=1, answer="x", text="x", voting=True)}  # fmt: skip
TIE_DRAW = {"phase": Phase.TIE_DRAW, "faceoff": Faceoff(0, 1)}
CASES = [
    # (rule, state changes, seat, typed, key, what it does)
    ("F-9", {"turn": 2}, 2, "", "1", Pressed("", TurnFrom(0))),
    ("F-9", {"turn": 2}, 2, "", "2", Pressed("", TurnFrom(1))),
    ("F-9", {"turn": 2}, 3, "", "2", Pressed("", hint="not_now")),
    ("F-24", IN_FACEOFF, 0, "bri", "e", Pressed("brie")),
    ("F-24", IN_FACEOFF, 0, "brie", "enter", Pressed("", Answer("brie"))),
    ("F-24", IN_FACEOFF, 0, "  ", "enter", Pressed("  ", hint="empty")),
    ("F-24", IN_FACEOFF, 0, "bri", "backspace", Pressed("br")),
    ("F-24", IN_FACEOFF, 0, "bri", "escape", Pressed("")),
    ("F-24", IN_FACEOFF, 0, "1", "2", Pressed("12")),  # digits are part of an answer
    ("F-24", IN_FACEOFF, 0, "ab", "space", Pressed("ab ")),
    ("F-26", IN_FACEOFF, 0, "bri", "tab", Pressed("", Concede())),
    ("F-26", WAITING, 0, "", "tab", Pressed("", Concede())),
    ("F-24", IN_FACEOFF, 2, "", "y", Pressed("", hint="not_now")),
    ("F-27", WAITING, 2, "", "c", Pressed("", Contest())),
    ("F-27", WAITING, 1, "", "c", Pressed("", hint="not_now")),
    ("F-28", VOTING, 2, "", "y", Pressed("", Vote(True))),
    ("F-28", VOTING, 0, "", "n", Pressed("", Vote(False))),
    ("F-35", TIE_DRAW, 2, "", "1", Pressed("", TurnFrom(0))),
    ("F-35", TIE_DRAW, 3, "", "1", Pressed("", hint="not_now")),
]  # fmt: skip


@pytest.mark.parametrize(("rule", "changes", "seat", "typed", "key", "does"), CASES)
def test_a_key_does_one_thing(
    rule: str, changes: dict[str, object], seat: int, typed: str, key: str, does: Pressed
) -> None:
    assert press(view(game(**changes), seat), typed, key) == does, rule


def test_F25_spoken_space_claims_and_letters_do_not_type() -> None:
    spoken = game(mode=Mode.SPOKEN, **IN_FACEOFF)
    assert press(view(spoken, 0), "", "space") == Pressed("", Claim())
    assert press(view(spoken, 0), "", "a").action is None


def test_the_face_draws_the_view_in_the_frame() -> None:
    state = game(**IN_FACEOFF)
    snap = SimpleNamespace(seat_view=view(state, 0), players=[])
    client = SimpleNamespace(snap=snap, typed="bri", terminal=SimpleNamespace(columns=80, rows=24),
                             name_of=lambda seat: "ABCD"[seat])  # fmt: skip
    text = to_plain_text(face.table_screen(client))  # type: ignore[arg-type]
    assert "*** FACE-OFF: you against B ***" in text and "> your answer: bri_" in text
    assert len(text.splitlines()) <= 20
    assert "Enter" in to_plain_text(face.table_keybar(client))  # type: ignore[arg-type]
    assert face.FACE.tag == "faceoff"
