"""Write Dutch's digest vectors, spec/vectors/dutch_digests.json, from seeded tables of Dutch.

    python -m tests.games.dutch.export_digest_vectors            # from the repository root

Three players found a table of Dutch (the founding ADMIT names ``dutch``), hold a lobby with
refused events, and play a game of two rounds on the table's own ``Game`` (tablerig.Rig,
every seat's duties and bot moves with its own secrets, on the real group) until the game is
over and every round's deal is revealed. A second table is founded as Dutch Blitz and a
START names Dutch (P-241): its log runs to the first moves of the round. Every event of each
log becomes the EVENT message its sender signs, stamped with the log's place as its lamport
clock so that the total order (section 9) is the log's order; at every change of phase,
round and Dutch stage (spec/dutch-deal.md M-30), at every refusal and in the middle of play,
the chain, the public state's bytes and the digest are written down (spec/protocol.md
section 13, spec/dutch-deal.md M-41). The committed JSON, not this script, is what other
implementations run; tests/games/dutch/test_digest_vectors.py checks the two agree.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dutchblitz.protocol.conformance.digest_vectors import Step, replay
from dutchblitz.protocol.games.dutch.game import GAME as RULES
from dutchblitz.protocol.games.dutch.table import DutchTable
from dutchblitz.protocol.replica.digest import log_digest
from dutchblitz.protocol.seat.deal_duties import deal_duties
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.wire.codec import encode
from dutchblitz.protocol.wire.messages import Admit, Envelope, Event, Profile, Ready, Start
from dutchblitz.protocol.wire.signing import sign_encoded

from tests.games.dutch.tablerig import Rig

TARGET = Path(__file__).resolve().parents[3] / "spec" / "vectors" / "dutch_digests.json"
TABLE = "kitchen"
ROUNDS = 2  # a game of two rounds (spec/protocol.md P-237, P-238): short, and a round after another
SPEC = ["P-96", "P-157", "P-158", "P-159", "P-160", "P-233", "P-234", "P-242", "P-243", "M-41"]
ABOUT = (
    "Digest conformance vectors of Dutch (spec/protocol.md section 13, spec/dutch-deal.md "
    "M-41): the same format as digests.json (see protocol/conformance/digest_vectors.py), "
    "each point "
    "also naming the Dutch stage of the round's table (M-30), or null when there is no "
    "table, for reading only. Each run is the stable log of one table as a list of EVENT "
    "messages (hex) in log order; each point gives, after the first index events of the "
    "log, the phase, the round, the chain, the canonical bytes of the public state and the "
    "digest. Regenerate with python -m tests.games.dutch.export_digest_vectors."
)


class LobbyRig(Rig):
    """A ``Rig`` whose lobby the caller holds: only the founding ADMIT is applied here."""

    def __post_init__(self) -> None:
        named, self.named = self.named, None
        super().__post_init__()
        self.named = named
        self.game = Game(rules=RULES)
        self.log.clear()
        first = self.nodes[0]
        self.apply(first, Admit(first, 1, self.founded))


def whole_game(seed: int = 3) -> LobbyRig:
    """Three players, a lobby with refusals, and a game of two rounds, to its audit."""
    rig = LobbyRig(players=3, seed=seed, rounds=ROUNDS)
    ann, bob, cat = rig.nodes
    rig.apply(ann, Profile("Ann", "pump"))
    rig.apply(ann, Admit(bob, 1))
    rig.apply(ann, Admit(cat, 1, "dutch"))  # refused bad_game: only the founding ADMIT names one
    rig.apply(ann, Admit(cat, 1))
    rig.apply(bob, Profile("Bob", "pump"))  # refused back_taken
    rig.apply(bob, Profile("Bob", "wagon"))
    rig.apply(cat, Profile("Cat", "bucket"))
    for node in rig.nodes:
        rig.apply(node, Ready(True))
    rig.apply(ann, Start(10, True, ROUNDS, "dutch"))  # refused bad_game: the table's own game
    rig.apply(ann, Start(10, True, ROUNDS))
    assert rig.game.phase == Phase.DEALING, rig.game.phase
    rig.play()
    assert rig.game.phase == Phase.OVER, rig.game.phase
    _reveal_all(rig)
    assert rig.game.audit_complete()
    return rig


def renamed_game(seed: int = 5) -> LobbyRig:
    """A table founded as Dutch Blitz, whose START names Dutch: up to the round's first moves."""
    rig = LobbyRig(players=3, seed=seed, founded=None)
    first = rig.nodes[0]
    for node in rig.nodes[1:]:
        rig.apply(first, Admit(node, 1))
    for node in rig.nodes:
        rig.apply(node, Ready(True))
    rig.apply(first, Start(10, True, None, "highcard-not-known"))  # refused unknown_game
    rig.apply(first, Start(10, True, None, "dutch"))
    assert rig.game.rules is RULES and rig.game.phase == Phase.DEALING
    for _ in range(40):
        table = rig.game.table
        if isinstance(table, DutchTable) and table.round is not None and table.round.turns:
            return rig
        rig.step()
    raise AssertionError("the renamed table never played a turn")


