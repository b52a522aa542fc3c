"""How long a move takes to become final everywhere, against a raw ZeroMQ round trip.

    PYTHONPATH=... python bench/commit_latency.py [--sizes 2,4,8] [--seconds 6] [--level fast]

For each table size it starts that many real node processes on 127.0.0.1, each
with a bot seat, and lets them play. Every move (PLAY event) is timed from the
moment its node submits it until the moment it is delivered as final (stable)
at *every* node; CLOCK_MONOTONIC is shared by all processes on the machine, so
the times compare directly. The nodes skip the count-in before each round (spec/rules.md
R-55): it is idle time by design, and what is measured here is the protocol. The baseline,
measured in the same run, is the
round trip of a raw pyzmq asyncio DEALER to a ROUTER in another process that
echoes. Also printed: the time from the nodes' launch until each has found all
the others, and the processor time all the nodes spent during play (every thread,
ZeroMQ's included) per move made final: on a busy machine it wavers far less than
the times do.

As root (with ``ip``) the nodes run in a private network namespace holding only
its loopback, and find each other by zeroconf alone; otherwise they meet through
``--peer`` and the HELLO peer lists. Either way no packet leaves 127.0.0.1.

The goal: p50 within 2x the raw round trip with 4 nodes, and 3x with 8.

With ``--spectators 0,4,8`` it also times a table of 4 with that many spectators
(``blitz-node --watch --headless``) following it: a spectator is fed what is final and
nobody waits for it, so the figures should stay those of 4 nodes alone.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import itertools
import json
import os
import random
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

GOALS = {4: 2.0, 8: 3.0}
PINGS = 2000
MAX_SEATS = 8  # a larger table seats eight players; the others watch, and count for stability


def free_ports(count: int) -> list[int]:
    probes = []
    try:
        for _ in range(count):
            probe = socket.socket()
            probe.bind(("127.0.0.1", 0))
            probes.append(probe)
        return [int(probe.getsockname()[1]) for probe in probes]
    finally:
        for probe in probes:
            probe.close()


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


# -- the baseline: a raw DEALER/ROUTER round trip --------------------------------------------


async def echo(port: int) -> None:
    import zmq
    import zmq.asyncio

    context = zmq.asyncio.Context()
    router = context.socket(zmq.ROUTER)
    router.setsockopt(zmq.LINGER, 0)
    router.bind(f"tcp://127.0.0.1:{port}")
    while True:
        frames = await router.recv_multipart()
        await router.send_multipart(frames)


async def round_trips(port: int) -> list[float]:
    import zmq
    import zmq.asyncio

    context = zmq.asyncio.Context()
    dealer = context.socket(zmq.DEALER)
    dealer.setsockopt(zmq.LINGER, 0)
    dealer.connect(f"tcp://127.0.0.1:{port}")
    payload = bytes(48)  # about the size of a PLAY message
    times = []
    try:
        for number in range(PINGS + 200):
            started = time.monotonic()
            await dealer.send(payload)
            await dealer.recv()
            if number >= 200:  # the first ones warm the connection up
                times.append(time.monotonic() - started)
    finally:
        dealer.close()
        context.term()
    return times


# -- one node, as a worker process ----------------------------------------------------------


# Each worker's processor time in its own thread, during play (bench/hotspots.py).
PROFILE_FOLDER = "BLITZ_BENCH_PROFILE"
PROFILER = cProfile.Profile(time.thread_time) if os.environ.get(PROFILE_FOLDER) else None


async def worker(args: argparse.Namespace) -> None:
    from dutchblitz.node.runtime import Node, Options
    from dutchblitz.protocol.games.blitz.bots import LEVELS, think_time
    from dutchblitz.protocol.replica.effects import Delivered, Effect
    from dutchblitz.protocol.table.state import Phase
    from dutchblitz.protocol.wire.messages import Body, Play, Profile

    ports = [int(p) for p in args.ports.split(",")]
    # A game seats at most eight: a larger table stays in the lobby, and what is timed
    # there is each node changing its name (a PROFILE event) at the bots' pace.
    lobby = len(ports) > MAX_SEATS
    timed: type[Body] = Profile if lobby else Play
    peers = () if args.zeroconf else tuple(f"127.0.0.1:{p}" for p in ports)
    options = Options(
        name=f"node{args.index}",
        peers=peers,
        interface="127.0.0.1",
        port=ports[args.index],
        bot=True,
        bot_level=args.level,
        headless=True,
        players=None if lobby else len(ports),
        target=args.target,  # by default never reached: the run is cut by time
        seed=args.index,
        state_dir=Path(args.state),
        discovery=args.zeroconf,
        suspect_after=10.0,
        count_in_s=0.0,  # a round's count-in (spec/rules.md R-55) is idle time by design
    )
    node = Node(options)
    submitted: dict[int, float] = {}
    delivered: dict[str, float] = {}
    found_all: list[float] = []

    async def watch_discovery() -> None:
        while not found_all:
            if node.main is not None and node.main.peers_seen >= len(ports) - 1:
                found_all.append(time.monotonic())
            await asyncio.sleep(0.002)

    watcher = asyncio.ensure_future(watch_discovery())
    started = time.monotonic()
    await node.start()
    seat = node.main
    assert seat is not None
    submit = seat.steward.submit  # the bot's moves go out through its steward

    def timed_submit(body: Body) -> bool:
        started = time.monotonic()
        sent = submit(body)
        if sent and isinstance(body, timed) and seat.replica is not None:
            submitted[seat.replica.my_seq] = started
        return sent

    phases: list[tuple[float, str]] = []  # when the stable game entered each phase

    def on_effect(effect: Effect, live: bool) -> None:
        if isinstance(effect, Delivered) and isinstance(effect.entry.body, timed):
            delivered[f"{effect.entry.sender.hex()}:{effect.entry.seq}"] = time.monotonic()
        replica = seat.replica
        if isinstance(effect, Delivered) and replica is not None:
            phase = replica.stable.phase.value
            if not phases or phases[-1][1] != phase:
                phases.append((time.monotonic(), phase))

    def seated() -> int:
        replica = seat.replica
        return 0 if replica is None else sum(m.present for m in replica.stable.members.values())

    seat.steward.submit = timed_submit
    seat.listeners.append(on_effect)
    if lobby:
        while seated() < len(ports):
            await asyncio.sleep(0.01)
    else:
        while seat.replica is None or seat.replica.stable.phase != Phase.PLAYING:
            await asyncio.sleep(0.01)
    playing_at = time.monotonic()
    if PROFILER is not None:
        PROFILER.enable()  # the play only: not the imports, the discovery or the lobby
    cpu_at_play = time.process_time()  # every thread of the process: ZeroMQ's too
    main_at_play = time.thread_time()  # the node's own thread: the event loop and Python
    renamer = asyncio.ensure_future(rename(seat, LEVELS[args.level], think_time)) if lobby else None
    catchup: dict[str, Any] | None = None
    if args.restart_after is not None:
        await asyncio.sleep(args.restart_after)
        wanted = getattr(args, "restart_rounds", 1)
        for _ in range(300 + 1000 * wanted):  # until the log holds that many whole rounds
            if seat.replica is not None and len(seat.replica.stable.results) >= wanted:
                break
            await asyncio.sleep(0.01)
        node, catchup = await restart(node, options, args.restart_down)
        seat = node.main
        assert seat is not None
    if args.target < 1000:  # a whole game: play it to the end (within the time given)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(seat.finished.wait(), args.seconds)
    else:
        await asyncio.sleep(max(0.0, playing_at + args.seconds - time.monotonic()))
    cpu_in_play, played_until = time.process_time() - cpu_at_play, time.monotonic()
    main_in_play = time.thread_time() - main_at_play
    watcher.cancel()
    if renamer is not None:
        renamer.cancel()
    replica = seat.replica
    result: dict[str, Any] = {
        "node": seat.node_id.hex(),
        "submitted": submitted,
        "delivered": delivered,
        "phases": phases,
        "found_all": found_all[0] if found_all else None,
        "started": started,
        "playing_at": playing_at,
        "cpu_s": cpu_in_play,
        "main_cpu_s": main_in_play,
        "played_until": played_until,
        "rss_mb": resident_mb(),
        "log": len(replica.log) if replica is not None else 0,
        "rounds": len(replica.stable.results) if replica is not None else 0,
        "over": replica is not None and replica.stable.phase == Phase.OVER,
        "catchup": catchup,
    }
    if PROFILER is not None:
        PROFILER.disable()
    Path(args.out).write_text(json.dumps(result))
    await node.stop(goodbye=False)


async def rename(seat: Any, level: Any, think_time: Any) -> None:
    """In the lobby: a new name at the bots' pace, which the steward sends as a PROFILE."""
    rng = random.Random(seat.node_id)
    seat.config.wishes.back = f"bench-{seat.node_id.hex()[:6]}"  # past eight, no back is left
    for number in itertools.count():
        await asyncio.sleep(think_time(level, rng) or 0.001)
        seat.config.wishes.name = f"n{seat.node_id.hex()[:6]}-{number}"
        seat.poke()


