"""Write the game-file vectors, spec/vectors/gamefile.json (spec/replay.md).

    python -m tests.protocol.export_gamefile_vectors            # from the repository root

The events are a whole game of the seeded simulator (three bots, no faults: real replicas,
real signatures) and the digest is the one its nodes agreed on at the game's end. The file
around them is packed here with msgpack directly and sealed with libsodium's bindings, as
G-1 to G-4 word it, apart from protocol/replays/gamefile.py on purpose; test_gamefile_vectors checks
that the committed file is what this writes and that the reader passes it. Each refused
file is damaged in one way only, and is kept small where its refusal comes early.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import msgpack
from nacl import bindings as na

from tests.rigs.sim import Simulation

TARGET = Path(__file__).resolve().parents[2] / "spec" / "vectors" / "gamefile.json"
ABOUT = (
    "Vectors for the game file (spec/replay.md): see "
    "protocol/conformance/gamefile_vectors.py for the format. "
    "Regenerate with python -m tests.protocol.export_gamefile_vectors."
)
SEED = 3
KEEPER_SEED = bytes([7]) * 32
OTHER_SEED = bytes([8]) * 32
FORMAT = "dutchblitz-game"
SEAL_CONTEXT = b"DBGAME\x00\x01"
MAX_GAME_FILE = 64 * 1024 * 1024


def pack(value: Any) -> bytes:
    packed: bytes = msgpack.packb(value, use_bin_type=True)
    return packed


def node_of(public: bytes) -> bytes:
    return hashlib.blake2b(public, digest_size=16, person=b"blitz-node-id").digest()


def seal(body: bytes, seed: bytes = KEEPER_SEED) -> bytes:
    public, secret = na.crypto_sign_seed_keypair(seed)
    signature: bytes = na.crypto_sign(SEAL_CONTEXT + body, secret)[:64]
    return bytes(public) + signature


def sealed(body: bytes, version: int = 1) -> bytes:
    return pack([FORMAT, version, body, seal(body)])


class Game:
    """The simulator's finished game: its events, its table, epoch, number and digest."""

    def __init__(self) -> None:
        simulation = Simulation(SEED, "none", players=3)
        simulation.run()
        replica = simulation.nodes[0].replica
        assert replica.ended is not None
        length, digest, game = replica.ended
        raws = replica.order.stable_raws
        self.events = [raws[(entry.sender, entry.seq)] for entry in replica.log[:length]]
        self.table, self.epoch = replica.me.table, replica.me.epoch
        self.game, self.digest = game.game_number, digest
        self.signers = simulation.signers

    def founded_for(self, tag: str) -> bytes:
        """The founding ADMIT naming game ``tag`` (DBP P-233), signed by the founder again."""
        envelope = msgpack.unpackb(self.events[0], raw=False)
        envelope[6] = [*envelope[6], tag]
        envelope[-1] = b""
        unsigned = pack(envelope)
        envelope[-1] = self.signers[envelope[3]].auth(unsigned)
        return pack(envelope)

    def started_for(self, tag: str) -> list[bytes]:
        """The log up to its START, which names game ``tag`` (DBP P-240), signed again."""
        for index, raw in enumerate(self.events):
            envelope = msgpack.unpackb(raw, raw=False)
            if envelope[6][0] == 4:  # START
                envelope[6] = [*envelope[6], *[None] * (4 - len(envelope[6])), tag]
                envelope[-1] = b""
                unsigned = pack(envelope)
                envelope[-1] = self.signers[envelope[3]].auth(unsigned)
                return [*self.events[:index], pack(envelope)]
        raise AssertionError("no START")

    def keys(self, events: list[bytes]) -> dict[bytes, bytes]:
        keys: dict[bytes, bytes] = {}
        for raw in events:
            envelope = msgpack.unpackb(raw, raw=False)
            keys.setdefault(envelope[3], envelope[-1][:32])
        return keys

    def opening(self) -> list[bytes]:
        """The events up to the first of a second sender: a short start of the log."""
        for length in range(1, len(self.events) + 1):
            if len(self.keys(self.events[:length])) == 2:
                return self.events[:length]
        raise AssertionError("one sender only")

    def body(self, events: list[bytes] | None = None, **changes: Any) -> bytes:
        events = self.events if events is None else events
        fields: dict[str, Any] = {
            "table": self.table,
            "epoch": self.epoch,
            "game": self.game,
            "digest": self.digest,
            "keys": None,
            "events": events,
        }
        fields.update(changes)
        if fields["keys"] is None:
            fields["keys"] = [[node, key] for node, key in sorted(self.keys(events).items())]
        return pack(fields)