def short_table(seed: int = 7) -> LobbyRig:
    """Three players of Dutch; one says goodbye before committing, so the round would be
    dealt to two, fewer than Dutch's fewest (D-4): over unscored, every total 0 (P-239)."""
    rig = LobbyRig(players=3, seed=seed)
    first = rig.nodes[0]
    for node in rig.nodes[1:]:
        rig.apply(first, Admit(node, 1))
    for node in rig.nodes:
        rig.apply(node, Ready(True))
    rig.apply(first, Start(10, True))
    rig.goodbye(2)
    for _ in range(10):
        if rig.game.phase == Phase.OVER or not rig.step():
            break
    # Every total is 0, so all three share the win, written as seat 0 (P-245).
    assert rig.game.phase == Phase.OVER and rig.game.winner == 0 and not rig.game.results
    return rig


def _reveal_all(rig: Rig) -> None:
    for seat, node in enumerate(rig.nodes):
        kept = rig.kept[seat]
        for body in deal_duties(rig.game, node, [], kept, kept.__getitem__):
            rig.apply(node, body)


def signed_log(rig: Rig) -> list[bytes]:
    """Each event of the rig's log as the EVENT message its sender signs: its own seq, and
    the log's place as lamport, so the total order of section 9 is the log's order."""
    seqs: dict[bytes, int] = {}
    messages: list[bytes] = []
    for place, (node, body) in enumerate(rig.log, start=1):
        seqs[node] = seqs.get(node, 0) + 1
        unsigned = encode(Envelope(TABLE, node, place, seqs[node], Event(body)))
        messages.append(sign_encoded(rig.signers[rig.nodes.index(node)], unsigned))
    return messages


def stages(messages: Sequence[bytes]) -> list[str | None]:
    """The Dutch stage of the table after each event (None without a table)."""
    from dutchblitz.protocol.wire.codec import decode

    game, found = Game(), []
    for message in messages:
        envelope = decode(message)
        assert isinstance(envelope.payload, Event)
        game.apply(envelope.sender, envelope.payload.body)
        table = game.table
        found.append(table.stage.value if isinstance(table, DutchTable) else None)
    return found


def points(messages: Sequence[bytes]) -> list[dict[str, Any]]:
    """Every change of phase, round or stage, every refusal, and the middle of play."""
    steps: list[Step] = list(replay(messages))
    staged = stages(messages)
    chosen = {1, len(steps)}
    for index in range(1, len(steps)):
        before, after = steps[index - 1], steps[index]
        if (before.phase, before.round, staged[index - 1]) != (
            after.phase,
            after.round,
            staged[index],
        ):
            chosen |= {index, index + 1}
        if after.refused != before.refused:
            chosen.add(index + 1)
    in_play = [s.index for s, stage in zip(steps, staged, strict=True) if stage == "play"]
    if in_play:
        chosen.add(in_play[len(in_play) // 2])
    return [
        {
            "index": step.index,
            "phase": step.phase,
            "round": step.round,
            "stage": staged[step.index - 1],
            "chain": step.chain.hex(),
            "public": step.public.hex(),
            "digest": step.digest.hex(),
        }
        for step in steps
        if step.index in chosen
    ]


def run_vector(rig: Rig, name: str, spec: list[str]) -> dict[str, Any]:
    messages = signed_log(rig)
    steps = list(replay(messages))
    last = steps[-1]
    # The table's own game, applied without the codec, leaves the same public state.
    assert log_digest(last.chain, rig.game.public_form()) == last.digest
    return {
        "spec": spec,
        "name": name,
        "table": TABLE,
        "members": [node.hex() for node in rig.nodes],
        "events": [m.hex() for m in messages],
        "points": points(messages),
    }


def build() -> dict[str, Any]:
    return {
        "about": ABOUT,
        "runs": [
            run_vector(
                whole_game(),
                "a game of Dutch of two rounds, three players, to its end and its audit",
                [*SPEC, "P-235", "P-237", "P-238", "P-241", "P-245", "P-248", "P-249"],
            ),
            run_vector(
                renamed_game(),
                "a Dutch Blitz table whose START names Dutch, to the round's first turn",
                ["P-96", "P-241", "P-242", "P-243", "P-244", "P-249", "M-41"],
            ),
            run_vector(
                short_table(),
                "a table of Dutch left with two players before its first deal: over, unscored",
                ["P-96", "P-234", "P-239", "P-245", "P-249"],
            ),
        ],
    }


def main() -> None:
    TARGET.write_text(json.dumps(build(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