def resident_mb() -> float:
    """This process's resident set, in MB (VmRSS)."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def restart(node: Any, options: Any, down: float) -> tuple[Any, dict[str, Any]]:
    """Stop the node (no goodbye, as after a crash), wait ``down`` s, start it on its log.

    The parent reads the catch-up time from what is returned: the restarted node is
    caught up once it delivers, as final, a move another node submitted after the
    restart began, because the total order then puts everything before it in place.
    """
    from dutchblitz.node.runtime import Node
    from dutchblitz.protocol.replica.effects import Delivered, Effect
    from dutchblitz.protocol.wire.messages import Play

    replica = node.main.replica if node.main else None
    held = len(replica.log) if replica is not None else 0
    rounds = len(replica.stable.results) if replica is not None else 0
    await node.stop(goodbye=False)
    await asyncio.sleep(down)
    began = time.monotonic()
    delivered: dict[str, float] = {}

    def on_effect(effect: Effect, live: bool) -> None:
        if live and isinstance(effect, Delivered) and isinstance(effect.entry.body, Play):
            delivered[f"{effect.entry.sender.hex()}:{effect.entry.seq}"] = time.monotonic()

    fresh = Node(options)
    await fresh.start()
    assert fresh.main is not None and fresh.main.replica is not None
    fresh.main.listeners.append(on_effect)
    started = time.monotonic() - began
    restored = len(fresh.main.replica.log)
    again = {
        "began": began,
        "start_s": started,
        "restored": restored,
        "held_before": held,
        "rounds_before": rounds,
        "delivered": delivered,
    }
    return fresh, again


def catchup_seconds(results: list[dict[str, Any]]) -> float | None:
    """From a restarted node's start to its first final delivery of a newer move."""
    restarted = next((r for r in results if r.get("catchup")), None)
    if restarted is None:
        return None
    began = restarted["catchup"]["began"]
    again = restarted["catchup"]["delivered"]
    times = [
        again[f"{other['node']}:{seq}"]
        for other in results
        if other is not restarted
        for seq, started in other["submitted"].items()
        if started >= began and f"{other['node']}:{seq}" in again
    ]
    return min(times) - began if times else None


