"""spec/vectors/door.json (spec/protocol.md section 17): every case passes, the file is what
export_door_vectors writes, SPAKE2's password scalar and key follow section 17.5 as written,
and a wrong vector is caught."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import subprocess
import sys
from importlib import resources
from typing import Any

import pytest
from dutchblitz.protocol.conformance.case import Case
from dutchblitz.protocol.door import vectors as door_vectors

from tests.protocol import export_door_vectors

L = 2**252 + 27742317777372353535851937790883648493


def vectors() -> dict[str, Any]:
    source = resources.files("dutchblitz.vectors").joinpath("door.json")
    data: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return data


CASES = door_vectors.cases(vectors())


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.spec_id} {c.name}")
def test_vector(case: Case) -> None:
    assert case.run() is None


def test_the_file_is_what_the_exporter_writes() -> None:
    assert export_door_vectors.build() == vectors()


def _hkdf(ikm: bytes, info: bytes, size: int) -> bytes:
    prk = hmac.new(bytes(32), ikm, hashlib.sha256).digest()
    out, block, counter = b"", b"", 1
    while len(out) < size:
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.sha256).digest()
        out, counter = out + block, counter + 1
    return out[:size]


@pytest.mark.parametrize("index", [0, 1])
def test_spake2_as_section_17_5_words_it(index: int) -> None:
    """P-128, P-206, P-208: w, x and k computed from the text, apart from the library."""
    vector = vectors()["exchanges"][index]
    password = bytes.fromhex(vector["password"])
    w = int.from_bytes(_hkdf(password, b"SPAKE2 pw", 48), "big") % L
    assert w.to_bytes(32, "little").hex() == vector["w"]
    for side in ("knocker", "door"):
        x = int.from_bytes(bytes.fromhex(vector[side]["entropy"]), "big") % L
        assert x.to_bytes(32, "little").hex() == vector[side]["scalar"]
        assert vector[side]["pake"].startswith("53")
    elements = sorted(bytes.fromhex(vector[s]["pake"])[1:] for s in ("knocker", "door"))
    identity = bytes.fromhex(vector["identity"])
    assert identity == b"blitz-door/1/" + vector["table"].encode()
    k = hashlib.sha256(
        hashlib.sha256(password).digest()
        + hashlib.sha256(identity).digest()
        + elements[0]
        + elements[1]
        + bytes.fromhex(vector["K"])
    ).digest()
    assert k.hex() == vector["k"]
    m = hashlib.blake2b(k, digest_size=32, person=b"blitz-door-mac").digest()
    assert m.hex() == vector["m"]
    t = bytes.fromhex(vector["t"])
    mac_d = hashlib.blake2b(b"blitz door door\x00" + t, digest_size=32, key=m).digest()
    assert mac_d.hex() == vector["door"]["mac"]


def test_the_phrase_is_normalised() -> None:
    """P-128: two Unicode forms of one phrase give one password."""
    vector = vectors()["exchanges"][1]
    assert vector["passphrase"] != "caf\u00e9"
    assert bytes.fromhex(vector["password"]) == "caf\u00e9".encode()


@pytest.mark.parametrize("field", ["t", "k", "knock"])
def test_a_wrong_vector_is_caught(field: str) -> None:
    vector = copy.deepcopy(vectors()["exchanges"][0])
    vector[field] = "00" + vector[field][2:]
    assert door_vectors.cases({"exchanges": [vector]})[0].run() is not None


RUNNERS = ["dutchblitz.protocol.conformance", "dutchblitz.node.cli.conformance"]


@pytest.mark.parametrize("runner", RUNNERS)
def test_both_runners_run_every_vector(runner: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", runner],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "door exchanges: a private table" in done.stdout
    assert done.stdout.strip().endswith(" 0 failed")
