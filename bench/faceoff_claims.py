"""How long a Blitz! answer takes to be decided at every node, against a raw ZeroMQ round trip.

    PYTHONPATH=... python bench/faceoff_claims.py [--nodes 4] [--games 1] [--mode typed|spoken]

It starts that many real node processes on 127.0.0.1 hosting Blitz! (``--game faceoff``),
each with a sharp bot seat, and lets them play whole games. Every answer (typed) or claim
(spoken) is timed from the moment its node submits it until the moment it is delivered as
final at *every* node, which is when every screen shows what it decided (a listed answer
wins there and then, F-31); CLOCK_MONOTONIC is shared by all processes on the machine, so
the times compare directly. The baseline, in the same run, is the round trip of a raw pyzmq
asyncio DEALER to a ROUTER in another process that echoes (commit_latency.py's). The links
that open each turned card (F-48) are timed the same way and printed beside them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from commit_latency import baseline, echo, free_ports, percentile, round_trips

GAME_S = 300.0  # a whole game between bots that think as people do: a minute or two


def kind_of(body: Any) -> str | None:
    """``answer`` for a said or claimed body of Blitz!, ``link`` for a link, else None."""
    from dutchblitz.protocol.games.faceoff.wire import GAME_ID, Claimed, Link, Said, decode
    from dutchblitz.protocol.wire.messages import GameBody

    if not isinstance(body, GameBody) or body.game != GAME_ID:
        return None
    message = decode(body.payload).message
    if isinstance(message, Said | Claimed):
        return "answer"
    return "link" if isinstance(message, Link) else None


async def worker(args: argparse.Namespace) -> None:
    from dutchblitz.node.runtime import Node, Options
    from dutchblitz.protocol.replica.effects import Delivered, Effect
    from dutchblitz.protocol.wire.messages import Body

    ports = [int(p) for p in args.ports.split(",")]
    options = Options(
        name=f"node{args.index}",
        peers=tuple(f"127.0.0.1:{p}" for p in ports),
        interface="127.0.0.1",
        port=ports[args.index],
        bot=True,
        bot_level="sharp",
        headless=True,
        players=len(ports),
        seed=args.index,
        state_dir=Path(args.state),
        discovery=False,
        suspect_after=10.0,
        count_in_s=0.0,
        game="faceoff",
        post_stacking=args.mode == "typed",
    )
    node = Node(options)
    submitted: dict[int, tuple[str, float]] = {}
    delivered: dict[str, float] = {}
    await node.start()
    seat = node.main
    assert seat is not None
    submit = seat.steward.submit

    def timed_submit(body: Body) -> bool:
        started = time.monotonic()
        sent = submit(body)
        kind = kind_of(body)
        if sent and kind is not None and seat.replica is not None:
            submitted[seat.replica.my_seq] = (kind, started)
        return sent

    def on_effect(effect: Effect, live: bool) -> None:
        if isinstance(effect, Delivered) and kind_of(effect.entry.body) is not None:
            delivered[f"{effect.entry.sender.hex()}:{effect.entry.seq}"] = time.monotonic()

    seat.steward.submit = timed_submit
    seat.listeners.append(on_effect)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(seat.finished.wait(), GAME_S)
    result = {"node": seat.node_id.hex(), "submitted": submitted, "delivered": delivered}
    Path(args.out).write_text(json.dumps(result))
    await node.stop(goodbye=False)


def me(*args: str) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), *args]


def table_run(args: argparse.Namespace) -> dict[str, list[float]]:
    ports = free_ports(args.nodes)
    with tempfile.TemporaryDirectory() as folder:
        commands = [
            me("--worker", str(i), "--ports", ",".join(map(str, ports)), "--mode", args.mode,
               "--state", f"{folder}/state{i}", "--out", f"{folder}/out{i}.json")
            for i in range(args.nodes)
        ]  # fmt: skip
        workers = [
            subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for command in commands
        ]
        try:
            for process in workers:
                process.wait(timeout=GAME_S + 60)
        finally:
            for process in workers:
                if process.poll() is None:
                    process.kill()
                    process.wait()
        results = [json.loads(Path(f"{folder}/out{i}.json").read_text()) for i in range(args.nodes)]
    times: dict[str, list[float]] = {"answer": [], "link": []}
    for result in results:
        for seq, (kind, started) in result["submitted"].items():
            key = f"{result['node']}:{seq}"
            seen = [other["delivered"].get(key) for other in results]
            if all(t is not None for t in seen):
                times[kind].append(max(seen) - started)
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/faceoff_claims.py", description=__doc__)
    parser.add_argument("--nodes", type=int, default=4)
    parser.add_argument("--games", type=int, default=1, help="whole games to time")
    parser.add_argument("--mode", choices=("typed", "spoken"), default="typed")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--ports", help=argparse.SUPPRESS)
    parser.add_argument("--state", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--echo", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--ping", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.echo is not None:
        asyncio.run(echo(args.echo))
        return 0
    if args.ping is not None:
        print(json.dumps(asyncio.run(round_trips(args.ping))))
        return 0
    if args.worker is not None:
        args.index = args.worker
        asyncio.run(worker(args))
        return 0
    rtts = baseline([])
    rtt = statistics.median(rtts)
    print(f"raw pyzmq DEALER/ROUTER round trip: p50 {rtt * 1e3:.3f} ms, "
          f"p99 {percentile(rtts, 0.99) * 1e3:.3f} ms ({len(rtts)} pings)")  # fmt: skip
    times: dict[str, list[float]] = {"answer": [], "link": []}
    for _ in range(args.games):
        for kind, found in table_run(args).items():
            times[kind] += found
    print(f"{args.nodes} nodes, {args.games} game(s), {args.mode} answers, sharp bots\n")
    print("what      count  p50 ms  p99 ms  p50/RTT  p99/RTT")
    for kind, found in times.items():
        if not found:
            print(f"{kind:8}  none decided everywhere")
            continue
        p50, p99 = statistics.median(found), percentile(found, 0.99)
        print(f"{kind:8}  {len(found):5d}  {p50 * 1e3:6.2f}  {p99 * 1e3:6.2f}  "
              f"{p50 / rtt:7.1f}  {p99 / rtt:7.1f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
