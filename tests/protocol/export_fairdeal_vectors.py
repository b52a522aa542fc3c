"""Write the fair-deal vectors, spec/vectors/fairdeal.json (spec/protocol.md P-107).

    python -m tests.protocol.export_fairdeal_vectors            # from the repository root

The values are computed here as the spec words them, apart from protocol/table/fairdeal.py on
purpose; test_fairdeal_vectors checks that the committed file is what this writes and that
the implementation passes it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

TARGET = Path(__file__).resolve().parents[2] / "spec" / "vectors" / "fairdeal.json"
ABOUT = (
    "Fair-deal vectors for spec/protocol.md section 15 (P-107): see "
    "protocol/conformance/fairdeal_vectors.py for the format. commitments: a node id, round, "
    "secret and "
    "share, and the secret-hash and share-hash they give. joints: a round and the dealers' "
    "shares in seat order, and the joint randomness. decks: a seat, secret and joint, the "
    "deck seed and the deck order (card codes, top first). draws: a deck seed and the first "
    "32-bit words of its stream. Bytes are hex. Regenerate with "
    "python -m tests.protocol.export_fairdeal_vectors."
)


def _b2b(person: bytes, data: bytes, size: int = 32) -> bytes:
    return hashlib.blake2b(data, digest_size=size, person=person).digest()


def _words(seed: bytes) -> Any:
    block = 0
    while True:
        data = hashlib.blake2b(seed + block.to_bytes(8, "big"), digest_size=64).digest()
        for start in range(0, 64, 4):
            yield int.from_bytes(data[start : start + 4], "big")
        block += 1


def spec_deck(seat: int, secret: bytes, joint: bytes) -> tuple[bytes, list[int]]:
    seed = _b2b(b"blitz-deck", secret + joint)
    words = _words(seed)
    deck = [seat * 40 + place for place in range(40)]
    for i in range(39, 0, -1):
        bound = i + 1
        limit = 2**32 - (2**32 % bound)
        while True:
            word = next(words)
            if word < limit:
                j = word % bound
                break
        deck[i], deck[j] = deck[j], deck[i]
    return seed, deck


def _bytes(label: str, size: int = 32) -> bytes:
    return hashlib.blake2b(label.encode(), digest_size=size).digest()


def commitments() -> list[dict[str, Any]]:
    rows = [
        ("round 1 of a node", _bytes("node a", 16), 1, _bytes("secret a1"), _bytes("share a1")),
        ("the same secret in round 2", _bytes("node a", 16), 2, _bytes("secret a1"), _bytes("s")),
        ("another node", _bytes("node b", 16), 1, _bytes("secret b1"), _bytes("share b1")),
        ("zero bytes, round 2^32 - 1", bytes(16), 2**32 - 1, bytes(32), bytes(32)),
    ]
    found = []
    for name, node, number, secret, share in rows:
        round_bytes = number.to_bytes(4, "big")
        found.append(
            {
                "spec": "P-107",
                "name": name,
                "node": node.hex(),
                "round": number,
                "secret": secret.hex(),
                "share": share.hex(),
                "secret_hash": _b2b(b"blitz-secret", node + round_bytes + secret).hex(),
                "share_hash": _b2b(b"blitz-share", node + round_bytes + share).hex(),
            }
        )
    return found


def joints() -> list[dict[str, Any]]:
    rows = [
        ("two dealers", 1, [_bytes("share a1"), _bytes("share b1")]),
        ("the same shares in the other order", 1, [_bytes("share b1"), _bytes("share a1")]),
        ("one dealer", 7, [_bytes("share c7")]),
        ("eight dealers", 3, [_bytes(f"share {n}") for n in range(8)]),
    ]
    return [
        {
            "spec": "P-107",
            "name": name,
            "round": number,
            "shares": [s.hex() for s in shares],
            "joint": _b2b(b"blitz-joint", number.to_bytes(4, "big") + b"".join(shares)).hex(),
        }
        for name, number, shares in rows
    ]


def decks() -> list[dict[str, Any]]:
    rows = [
        ("seat 0", 0, _bytes("secret a1"), _bytes("joint 1")),
        ("seat 1, the same secret and joint", 1, _bytes("secret a1"), _bytes("joint 1")),
        ("seat 7", 7, _bytes("secret h"), _bytes("joint 2")),
        ("zero secret and joint", 3, bytes(32), bytes(32)),
    ]
    found = []
    for name, seat, secret, joint in rows:
        seed, order = spec_deck(seat, secret, joint)
        found.append(
            {
                "spec": "P-107",
                "name": name,
                "seat": seat,
                "secret": secret.hex(),
                "joint": joint.hex(),
                "seed": seed.hex(),
                "order": order,
            }
        )
    return found


def draws() -> list[dict[str, Any]]:
    seed = _b2b(b"blitz-deck", bytes(64))
    words = _words(seed)
    return [
        {
            "spec": "P-107",
            "name": "the first 40 words of a stream: two blocks and a half",
            "seed": seed.hex(),
            "words": [next(words) for _ in range(40)],
        }
    ]


def build() -> dict[str, Any]:
    return {
        "about": ABOUT,
        "commitments": commitments(),
        "joints": joints(),
        "decks": decks(),
        "draws": draws(),
    }


def main() -> None:
    TARGET.write_text(json.dumps(build(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