# -- the runs --------------------------------------------------------------------------------


@contextlib.contextmanager
def private_loopback(wanted: bool) -> Iterator[list[str]]:
    """A command prefix that runs in a fresh namespace holding only loopback (as root)."""
    if not wanted:
        yield []
        return
    name = f"bzbench-{secrets.token_hex(3)}"
    subprocess.run(["ip", "netns", "add", name], check=True)
    try:
        subprocess.run(["ip", "-n", name, "link", "set", "lo", "up"], check=True)
        yield ["ip", "netns", "exec", name]
    finally:
        subprocess.run(["ip", "netns", "del", name], check=False)


def me(*args: str) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), *args]


def baseline(prefix: list[str]) -> list[float]:
    port = free_ports(1)[0]
    echoer = subprocess.Popen([*prefix, *me("--echo", str(port))])
    try:
        command = [*prefix, *me("--ping", str(port))]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
        return [float(x) for x in json.loads(done.stdout)]
    finally:
        echoer.kill()
        echoer.wait()


def worker_args(
    index: int, ports: list[int], args: argparse.Namespace, folder: str, zeroconf: bool
) -> list[str]:
    return [
        "--worker", str(index), "--ports", ",".join(map(str, ports)),
        "--seconds", str(args.seconds), "--level", args.level,
        "--state", f"{folder}/state{index}", "--out", f"{folder}/out{index}.json",
        *(["--zeroconf"] if zeroconf else []),
        "--target", str(getattr(args, "target", 1000)),
        *(["--restart-after", str(args.restart_after), "--restart-down",
           str(args.restart_down), "--restart-rounds", str(getattr(args, "restart_rounds", 1))]
          if index == 0 and args.restart_after is not None else []),
    ]  # fmt: skip


