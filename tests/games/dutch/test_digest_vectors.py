"""spec/vectors/dutch_digests.json: every point of a Dutch table's log passes, a wrong one is
caught, the file is what export_digest_vectors writes, and Dutch's table in the public state
is spec/dutch-deal.md M-41's form (spec/protocol.md P-96, P-159, P-160)."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import msgpack
import pytest
from dutchblitz.protocol.conformance import digest_vectors
from dutchblitz.protocol.conformance.case import Case
from dutchblitz.protocol.games.dutch.game import GAME as RULES
from dutchblitz.protocol.games.dutch.game import public_form
from dutchblitz.protocol.games.dutch.table import DutchTable
from dutchblitz.protocol.games.dutch.wire import GAME_ID
from dutchblitz.protocol.table.state import Game
from dutchblitz.protocol.wire.codec import decode
from dutchblitz.protocol.wire.messages import Admit, Deal, Event, GameBody, Start

from tests.games.dutch import export_digest_vectors


def vectors() -> dict[str, Any]:
    source = resources.files("dutchblitz.vectors").joinpath("dutch_digests.json")
    data: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return data


CASES = digest_vectors.cases(vectors())


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.spec_id} {c.name}")
def test_vector(case: Case) -> None:
    """P-96, P-157 to P-160, M-41: chain, public state and digest at every point."""
    assert case.run() is None


def test_the_file_is_what_the_exporter_writes() -> None:
    """Regenerate with ``python -m tests.games.dutch.export_digest_vectors``."""
    assert export_digest_vectors.build() == vectors()


def test_every_phase_and_stage_has_a_point() -> None:
    points = [p for run in vectors()["runs"] for p in run["points"]]
    assert {p["phase"] for p in points} == {"lobby", "dealing", "playing", "over"}
    stages = {None, "keys", "shuffle", "play", "reveal", "audit", "done"}
    assert {p["stage"] for p in points} == stages
    assert {0, 1, 2} <= {p["round"] for p in points}  # a round after another


@pytest.mark.parametrize("field", ["digest", "public", "chain"])
def test_a_wrong_point_is_caught(field: str) -> None:
    data = copy.deepcopy(vectors())
    point = data["runs"][0]["points"][-1]
    point[field] = "00" * (len(point[field]) // 2)
    assert digest_vectors.cases(data)[0].run() is not None


def _bodies(run: dict[str, Any]) -> list[Any]:
    found = []
    for hexed in run["events"]:
        envelope = decode(bytes.fromhex(hexed))
        assert isinstance(envelope.payload, Event)
        found.append((envelope.sender, envelope.payload.body))
    return found


def _games(run: dict[str, Any]) -> Any:
    game = Game()
    for sender, body in _bodies(run):
        game.apply(sender, body)
        yield game


def test_the_table_part_is_the_dutch_public_form() -> None:
    """M-41: the table inside the public state is Dutch's own form, of 16 fields before
    the deal and 25 once it is dealt, and the last field holds the game's rounds (P-247)."""
    sizes = set()
    for game in _games(vectors()["runs"][0]):
        form = game.public_form()
        if isinstance(game.table, DutchTable):
            assert form[7] == public_form(game.table)
            sizes.add(len(form[7]))
        if game.rounds is not None:
            assert form[-1] == ["rounds", export_digest_vectors.ROUNDS]
    assert game.rounds == export_digest_vectors.ROUNDS
    assert sizes == {16, 25}


def test_the_public_bytes_decode_to_the_grammar() -> None:
    """P-159: the public state is one msgpack array; at the end of the game its winner is a
    seat with the lowest total (P-245), and no field is a map."""
    last = vectors()["runs"][0]["points"][-1]
    state = msgpack.unpackb(bytes.fromhex(last["public"]), raw=False, strict_map_key=False)
    assert state[0] == "over"
    totals = dict(state[8])
    assert state[10] == min(totals, key=lambda seat: (totals[seat], seat))

    def no_map(value: Any) -> bool:
        if isinstance(value, list):
            return all(no_map(v) for v in value)
        return not isinstance(value, dict)

    assert no_map(state)


def test_a_dutch_table_names_its_game() -> None:
    """P-234, P-242, P-243, P-244: the founding ADMIT names `dutch`, every GAME body carries
    id 2, and every accepted DEAL shows four cards, whatever the number of players."""
    run, renamed, _ = vectors()["runs"]
    first = _bodies(run)[0][1]
    assert isinstance(first, Admit) and first.game == "dutch" == RULES.tag
    starts = [b for _, b in _bodies(renamed) if isinstance(b, Start) and b.game is not None]
    assert [s.game for s in starts] == ["highcard-not-known", "dutch"]  # refused, then taken
    for each in (run, renamed):
        bodies = [b for _, b in _bodies(each)]
        assert {b.game for b in bodies if isinstance(b, GameBody)} == {GAME_ID} == {2}
        assert {len(b.visible) for b in bodies if isinstance(b, Deal)} == {4}


def test_no_face_open_to_fewer_than_all_is_public() -> None:
    """M-42: every face in the public form is open to all; cards seen by some only are in
    `seen`, by token, never with their face."""
    privately_seen = 0
    for game in _games(vectors()["runs"][0]):
        table = game.table
        if not isinstance(table, DutchTable) or table.round is None:
            continue
        played = table.round
        form = public_form(table)
        opened = {token for token, _ in form[19]}
        assert all(len(table.deal.shares_of(token)) == table.players for token in opened)
        privately_seen += sum(
            1 for token, seen in enumerate(played.seen_by) if seen and token not in opened
        )
    assert privately_seen > 0
