"""The performance goals: each figure next to its same-run baseline, its figure before the
work on the node's floor (docs/performance.md), and its goal.

``rows(figures)`` reads the figures ``bench/run.py`` gathered and gives one row per goal;
a figure nothing measures yet shows as ``None`` with its goal, so that the table always
lists every goal.
"""

from __future__ import annotations

from typing import Any

# Measured on the 2-core machine before this work (docs/performance.md).
BEFORE: dict[str, float] = {
    "throughput_4": 942.0,
    "commit_p50_ms_4": 3.6,
    "commit_p50_ms_8": 10.4,
    "commit_p99_ms_4": 7.0,
    "commit_p99_ms_8": 35.5,
    "cpu_ms_per_move_per_node_4": 2.02 / 4,
    "codec_ratio": 6.4,
    "catchup_s": 0.99,
    "messages_per_event_8": 56.0,
    "rss_mb": 49.9,
    "startup_s": 2.65,  # bench/startup.py before the lobby came up during the join window
}


def _get(mapping: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(mapping, dict) or key not in mapping:
            return None
        mapping = mapping[key]
    return mapping


def _row(
    name: str, measured: float | None, baseline: float | None, base_name: str,
    before: float | None, goal: float | None, at_most: bool, unit: str,
) -> dict[str, Any]:  # fmt: skip
    met = None
    if measured is not None and goal is not None:
        met = measured <= goal if at_most else measured >= goal
    return {
        "figure": name,
        "measured": measured,
        "baseline": baseline,
        "baseline_is": base_name,
        "before": before,
        "goal": goal,
        "goal_is": "at most" if at_most else "at least",
        "unit": unit,
        "met": met,
    }


def _commit_rows(figures: dict[str, Any]) -> list[dict[str, Any]]:
    rtt = figures.get("baseline_rtt_ms")
    rows = []
    for size in ("4", "8"):
        ms = _get(figures, "commit_ms", size)
        floor = _get(figures, "floor_p50_ratio", size)
        floor_ms = None if floor is None or rtt is None else floor * rtt
        p50 = None if ms is None else ms[0]
        ratio = None if p50 is None or not floor_ms else p50 / floor_ms
        rows.append(_row(f"commit p50, {size} nodes, x the bare floor", ratio, floor_ms,
                         "bare pattern p50 ms, same run", None, 1.3, True, "x"))  # fmt: skip
        rows.append(_row(f"commit p50, {size} nodes", p50, rtt, "raw round trip ms",
                         BEFORE[f"commit_p50_ms_{size}"], None, True, "ms"))  # fmt: skip
        rows.append(_row(f"commit p99, {size} nodes", None if ms is None else ms[1], rtt,
                         "raw round trip ms", BEFORE[f"commit_p99_ms_{size}"], None, True,
                         "ms"))  # fmt: skip
    return rows


def rows(figures: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per goal, in the order of the goals."""
    cpu = _get(figures, "throughput_cpu_ms_per_move", "4")
    cost = _get(figures, "cost_growth", "8") or {}
    found = [
        _row("throughput, 4 flat-out bots, whole game",
             _get(figures, "throughput_moves_per_s", "4"),
             _get(figures, "floor_moves_per_s", "4"), "bare pattern flat out, moves/s",
             BEFORE["throughput_4"], 2000.0, False, "moves/s"),
        *_commit_rows(figures),
        _row("processor per final move per node, 4 nodes", None if cpu is None else cpu / 4,
             None, "", BEFORE["cpu_ms_per_move_per_node_4"], 0.15, True, "ms"),
        _row("codec, encode + decode, x bare msgpack", figures.get("codec_ratio"), 1.0,
             "bare packb + unpackb", BEFORE["codec_ratio"], 2.0, True, "x"),
        _row("catch-up of a restarted node, log of about one round",
             figures.get("catchup_s"), None, "", BEFORE["catchup_s"], 0.3, True, "s"),
        _row("catch-up after 5 rounds", figures.get("catchup_5_rounds_s"), None,
             "", None, 0.3, True, "s"),
        _row("catch-up after 50 rounds", figures.get("catchup_50_rounds_s"), None,
             "", None, 0.3, True, "s"),
        _row("messages per event, 8 nodes", cost.get("messages_per_event"), 56.0,
             "n(n-1)", BEFORE["messages_per_event_8"], 28.0, True, "messages"),
        _row("resident memory after a whole game", figures.get("rss_mb"), None, "",
             BEFORE["rss_mb"], 60.0, True, "MB"),
        _row("blitz-node --join to the lobby on screen", figures.get("startup_s"),
             figures.get("startup_import_s"), "importing the node's command line, s",
             BEFORE["startup_s"], 1.0, True, "s"),
    ]  # fmt: skip
    return found


def _fmt(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def print_rows(found: list[dict[str, Any]]) -> None:
    print(f"{'goal':<52}{'measured':>10}{'baseline':>10}{'before':>9}{'goal':>10}  met")
    for row in found:
        goal = "" if row["goal"] is None else ("<= " if row["goal_is"] == "at most" else ">= ")
        goal += _fmt(row["goal"]) if row["goal"] is not None else ""
        met = {True: "yes", False: "no", None: "-"}[row["met"]]
        print(f"{row['figure']:<52}{_fmt(row['measured']):>10}{_fmt(row['baseline']):>10}"
              f"{_fmt(row['before']):>9}{goal:>10}  {met}")  # fmt: skip
