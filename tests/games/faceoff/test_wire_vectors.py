"""spec/vectors/faceoff_wire.json is what the exporter writes, and the implementation passes
every vector (F-46, F-47, F-48)."""

from __future__ import annotations

import json

from dutchblitz.protocol.games.faceoff import wire_vectors

from tests.games.faceoff.export_wire_vectors import TARGET, vectors


def test_f46_f48_the_committed_vectors_are_what_the_exporter_writes() -> None:
    assert json.loads(TARGET.read_text(encoding="utf-8")) == vectors()


def test_f46_f47_f48_the_implementation_passes_every_vector() -> None:
    found = wire_vectors.cases(json.loads(TARGET.read_text(encoding="utf-8")))
    assert len(found) > 20
    assert [(case.name, case.run()) for case in found if case.run() is not None] == []


def test_f46_a_payload_reads_back_through_json() -> None:
    data = vectors()
    for vector in data["valid"]:
        payload = wire_vectors.from_json(vector["payload"])
        assert wire_vectors.to_json(payload) == vector["payload"]
