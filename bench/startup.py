"""Time from ``blitz-node --join`` to the lobby on screen, in a real terminal.

    python bench/startup.py [--repeat 3]

Each try launches ``blitz-node --join`` in a pseudo-terminal (80x40, xterm) with a fresh
``--state-dir``, as a player would start it, and reads the screen until the lobby's own
line for a player alone ("Alone? ...") is drawn; zeroconf discovery is on. From
``bench/run.py`` it runs in the bench's private network namespace, so that no other table
on the network answers. The baseline,
measured in the same run, is a bare interpreter importing the node's command line
(``python -c "import dutchblitz.node.cli.main"``): what any start-up pays before the node
does anything.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Sequence

LOBBY_TEXT = b"Alone?"
ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\x1b[=>]")


def node_command(state_dir: str) -> list[str]:
    found = shutil.which("blitz-node")
    launcher = [found] if found else [sys.executable, "-m", "dutchblitz.node.cli.main"]
    return [*launcher, "--join", "--name", "Ada", "--state-dir", state_dir]


def to_lobby(prefix: Sequence[str] = (), limit: float = 30.0) -> float | None:
    """Seconds from launch until the lobby is on the screen, or None within ``limit``."""
    with tempfile.TemporaryDirectory() as state_dir:
        leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 80, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color"}
        started = time.monotonic()
        node = subprocess.Popen(
            [*prefix, *node_command(state_dir)],
            stdin=follower,
            stdout=follower,
            stderr=follower,
            env=env,
            start_new_session=True,
        )
        os.close(follower)
        screen, seen = b"", None
        try:
            while seen is None and time.monotonic() - started < limit and node.poll() is None:
                ready, _, _ = select.select([leader], [], [], 0.05)
                if not ready:
                    continue
                try:
                    screen += os.read(leader, 65536)
                except OSError:
                    break
                if LOBBY_TEXT in ESCAPES.sub(b"", screen):
                    seen = time.monotonic() - started
        finally:
            if node.poll() is None:
                node.send_signal(signal.SIGTERM)
                try:
                    node.wait(5)
                except subprocess.TimeoutExpired:
                    node.kill()
                    node.wait()
            os.close(leader)
        return seen


def import_seconds() -> float:
    """The baseline: an interpreter that imports the node's command line and exits."""
    started = time.monotonic()
    subprocess.run([sys.executable, "-c", "import dutchblitz.node.cli.main"], check=True)
    return time.monotonic() - started


def figures(repeat: int, prefix: Sequence[str] = ()) -> dict[str, float | None]:
    """The median of ``repeat`` launches to the lobby, and of as many bare imports;
    ``prefix`` runs the node in a private network namespace (``ip netns exec NAME``)."""
    lobby = [to_lobby(prefix) for _ in range(repeat)]
    bare = sorted(import_seconds() for _ in range(repeat))
    reached = sorted(t for t in lobby if t is not None)
    return {
        "startup_s": reached[len(reached) // 2] if reached else None,
        "startup_import_s": bare[len(bare) // 2],
        "startup_tries": float(repeat),
        "startup_failed": float(repeat - len(reached)),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/startup.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    found = figures(args.repeat)
    startup, bare = found["startup_s"], found["startup_import_s"]
    shown = "never" if startup is None else f"{startup:.2f} s"
    print(f"blitz-node --join to the lobby on screen: {shown} (median of {args.repeat})")
    print(f"baseline, the same interpreter importing the node's command line: {bare:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
