"""The nemesis: real headless bot nodes play game after game while faults rain on them.

    PYTHONPATH=... python bench/nemesis.py --minutes 15 --seed 7 [--nodes 4] [--json PATH]

Runs 4 to 6 ``blitz-node --join --headless --bot`` processes, each in its own
network namespace on a bridge (198.18.0.0/24, bench/nemesis_lab.py), and plays
fresh games one after another (each game on a table of its own, each node on a
new state directory of its tmpfs). From ``--seed`` it draws, at random times,
faults that overlap and compose:

* ``loss``: a node drops a share of what it sends to and receives from one peer
  (an nftables ``numgen random`` rule in its namespace);
* ``cut-one-way`` / ``cut-two-way``: a node stops sending to a peer, or both
  stop hearing each other (nftables drop rules);
* ``delay``: netem delay and jitter on a node's link, only where the kernel has
  netem (``tc qdisc ... netem``; checked first, skipped with the reason said);
* ``pause``: SIGSTOP, then SIGCONT, of a node's process;
* ``kill``: ``kill -9``, then a restart on the same state directory;
* ``disk-full``: the node's tmpfs filled to the last byte, then freed (a node
  that stopped on the full disk is restarted on the same state directory).

Every fault is logged with its time. When ``--minutes`` have passed, every fault
is healed, the game in flight is given ``--drain-s`` to finish, and the run
checks that every game that started finished, and that every node that wrote a
game's summary wrote the same log digest for it. It prints a report and exits 1
on a failure (2 when the lab cannot be built here). Everything it made (the
namespaces, the veths, the bridge, the tmpfs mounts, the processes) is undone at
the end, even on a failure or a Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from nemesis_lab import Host, Lab, LabError, NodeRun

KINDS = ("loss", "cut-one-way", "cut-two-way", "delay", "pause", "kill", "disk-full")
PROCESS_KINDS = frozenset({"pause", "kill", "disk-full"})
AGREED = ("players", "rounds", "final_scores", "winner", "log_digest")
TICK_S = 0.1
MAX_STARTS = 25  # a node that keeps stopping is given up on


@dataclass
class Fault:
    number: int
    kind: str
    hosts: tuple[Host, ...]
    applied_s: float
    heal_at_s: float
    what: str
    heal: Callable[[], None] = field(repr=False)


@dataclass
class Game:
    number: int
    nodes: list[NodeRun]
    started_s: float
    ended_s: float | None = None
    stragglers: list[str] = field(default_factory=list)
    touched: set[str] = field(default_factory=set)  # the nodes a fault hit during the game
    state_kib: dict[str, int] = field(default_factory=dict)  # each node's state at the end

    def started(self) -> bool:
        """Some node saw the game's first round begin."""
        return any("round 1: playing" in node.log_text() for node in self.nodes)

    def why_behind(self, label: str) -> str:
        """What a node that wrote no result of the game says happened to it."""
        node = next(node for node in self.nodes if node.host.label == label)
        text = node.log_text()
        if f"{label} left the table (removed)" in text:
            return "removed from the table, not back before the end"
        if label in self.stragglers:
            return "still at the table when stopped, with no result"
        return f"no result written (exits {node.exits})"

    def summaries(self) -> dict[str, dict[str, Any]]:
        found: dict[str, dict[str, Any]] = {}
        for node in self.nodes:
            try:
                found[node.host.label] = json.loads(node.summary_path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
        return found


class Nemesis:
    """Draws faults from a seed, applies them to the lab, and heals them when due."""

    def __init__(self, lab: Lab, rng: random.Random, log: Callable[[str], None]) -> None:
        self.lab = lab
        self.rng = rng
        self.log = log
        self.kinds = [kind for kind in KINDS if kind != "delay" or lab.netem]
        self.active: list[Fault] = []
        self.counts: Counter[str] = Counter()
        self.numbered = 0
        self.nodes: dict[str, NodeRun] = {}  # each host's node in the game now
        self.full_disk: set[str] = set()  # nodes whose disk was full in this game
        self.touched: set[str] = set()  # the nodes a fault hit in this game

    def busy(self, host: Host) -> bool:
        """A process fault already holds this node (one at a time)."""
        return any(f.kind in PROCESS_KINDS and host in f.hosts for f in self.active)

    def inject(self, now: float) -> None:
        kind = self.rng.choice(self.kinds)
        hosts = tuple(self.rng.sample(self.lab.hosts, 2))
        if kind in PROCESS_KINDS and self.busy(hosts[0]):
            return
        duration = self.rng.uniform(0.5, 6.0)
        self.numbered += 1
        name = f"nm{self.numbered}"
        a, b = hosts
        heal: Callable[[], None]
        if kind == "loss":
            share = self.rng.randint(10, 60)
            rule = f"numgen random mod 100 < {share}"
            self.lab.nft_table(
                a, name, [f"ip daddr {b.address} {rule}"], [f"ip saddr {b.address} {rule}"]
            )
            what = f"{share}% loss between {a.label} and {b.label}"
            heal = lambda: self.lab.nft_drop_table(a, name)  # noqa: E731
        elif kind == "cut-one-way":
            self.lab.nft_table(a, name, [f"ip daddr {b.address}"], [])
            what = f"{a.label} -> {b.label} cut"
            heal = lambda: self.lab.nft_drop_table(a, name)  # noqa: E731
        elif kind == "cut-two-way":
            self.lab.nft_table(a, name, [f"ip daddr {b.address}"], [f"ip saddr {b.address}"])
            self.lab.nft_table(b, name, [f"ip daddr {a.address}"], [f"ip saddr {a.address}"])
            what = f"{a.label} <-> {b.label} cut"

            def heal() -> None:
                self.lab.nft_drop_table(a, name)
                self.lab.nft_drop_table(b, name)

        elif kind == "delay":
            if any(f.kind == "delay" and a in f.hosts for f in self.active):
                return
            delay, jitter = self.rng.randint(20, 300), self.rng.randint(0, 100)
            self.lab.netem_on(a, delay, jitter)
            what = f"{a.label} link delayed {delay} ms +- {jitter} ms"
            heal = lambda: self.lab.netem_off(a)  # noqa: E731
        else:
            hosts = (a,)
            what, heal, duration = self._process_fault(kind, a, duration)
        fault = Fault(self.numbered, kind, hosts, now, now + duration, what, heal)
        self.active.append(fault)
        self.counts[kind] += 1
        self.touched.update(host.label for host in hosts)
        self.log(f"fault {fault.number} {kind}: {what}, for {duration:.1f} s")

    def _process_fault(
        self, kind: str, host: Host, duration: float
    ) -> tuple[str, Callable[[], None], float]:
        node = self.nodes.get(host.label)
        if kind == "pause":
            if node is not None:
                node.signal(signal.SIGSTOP)

            def resume() -> None:
                if node is not None:
                    node.signal(signal.SIGCONT)

            return f"{host.label} paused (SIGSTOP)", resume, duration
        if kind == "kill":
            killed = node is not None and node.running()
            if node is not None and killed:
                node.kill()

            def restart() -> None:
                # Only the node of the game in flight, and only if we killed it.
                if killed and node is not None and self.nodes.get(host.label) is node:
                    node.start()

            return f"{host.label} killed (kill -9), restarted after", restart, duration
        written = self.lab.fill_disk(host)

        def free() -> None:
            self.lab.free_disk(host)
            self.full_disk.add(host.label)  # a node may have stopped on it, as it should

        return (
            f"{host.label}'s state disk filled ({written >> 20} MiB)",
            free,
            self.rng.uniform(2, 8),
        )

    def heal_due(self, now: float, everything: bool = False) -> None:
        for fault in [f for f in self.active if everything or f.heal_at_s <= now]:
            fault.heal()
            self.active.remove(fault)
            self.log(f"healed {fault.number} {fault.kind}")


class Bench:
    def __init__(self, args: argparse.Namespace, lab: Lab) -> None:
        self.args = args
        self.lab = lab
        self.rng = random.Random(args.seed)
        self.t0 = time.monotonic()
        self.events: list[str] = []
        self.nemesis = Nemesis(lab, self.rng, self.log)
        self.games: list[Game] = []
        self.unplanned: list[str] = []

    def now(self) -> float:
        return time.monotonic() - self.t0

    def log(self, text: str) -> None:
        line = f"{self.now():8.1f}s  {text}"
        self.events.append(line)
        if not self.args.quiet:
            print(line, flush=True)

    def start_game(self) -> Game:
        number = len(self.games) + 1
        common = [
            "--table", f"nemesis-{number}", "--players", str(len(self.lab.hosts)),
            "--target", str(self.args.target), *self.lab.peers(),
        ]  # fmt: skip
        nodes = []
        for index, host in enumerate(self.lab.hosts):
            seed = ["--seed", str(self.args.seed * 1000 + number * 10 + index)]
            nodes.append(self.lab.node(host, number, [*common, *seed]))
        game = Game(number, nodes, self.now())
        self.games.append(game)
        self.nemesis.nodes = {node.host.label: node for node in nodes}
        # Faults still in force when the game begins hit it too.
        game.touched = self.nemesis.touched = {
            h.label for f in self.nemesis.active for h in f.hosts
        }
        self.nemesis.full_disk.clear()
        for node in nodes:
            node.start()
        self.log(f"game {number} begins: {len(nodes)} nodes, to {self.args.target}")
        return game

    def supervise(self, game: Game) -> bool:
        """Restart a node that stopped mid-game once no fault holds it; True when the game is
        done with (every node ended, or the stragglers given up on)."""
        for node in game.nodes:
            if node.running() or node.paused or self.nemesis.busy(node.host):
                continue
            if node.starts >= MAX_STARTS:
                continue  # given up on: the game's end (or its bound) sorts it out
            code = node.exit_code()
            if code is None or code == 0:
                continue
            if code == 1 and node.host.label in self.nemesis.full_disk:
                self.nemesis.full_disk.discard(node.host.label)  # one stop per filled disk
                self.log(f"{node.host.label} had stopped on its full disk: restarted")
            else:
                self.unplanned.append(f"game {game.number}: {node.host.label} exited {code}")
                self.log(f"{node.host.label} exited {code} mid-game: restarted")
            node.start()
        done = [node for node in game.nodes if not node.running() and 0 in node.exits]
        return len(done) == len(game.nodes)

    def finish_game(self, game: Game, why: str) -> None:
        for node in game.nodes:
            if node.running():
                game.stragglers.append(node.host.label)
                node.stop()
        game.ended_s = self.now()
        for node in game.nodes:
            files = node.state_dir.rglob("*") if node.state_dir.exists() else iter(())
            size = sum(path.stat().st_size for path in files if path.is_file())
            game.state_kib[node.host.label] = size >> 10
        left = f", stopped {', '.join(game.stragglers)} ({why})" if game.stragglers else ""
        self.log(f"game {game.number} ends after {game.ended_s - game.started_s:.0f} s{left}")

    def run(self) -> None:
        end_s = self.args.minutes * 60
        next_fault = self.rng.expovariate(1 / self.args.fault_every_s)
        game = self.start_game()
        first_done_s: float | None = None
        draining_since: float | None = None
        while True:
            time.sleep(TICK_S)
            now = self.now()
            self.nemesis.heal_due(now)
            if draining_since is None and now >= end_s:
                self.nemesis.heal_due(now, everything=True)
                draining_since = now
                self.log(f"time is up: every fault healed, {self.args.drain_s:.0f} s to finish")
            if draining_since is None and now >= next_fault:
                if len(self.nemesis.active) < self.args.max_faults:
                    try:
                        self.nemesis.inject(now)
                    except LabError as error:  # a fault refused: said, and the run goes on
                        self.log(f"a fault could not be applied: {error}")
                next_fault = now + self.rng.expovariate(1 / self.args.fault_every_s)
            done = self.supervise(game)
            if first_done_s is None and any(0 in node.exits for node in game.nodes):
                first_done_s = now
            straggling = first_done_s is not None and now - first_done_s > self.args.straggle_s
            too_long = now - game.started_s > self.args.game_bound_s
            drained = draining_since is not None and now - draining_since > self.args.drain_s
            if done or straggling or too_long or drained:
                why = "the others had finished" if straggling else "out of time"
                self.finish_game(game, why)
                if draining_since is not None:
                    return
                game, first_done_s = self.start_game(), None

    def report(self) -> dict[str, Any]:
        games: list[dict[str, Any]] = []
        for game in self.games:
            summaries = self.summaries_of(game)
            digests = {s["log_digest"] for s in summaries.values()}
            first = next(iter(summaries.values()), None)
            agreed = all(
                s[key] == first[key] for s in summaries.values() for key in AGREED
            ) if first else True  # fmt: skip
            # A node the table removed, and that did not come back before the end, writes
            # no result of the game; nor does one killed as it ended (a restarted node finds
            # nobody left to rejoin). Such a node must have been hit by a fault.
            ended = first is not None
            behind = [node.host.label for node in game.nodes if node.host.label not in summaries]
            unhit = [label for label in behind if label not in game.touched]
            games.append(
                {
                    "game": game.number,
                    "started": game.started() or first is not None,
                    "finished": ended,
                    "summaries": sorted(summaries),
                    "left_behind": {label: game.why_behind(label) for label in behind},
                    "left_behind_unhit": unhit,
                    "digests_equal": len(digests) <= 1 and agreed,
                    "log_digest": sorted(digests),
                    "stragglers": game.stragglers,
                    "state_kib": game.state_kib,
                    "seconds": round((game.ended_s or self.now()) - game.started_s, 1),
                }
            )
        started = [g for g in games if g["started"]]
        finished = [g for g in started if g["finished"]]
        failures = [
            f"game {g['game']} started but did not finish" for g in started if not g["finished"]
        ]
        failures += [
            f"game {g['game']}: the nodes' digests differ" for g in games if not g["digests_equal"]
        ]
        # Nodes launched, every fault healed, and still no first round: the table is stuck.
        failures += [
            f"game {g['game']}: {', '.join(g['left_behind_unhit'])} wrote no result, "
            "though no fault hit it"
            for g in started
            if g["finished"] and g["left_behind_unhit"]
        ]
        stuck = [g for g in games if not g["started"]]
        failures += [f"game {g['game']} never started in {g['seconds']} s" for g in stuck]
        if not finished:
            failures.append("no game finished")
        return {
            "seed": self.args.seed,
            "lab": self.lab.prefix,
            "minutes": self.args.minutes,
            "nodes": len(self.lab.hosts),
            "netem": self.lab.netem_why,
            "faults": dict(sorted(self.nemesis.counts.items())),
            "faults_total": sum(self.nemesis.counts.values()),
            "games_started": len(started),
            "games_finished": len(finished),
            "games_never_started": len(stuck),
            "digests_equal": all(g["digests_equal"] for g in games),
            "unplanned_exits": self.unplanned,
            "games": games,
            "failures": failures,
            "events": self.events,
        }

    @staticmethod
    def summaries_of(game: Game) -> dict[str, dict[str, Any]]:
        return {label: s for label, s in game.summaries().items() if s.get("over")}


def print_report(report: dict[str, Any]) -> None:
    faults = ", ".join(f"{kind} {count}" for kind, count in report["faults"].items()) or "none"
    print(f"\nnemesis: seed {report['seed']}, {report['minutes']} min, {report['nodes']} nodes")
    print(f"  delay/jitter: {report['netem']}")
    print(f"  faults injected: {report['faults_total']} ({faults})")
    print(
        f"  games started: {report['games_started']}, finished: {report['games_finished']}, "
        f"never started: {report['games_never_started']}"
    )
    for game in report["games"]:
        mark = "ok" if game["finished"] and game["digests_equal"] else "--"
        straggled = f", stopped {','.join(game['stragglers'])}" if game["stragglers"] else ""
        if game["state_kib"]:
            straggled += f", state dirs up to {max(game['state_kib'].values())} KiB"
        behind = "; ".join(f"{label}: {why}" for label, why in game["left_behind"].items())
        straggled += f" (left behind: {behind})" if behind else ""
        print(
            f"    {mark} game {game['game']}: {game['seconds']} s, summaries from "
            f"{','.join(game['summaries']) or 'nobody'}{straggled}"
        )
    print(f"  digests equal: {'yes' if report['digests_equal'] else 'NO'}")
    if report["unplanned_exits"]:
        print(f"  nodes that stopped by themselves: {len(report['unplanned_exits'])}")
        for line in report["unplanned_exits"]:
            print(f"    {line}")
    for failure in report["failures"]:
        print(f"  FAILED: {failure}")
    if report.get("cleanup"):
        print(f"  cleanup left: {report['cleanup']}")


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="nemesis", description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=15.0, help="how long faults are injected")
    parser.add_argument("--seed", type=int, default=1, help="draws the faults and the shuffles")
    parser.add_argument("--nodes", type=int, default=4, choices=range(4, 7), help="4 to 6")
    parser.add_argument("--target", type=int, default=75, help="the score that ends a game")
    parser.add_argument("--fault-every-s", type=float, default=10.0, help="mean gap between faults")
    parser.add_argument("--max-faults", type=int, default=3, help="faults at once, at most")
    parser.add_argument("--drain-s", type=float, default=180.0, help="the last game's time to end")
    parser.add_argument("--straggle-s", type=float, default=60.0, help="wait for the last nodes")
    parser.add_argument("--game-bound-s", type=float, default=600.0, help="one game, at most")
    parser.add_argument("--workdir", type=Path, help="logs and summaries (default: a new temp dir)")
    parser.add_argument("--json", type=Path, help="write the report here")
    parser.add_argument("--quiet", action="store_true", help="no fault log as it happens")
    return parser.parse_args(argv)


def _stop_on_term(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # unwinds to the clean-up below


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    root = args.workdir or Path(tempfile.mkdtemp(prefix="nemesis-"))
    root.mkdir(parents=True, exist_ok=True)
    signal.signal(signal.SIGTERM, _stop_on_term)
    lab = Lab(root)
    bench: Bench | None = None
    report: dict[str, Any] = {}
    try:
        lab.build(args.nodes)
        bench = Bench(args, lab)
        bench.log(f"lab {lab.prefix}: {args.nodes} nodes in {root}; delay: {lab.netem_why}")
        bench.run()
    except LabError as error:
        print(f"nemesis: cannot run here: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("nemesis: interrupted", file=sys.stderr)
    finally:
        if bench is not None:
            bench.nemesis.heal_due(bench.now(), everything=True)
            report = bench.report()
        problems = lab.destroy() + lab.leftovers()
        report["cleanup"] = problems
    if not report.get("games"):
        return 1
    if problems:
        report["failures"].append("cleanup left: " + "; ".join(problems))
    print_report(report)
    print(f"  logs: {root / 'logs'}")
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 1 if report["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
