"""Write the wire vectors, spec/vectors/faceoff_wire.json (spec/faceoff.md F-46 to F-48).

    python -m tests.games.faceoff.export_wire_vectors            # from the repository root

The bytes are packed here with ``struct`` as F-46 words them, apart from wire.py on
purpose; test_wire_vectors checks that the committed file is what this writes and that the
implementation passes it.
"""

from __future__ import annotations

import hashlib
import json
import struct
from pathlib import Path
from typing import Any

TARGET = Path(__file__).resolve().parents[3] / "spec" / "vectors" / "faceoff_wire.json"
ABOUT = (
    "Vectors for Blitz!'s bodies on the table's wire and its openings (spec/faceoff.md F-46 "
    "to F-48): see protocol/games/faceoff/wire_vectors.py for the format. "
    "Regenerate with python -m tests.games.faceoff.export_wire_vectors."
)
ROUND = 7
DIGEST = bytes(range(32))
LINK = bytes(range(32, 64))


def head(kind: int) -> bytes:
    return struct.pack(">IB", ROUND, kind)


def payload(message: dict[str, Any]) -> dict[str, Any]:
    return {"type": "Payload", "round": ROUND, "message": message}


def valid() -> list[dict[str, Any]]:
    rows = [
        ("chain", {"type": "Chain", "digest": DIGEST.hex(), "end": LINK.hex()},
         head(0) + DIGEST + LINK),
        ("link", {"type": "Link", "number": 300, "link": LINK.hex()},
         head(1) + struct.pack(">H", 300) + LINK),
        ("wish", {"type": "Wish", "pile": 1}, head(2) + b"\x01"),
        ("said", {"type": "Said", "seen": 41, "text": "Crème brûlée"},
         head(3) + struct.pack(">I", 41) + "Crème brûlée".encode()),
        ("said, empty", {"type": "Said", "seen": 0, "text": ""}, head(3) + struct.pack(">I", 0)),
        ("claimed", {"type": "Claimed", "seen": 12}, head(4) + struct.pack(">I", 12)),
        ("conceded", {"type": "Conceded"}, head(5)),
        ("contested", {"type": "Contested"}, head(6)),
        ("voted, accept", {"type": "Voted", "accept": True}, head(7) + b"\x01"),
        ("voted, refuse", {"type": "Voted", "accept": False}, head(7) + b"\x00"),
        ("closed", {"type": "Closed", "window": 3}, head(8) + struct.pack(">I", 3)),
    ]  # fmt: skip
    return [
        {"spec": "F-46", "name": name, "payload": payload(message), "bytes": raw.hex()}
        for name, message, raw in rows
    ]


def invalid() -> list[dict[str, Any]]:
    rows = [
        ("too short", struct.pack(">I", ROUND), "short"),
        ("no kind 9", head(9), "unknown_kind"),
        ("a chain one byte short", head(0) + DIGEST + LINK[:-1], "bad_length"),
        ("a wish without its pile", head(2), "bad_length"),
        ("a conceded with a field", head(5) + b"\x00", "bad_length"),
        ("a vote of 2", head(7) + b"\x02", "bad_vote"),
        ("an answer without its count", head(3) + b"\x00\x00", "bad_length"),
        ("an answer not in UTF-8", head(3) + bytes(4) + b"\xff", "not_utf8"),
        ("an answer of 121 bytes", head(3) + bytes(4) + b"a" * 121, "long_text"),
    ]
    return [{"spec": "F-46", "name": name, "bytes": raw.hex(), "reason": reason}
            for name, raw, reason in rows]  # fmt: skip


def _hash(data: bytes, person: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=32, person=person).digest()


def chains() -> list[dict[str, Any]]:
    """F-47, F-48 worked from hashlib alone: a chain and one opening."""
    rows = []
    seeds = [bytes([seat + 1]) * 32 for seat in range(3)]
    firsts = {}
    for seat, seed in enumerate(seeds):
        value = _hash(seed + b"faceoff-openings", b"table-chain-v1")
        links = [value]
        for _ in range(512):
            value = _hash(value, b"table-chain-v1")
            links.append(value)
        end, link1 = links[-1], links[-2]
        firsts[seat] = link1
        rows.append({"seed": seed.hex(), "end": end.hex(), "link1": link1.hex()})
    body = struct.pack(">I", 1) + b"".join(bytes([s]) + firsts[s] for s in sorted(firsts))
    opened = _hash(body, b"table-open-v1").hex()
    links = {str(s): link.hex() for s, link in firsts.items()}
    return [
        {"spec": "F-48", "name": f"seat {seat}'s chain, and opening 1 of three seats",
         **row, "number": 1, "links": links, "opened": opened}
        for seat, row in enumerate(rows)
    ]  # fmt: skip


def vectors() -> dict[str, Any]:
    return {"about": ABOUT, "valid": valid(), "invalid": invalid(), "chains": chains()}


def main() -> None:
    TARGET.write_text(json.dumps(vectors(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
