"""Write the door vectors, spec/vectors/door.json (spec/protocol.md section 17).

    python -m tests.protocol.export_door_vectors            # from the repository root

Two whole exchanges, a private table and an open one, for fixed keys, nonces and SPAKE2
entropy, and a few door messages with what a door makes of them. test_door_vectors checks
that the committed file is what this writes and that the implementation passes it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from dutchblitz.protocol.door.codec import Kind, encode
from dutchblitz.protocol.door.vectors import replay
from dutchblitz.protocol.wire.auth import Signer

TARGET = Path(__file__).resolve().parents[2] / "spec" / "vectors" / "door.json"
ABOUT = (
    "Door vectors for spec/protocol.md section 17: see protocol/door/vectors.py for the format. "
    "exchanges: whole door exchanges for fixed secrets (keys, nonces, SPAKE2 entropy) with "
    "every derived value (SPAKE2 scalars and messages, the key k, the MAC key m, the "
    "transcript t, signatures, MACs and the four messages). messages: door message bytes "
    "and the kind a door reads or why it finds them malformed. Bytes are hex; scalars are "
    "32 bytes little-endian. Regenerate with python -m tests.protocol.export_door_vectors."
)


def _bytes(label: str, size: int = 32) -> bytes:
    return hashlib.blake2b(label.encode(), digest_size=size).digest()


def _side(label: str, name: str, port: int, private: bool) -> dict[str, Any]:
    seed = _bytes(f"door vector {label} key")
    signer = Signer(seed)
    side: dict[str, Any] = {
        "seed": seed.hex(),
        "card": {
            "node": signer.node_id.hex(),
            "key": signer.public_key.hex(),
            "endpoint": f"tcp://192.0.2.{port % 250}:{port}",
            "name": name,
        },
        "nonce": _bytes(f"door vector {label} nonce").hex(),
    }
    if private:
        side["entropy"] = _bytes(f"door vector {label} entropy", 64).hex()
    return side


def exchange(name: str, table: str, passphrase: str | None) -> dict[str, Any]:
    private = passphrase is not None
    vector: dict[str, Any] = {
        "spec": ["P-123", "P-127", "P-128", "P-129", "P-206", "P-207", "P-208"]
        if private
        else ["P-123", "P-127"],
        "name": name,
        "table": table,
        "passphrase": passphrase,
        "knocker": _side(f"{table} knocker", "Ann", 40001, private),
        "door": _side(f"{table} door", "Bob", 40002, private),
    }
    for key, value in replay(vector).items():
        where = vector
        *path, last = key.split(".")
        for part in path:
            where = where[part]
        where[last] = value
    return vector


def messages() -> list[dict[str, Any]]:
    welcome = encode(Kind.WELCOME)
    rows: list[tuple[str, bytes, str | None, str | None]] = [
        ("a WELCOME", welcome, "WELCOME", None),
        ("a REFUSED busy", encode(Kind.REFUSED, "busy"), "REFUSED", None),
        ("another version", b"\x92\x02\x04", None, "version"),
        ("an unknown kind", b"\x92\x01\x06", None, "unknown kind"),
        ("a WELCOME with a field", b"\x93\x01\x04\x00", None, "bad length"),
        ("not canonical: a WELCOME as array 16", b"\xdc\x00\x02\x01\x04", None, "not canonical"),
        ("not an array", b"\x01", None, "not an array"),
        ("over 1024 bytes", b"\x93\x01\x05\xda\x04\x00" + b"a" * 1024, None, "oversize"),
        ("a REFUSED with an empty reason", b"\x93\x01\x05\xa0", None, "bad str"),
    ]
    found = []
    for name, data, kind, problem in rows:
        vector: dict[str, Any] = {"spec": ["P-121", "P-122"], "name": name, "bytes": data.hex()}
        if kind is not None:
            vector["kind"] = kind
        else:
            vector["malformed"] = problem
        found.append(vector)
    return found


def build() -> dict[str, Any]:
    return {
        "about": ABOUT,
        "exchanges": [
            exchange("a private table", "kitchen", "correct horse battery staple"),
            exchange("a private table, a phrase in two Unicode forms", "caf\u00e9", "cafe\u0301"),
            exchange("an open table", "kitchen", None),
        ],
        "messages": messages(),
    }


def main() -> None:
    TARGET.write_text(json.dumps(build(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
