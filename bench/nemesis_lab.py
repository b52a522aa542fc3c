"""The nemesis's laboratory: namespaces on a bridge, a tmpfs per node, and the node processes.

A ``Lab`` is a hub namespace holding a Linux bridge and one namespace per node,
joined to it by a veth pair and addressed in 198.18.0.0/24 (the benchmarking
range: nothing is added to the host's own namespace, so no packet leaves the
machine). Each node keeps its state on a tmpfs of its own, so that its disk can
be filled up and freed. ``Lab.destroy`` undoes everything, and is safe to call
twice and after a half-built lab.

The faults' machinery lives here too: nftables tables in a node's namespace
(one table per fault, so that healing is deleting it), netem on a node's veth
(where the kernel has it), signals to a node's process, and a filler file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

SUBNET = "198.18.0"
PORT = 7700  # every node's door: each is alone in its namespace
TMPFS_SIZE = "48m"
FILLER = "filler.bin"
CHUNK = b"\0" * (1 << 20)


class LabError(RuntimeError):
    """The lab cannot be built here (not root, no ``ip``, no namespaces, no ``nft``)."""


def run(*command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(list(command), capture_output=True, text=True, timeout=30)
    if check and result.returncode != 0:
        raise LabError(f"{' '.join(command)}: {result.stderr.strip() or result.returncode}")
    return result


def missing_tools() -> str | None:
    """Why the lab cannot be built on this machine, or None when it can."""
    if not sys.platform.startswith("linux"):
        return "network namespaces are Linux only"
    if os.geteuid() != 0:
        return "namespaces, nftables and a tmpfs need root"
    for tool, package in (("ip", "iproute2"), ("nft", "nftables"), ("mount", "mount")):
        if shutil.which(tool) is None:
            return f"needs the {tool} command (Debian's {package})"
    return None


def child_env() -> dict[str, str]:
    """Our environment, with the tree that holds ``dutchblitz`` on the path."""
    import dutchblitz

    roots = [str(Path(path).parent) for path in dutchblitz.__path__]
    python_path = os.pathsep.join([*roots, os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": python_path}


@dataclass
class Host:
    label: str
    namespace: str
    interface: str
    address: str
    home: Path  # the tmpfs that holds every game's state directory of this node
    logs: Path  # outside the tmpfs: a full disk never costs us the node's output


@dataclass
class NodeRun:
    """One node process, for one game, on its state directory."""

    host: Host
    game: int
    command: list[str]
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0
    exits: list[int] = field(default_factory=list)
    paused: bool = False

    @property
    def state_dir(self) -> Path:
        return self.host.home / f"game{self.game:03d}"

    @property
    def summary_path(self) -> Path:
        return self.host.logs / f"{self.host.label}-game{self.game:03d}.json"

    @property
    def log_path(self) -> Path:
        return self.host.logs / f"{self.host.label}-game{self.game:03d}.log"

    def start(self) -> None:
        with self.log_path.open("ab") as out:
            out.write(f"--- start {self.starts + 1}: {' '.join(self.command)}\n".encode())
            out.flush()
            self.process = subprocess.Popen(
                self.command, stdout=out, stderr=subprocess.STDOUT, env=child_env()
            )
        self.starts += 1
        self.paused = False

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def exit_code(self) -> int | None:
        """The code of a process that has ended since the last call, once; else None."""
        if self.process is None or self.process.poll() is None:
            return None
        code = self.process.returncode
        self.process = None
        self.exits.append(code)
        return code

    def signal(self, signum: int) -> None:
        if self.running():
            assert self.process is not None
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(signum)
            if signum == signal.SIGSTOP:
                self.paused = True
            elif signum == signal.SIGCONT:
                self.paused = False

    def kill(self) -> None:
        """``kill -9``: no goodbye, no flush; the process is reaped."""
        if self.running():
            assert self.process is not None
            self.signal(signal.SIGCONT)
            self.process.kill()
            self.process.wait(10)
        self.exit_code()

    def stop(self, wait_s: float = 10.0) -> None:
        """SIGTERM, then SIGKILL if it lingers."""
        if not self.running():
            self.exit_code()
            return
        assert self.process is not None
        self.signal(signal.SIGCONT)
        self.process.terminate()
        try:
            self.process.wait(wait_s)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        self.exit_code()

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""


class Lab:
    """The bridge, the namespaces, the tmpfs mounts; everything undone by ``destroy``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.prefix = "nm" + secrets.token_hex(3)  # unique per run; 15-char names fit
        self.hub = f"{self.prefix}-hub"
        self.namespaces: list[str] = []
        self.mounts: list[Path] = []
        self.hosts: list[Host] = []
        self.runs: list[NodeRun] = []  # every process ever started, to be sure to end them
        self.netem = False
        self.netem_why = "not checked"

    def build(self, count: int) -> None:
        why = missing_tools()
        if why is not None:
            raise LabError(why)
        self._add_namespace(self.hub)
        run("ip", "-n", self.hub, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        run("ip", "-n", self.hub, "link", "set", "br0", "up")
        for number in range(count):
            self.hosts.append(self._add_host(number))
        self.netem, self.netem_why = self._check_netem(self.hosts[0])

    def _add_namespace(self, name: str) -> None:
        result = run("ip", "netns", "add", name, check=False)
        if result.returncode != 0:
            raise LabError(f"cannot make network namespaces: {result.stderr.strip()}")
        self.namespaces.append(name)

    def _add_host(self, number: int) -> Host:
        label = f"bot{number}"
        namespace = f"{self.prefix}-n{number}"
        interface = f"{self.prefix}a{number}"
        hub_end = f"{self.prefix}b{number}"
        address = f"{SUBNET}.{10 + number}"
        self._add_namespace(namespace)
        run(
            "ip", "link", "add", interface, "netns", namespace,
            "type", "veth", "peer", "name", hub_end, "netns", self.hub,
        )  # fmt: skip
        run("ip", "-n", self.hub, "link", "set", hub_end, "master", "br0", "up")
        run("ip", "-n", namespace, "addr", "add", f"{address}/24", "dev", interface)
        run("ip", "-n", namespace, "link", "set", interface, "up")
        run("ip", "-n", namespace, "link", "set", "lo", "up")
        home = self.root / label
        logs = self.root / "logs"
        home.mkdir(parents=True, exist_ok=True)
        logs.mkdir(parents=True, exist_ok=True)
        mounted = run(
            "mount", "-t", "tmpfs", "-o", f"size={TMPFS_SIZE}", "tmpfs", str(home), check=False
        )
        if mounted.returncode != 0:
            raise LabError(f"cannot mount a tmpfs: {mounted.stderr.strip()}")
        self.mounts.append(home)
        return Host(label, namespace, interface, address, home, logs)

    def _check_netem(self, host: Host) -> tuple[bool, str]:
        """Whether ``tc qdisc ... netem`` works here; if not, why."""
        if shutil.which("tc") is None:
            return False, "no tc command (Debian's iproute2)"
        added = self.in_namespace(
            host, "tc", "qdisc", "add", "dev", host.interface, "root", "netem", "delay", "1ms"
        )
        if added.returncode != 0:
            return (
                False,
                f"tc netem: {added.stderr.strip() or 'refused'} (no sch_netem in this kernel)",
            )
        self.in_namespace(host, "tc", "qdisc", "del", "dev", host.interface, "root")
        return True, "tc netem works"

    def in_namespace(self, host: Host, *command: str) -> subprocess.CompletedProcess[str]:
        return run("ip", "netns", "exec", host.namespace, *command, check=False)

    # --- the node processes

    def node(self, host: Host, game: int, args: list[str]) -> NodeRun:
        node = NodeRun(host, game, [])
        node.command = [
            "ip", "netns", "exec", host.namespace, sys.executable, "-m", "dutchblitz.client.main",
            "--join", "--bot", "--bot-level", "flat-out", "--headless",
            "--name", host.label, "--state-dir", str(node.state_dir),
            "--summary-json", str(node.summary_path),
            "--interface", host.interface, "--port", str(PORT), *args,
        ]  # fmt: skip
        self.runs.append(node)
        return node

    def peers(self) -> list[str]:
        return [arg for host in self.hosts for arg in ("--peer", f"{host.address}:{PORT}")]

    # --- the faults' machinery

    def nft_table(self, host: Host, name: str, output: list[str], input_: list[str]) -> None:
        """A table of drop rules in ``host``'s namespace: ``output`` rules on what it sends,
        ``input_`` on what it receives."""
        lines = [f"table inet {name} {{"]
        for chain, hook, rules in (("o", "output", output), ("i", "input", input_)):
            lines.append(f"  chain {chain} {{ type filter hook {hook} priority 0; policy accept;")
            lines.extend(f"    {rule} drop;" for rule in rules)
            lines.append("  }")
        lines.append("}")
        result = subprocess.run(
            ["ip", "netns", "exec", host.namespace, "nft", "-f", "-"],
            input="\n".join(lines) + "\n",
            capture_output=True,
            text=True,
            timeout=30,
        )
        if result.returncode != 0:
            raise LabError(f"nft in {host.label}: {result.stderr.strip()}")

    def nft_drop_table(self, host: Host, name: str) -> None:
        self.in_namespace(host, "nft", "delete", "table", "inet", name)

    def netem_on(self, host: Host, delay_ms: int, jitter_ms: int) -> None:
        result = self.in_namespace(
            host, "tc", "qdisc", "replace", "dev", host.interface, "root",
            "netem", "delay", f"{delay_ms}ms", f"{jitter_ms}ms",
        )  # fmt: skip
        if result.returncode != 0:
            raise LabError(f"tc netem in {host.label}: {result.stderr.strip()}")

    def netem_off(self, host: Host) -> None:
        self.in_namespace(host, "tc", "qdisc", "del", "dev", host.interface, "root")

    @staticmethod
    def fill_disk(host: Host) -> int:
        """Write a filler file until the tmpfs is full; the bytes written."""
        written = 0
        try:  # unbuffered: nothing is left to write, and fail, when the file is closed
            with (host.home / FILLER).open("ab", buffering=0) as filler:
                while True:
                    written += filler.write(CHUNK) or 0
        except OSError as error:  # the disk is full, perhaps already (a fault before)
            if error.errno != errno.ENOSPC:
                raise
        return written

    @staticmethod
    def free_disk(host: Host) -> None:
        with contextlib.suppress(FileNotFoundError):
            (host.home / FILLER).unlink()

    def destroy(self) -> list[str]:
        """End every process, unmount every tmpfs, delete every namespace; what failed."""
        problems: list[str] = []
        for node in self.runs:
            try:
                node.kill()
            except (OSError, subprocess.SubprocessError) as error:
                problems.append(f"{node.host.label}: {error}")
        for mount_point in self.mounts:
            self.free_disk_at(mount_point)
            if run("umount", str(mount_point), check=False).returncode != 0:
                run("umount", "-l", str(mount_point), check=False)
        for namespace in reversed(self.namespaces):
            # Deleting a namespace deletes its veth end, its nft tables and qdiscs,
            # and (the hub) the bridge and the other veth ends.
            if run("ip", "netns", "del", namespace, check=False).returncode != 0:
                problems.append(f"could not delete namespace {namespace}")
        self.mounts.clear()
        self.namespaces.clear()
        return problems

    @staticmethod
    def free_disk_at(mount_point: Path) -> None:
        with contextlib.suppress(OSError):
            (mount_point / FILLER).unlink()

    def leftovers(self) -> list[str]:
        """Anything of this lab still on the machine (after ``destroy``: nothing)."""
        found = [
            name
            for name in run("ip", "netns", "list", check=False).stdout.split()
            if name.startswith(self.prefix)
        ]
        mounts = Path("/proc/mounts").read_text(encoding="utf-8")
        found += [str(host.home) for host in self.hosts if f" {host.home} " in mounts]
        found += [
            f"pid {node.process.pid}" for node in self.runs if node.running() and node.process
        ]
        return found
