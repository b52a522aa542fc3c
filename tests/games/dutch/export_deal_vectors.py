"""Write the deal vectors, spec/vectors/dutch_deal.json (spec/dutch-deal.md).

    python -m tests.games.dutch.export_deal_vectors            # from the repository root

The values are computed here as the spec words them, with libsodium's bindings directly and
apart from protocol/games/dutch/ on purpose; test_deal_vectors checks that the committed
file is what this writes and that the implementation passes it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from nacl import bindings as na

TARGET = Path(__file__).resolve().parents[3] / "spec" / "vectors" / "dutch_deal.json"
ABOUT = (
    "Vectors for the deal of Dutch with no dealer (spec/dutch-deal.md): see "
    "protocol/games/dutch/vectors.py for the format. Points and scalars are 32 bytes in hex; "
    "a deck digest is BLAKE2b-256 of its points in order (c1 then c2 of each card). "
    "Regenerate with python -m tests.games.dutch.export_deal_vectors."
)
G = bytes.fromhex("58" + "66" * 31)
IDENTITY = bytes([1]) + bytes(31)
TABLE = bytes.fromhex("00112233445566778899aabbccddeeff")
ROUND = 7


def h_scalar(person: bytes, *parts: bytes, key: bytes = b"") -> bytes:
    digest = hashlib.blake2b(digest_size=64, person=person, key=key)
    for part in parts:
        digest.update(len(part).to_bytes(4, "big") + part)
    return na.crypto_core_ed25519_scalar_reduce(digest.digest())


def card_point(code: int) -> bytes:
    uniform = hashlib.blake2b(b"card" + bytes([code]), digest_size=32, person=b"dutch-card-v1")
    return na.crypto_core_ed25519_from_uniform(uniform.digest())


def words(seed: bytes, label: bytes) -> Iterator[int]:
    block = 0
    while True:
        data = hashlib.blake2b(
            label + block.to_bytes(4, "big"), digest_size=64, key=seed, person=b"dutch-stream-v1"
        ).digest()
        yield from (int.from_bytes(data[i : i + 4], "big") for i in range(0, 64, 4))
        block += 1


def below(stream: Iterator[int], bound: int) -> int:
    limit = 2**32 - 2**32 % bound
    return next(w for w in stream if w < limit) % bound


def permutation(seed: bytes) -> list[int]:
    order, stream = list(range(54)), words(seed, b"permutation")
    for i in range(53, 0, -1):
        j = below(stream, i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def masks(seed: bytes) -> list[bytes]:
    return [h_scalar(b"dutch-mask-v1", b"mask", j.to_bytes(2, "big"), key=seed) for j in range(54)]


def secret(seed: bytes) -> bytes:
    return h_scalar(b"dutch-key-v1", b"secret", key=seed)


def mul(scalar: bytes, point: bytes) -> bytes:
    return na.crypto_scalarmult_ed25519_noclamp(scalar, point)


def base(scalar: bytes) -> bytes:
    return na.crypto_scalarmult_ed25519_base_noclamp(scalar)


def schnorr(x: bytes, ctx: bytes) -> tuple[bytes, bytes]:
    k = h_scalar(b"dutch-nonce-v1", b"key", ctx, key=x)
    e = h_scalar(b"dutch-key-v1", ctx, G, base(x), base(k))
    return e, na.crypto_core_ed25519_scalar_add(k, na.crypto_core_ed25519_scalar_mul(e, x))


def chaum_pedersen(x: bytes, c1: bytes, ctx: bytes) -> tuple[bytes, bytes, bytes]:
    d = mul(x, c1)
    k = h_scalar(b"dutch-nonce-v1", b"share", ctx, c1, key=x)
    e = h_scalar(b"dutch-share-v1", ctx, G, base(x), c1, d, base(k), mul(k, c1))
    return d, e, na.crypto_core_ed25519_scalar_add(k, na.crypto_core_ed25519_scalar_mul(e, x))


def shuffle(deck: list[tuple[bytes, bytes]], joint: bytes, seed: bytes) -> list[Any]:
    out = []
    for j, (p, r) in enumerate(zip(permutation(seed), masks(seed), strict=True)):
        c1, c2 = deck[p]
        out.append(
            (na.crypto_core_ed25519_add(c1, base(r)), na.crypto_core_ed25519_add(c2, mul(r, joint)))
        )
        assert j == len(out) - 1
    return out


def digest(deck: list[tuple[bytes, bytes]]) -> str:
    return hashlib.blake2b(b"".join(c1 + c2 for c1, c2 in deck), digest_size=32).hexdigest()


def _seed(tag: str, n: int) -> bytes:
    return hashlib.blake2b(f"{tag} {n}".encode(), digest_size=32).digest()


def _deal(players: int) -> dict[str, Any]:
    key_seeds = [_seed("key", players * 10 + s) for s in range(players)]
    shuffle_seeds = [_seed("shuffle", players * 10 + s) for s in range(players)]
    xs = [secret(s) for s in key_seeds]
    publics = [base(x) for x in xs]
    joint = publics[0]
    for public in publics[1:]:
        joint = na.crypto_core_ed25519_add(joint, public)
    deck = [(IDENTITY, card_point(c)) for c in range(54)]
    digests = []
    for seed in shuffle_seeds:
        deck = shuffle(deck, joint, seed)
        digests.append(digest(deck))
    token = 5
    ctx = TABLE + ROUND.to_bytes(4, "big") + bytes([token])
    shares = [chaum_pedersen(x, deck[token][0], ctx) for x in xs]
    point = deck[token][1]
    for d, _, _ in shares:
        point = na.crypto_core_ed25519_sub(point, d)
    code = [card_point(c) for c in range(54)].index(point)
    return {
        "spec": "M-10",
        "name": f"{players} players mask and shuffle, then open token {token}",
        "table": TABLE.hex(),
        "round": ROUND,
        "key_seeds": [s.hex() for s in key_seeds],
        "shuffle_seeds": [s.hex() for s in shuffle_seeds],
        "publics": [p.hex() for p in publics],
        "key_proofs": [
            [v.hex() for v in schnorr(x, TABLE + ROUND.to_bytes(4, "big") + bytes([s]))]
            for s, x in enumerate(xs)
        ],
        "joint": joint.hex(),
        "permutations": [permutation(s) for s in shuffle_seeds],
        "deck_digests": digests,
        "token": token,
        "card": [deck[token][0].hex(), deck[token][1].hex()],
        "shares": [[v.hex() for v in share] for share in shares],
        "code": code,
    }


def _streams() -> list[dict[str, Any]]:
    found = []
    for bound in (54, 7, 2**31 + 1):
        stream = words(_seed("stream", bound), b"permutation")
        found.append({
            "spec": "M-6",
            "name": f"numbers below {bound}",
            "seed": _seed("stream", bound).hex(),
            "label": "permutation",
            "bound": bound,
            "numbers": [below(stream, bound) for _ in range(12)],
        })  # fmt: skip
    return found


def _false_shares(deal: dict[str, Any]) -> list[dict[str, Any]]:
    """M-14: the first player's share, honest and then spoilt three ways."""
    d, e, s = deal["shares"][0]
    other = deal["shares"][1][0]
    honest = {"point": d, "e": e, "s": s}
    spoilt = [
        ("honest", honest, True),
        ("another player's point", {**honest, "point": other}, False),
        ("challenge and response swapped", {**honest, "e": s, "s": e}, False),
        ("a point outside the group", {**honest, "point": "ec" + "ff" * 30 + "7f"}, False),
    ]
    return [
        {
            "spec": "M-14",
            "name": name,
            "public": deal["publics"][0],
            "card": deal["card"],
            "context": TABLE.hex() + ROUND.to_bytes(4, "big").hex() + bytes([deal["token"]]).hex(),
            **share,
            "valid": valid,
        }
        for name, share, valid in spoilt
    ]


def build() -> dict[str, Any]:
    deals = [_deal(3), _deal(6)]
    return {
        "about": ABOUT,
        "cards": [
            {
                "spec": "M-4",
                "name": "the 54 card points",
                "points": [card_point(c).hex() for c in range(54)],
            }
        ],
        "streams": _streams(),
        "deals": deals,
        "shares": _false_shares(deals[0]),
        "audits": [
            {"spec": "M-21", "name": "an honest round", "deal": 0, "tamper": None, "cheats": []},
            {
                "spec": "M-21",
                "name": "seat 1 publishes position 0 twice, over position 1",
                "deal": 0,
                "tamper": {"seat": 1, "copy": 0, "over": 1},
                "cheats": [[1, "bad_shuffle"]],
            },
        ],
    }


def main() -> None:
    TARGET.write_text(json.dumps(build(), indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