def spectator_command(index: int, ports: list[int], folder: str) -> list[str]:
    """A headless spectator that knocks at every node's door (spec/protocol.md section 26)."""
    peers = [arg for port in ports for arg in ("--peer", f"127.0.0.1:{port}")]
    return [
        sys.executable, "-m", "dutchblitz.node.cli.main", "--watch", "--headless",
        "--name", f"fan{index}", "--interface", "127.0.0.1", "--port", "0",
        "--no-discovery", "--state-dir", f"{folder}/fan{index}", *peers,
    ]  # fmt: skip


def table_run(
    size: int, args: argparse.Namespace, prefix: list[str], spectators: int = 0
) -> dict[str, Any]:
    ports = free_ports(size)
    with tempfile.TemporaryDirectory() as folder:
        launched = time.monotonic()
        fans = [
            subprocess.Popen(
                [*prefix, *spectator_command(index, ports, folder)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for index in range(spectators)
        ]
        workers = [
            subprocess.Popen(
                [*prefix, *me(*worker_args(index, ports, args, f"{folder}", bool(prefix)))],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for index in range(size)
        ]
        deadline = time.monotonic() + args.seconds + 90
        try:
            for process in workers:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
        finally:
            for process in [*workers, *fans]:  # nothing is left behind; spectators never end
                if process.poll() is None:
                    process.kill()
                    process.wait()
        outputs = [Path(f"{folder}/out{i}.json") for i in range(size)]
        if not all(out.exists() for out in outputs):
            raise RuntimeError(f"a table of {size} never got going (see --seconds, the load)")
        results = [json.loads(out.read_text()) for out in outputs]
    latencies = []
    for result in results:
        for seq, started in result["submitted"].items():
            key = f"{result['node']}:{seq}"
            times = [other["delivered"].get(key) for other in results]
            if all(t is not None for t in times):
                latencies.append(max(times) - started)
    found = [r["found_all"] - launched for r in results if r["found_all"] is not None]
    # From the moment the last node started until every node knew every other.
    last_start = max(r["started"] for r in results)
    everyone = [r["found_all"] for r in results]
    formed = max(everyone) - last_start if all(t is not None for t in everyone) else None
    # Processor time of every node (all its threads) during play, per move made final.
    cpu = sum(r["cpu_s"] for r in results) / len(latencies) if latencies else None
    spent = sum(r["cpu_s"] for r in results)
    main_share = sum(r["main_cpu_s"] for r in results) / spent if spent > 0 else None
    return {
        "latencies": latencies,
        "found": found,
        "formed": formed,
        "results": results,
        "cpu_per_move": cpu,
        "main_thread_share": main_share,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/commit_latency.py", description=__doc__)
    parser.add_argument("--sizes", default="2,4,8", help="table sizes (default: 2,4,8)")
    parser.add_argument("--seconds", type=float, default=6.0, help="play time per table size")
    parser.add_argument("--level", default="fast", help="bot level (default: fast)")
    parser.add_argument("--no-netns", action="store_true", help="never use a namespace")
    parser.add_argument(
        "--spectators", default="", help="also time 4 nodes with these many spectators (0,4,8)"
    )
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--ports", help=argparse.SUPPRESS)
    parser.add_argument("--state", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--zeroconf", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--restart-after", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--restart-down", type=float, default=0.5, help=argparse.SUPPRESS)
    parser.add_argument("--restart-rounds", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--target", type=int, default=1000, help=argparse.SUPPRESS)
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
        if os.environ.get("BLITZ_BENCH_LOG"):  # each worker's node log, to see a stuck table
            import logging

            folder = Path(os.environ["BLITZ_BENCH_LOG"])
            log_file = (folder / f"worker{args.worker}-{os.getpid()}.log").open("w")
            logging.basicConfig(
                level=logging.INFO, stream=log_file, format="%(asctime)s %(message)s"
            )
        asyncio.run(worker(args))
        if PROFILER is not None:
            PROFILER.dump_stats(Path(os.environ[PROFILE_FOLDER]) / f"worker{args.worker}.prof")
        return 0
    use_netns = (
        not args.no_netns and sys.platform.startswith("linux") and os.geteuid() == 0
    ) and shutil.which("ip") is not None
    with private_loopback(use_netns) as prefix:
        rtts = baseline(prefix)
        rtt = statistics.median(rtts)
        how = "zeroconf in a private namespace" if prefix else "--peer and HELLO peer lists"
        print(f"raw pyzmq DEALER/ROUTER round trip: p50 {rtt * 1e3:.3f} ms, "
              f"p99 {percentile(rtts, 0.99) * 1e3:.3f} ms ({len(rtts)} pings)")  # fmt: skip
        print(f"bots: {args.level}; nodes meet by {how}; {args.seconds:g} s of play per size\n")
        print(
            "nodes  moves  p50 ms  p99 ms  p50/RTT  p99/RTT  goal  all found (s, max)  cpu ms/move"
        )
        for size in (int(s) for s in args.sizes.split(",")):
            run = table_run(size, args, prefix)
            latencies = run["latencies"]
            if not latencies:
                print(f"{size:5d}  no move became final everywhere")
                continue
            p50, p99 = statistics.median(latencies), percentile(latencies, 0.99)
            goal = f"{GOALS[size]:.0f}x" if size in GOALS else "-"
            found = f"{max(run['found']):.2f}" if run["found"] else "-"
            print(
                f"{size:5d}  {len(latencies):5d}  {p50 * 1e3:6.2f}  {p99 * 1e3:6.2f}  "
                f"{p50 / rtt:7.1f}  {p99 / rtt:7.1f}  {goal:>4}  {found:>6}  "
                f"{run['cpu_per_move'] * 1e3:16.2f}"
            )
        if args.spectators:
            spectator_rows(args, prefix, rtt)
    return 0


def spectator_rows(args: argparse.Namespace, prefix: list[str], rtt: float) -> None:
    """Commit latency at 4 nodes with each count of spectators."""
    print("\nnodes  spectators  moves  p50 ms  p99 ms  p50/RTT  p99/RTT  cpu ms/move")
    for count in (int(s) for s in args.spectators.split(",")):
        run = table_run(4, args, prefix, spectators=count)
        latencies = run["latencies"]
        if not latencies:
            print(f"    4  {count:10d}  no move became final everywhere")
            continue
        p50, p99 = statistics.median(latencies), percentile(latencies, 0.99)
        print(
            f"    4  {count:10d}  {len(latencies):5d}  {p50 * 1e3:6.2f}  {p99 * 1e3:6.2f}  "
            f"{p50 / rtt:7.1f}  {p99 / rtt:7.1f}  {run['cpu_per_move'] * 1e3:11.2f}"
        )


if __name__ == "__main__":
    sys.exit(main())
