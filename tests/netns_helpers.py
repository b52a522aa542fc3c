"""Private LANs in network namespaces, and child processes watched line by line.

A ``Lan`` is a hub namespace holding a Linux bridge (multicast snooping off, as
on a plain switch) and one namespace per host, joined to the bridge by a veth
pair and addressed in 198.18.0.0/24 (the benchmarking range, never anyone's
real network). Nothing is added to the host's own namespace, so no packet
leaves the machine.
"""

from __future__ import annotations

import contextlib
import os
import queue
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import dutchblitz
import pytest

SUBNET = "198.18.0"
WAIT_S = 30.0


def ip(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=15)


def must(result: subprocess.CompletedProcess[str]) -> None:
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, result.args))}: {result.stderr.strip()}")


def child_env(**extra: str) -> dict[str, str]:
    """Our environment, with the tree that holds ``dutchblitz`` on the path, and the
    repository's root (for the test rigs, ``tests.rigs``)."""
    roots = [str(Path(path).parent) for path in dutchblitz.__path__]
    roots.append(str(Path(__file__).resolve().parents[1]))
    python_path = os.pathsep.join([*roots, os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": python_path, **extra}


@dataclass(frozen=True)
class Host:
    namespace: str
    interface: str
    address: str


class Lan:
    """A bridge in a hub namespace, and one namespace per host plugged into it."""

    def __init__(self) -> None:
        self.prefix = "bz" + secrets.token_hex(3)  # unique per run; 15-char names fit
        self.hub = f"{self.prefix}-hub"
        self.namespaces: list[str] = []

    def build(self) -> None:
        result = ip("netns", "add", self.hub)
        if result.returncode != 0:
            pytest.skip(f"cannot make network namespaces: {result.stderr.strip()}")
        self.namespaces.append(self.hub)
        must(ip("-n", self.hub, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0"))
        must(ip("-n", self.hub, "link", "set", "br0", "up"))
        snooping = self.run_in(self.hub, "cat", "/sys/class/net/br0/bridge/multicast_snooping")
        assert snooping.stdout.strip() == "0"

    def add_host(self, number: int) -> Host:
        host = Host(
            f"{self.prefix}-n{number}", f"{self.prefix}a{number}", f"{SUBNET}.{10 + number}"
        )
        must(ip("netns", "add", host.namespace))
        self.namespaces.append(host.namespace)
        hub_end = f"{self.prefix}b{number}"
        must(
            ip(
                "link", "add", host.interface, "netns", host.namespace,
                "type", "veth", "peer", "name", hub_end, "netns", self.hub,
            )
        )  # fmt: skip
        must(ip("-n", self.hub, "link", "set", hub_end, "master", "br0", "up"))
        must(ip("-n", host.namespace, "addr", "add", f"{host.address}/24", "dev", host.interface))
        must(ip("-n", host.namespace, "link", "set", host.interface, "up"))
        must(ip("-n", host.namespace, "link", "set", "lo", "up"))
        return host

    def add_lonely_host(self, number: int) -> Host:
        """A namespace with nothing but its loopback interface."""
        host = Host(f"{self.prefix}-n{number}", "lo", "127.0.0.1")
        must(ip("netns", "add", host.namespace))
        self.namespaces.append(host.namespace)
        must(ip("-n", host.namespace, "link", "set", "lo", "up"))
        return host

    def run_in(self, namespace: str, *command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["ip", "netns", "exec", namespace, *command],
            capture_output=True,
            text=True,
            timeout=15,
            env=child_env(),
        )

    def destroy(self) -> None:
        # Deleting a namespace deletes its veth ends and the bridge with it.
        for namespace in reversed(self.namespaces):
            ip("netns", "del", namespace)


def skip_unless_netns() -> None:
    """Skip, saying why, unless this machine can make network namespaces."""
    if not sys.platform.startswith("linux"):
        pytest.skip("network namespaces are Linux only")
    if os.geteuid() != 0:
        pytest.skip("making network namespaces needs root")
    if shutil.which("ip") is None:
        pytest.skip("needs the ip command (iproute2)")


@contextlib.contextmanager
def private_lan() -> Iterator[Lan]:
    """A fresh ``Lan``, skipped when namespaces cannot be made, destroyed afterwards."""
    skip_unless_netns()
    network = Lan()
    try:
        network.build()
        yield network
    finally:
        network.destroy()


class Process:
    """A child process whose output lines are read on a thread and awaited with a deadline."""

    def __init__(
        self,
        label: str,
        command: list[str],
        env: dict[str, str] | None = None,
        wait_s: float = WAIT_S,
    ) -> None:
        self.label = label
        self.wait_s = wait_s
        self.lines: list[str] = []
        self._incoming: queue.Queue[str | None] = queue.Queue()
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env or child_env(),
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._incoming.put(line.rstrip("\n"))
        self._incoming.put(None)

    def wait_for_line(self, accept: Callable[[list[str]], bool], what: str) -> None:
        deadline = time.monotonic() + self.wait_s
        while not accept(self.lines):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(
                    f"{self.label}: no {what} in {self.wait_s}s:\n" + self.output()
                )
            try:
                line = self._incoming.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                raise AssertionError(f"{self.label} ended before {what}:\n" + self.output())
            self.lines.append(line)

    def drain(self) -> None:
        """Take in every line read so far, without waiting."""
        while True:
            try:
                line = self._incoming.get_nowait()
            except queue.Empty:
                return
            if line is None:
                return
            self.lines.append(line)

    def output(self) -> str:
        self.drain()
        return "\n".join(self.lines)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


@contextlib.contextmanager
def tiny_tmpfs(tmp_path: Path, size: str) -> Iterator[Path]:
    """A real small file system (tmpfs), so that a full disk's ENOSPC comes from the kernel.

    Skips the calling test where it cannot be mounted (not root, no ``mount``)."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root")
    mount_point = tmp_path / "tiny"
    mount_point.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount_point)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {mounted.stderr.strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)
