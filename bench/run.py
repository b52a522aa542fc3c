"""The whole performance suite: one table of figures, each against a same-run baseline.

    PYTHONPATH=... python bench/run.py [--quick] [--json [PATH]] [--plot PATH]

Figures (what each is: docs/performance.md):

* commit latency, p50 and p99, from a move's submission to its final (stable)
  delivery at every node, with 2, 4, 8 and 16 real node processes on loopback,
  as a ratio to the raw pyzmq DEALER/ROUTER round trip measured in the same run;
  next to it, the floor of the node's message pattern run bare (bench/floor.py:
  the same sockets, acknowledgements and pace, without codec, crypto or rules);
* throughput: final moves per second at a table of 4 and of 8 flat-out bots,
  over the whole window (the goal's figure: the fair deal between rounds counts)
  and over the time the game spent in its PLAYING phase only; next to it, the bare
  pattern flat out (bench/floor.py);
* cost growth: messages and bytes on the wire per event, 2 to 32 replicas in an
  in-memory network, against the n-1 floor of one broadcast;
* codec: encode and decode per second, against bare msgpack packb/unpackb of the
  same data;
* rules engine: moves applied per second (bench/engine.py);
* node: resident memory after the throughput run, catch-up time of a restarted
  node that reloads a log holding a whole round (and 5 and 50 rounds), and time from
  launch until every peer is discovered;
* spectators: commit latency at a table of 4 followed by 0, 4 and 8 headless
  spectators (bench/commit_latency.py --spectators), against the same round trip;
* Dutch's deal with no dealer (bench/dutch_deal.py): the shuffle by 6 players and
  one card's opening, in processor time, against one scalar multiplication.
* start-up: from ``blitz-node --join`` to the lobby on screen, in a pseudo-terminal
  (bench/startup.py), against the same interpreter importing the node's command line;
* the goals (bench/goals.py): every goal with its figure, its same-run baseline and its
  figure before the work on the node's floor.

``--quick`` runs a short version (2 and 4 nodes, 0 and 4 spectators, fewer seconds). The machine is
shared and has few cores, so wall-clock figures are noisy: compare the ratios,
and repeat a run before believing a change.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import commit_latency as processes
import dutch_deal
import floor as bare_pattern
import goals
import msgpack
import startup

GOALS: dict[str, Any] = {
    "commit_p50_ratio": {"4": 2.0, "8": 3.0},
    "throughput_moves_per_s": {"4": 2000},
    "codec_ratio": 3.0,
    "engine_moves_per_s": 50_000,
    "rss_mb": 60.0,
    "catchup_s": 1.0,
    "discovery_s": 2.0,
    "dutch_shuffle_all_ms": 300.0,  # 6 players, every node's checks included
    "dutch_opening_ms": 20.0,
}


# -- codec -----------------------------------------------------------------------------------


def codec_figures(quick: bool) -> dict[str, Any]:
    """Encode and decode of typical messages against bare msgpack of the same wire data."""
    from dutchblitz.protocol.wire.codec import decode, encode
    from dutchblitz.protocol.wire.messages import Ack, Envelope, Event, Heartbeat, MoveKind, Play

    nodes = [bytes([n]) * 16 for n in range(1, 9)]
    acks = tuple(Ack(node, 40 + n) for n, node in enumerate(nodes[1:4]))
    messages = [
        Envelope("blitz", nodes[0], 1234, 56, Event(Play(1, MoveKind.CENTRE, 0, 0, 17, 3, -1))),
        Envelope("blitz", nodes[0], 1235, 0, Heartbeat(56, acks, 300, bytes(range(16)))),
    ]
    raws = [encode(m) for m in messages]
    wires = [msgpack.unpackb(raw) for raw in raws]
    rounds = 2_000 if quick else 10_000

    def ours_encode() -> None:
        for message in messages:
            encode(message)

    def ours_decode() -> None:
        for raw in raws:
            decode(raw)

    def bare_encode() -> None:
        for wire in wires:
            msgpack.packb(wire, use_bin_type=True)

    def bare_decode() -> None:
        for raw in raws:
            msgpack.unpackb(raw, raw=False)

    works = {
        "encode_per_s": ours_encode,
        "decode_per_s": ours_decode,
        "bare_packb_per_s": bare_encode,
        "bare_unpackb_per_s": bare_decode,
    }
    best = dict.fromkeys(works, float("inf"))
    for _ in range(5):  # interleaved, so that a busy moment hurts all four alike
        for name, work in works.items():
            started = time.perf_counter()
            for _ in range(rounds):
                work()
            best[name] = min(best[name], time.perf_counter() - started)
    figures = {name: rounds * len(messages) / seconds for name, seconds in best.items()}
    # One encode and one decode against one packb and one unpackb: a round trip each.
    ours = 1 / figures["encode_per_s"] + 1 / figures["decode_per_s"]
    bare = 1 / figures["bare_packb_per_s"] + 1 / figures["bare_unpackb_per_s"]
    figures["encode_ratio"] = figures["bare_packb_per_s"] / figures["encode_per_s"]
    figures["decode_ratio"] = figures["bare_unpackb_per_s"] / figures["decode_per_s"]
    figures["codec_ratio"] = ours / bare
    return figures


# -- the rules engine ------------------------------------------------------------------------


def engine_figures(quick: bool) -> dict[str, Any]:
    import engine

    rounds, repeats = (20, 2) if quick else (150, 3)
    played, totals = engine.play_rounds(rounds, 4, 1)
    applying = engine.best_of(repeats, lambda: engine.replay_seconds(played))
    looping = engine.best_of(repeats, lambda: engine.bare_loop_seconds(played))
    return {
        "engine_moves_per_s": totals.moves / applying,
        "bare_loop_moves_per_s": totals.moves / looping,
    }


# -- cost growth in an in-memory network -----------------------------------------------------


def cost_figures(sizes: Sequence[int], events: int) -> dict[str, dict[str, float]]:
    """Messages and bytes on the wire per event at a settled table of ``n`` replicas.

    Each replica is the node's own sans-IO code. Messages are delivered in order, and
    every replica acknowledges what a delivery brought (``flush``), as a node does per
    received batch; no timer runs while events are counted, so periodic heartbeats are
    left out. The floor is one copy of the event to each of the n-1 others.
    """
    return {str(size): cost_one(size, events) for size in sizes}


def cost_one(size: int, events: int) -> dict[str, float]:
    from collections import deque

    from dutchblitz.protocol.replica.core import Identity, Replica
    from dutchblitz.protocol.replica.effects import Send
    from dutchblitz.protocol.wire.auth import Signer
    from dutchblitz.protocol.wire.messages import Profile

    signers = [Signer(bytes([1 + i // 256, i % 256]) * 16) for i in range(size)]
    ids = [signer.node_id for signer in signers]
    epoch = b"cost-growth-bench"[:16]
    replicas = {
        signer.node_id: Replica(
            Identity(signer.node_id, "cost", epoch, endpoint="tcp://127.0.0.1:1"),
            0.0,
            signer=signer,
        )
        for signer in signers
    }
    counted = {"messages": 0, "bytes": 0}
    queue: deque[tuple[bytes, bytes, bytes | None]] = deque()

    def run(origin: bytes, effects: list[Any], counting: bool) -> None:
        queue.extend((origin, e.data, e.to) for e in effects if isinstance(e, Send))
        while queue:
            sender, data, to = queue.popleft()
            for node in [to] if to is not None else ids:
                if node == sender:
                    continue
                if counting:
                    counted["messages"] += 1
                    counted["bytes"] += len(data)
                replica = replicas[node]
                got = replica.receive(data, 0.0) + replica.flush(0.0)
                queue.extend((node, e.data, e.to) for e in got if isinstance(e, Send))

    founder = ids[0]
    run(founder, replicas[founder].hello(None) + replicas[founder].found(0.0), False)
    for node in ids[1:]:
        run(node, replicas[node].ask_to_join(0.0), False)
    for node in ids:  # everyone says hello with the full list, so all know all
        run(node, replicas[node].hello(None), False)
    members = sum(m.present for m in replicas[founder].stable.members.values())
    assert members == size, f"{members} of {size} seated in the cost bench"
    for number in range(events):
        origin = ids[number % size]
        run(origin, replicas[origin].submit(Profile(f"p{number}", "pump"), 0.0), True)
    finals = {len(r.log) for r in replicas.values()}
    assert len(finals) == 1 and not any(r.pending for r in replicas.values())
    return {
        "messages_per_event": counted["messages"] / events,
        "bytes_per_event": counted["bytes"] / events,
        "floor_messages": size - 1,
        "ratio_to_floor": counted["messages"] / events / (size - 1),
    }


# -- real node processes ---------------------------------------------------------------------


def process_args(
    seconds: float, level: str, restart: float | None, target: int = 1000
) -> argparse.Namespace:
    return argparse.Namespace(
        seconds=seconds, level=level, restart_after=restart, restart_down=0.5, target=target
    )


def latency_figures(
    sizes: Sequence[int], seconds: float, prefix: list[str], rtt: float
) -> dict[str, Any]:
    p50: dict[str, float] = {}
    p99: dict[str, float] = {}
    ms: dict[str, list[float]] = {}
    found: dict[str, float] = {}
    formed: dict[str, float] = {}
    moves: dict[str, int] = {}
    for size in sizes:
        try:
            run = processes.table_run(size, process_args(seconds, "fast", None), prefix)
        except (RuntimeError, subprocess.TimeoutExpired) as failed:  # the known lobby bug
            print(f"table of {size}: no figures ({type(failed).__name__})", file=sys.stderr)
            continue
        latencies = run["latencies"]
        if run["found"]:
            found[str(size)] = max(run["found"])
        if run["formed"] is not None:
            formed[str(size)] = run["formed"]
        if not latencies:
            continue
        a, b = statistics.median(latencies), processes.percentile(latencies, 0.99)
        p50[str(size)], p99[str(size)] = a / rtt, b / rtt
        ms[str(size)] = [a * 1e3, b * 1e3]
        moves[str(size)] = len(latencies)
    return {"p50": p50, "p99": p99, "ms": ms, "found": found, "formed": formed, "moves": moves}


def spectator_figures(
    counts: Sequence[int], seconds: float, prefix: list[str], rtt: float
) -> dict[str, list[float]]:
    """Commit latency p50 and p99 (ms, and p50 as a multiple of ``rtt``) at 4 nodes with
    each count of headless spectators following the table."""
    found: dict[str, list[float]] = {}
    for count in counts:
        run = processes.table_run(4, process_args(seconds, "fast", None), prefix, count)
        latencies = run["latencies"]
        if latencies:
            a, b = statistics.median(latencies), processes.percentile(latencies, 0.99)
            found[str(count)] = [a * 1e3, b * 1e3, a / rtt]
    return found


def throughput_figures(sizes: Sequence[int], seconds: float, prefix: list[str]) -> dict[str, Any]:
    """Final moves per second, counted at one node, with flat-out bots.

    Two figures per table: over the whole window from the first move made final to
    the last (the goal's figure: it is what a table sustains, the fair deal between
    rounds included), and over the part of it the stable game spent in the PLAYING
    phase only (how fast moves go while there are moves to make).
    """
    rates: dict[str, float] = {}
    playing: dict[str, float] = {}
    rss: list[float] = []
    rounds: dict[str, int] = {}
    cpu: dict[str, float] = {}
    main_share: dict[str, float] = {}
    for size in sizes:
        run = processes.table_run(size, process_args(seconds, "flat-out", None), prefix)
        steady = run["results"][-1]
        window = sorted(t for t in steady["delivered"].values() if t >= steady["playing_at"])
        spent = sum(r["cpu_s"] for r in run["results"])
        if len(window) > 1 and spent > 0:
            # Processor time of every node, all its threads, per move made final; and the
            # share of it in the nodes' own threads (the rest is ZeroMQ's I/O threads).
            cpu[str(size)] = spent / len(window) * 1e3
            main_share[str(size)] = sum(r["main_cpu_s"] for r in run["results"]) / spent
        if len(window) > 1:
            rates[str(size)] = (len(window) - 1) / (window[-1] - window[0])
            spent = time_playing(steady["phases"], window[0], window[-1])
            if spent > 0:
                playing[str(size)] = (len(window) - 1) / spent
        rss += [r["rss_mb"] for r in run["results"]]
        rounds[str(size)] = steady["rounds"]
    return {
        "rates": rates,
        "playing": playing,
        "rss": max(rss) if rss else None,
        "rounds": rounds,
        "cpu_ms_per_move": cpu,
        "main_thread_share": main_share,
    }


def time_playing(phases: Sequence[Sequence[Any]], start: float, end: float) -> float:
    """Seconds between ``start`` and ``end`` that the game spent in the PLAYING phase."""
    spent = 0.0
    marks = [(float(at), str(phase)) for at, phase in phases] + [(end, "")]
    for (at, phase), (until, _) in itertools.pairwise(marks):
        if phase == "playing":
            spent += max(0.0, min(until, end) - max(at, start))
    return spent


def memory_figure(target: int, prefix: list[str]) -> dict[str, Any]:
    """Resident memory of each node after a whole game of four flat-out bots to ``target``."""
    run = processes.table_run(4, process_args(90.0, "flat-out", None, target), prefix)
    results = run["results"]
    return {
        "rss_mb": max(r["rss_mb"] for r in results),
        "over": all(r["over"] for r in results),
        "events": max(r["log"] for r in results),
        "rounds": max(r["rounds"] for r in results),
        "target": target,
    }


def catchup_figure(seconds: float, prefix: list[str], rounds: int = 1) -> dict[str, Any]:
    """A node of four (flat-out bots) stops once its log holds ``rounds`` whole rounds,
    and restarts on its log."""
    restart_after = seconds / 2
    args = process_args(seconds + 6 + 4 * (rounds - 1), "flat-out", restart_after)
    args.restart_rounds = rounds
    try:
        run = processes.table_run(4, args, prefix)
    except (RuntimeError, subprocess.TimeoutExpired) as failed:
        print(f"catch-up after {rounds} rounds: no figure ({failed})", file=sys.stderr)
        return {"seconds": None, "log_events": None, "rounds_in_log": None}
    restarted = run["results"][0]["catchup"] or {}
    return {
        "seconds": processes.catchup_seconds(run["results"]),
        "log_events": restarted.get("held_before"),
        "rounds_in_log": restarted.get("rounds_before"),
    }


# -- the table -------------------------------------------------------------------------------


def fmt(value: float | None, spec: str = ".2f") -> str:
    return "-" if value is None else format(value, spec)


def print_table(figures: dict[str, Any]) -> None:
    rtt = figures["baseline_rtt_ms"]
    print(f"baseline: raw pyzmq DEALER/ROUTER round trip p50 {rtt:.3f} ms")
    print()
    print(f"{'figure':<44}{'measured':>20}  {'goal':<14}")
    rows: list[tuple[str, str, str]] = []
    ms = figures["commit_ms"]
    for size in figures["commit_p50_ratio"]:
        goal = GOALS["commit_p50_ratio"].get(size)
        rows.append(
            (
                f"commit p50 / p99, {size} nodes (x RTT)",
                f"{figures['commit_p50_ratio'][size]:.1f} / {figures['commit_p99_ratio'][size]:.1f}"
                f" ({ms[size][0]:.1f}/{ms[size][1]:.1f} ms)",
                f"p50 <= {goal:g}x" if goal else "",
            )
        )
        bare = figures["floor_p50_ratio"].get(size)
        rows.append(("  the bare pattern's floor, p50 (x RTT)", fmt(bare, ".1f"), ""))
    for size, rate in figures["throughput_moves_per_s"].items():
        goal = GOALS["throughput_moves_per_s"].get(size)
        rows.append((f"throughput, {size} flat-out bots (moves/s)", f"{rate:,.0f}",
                     f">= {goal:,}" if goal else ""))  # fmt: skip
        during = figures["throughput_playing_moves_per_s"].get(size)
        rows.append(("  the same, PLAYING phase only (moves/s)", fmt(during, ",.0f"), ""))
        bare = figures["floor_moves_per_s"].get(size)
        rows.append(("  the bare pattern, flat out (moves/s)", fmt(bare, ",.0f"), ""))
        cpu = figures["throughput_cpu_ms_per_move"].get(size)
        share = figures["throughput_main_thread_share"].get(size)
        rows.append(
            (
                "  processor ms per move, all nodes (main %)",
                f"{fmt(cpu)} ({fmt(None if share is None else 100 * share, '.0f')}%)",
                "",
            )
        )
    for size, cost in figures["cost_growth"].items():
        rows.append(
            (
                f"wire per event, {size} replicas (msgs, bytes)",
                f"{cost['messages_per_event']:.0f} ({cost['ratio_to_floor']:.0f}x n-1), "
                f"{cost['bytes_per_event']:,.0f}",
                "",
            )
        )
    codec = figures["codec"]
    rows += [
        (
            "codec encode / decode (per s)",
            f"{codec['encode_per_s']:,.0f} / {codec['decode_per_s']:,.0f}",
            "",
        ),
        (
            "codec vs bare msgpack (x slower)",
            f"{figures['codec_ratio']:.1f} (enc {codec['encode_ratio']:.1f}, "
            f"dec {codec['decode_ratio']:.1f})",
            "<= 3x",
        ),
        ("rules engine (moves/s)", f"{figures['engine_moves_per_s']:,.0f}", ">= 50,000"),
        ("node resident memory (MB)", fmt(figures["rss_mb"], ".1f"), "<= 60"),
        ("restarted node catches up (s)", fmt(figures["catchup_s"]), "< 1"),
        ("every peer discovered (s, worst)", fmt(figures["discovery_s"]), "< 2"),
    ]
    rows += spectator_and_deal_rows(figures)
    for name, measured, goal in rows:
        print(f"{name:<44}{measured:>20}  {goal:<14}")


def spectator_and_deal_rows(figures: dict[str, Any]) -> list[tuple[str, str, str]]:
    rows = [
        (
            f"commit p50 / p99, 4 nodes, {count} spectators",
            f"{p50:.1f} / {p99:.1f} ms ({ratio:.1f}x RTT)",
            "as with 0",
        )
        for count, (p50, p99, ratio) in figures["spectators_commit_ms"].items()
    ]
    deal = figures["dutch_deal_ms"]
    base = deal["baseline_ms"]
    rows += [
        ("Dutch: one scalar multiplication (ms)", f"{base:.3f}", ""),
        ("Dutch: shuffle by 6, checked by all (ms)",
         f"{deal['shuffle_all_ms']:.1f} ({deal['shuffle_all_ms'] / base:.0f}x)",
         f"<= {GOALS['dutch_shuffle_all_ms']:g}"),
        ("Dutch: opening one card, sealed (ms)",
         f"{deal['sealed_opening_ms']:.1f} ({deal['sealed_opening_ms'] / base:.0f}x)",
         f"<= {GOALS['dutch_opening_ms']:g}"),
    ]  # fmt: skip
    return rows


def plot(figures: dict[str, Any], path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("--plot needs matplotlib: pip install 'dutchblitz[plot]'", file=sys.stderr)
        return
    sizes = [int(s) for s in figures["commit_ms"]]
    p50 = [figures["commit_ms"][str(s)][0] for s in sizes]
    p99 = [figures["commit_ms"][str(s)][1] for s in sizes]
    figure, axes = plt.subplots(figsize=(6, 4))
    axes.plot(sizes, p50, "o-", label="commit p50")
    axes.plot(sizes, p99, "s--", label="commit p99")
    floor = figures["floor_p50_ratio"]
    bare = [s for s in sizes if str(s) in floor]
    rtt = figures["baseline_rtt_ms"]
    axes.plot(bare, [floor[str(s)] * rtt for s in bare], "^:", label="bare pattern p50")
    axes.axhline(rtt, color="grey", linestyle=":", label="raw RTT")
    axes.set_yscale("log")
    axes.set_xlabel("nodes on loopback")
    axes.set_ylabel("ms")
    axes.set_xticks(sizes)
    axes.set_title("Commit latency against table size")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    print(f"plot written to {path}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/run.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short version of every figure")
    parser.add_argument(
        "--json", nargs="?", const="-", help="write the figures as JSON to this file (-: stdout)"
    )
    parser.add_argument("--plot", type=Path, help="draw latency against nodes (matplotlib)")
    parser.add_argument("--sizes", help="table sizes for latency (default 2,4,8,16)")
    parser.add_argument("--seconds", type=float, help="seconds of play per table")
    parser.add_argument("--no-netns", action="store_true", help="never use a namespace")
    args = parser.parse_args(argv)
    quick = args.quick
    sizes = [int(s) for s in (args.sizes or ("2,4" if quick else "2,4,8,16")).split(",")]
    seconds = args.seconds or (3.0 if quick else 8.0)
    use_netns = (
        not args.no_netns
        and sys.platform.startswith("linux")
        and os.geteuid() == 0
        and shutil.which("ip") is not None
    )
    figures: dict[str, Any] = {"machine": machine(), "quick": quick}
    with processes.private_loopback(use_netns) as prefix:
        figures["discovery_by"] = "zeroconf, private namespace" if prefix else "--peer, HELLO"
        rtts = processes.baseline(prefix)
        rtt = statistics.median(rtts)
        figures["baseline_rtt_ms"] = rtt * 1e3
        latency = latency_figures(sizes, seconds, prefix, rtt)
        through = throughput_figures([4] if quick else [4, 8], seconds, prefix)
        floor = bare_pattern.figures(sizes, [4] if quick else [4, 8], seconds, prefix)
        catchup = catchup_figure(seconds, prefix)
        later = {
            rounds: catchup_figure(seconds, prefix, rounds)
            for rounds in ((2,) if quick else (5, 50))
        }
        memory = memory_figure(25 if quick else 75, prefix)
        watched = spectator_figures([0, 4] if quick else [0, 4, 8], seconds, prefix, rtt)
        started = startup.figures(1 if quick else 3, prefix)
    figures["commit_p50_ratio"] = latency["p50"]
    figures["commit_p99_ratio"] = latency["p99"]
    figures["commit_ms"] = latency["ms"]
    figures["commit_moves"] = latency["moves"]
    # Discovery: from the last node's start until every node has found every other; and,
    # for reference, from the launch of the processes (interpreter start-up included).
    figures["discovery_by_size_s"] = latency["formed"]
    figures["discovery_from_launch_s"] = latency["found"]
    figures["discovery_s"] = max(latency["formed"].values()) if latency["formed"] else None
    figures["floor_p50_ratio"] = {n: ms / (rtt * 1e3) for n, ms in floor["p50_ms"].items()}
    figures["floor_p99_ratio"] = {n: ms / (rtt * 1e3) for n, ms in floor["p99_ms"].items()}
    figures["floor_moves_per_s"] = floor["moves_per_s"]
    figures["throughput_moves_per_s"] = through["rates"]
    figures["throughput_playing_moves_per_s"] = through["playing"]
    figures["throughput_rounds"] = through["rounds"]
    figures["throughput_cpu_ms_per_move"] = through["cpu_ms_per_move"]
    figures["throughput_main_thread_share"] = through["main_thread_share"]
    figures["rss_mb"] = memory["rss_mb"]
    figures["rss_game"] = memory
    figures["rss_mb_after_throughput"] = through["rss"]
    figures["catchup_s"] = catchup["seconds"]
    figures["catchup_log_events"] = catchup["log_events"]
    figures["catchup_rounds_in_log"] = catchup["rounds_in_log"]
    for rounds, found in later.items():
        figures[f"catchup_{rounds}_rounds_s"] = found["seconds"]
        figures[f"catchup_{rounds}_rounds_log_events"] = found["log_events"]
    figures["cost_growth"] = cost_figures(
        [2, 4, 8] if quick else [2, 4, 8, 16, 32], 8 if quick else 32
    )
    codec = codec_figures(quick)
    figures["codec"] = codec
    figures["codec_ratio"] = codec["codec_ratio"]
    figures.update(engine_figures(quick))
    figures["spectators_commit_ms"] = watched
    figures["dutch_deal_ms"] = dutch_deal.figures(6, 2 if quick else 5)
    figures.update(started)
    figures["goals"] = goals.rows(figures)
    to_stdout = args.json == "-"
    report = sys.stderr if to_stdout else sys.stdout
    with contextlib.redirect_stdout(report):
        print_table(figures)
        print()
        goals.print_rows(figures["goals"])
    if to_stdout:
        print(json.dumps(figures, indent=1, sort_keys=True))
    elif args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")
        print(f"figures written to {args.json}")
    if args.plot:
        plot(figures, args.plot)
    return 0


def machine() -> str:
    cpu = "unknown cpu"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {sys.version.split()[0]}"


if __name__ == "__main__":
    sys.exit(main())