def retabled(raw: bytes, table: str) -> bytes:
    envelope = msgpack.unpackb(raw, raw=False)
    envelope[2] = table
    return pack(envelope)


def resigned_wrongly(raw: bytes) -> bytes:
    """The event with one bit of its signature flipped: it still decodes."""
    return raw[:-1] + bytes([raw[-1] ^ 1])


def refused(game: Game) -> list[dict[str, Any]]:
    first = game.opening()
    swapped = sorted(game.keys(first).items())
    wrong_keys = [[swapped[0][0], swapped[1][1]], [swapped[1][0], swapped[0][1]]]
    body = game.body(first)
    cases: list[tuple[str, str, bytes, str]] = [
        ("G-1", "not a game file", pack(["something-else", 1, b"", b""]), "not_a_game_file"),
        ("G-1", "truncated", sealed(game.body())[:200], "damaged"),
        ("G-1", "three elements", pack([FORMAT, 1, body]), "damaged"),
        ("G-2", "a newer format", pack([FORMAT, 2, b"whatever it holds"]), "newer"),
        ("G-3", "no events", sealed(pack({"table": game.table, "epoch": game.epoch})), "damaged"),
        ("G-3", "a short epoch", sealed(game.body(first, epoch=game.epoch[:8])), "damaged"),
        (
            "G-4",
            "a body changed after the seal",
            pack([FORMAT, 1, body[:-1] + b"\x00", seal(body)]),
            "seal",
        ),
        (
            "G-4",
            "sealed by another key",
            pack([FORMAT, 1, body, seal(body, OTHER_SEED)[:32] + seal(body)[32:]]),
            "seal",
        ),
        (
            "G-7",
            "an event of another table",
            sealed(game.body([retabled(first[0], "other")])),
            "other_table",
        ),
        (
            "G-7",
            "an event that does not decode",
            sealed(game.body([first[0][:-10]], keys=[])),
            "event_damaged",
        ),
        (
            "G-8",
            "a signature that fails",
            sealed(game.body([resigned_wrongly(first[0])])),
            "signature",
        ),
        (
            "G-9",
            "keys listed under each other's node",
            sealed(game.body(first, keys=wrong_keys)),
            "key",
        ),
        ("G-10", "cut short", sealed(body), "unfinished"),
        ("G-11", "another game's number", sealed(game.body(game=game.game + 1)), "unfinished"),
        ("G-12", "another digest", sealed(game.body(digest=bytes(16))), "digest"),
        ("G-13", "an event twice", sealed(game.body([first[0], first[0]])), "twice"),
        (
            "G-14",
            "a founding ADMIT naming an unknown game",
            sealed(game.body([game.founded_for("chess")])),
            "unknown_game",
        ),
        (
            "G-15",
            "a START naming an unknown game",
            sealed(game.body(game.started_for("chess"))),
            "unknown_game",
        ),
    ]
    return [
        {"spec": spec, "name": name, "file": data.hex(), "reason": reason}
        for spec, name, data, reason in cases
    ]


def vectors() -> dict[str, Any]:
    game = Game()
    public, _ = na.crypto_sign_seed_keypair(KEEPER_SEED)
    valid = {
        "spec": "G-1",
        "name": f"a finished game of {len(game.keys(game.events))} players",
        "file": sealed(game.body()).hex(),
        "table": game.table,
        "epoch": game.epoch.hex(),
        "game": game.game,
        "digest": game.digest.hex(),
        "kept_by": node_of(bytes(public)).hex(),
        "events": len(game.events),
    }
    oversized = {
        "spec": "G-6",
        "name": "one byte over",
        "size": MAX_GAME_FILE + 1,
        "reason": "too_large",
    }
    return {"about": ABOUT, "valid": [valid], "refused": refused(game), "oversized": [oversized]}


def main() -> None:
    TARGET.write_text(json.dumps(vectors(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
