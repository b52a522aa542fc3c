"""The floor under commit latency: the node's message pattern with nothing else in it.

    PYTHONPATH=... python bench/floor.py [--sizes 2,4,8] [--seconds 6]

A move is final (stable) at a node once that node has heard, from every other
member, that it holds the move (spec, section 10): so every move costs one
broadcast from its maker and one acknowledgement from every receiver to every
member, n(n-1) messages on two hops. This script runs exactly that pattern, and
nothing else, in ``n`` processes on 127.0.0.1: the same sockets as the node (a
ROUTER to receive, drained without waiting each time the event loop's reader for
its descriptor wakes, a DEALER per peer, sends that never wait), moves of the
same size made at the same pace as ``commit_latency.py``'s bots, but no codec,
no signatures, no CURVE, no rules and no log. What it measures is the least that
a table of ``n`` processes on this machine can do with the pattern; the node's
own figure is read against it.

It prints, per table size, the p50 and p99 of the time from a move's submission
to its delivery as final at every process, as a ratio to the raw pyzmq round
trip measured in the same run (``commit_latency.baseline``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import commit_latency as processes

EVENT_BYTES = 120  # about a signed PLAY event in its envelope
ACK_BYTES = 90  # about an acknowledgement in its envelope
THINK = (0.12, 0.3)  # the "fast" bots' pace, as in commit_latency.py
IN_FLIGHT = 4  # flat out: moves of one maker not yet final, as for the flat-out bots


async def member(
    index: int, ports: list[int], seconds: float, start_at: float, in_flight: int
) -> dict[str, Any]:
    """One process of the pattern: make moves, acknowledge what it heard, time finality.

    As in the node, acknowledgements are cumulative (the last move heard from each
    maker, which ZeroMQ delivers in order) and go to every member once per batch of
    messages drained. With ``in_flight`` 0 a move is made at the bots' pace; else
    moves are made flat out, at most ``in_flight`` of them not yet final here.
    """
    import zmq

    size = len(ports)
    context = zmq.Context()
    router: zmq.Socket[bytes] = context.socket(zmq.ROUTER)
    router.setsockopt(zmq.LINGER, 0)
    router.bind(f"tcp://127.0.0.1:{ports[index]}")
    dealers: list[zmq.Socket[bytes]] = []
    for other, port in enumerate(ports):
        if other != index:
            dealer = context.socket(zmq.DEALER)
            dealer.setsockopt(zmq.LINGER, 0)
            dealer.setsockopt(zmq.IDENTITY, bytes([index]))
            dealer.connect(f"tcp://127.0.0.1:{port}")
            dealers.append(dealer)
    keep = [router, *dealers]
    readable = asyncio.Event()  # set by the loop's reader on the ROUTER's descriptor
    asyncio.get_running_loop().add_reader(router.FD, readable.set)
    # known[member][maker]: the last move of ``maker`` that ``member`` is known to hold.
    known = [[0] * size for _ in range(size)]
    made = 0
    submitted: list[float] = []  # by move number - 1, our own
    final: dict[str, float] = {}  # "maker:number" -> when final here (latency mode)
    finals: list[float] = []  # when each move, anyone's, became final here
    done = [0] * size  # per maker, the last move final here
    changed: set[int] = set()  # makers whose last move heard changed since our last ack
    greeted: set[bytes] = set()
    everyone = asyncio.Event()
    progress = asyncio.Event()
    filler_event, filler_ack = bytes(EVENT_BYTES - 9), bytes(max(0, ACK_BYTES - 9 * (size - 1)))

    def send_all(data: bytes) -> None:
        for dealer in dealers:
            with contextlib.suppress(zmq.Again):  # as the node: a full queue drops
                dealer.send(data, zmq.NOBLOCK)

    def settle(maker: int) -> None:
        """Mark final every move of ``maker`` that every member now holds."""
        held = min(row[maker] for row in known)
        if held > done[maker]:
            now = time.monotonic()
            for number in range(done[maker] + 1, held + 1):
                finals.append(now)
                if not in_flight:
                    final[f"{maker}:{number}"] = now
            done[maker] = held
            progress.set()

    def handle(frames: list[bytes]) -> None:
        routing, data = frames
        peer = routing[0]
        kind = data[:1]
        if kind == b"H":
            greeted.add(routing)
            if len(greeted) == size - 1:
                everyone.set()
        elif kind == b"E":  # its maker holds it, and now we do
            number = int.from_bytes(data[1:9], "big")
            known[peer][peer] = known[index][peer] = number
            changed.add(peer)
        else:
            for at in range(1, len(data) - len(filler_ack), 9):
                maker, number = data[at], int.from_bytes(data[at + 1 : at + 9], "big")
                if number > known[peer][maker]:
                    known[peer][maker] = number

    async def receive() -> None:
        while True:
            batch = []
            while True:
                try:
                    batch.append(router.recv_multipart(zmq.NOBLOCK))
                except zmq.Again:
                    break
            if not batch:  # ZeroMQ signals the descriptor by edge: wait only when drained
                readable.clear()
                await readable.wait()
                continue
            for frames in batch:
                handle(frames)
            if changed:  # acknowledge first, then see what became final
                send_all(
                    b"A"
                    + b"".join(bytes([m]) + known[index][m].to_bytes(8, "big") for m in changed)
                    + filler_ack
                )
                changed.clear()
            for maker in range(size):
                if maker != index:
                    settle(maker)
            settle(index)

    def make() -> None:
        nonlocal made
        made += 1
        submitted.append(time.monotonic())
        known[index][index] = made
        send_all(b"E" + made.to_bytes(8, "big") + filler_event)

    receiver = asyncio.ensure_future(receive())
    while not everyone.is_set():  # greet until every member has greeted us
        send_all(b"H")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(everyone.wait(), 0.05)
    for _ in range(20):  # and a few more, for members still waiting on our greeting
        send_all(b"H")
        await asyncio.sleep(0.01)
    await asyncio.sleep(max(0.0, start_at - time.monotonic()))
    rng = random.Random(index)
    began = time.monotonic()
    deadline = began + seconds
    while time.monotonic() < deadline:
        if not in_flight:
            await asyncio.sleep(rng.uniform(*THINK))
            make()
        elif made - done[index] < in_flight:
            make()
            await asyncio.sleep(0)
        else:
            progress.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(progress.wait(), 1.0)
    await asyncio.sleep(1.0)  # the last moves' acknowledgements
    receiver.cancel()
    asyncio.get_running_loop().remove_reader(router.FD)
    for socket in keep:
        socket.close(linger=0)
    context.term()
    ours = {f"{index}:{n + 1}": at for n, at in enumerate(submitted)}
    inside = [t for t in finals if began <= t <= deadline]
    return {"submitted": ours, "final": final, "finals_in_window": len(inside), "window": seconds}


def floor_run(
    size: int, seconds: float, prefix: list[str], in_flight: int = 0
) -> list[dict[str, Any]]:
    """What each of ``size`` processes of the pattern reports (see ``member``)."""
    ports = processes.free_ports(size)
    start_at = time.monotonic() + 2.0 + 0.1 * size  # after every process is up
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, str(Path(__file__).resolve()), "--ports",
                   ",".join(map(str, ports)), "--seconds", str(seconds), "--start-at",
                   repr(start_at), "--in-flight", str(in_flight)]  # fmt: skip
        members = [
            subprocess.Popen(
                [*prefix, *command, "--member", str(i), "--out", f"{folder}/out{i}.json"]
            )
            for i in range(size)
        ]
        try:
            for process in members:
                process.wait(timeout=seconds + 60)
        finally:
            for process in members:
                if process.poll() is None:
                    process.kill()
                    process.wait()
        return [json.loads(Path(f"{folder}/out{i}.json").read_text()) for i in range(size)]


def latencies(results: list[dict[str, Any]]) -> list[float]:
    """From each move's submission until it was final at every process (s)."""
    out = []
    for result in results:
        for move, started in result["submitted"].items():
            times = [other["final"].get(move) for other in results]
            if all(t is not None for t in times):
                out.append(max(times) - started)
    return out


