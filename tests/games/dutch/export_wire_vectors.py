"""Write the wire vectors, spec/vectors/dutch_wire.json (spec/dutch-deal.md sections 6, 7).

    python -m tests.games.dutch.export_wire_vectors            # from the repository root

The bytes are packed here with msgpack directly, as the grammar of M-22 words them, and the
sealed share with libsodium's bindings as M-25 words it, apart from wire.py and seal.py on
purpose; test_wire_vectors checks that the committed file is what this writes and that the
implementation passes it. Points, proofs and decks come from the deal's code, which
spec/vectors/dutch_deal.json checks on its own.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import msgpack
from dutchblitz.protocol.games.dutch.cards import CARDS_IN_DECK
from dutchblitz.protocol.table.masked import elgamal
from dutchblitz.protocol.table.masked.elgamal import Share
from nacl import bindings as na

TARGET = Path(__file__).resolve().parents[3] / "spec" / "vectors" / "dutch_wire.json"
ABOUT = (
    "Vectors for Dutch's messages on the table's wire (spec/dutch-deal.md sections 6 and 7): "
    "see protocol/games/dutch/wire_vectors.py for the format. "
    "Regenerate with python -m tests.games.dutch.export_wire_vectors."
)
TABLE = bytes.fromhex("00112233445566778899aabbccddeeff")
ROUND = 7
L = 2**252 + 27742317777372353535851937790883648493
ORDER_FOUR = bytes(32)  # y = 0: a point of order 4, refused by M-2
NOT_CANONICAL_SCALAR = L.to_bytes(32, "little")


def pack(*items: Any) -> bytes:
    packed: bytes = msgpack.packb(list(items), use_bin_type=True)
    return packed


class Round:
    """One seat's key, a shuffled deck and a share, from fixed seeds."""

    def __init__(self) -> None:
        self.secret = elgamal.key_secret(bytes([1]) * 32)
        self.public = elgamal.public_key(self.secret)
        self.proof = elgamal.prove_key(self.secret, elgamal.key_context(TABLE, ROUND, 0))
        step = elgamal.shuffle(elgamal.initial_deck(CARDS_IN_DECK), self.public, bytes([2]) * 32)
        self.deck, self.permutation, self.masks = step.deck, step.permutation, step.masks
        self.share = self.share_of(5)

    def share_of(self, token: int) -> Share:
        context = elgamal.opening_context(TABLE, ROUND, token)
        return elgamal.decryption_share(self.secret, self.deck[token], context)


def proof_json(e: bytes, s: bytes) -> dict[str, Any]:
    return {"type": "Proof", "e": e.hex(), "s": s.hex()}


def share_json(share: Share) -> dict[str, Any]:
    return {
        "type": "Share",
        "point": share.point.hex(),
        "proof": proof_json(share.proof.e, share.proof.s),
    }


def token_share_json(token: int, share: Share) -> dict[str, Any]:
    proof = proof_json(share.proof.e, share.proof.s)
    return {"type": "TokenShare", "token": token, "point": share.point.hex(), "proof": proof}


def token_share_wire(token: int, share: Share) -> list[Any]:
    return [token, share.point, [share.proof.e, share.proof.s]]


def payload(message: dict[str, Any]) -> dict[str, Any]:
    return {"type": "Payload", "round": ROUND, "message": message}


