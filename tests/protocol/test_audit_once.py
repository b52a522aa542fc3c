"""The fair deal's audit (spec/rules.md R-44 to R-48) replays a round once per REVEAL at a
node, though the node applies that REVEAL to its stable game and to its optimistic game:
the answer is kept with the record it was found for, and a copy whose record differs is
audited again."""

from __future__ import annotations

from typing import Any

import pytest
from dutchblitz.protocol.games.blitz import game as blitz_game
from dutchblitz.protocol.replica.order import Order
from dutchblitz.protocol.table.fairdeal import RoundRecord, audit_kept
from dutchblitz.protocol.wire.messages import Reveal

from tests.rigs.sim import run_seed

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize(("faults", "seed"), [("none", 0), ("none", 1)])
def test_each_reveal_is_replayed_once_per_node(
    faults: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    counted = {"replays": 0, "final_reveals": 0}
    replay, apply_stable = blitz_game.audit.replay, Order.apply_stable

    def counting_replay(*args: Any) -> str | None:
        counted["replays"] += 1
        return replay(*args)

    def counting_apply(order: Order, key: Any, sender: bytes, seq: int, now: float) -> Any:
        held = order.replica.streams[sender].events.get(seq)
        counted["final_reveals"] += held is not None and isinstance(
            getattr(held.envelope.payload, "body", None), Reveal
        )
        return apply_stable(order, key, sender, seq, now)

    monkeypatch.setattr(blitz_game.audit, "replay", counting_replay)
    monkeypatch.setattr(Order, "apply_stable", counting_apply)
    run_seed(seed, faults)
    assert counted["final_reveals"] > 0
    assert counted["replays"] <= counted["final_reveals"]


class _Rules:
    """A game whose audit counts its replays and finds what it is told to."""

    def __init__(self) -> None:
        self.replays = 0

    def deck(self, seat: int) -> list[Any]:
        return []

    def fits(self, order: Any, shown: Any, players: int) -> bool:
        return True

    def replay(self, record: RoundRecord, seat: int, deck: Any) -> str | None:
        self.replays += 1
        return f"replayed {len(record.steps)} steps"


def _record(steps: tuple[Any, ...]) -> RoundRecord:
    from dutchblitz.protocol.table.fairdeal import secret_hash

    node = b"n" * 16
    commits = {0: (secret_hash(node, 1, b"s" * 32), b"")}
    return RoundRecord(1, 2, True, (0,), {0: node}, {0: ()}, commits, b"j", frozenset(), steps)


@pytest.mark.parametrize(
    ("second", "replays", "answer"),
    [
        ("the same record", 1, "replayed 1 steps"),
        ("an equal record of another copy", 1, "replayed 1 steps"),
        ("a record of another order", 2, "replayed 2 steps"),
    ],
)
def test_a_kept_answer_is_given_for_an_equal_record_only(
    second: str, replays: int, answer: str
) -> None:
    rules, kept = _Rules(), {}  # type: ignore[var-annotated]
    first = _record(((0, "a"),))
    again = {
        "the same record": first,
        "an equal record of another copy": _record(((0, "a"),)),
        "a record of another order": _record(((0, "a"), (0, "b"))),
    }[second]
    secret = b"s" * 32
    assert audit_kept(kept, first, 0, secret, (), rules) == "replayed 1 steps"  # type: ignore[arg-type]
    assert audit_kept(kept, again, 0, secret, (), rules) == answer  # type: ignore[arg-type]
    assert rules.replays == replays
