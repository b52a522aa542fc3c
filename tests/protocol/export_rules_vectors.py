"""Write the rule scenarios out as spec/vectors/rules.json.

    PYTHONPATH=... python -m tests.protocol.export_rules_vectors

Run it from the repository root after changing a scenario, read the diff, and commit
the JSON: the committed file, not this script, is what other implementations run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from dutchblitz.protocol.games.blitz.cards import Card
from dutchblitz.protocol.games.blitz.digest import full_digest, public_digest
from dutchblitz.protocol.games.blitz.moves import Move
from dutchblitz.protocol.games.blitz.scoring import round_scores

from tests.protocol.rule_scenarios import SCENARIOS
from tests.protocol.scenario_language import Scenario
from tests.protocol.test_rules_table import expected, play

TARGET = Path(__file__).resolve().parents[2] / "spec" / "vectors" / "rules.json"
ABOUT = (
    "Rules conformance vectors for spec/rules.md. Each case deals from orders (per seat, "
    "40 card codes top first, null for a card this table does not know), marks the "
    "inactive seats, plays moves (type is the class name; cards are codes, null is none; "
    "a source is BLITZ, WOOD, POST or a number) and expects, per move, 'ok', a refusal "
    "reason, or {reason, by}; then the public digest in hex, and where given the full "
    "digest and the round scores per seat. A card code is deck*40 + colour*10 + value-1, "
    "colours red 0, blue 1, green 2, yellow 3."
)


def code(card: Card | None) -> int | None:
    return None if card is None else card.code


def move_json(move: Move) -> dict[str, Any]:
    out: dict[str, Any] = {"type": type(move).__name__}
    for name in move.__slots__:
        value = getattr(move, name)
        if name == "source":
            value = value.name if hasattr(value, "name") else value
        elif name in ("card", "shows"):
            value = code(value)
        out[name] = value
    return out


def expect_json(want: object) -> object:
    outcome = expected(want)  # type: ignore[arg-type]
    if isinstance(outcome, str):
        return outcome
    if outcome.by is None:
        return outcome.reason.value
    return {"reason": outcome.reason.value, "by": outcome.by}


def case_json(scenario: Scenario) -> dict[str, Any]:
    orders = scenario.orders()
    table = play(scenario)
    case: dict[str, Any] = {
        "id": scenario.rule,
        "name": scenario.name,
        "players": scenario.players,
        "orders": [[code(c) for c in orders[seat]] for seat in range(scenario.players)],
    }
    if not scenario.post_stacking:
        case["post_stacking"] = False
    if scenario.inactive:
        case["inactive"] = list(scenario.inactive)
    case["moves"] = [move_json(move) for move, _ in scenario.steps]
    case["expect"] = [expect_json(want) for _, want in scenario.steps]
    case["public_digest"] = public_digest(table).hex()
    if scenario.full_digest:
        case["full_digest"] = full_digest(table).hex()
    if scenario.scores is not None:
        case["scores"] = [round_scores(table)[seat] for seat in table.seats]
    return case


def main() -> int:
    document = {"about": ABOUT, "cases": [case_json(s) for s in SCENARIOS]}
    TARGET.write_text(layout(document) + "\n", encoding="utf-8")
    print(f"wrote {len(SCENARIOS)} cases to {TARGET}", file=sys.stderr)
    return 0


def layout(document: dict[str, Any]) -> str:
    """JSON with one move or deck order per line: short, and its diffs read well."""
    lines = ["{", f' "about": {json.dumps(document["about"])},', ' "cases": [']
    for index, case in enumerate(document["cases"]):
        lines.append("  {")
        items = list(case.items())
        for position, (key, value) in enumerate(items):
            comma = "," if position < len(items) - 1 else ""
            if key in ("orders", "moves") and value:
                inner = ",\n".join(f"    {json.dumps(item)}" for item in value)
                lines.append(f'   "{key}": [\n{inner}\n   ]{comma}')
            else:
                lines.append(f'   "{key}": {json.dumps(value)}{comma}')
        lines.append("  }" + ("," if index < len(document["cases"]) - 1 else ""))
    lines.extend([" ]", "}"])
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