def valid(r: Round) -> list[dict[str, Any]]:
    sh = r.share
    wire_share = [sh.point, [sh.proof.e, sh.proof.s]]
    sealed = sealed_share(r, 5, bytes([7]) * 32, bytes([9]) * 32)
    deck = [[c.c1, c.c2] for c in r.deck]
    cases: list[tuple[str, str, dict[str, Any], bytes]] = [
        (
            "M-17",
            "key",
            {
                "type": "KeyShareMessage",
                "seat": 0,
                "public": r.public.hex(),
                "proof": proof_json(r.proof.e, r.proof.s),
            },
            pack(1, ROUND, 0, r.public, [r.proof.e, r.proof.s]),
        ),
        (
            "M-18",
            "shuffle",
            {
                "type": "ShuffleMessage",
                "seat": 0,
                "deck": [{"type": "Masked", "c1": c.c1.hex(), "c2": c.c2.hex()} for c in r.deck],
            },
            pack(2, ROUND, 0, deck),
        ),
        (
            "M-19",
            "share-to-all",
            {"type": "ShareMessage", "seat": 0, "token": 5, "to": None, "share": share_json(sh)},
            pack(3, ROUND, 0, 5, wire_share),
        ),
        (
            "M-40",
            "shares-to-all",
            {
                "type": "SharesMessage",
                "seat": 0,
                "entries": [token_share_json(t, r.share_of(t)) for t in (5, 9)],
            },
            pack(7, ROUND, 0, [token_share_wire(t, r.share_of(t)) for t in (5, 9)]),
        ),
        (
            "M-24",
            "sealed-share",
            {
                "type": "SealedShareMessage",
                "seat": 0,
                "token": 5,
                "to": 2,
                "sealed": sealed_json(sealed),
            },
            pack(4, ROUND, 0, 5, 2, sealed_wire(sealed)),
        ),
        (
            "M-20",
            "audit",
            {
                "type": "AuditMessage",
                "seat": 0,
                "permutation": list(r.permutation),
                "masks": [m.hex() for m in r.masks],
            },
            pack(5, ROUND, 0, list(r.permutation), list(r.masks)),
        ),
        (
            "M-27",
            "handover",
            {
                "type": "HandoverMessage",
                "seat": 0,
                "shares": [share_json(r.share_of(t)) for t in range(54)],
            },
            pack(
                6, ROUND, 0, [[s.point, [s.proof.e, s.proof.s]] for s in map(r.share_of, range(54))]
            ),
        ),
    ]
    moves: list[tuple[str, dict[str, Any], list[Any]]] = [
        ("InitialPeek", {"first": 0, "second": 3}, [10, ROUND, 0, 3]),
        ("Draw", {}, [11, ROUND]),
        ("Discard", {}, [12, ROUND]),
        ("Replace", {"slot": 2}, [13, ROUND, 2]),
        (
            "Swap",
            {
                "first": {"type": "Spot", "seat": 0, "slot": 1},
                "second": {"type": "Spot", "seat": 7, "slot": 53},
            },
            [14, ROUND, [0, 1], [7, 53]],
        ),
        ("Look", {"spot": {"type": "Spot", "seat": 3, "slot": 0}}, [15, ROUND, [3, 0]]),
        ("Give", {"seat": 4}, [16, ROUND, 4]),
        ("Skip", {}, [17, ROUND]),
        ("Throw", {"slot": 4}, [18, ROUND, 4]),
        ("CallDutch", {}, [19, ROUND]),
    ]
    for name, fields, items in moves:
        cases.append(("M-22", f"move-{name.lower()}", {"type": name, **fields}, pack(*items)))
    return [
        {"spec": spec, "name": name, "payload": payload(message), "bytes": data.hex()}
        for spec, name, message, data in cases
    ]


