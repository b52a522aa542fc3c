"""spec/vectors/digests.json: every case passes, a wrong vector is caught, and the file
is what export_digest_vectors writes from the harness today."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest
from dutchblitz.protocol.conformance import digest_vectors
from dutchblitz.protocol.conformance.case import Case
from dutchblitz.protocol.games.blitz.digest import public_form

from tests.protocol import export_digest_vectors


def vectors() -> dict[str, Any]:
    source = resources.files("dutchblitz.vectors").joinpath("digests.json")
    data: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return data


CASES = digest_vectors.cases(vectors())


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.spec_id} {c.name}")
def test_vector(case: Case) -> None:
    """P-96, P-157 to P-160: the chain, the encoding and the public state, at every point."""
    assert case.run() is None


def test_the_file_is_what_the_exporter_writes() -> None:
    """Regenerate with ``python -m tests.protocol.export_digest_vectors`` and read the diff."""
    assert export_digest_vectors.build() == vectors()


def test_every_phase_has_a_point() -> None:
    phases = {p["phase"] for run in vectors()["runs"] for p in run["points"]}
    assert phases == {"lobby", "dealing", "playing", "over"}
    rounds = {p["round"] for run in vectors()["runs"] for p in run["points"]}
    assert {0, 1, 2} <= rounds  # the lobby, and a round after another (between rounds)


@pytest.mark.parametrize("field", ["digest", "public", "chain"])
def test_a_wrong_point_is_caught(field: str) -> None:
    data = copy.deepcopy(vectors())
    point = data["runs"][0]["points"][-1]
    point[field] = "00" * (len(point[field]) // 2)
    assert digest_vectors.cases(data)[0].run() is not None


def test_a_missing_event_is_caught() -> None:
    data = copy.deepcopy(vectors())
    del data["runs"][0]["events"][5]
    assert digest_vectors.cases(data)[0].run() is not None


def test_the_chain_covers_the_signature() -> None:
    """P-157: the chain hashes the message bytes with their auth, so another auth differs."""
    run = vectors()["runs"][0]
    message = bytes.fromhex(run["events"][0])
    other = message[:-64] + bytes(64)
    first = digest_vectors.next_chain(b"", message[13:29], 1, message)
    assert first.hex() == run["points"][0]["chain"]
    assert digest_vectors.next_chain(b"", message[13:29], 1, other) != first


def test_the_table_part_is_the_rules_public_view() -> None:
    """The table inside the game's public state is R-37's encoding, unchanged."""
    game = None
    for game in _games():
        if game.table is not None:
            break
    assert game is not None and game.table is not None
    assert game.public_form()[7] == public_form(game.table)


def _games() -> Any:
    from dutchblitz.protocol.table.state import Game
    from dutchblitz.protocol.wire.codec import decode

    game = Game()
    for hexed in vectors()["runs"][0]["events"]:
        envelope = decode(bytes.fromhex(hexed))
        game.apply(envelope.sender, envelope.payload.body)  # type: ignore[union-attr]
        yield game


def test_a_player_away_adds_the_last_field() -> None:
    """P-150: while a player is away the public state has nineteen fields, else eighteen."""
    sizes = {p["public"][:6] for run in vectors()["runs"] for p in run["points"]}
    assert sizes == {"dc0012", "dc0013"}  # array 16 headers: 18 and 19 elements
