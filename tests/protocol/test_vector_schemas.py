"""spec/vectors: the index lists every vector file, each has a JSON Schema that it meets,
and the conformance runner runs exactly the files the index lists."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from dutchblitz.protocol.conformance.runner import VECTOR_FILES

VECTORS = Path(__file__).resolve().parents[2] / "spec" / "vectors"


def _load(name: str) -> Any:
    return json.loads((VECTORS / name).read_text(encoding="utf-8"))


INDEX = _load("index.json")


def test_the_index_lists_every_vector_file() -> None:
    on_disk = {p.name for p in VECTORS.glob("*.json") if not p.name.endswith(".schema.json")}
    listed = {entry["file"] for entry in INDEX["files"]}
    assert listed == on_disk - {"index.json"}
    schemas = {p.name for p in VECTORS.glob("*.schema.json")}
    assert {entry["schema"] for entry in INDEX["files"]} | {"index.schema.json"} == schemas


def test_the_runners_run_what_the_index_lists() -> None:
    """The protocol's runner its files, the door's included; the node's those and the framing's."""
    from dutchblitz.node.cli.conformance import NODE_VECTOR_FILES

    ran = [f.file for f in VECTOR_FILES] + [name for name, _ in NODE_VECTOR_FILES]
    assert ran == [entry["file"] for entry in INDEX["files"]]


@pytest.mark.parametrize(
    ("file", "schema"),
    [(e["file"], e["schema"]) for e in INDEX["files"]] + [("index.json", "index.schema.json")],
)
def test_each_file_meets_its_schema(file: str, schema: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    checker = jsonschema.Draft202012Validator(_load(schema))
    checker.check_schema(_load(schema))
    errors = [
        f"{list(e.absolute_path)}: {e.message[:200]}" for e in checker.iter_errors(_load(file))
    ]
    assert not errors, errors[:5]


def test_a_schema_catches_a_broken_vector() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    broken = _load("fairdeal.json")
    broken["decks"][0]["order"] = broken["decks"][0]["order"][:39]
    assert list(jsonschema.Draft202012Validator(_load("fairdeal.schema.json")).iter_errors(broken))