def throughput(results: list[dict[str, Any]]) -> float:
    """Moves made final per second, at one process, over the time moves were made."""
    return float(results[-1]["finals_in_window"] / results[-1]["window"])


def figures(
    sizes: Sequence[int], throughput_sizes: Sequence[int], seconds: float, prefix: list[str]
) -> dict[str, Any]:
    """The floor: latency p50 and p99 (ms) at the bots' pace, and flat-out moves per
    second, each keyed by table size as a string."""
    out: dict[str, Any] = {"p50_ms": {}, "p99_ms": {}, "moves_per_s": {}}
    for size in sizes:
        times = latencies(floor_run(size, seconds, prefix))
        if times:
            out["p50_ms"][str(size)] = statistics.median(times) * 1e3
            out["p99_ms"][str(size)] = processes.percentile(times, 0.99) * 1e3
    for size in throughput_sizes:
        out["moves_per_s"][str(size)] = throughput(floor_run(size, seconds, prefix, IN_FLIGHT))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/floor.py", description=__doc__)
    parser.add_argument("--sizes", default="2,4,8", help="table sizes (default: 2,4,8)")
    parser.add_argument("--throughput", default="4,8", help="flat-out sizes (default: 4,8)")
    parser.add_argument("--seconds", type=float, default=6.0, help="moves made per size, in s")
    parser.add_argument("--member", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--ports", help=argparse.SUPPRESS)
    parser.add_argument("--start-at", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--in-flight", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.member is not None:
        ports = [int(p) for p in args.ports.split(",")]
        result = asyncio.run(
            member(args.member, ports, args.seconds, args.start_at, args.in_flight)
        )
        Path(args.out).write_text(json.dumps(result))
        return 0
    rtts = processes.baseline([])
    rtt = statistics.median(rtts)
    print(f"raw pyzmq DEALER/ROUTER round trip: p50 {rtt * 1e3:.3f} ms\n")
    sizes = [int(s) for s in args.sizes.split(",") if s]
    flat_out = [int(s) for s in args.throughput.split(",") if s]
    found = figures(sizes, flat_out, args.seconds, [])
    print("nodes  floor p50 ms  p99 ms  p50/RTT  p99/RTT")
    for size in sizes:
        p50, p99 = found["p50_ms"].get(str(size)), found["p99_ms"].get(str(size))
        if p50 is None:
            print(f"{size:5d}  no move became final everywhere")
            continue
        print(f"{size:5d}  {p50:12.2f}  {p99:6.2f}  {p50 / rtt / 1e3:7.1f}  {p99 / rtt / 1e3:7.1f}")
    for size in flat_out:
        rate = found["moves_per_s"][str(size)]
        print(f"{size:5d}  flat out ({IN_FLIGHT} in flight per maker): {rate:,.0f} moves/s final")
    return 0


if __name__ == "__main__":
    sys.exit(main())