def invalid(r: Round) -> list[dict[str, Any]]:
    sh = r.share
    proof = [sh.proof.e, sh.proof.s]
    deck = [[c.c1, c.c2] for c in r.deck]
    masks = list(r.masks)
    box = sealed_share(r, 5, bytes([7]) * 32, bytes([9]) * 32)
    cases: list[tuple[str, str, bytes, str]] = [
        ("M-23", "not-msgpack", bytes([0xC1]), "malformed"),
        ("M-23", "truncated", pack(11, ROUND)[:-1], "malformed"),
        ("M-23", "not-an-array", pack(11)[1:], "malformed"),
        ("M-23", "trailing-bytes", pack(11, ROUND) + b"\x00", "trailing_bytes"),
        ("M-23", "round-as-uint16", bytes([0x92, 11, 0xCD, 0, 7]), "non_canonical"),
        ("M-23", "unknown-kind-8", pack(8, ROUND), "unknown_message"),
        ("M-23", "kind-as-bin", pack(b"\x0b", ROUND), "unknown_message"),
        ("M-23", "no-round", pack(11), "bad_length"),
        ("M-23", "round-negative", pack(11, -1), "bad_field"),
        ("M-23", "draw-with-a-field", pack(11, ROUND, 0), "bad_length"),
        ("M-23", "a-str", pack(13, ROUND, "2"), "bad_length"),
        ("M-23", "an-empty-str", pack(13, ROUND, ""), "malformed"),
        ("M-23", "a-float", pack(13, ROUND, 2.0), "malformed"),
        ("M-23", "a-nil", pack(13, ROUND, None), "malformed"),
        ("M-23", "a-map", msgpack.packb([13, ROUND, {}]), "malformed"),
        ("M-23", "nested-five-deep", pack(13, ROUND, [[[[0]]]]), "too_deep"),
        ("M-23", "slot-54", pack(13, ROUND, 54), "bad_field"),
        ("M-23", "seat-8", pack(16, ROUND, 8), "bad_field"),
        ("M-23", "slot-a-bool", pack(18, ROUND, True), "bad_field"),
        ("M-23", "key-public-31-bytes", pack(1, ROUND, 0, r.public[:31], proof), "bad_length"),
        ("M-23", "key-public-order-four", pack(1, ROUND, 0, ORDER_FOUR, proof), "bad_point"),
        (
            "M-23",
            "key-proof-e-not-canonical",
            pack(1, ROUND, 0, r.public, [NOT_CANONICAL_SCALAR, sh.proof.s]),
            "bad_scalar",
        ),
        ("M-23", "shuffle-53-cards", pack(2, ROUND, 0, deck[:53]), "bad_length"),
        (
            "M-23",
            "shuffle-a-point-off-the-group",
            pack(2, ROUND, 0, [*deck[:53], [deck[53][0], ORDER_FOUR]]),
            "bad_point",
        ),
        ("M-23", "share-token-54", pack(3, ROUND, 0, 54, [sh.point, proof]), "bad_field"),
        (
            "M-23",
            "share-point-off-the-group",
            pack(3, ROUND, 0, 5, [ORDER_FOUR, proof]),
            "bad_point",
        ),
        ("M-24", "share-with-a-to", pack(3, ROUND, 0, 5, 2, [sh.point, proof]), "bad_length"),
        ("M-24", "sealed-to-itself", pack(4, ROUND, 2, 5, 2, sealed_wire(box)), "bad_field"),
        ("M-23", "sealed-as-a-box", pack(4, ROUND, 0, 5, 2, bytes(144)), "bad_length"),
        (
            "M-23",
            "sealed-a-off-the-group",
            pack(4, ROUND, 0, 5, 2, [ORDER_FOUR, *sealed_wire(box)[1:]]),
            "bad_point",
        ),
        (
            "M-23",
            "audit-position-twice",
            pack(5, ROUND, 0, [0, *range(53)], masks),
            "bad_permutation",
        ),
        (
            "M-23",
            "audit-mask-not-canonical",
            pack(5, ROUND, 0, list(r.permutation), [NOT_CANONICAL_SCALAR, *masks[1:]]),
            "bad_scalar",
        ),
        (
            "M-40",
            "shares-tokens-not-increasing",
            pack(7, ROUND, 0, [token_share_wire(t, r.share_of(t)) for t in (9, 5)]),
            "bad_field",
        ),
        (
            "M-40",
            "shares-of-one",
            pack(7, ROUND, 0, [token_share_wire(5, r.share_of(5))]),
            "bad_length",
        ),
        ("M-23", "oversize", pack(bytes(8190)), "oversize"),
    ]
    return [
        {"spec": spec, "name": name, "bytes": data.hex(), "reason": reason}
        for spec, name, data, reason in cases
    ]


def unencodable(r: Round) -> list[dict[str, Any]]:
    return [
        {
            "spec": "M-24",
            "name": "a-share-for-one-seat-in-the-clear",
            "payload": payload(
                {
                    "type": "ShareMessage",
                    "seat": 0,
                    "token": 5,
                    "to": 2,
                    "share": share_json(r.share),
                }
            ),
            "reason": "bad_field",
        },
        {
            "spec": "M-22",
            "name": "leave-is-the-tables-to-say",
            "payload": payload({"type": "Leave", "handed_over": True}),
            "reason": "bad_field",
        },
    ]


def _scalar(person: bytes, *parts: bytes, key: bytes = b"") -> bytes:
    digest = hashlib.blake2b(digest_size=64, person=person, key=key)
    for part in parts:
        digest.update(len(part).to_bytes(4, "big") + part)
    return bytes(na.crypto_core_ed25519_scalar_reduce(digest.digest()))


def _mul(scalar: bytes, point: bytes) -> bytes:
    return bytes(na.crypto_scalarmult_ed25519_noclamp(scalar, point))


def _base(scalar: bytes) -> bytes:
    return bytes(na.crypto_scalarmult_ed25519_base_noclamp(scalar))


def _plus(first: bytes, second: bytes) -> bytes:
    return bytes(na.crypto_core_ed25519_add(first, second))


def _times_plus(scalar: bytes, nonce: bytes, secret: bytes) -> bytes:
    return bytes(
        na.crypto_core_ed25519_scalar_add(nonce, na.crypto_core_ed25519_scalar_mul(scalar, secret))
    )


def sealed_share(r: Round, token: int, to_seed: bytes, seed: bytes) -> dict[str, Any]:
    """M-25 by hand: the share of ``token`` by seat 0, encrypted to the key of ``to_seed``."""
    recipient = elgamal.public_key(elgamal.key_secret(to_seed))
    c1 = r.deck[token].c1
    context = elgamal.opening_context(TABLE, ROUND, token)
    mask = _scalar(b"dutch-seal-v1", b"mask", context, recipient, key=seed)
    point = _mul(r.secret, c1)
    a, b = _base(mask), _plus(point, _mul(mask, recipient))
    k1 = _scalar(b"dutch-nonce-v1", b"sealed", context, c1, recipient, key=r.secret)
    k2 = _scalar(b"dutch-nonce-v1", b"sealed", context, c1, recipient, key=mask)
    t1, t2, t3 = _base(k1), _base(k2), _plus(_mul(k1, c1), _mul(k2, recipient))
    generator = _base((1).to_bytes(32, "little"))
    transcript = (generator, r.public, recipient, c1, a, b, t1, t2, t3)
    e = _scalar(b"dutch-sealed-v1", context, *transcript)
    return {
        "point": point,
        "a": a,
        "b": b,
        "e": e,
        "s1": _times_plus(e, k1, r.secret),
        "s2": _times_plus(e, k2, mask),
    }


def sealed_json(sealed: dict[str, Any]) -> dict[str, Any]:
    proof = {"type": "SealProof", **{k: sealed[k].hex() for k in ("e", "s1", "s2")}}
    return {"type": "SealedShare", "a": sealed["a"].hex(), "b": sealed["b"].hex(), "proof": proof}


def sealed_wire(sealed: dict[str, Any]) -> list[Any]:
    return [sealed["a"], sealed["b"], [sealed["e"], sealed["s1"], sealed["s2"]]]


def seals(r: Round) -> list[dict[str, Any]]:
    found = []
    for name, token, to_seed, seed in (
        ("seat-2", 5, bytes([7]) * 32, bytes([9]) * 32),
        ("seat-3", 6, bytes([8]) * 32, bytes([10]) * 32),
    ):
        sealed = sealed_share(r, token, to_seed, seed)
        found.append(
            {
                "spec": "M-25",
                "name": name,
                "table": TABLE.hex(),
                "round": ROUND,
                "key_seed": (bytes([1]) * 32).hex(),
                "to_seed": to_seed.hex(),
                "token": token,
                "c1": r.deck[token].c1.hex(),
                "seed": seed.hex(),
                **{k: v.hex() for k, v in sealed.items()},
            }
        )
    return found


def vectors() -> dict[str, Any]:
    r = Round()
    return {
        "about": ABOUT,
        "valid": valid(r),
        "invalid": invalid(r),
        "unencodable": unencodable(r),
        "seals": seals(r),
    }


def main() -> None:
    TARGET.write_text(json.dumps(vectors(), indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
