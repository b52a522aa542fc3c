"""One node per state directory: an exclusive lock held for the node's whole life.

A node takes ``fcntl.flock`` on ``<state dir>/lock`` before it reads or writes
anything else there, and writes its pid into that file. The kernel lets the lock
go when the process ends, however it ends, so a crashed node never leaves a
stale lock: the file and its old pid stay, but the next node takes the lock.

With ``--state-dir`` the player named the directory: if another node holds it,
this node refuses (``StateDirTaken``) and touches nothing. Without it the node
takes the first free *profile*: the default directory, else ``profile-2``,
``profile-3``... inside it, each with a key (an identity) of its own. So two
``blitz-node --join`` in two terminals of one machine are two players.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from dataclasses import dataclass
from pathlib import Path

from .state import StoreError, _explain, default_state_dir

LOCK_FILE = "lock"
MAX_PROFILES = 16  # far above the seats at one table: more is a runaway script
PROFILE_PREFIX = "profile-"


class StateDirTaken(StoreError):
    """Another running node holds this state directory; the text is for the player."""

    def __init__(self, root: Path, pid: int | None) -> None:
        self.root = root
        self.pid = pid
        who = f"another blitz-node (pid {pid})" if pid else "another blitz-node"
        super().__init__(
            f"the state directory {root} is in use by {who}: "
            "stop that node, or pick another directory with --state-dir"
        )


@dataclass(slots=True)
class StateLock:
    """A state directory this process holds; ``release`` (or the process's end) frees it."""

    root: Path
    profile: int  # 1 for the default directory (or an explicit --state-dir), 2 for profile-2...
    _fd: int

    def release(self) -> None:
        if self._fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._fd)  # closing the descriptor lets the flock go
            self._fd = -1

    @property
    def held(self) -> bool:
        return self._fd >= 0


def _holder(fd: int) -> int | None:
    """The pid written in a lock file, if it reads as one."""
    with contextlib.suppress(OSError, ValueError):
        text = os.pread(fd, 32, 0).decode("ascii").strip()
        pid = int(text)
        return pid if pid > 0 else None
    return None


def lock_state_dir(root: Path, profile: int = 1) -> StateLock:
    """Hold ``root`` for this process, or raise ``StateDirTaken`` having changed nothing there.

    The directory is made if missing (mode 0700); the lock file is made if missing,
    and written only once the lock is ours.
    """
    root = Path(root)
    try:
        root.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as error:
        raise _explain("create the state directory", root, error) from None
    path = root / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as error:
        raise _explain("use the state directory", root, error) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        pid = _holder(fd)
        os.close(fd)
        raise StateDirTaken(root, pid) from None
    except OSError as error:
        os.close(fd)
        raise _explain("lock", path, error) from None
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    except OSError as error:
        os.close(fd)
        raise _explain("write", path, error) from None
    return StateLock(root, profile, fd)


def profile_dir(base: Path, profile: int) -> Path:
    """Where profile ``profile`` lives: the default directory itself, then ``profile-N`` in it."""
    return base if profile == 1 else base / f"{PROFILE_PREFIX}{profile}"


def claim_state_dir(explicit: Path | None, base: Path | None = None) -> StateLock:
    """The state directory this node will use, locked.

    ``explicit`` (``--state-dir``) is locked or refused. Otherwise the first free
    profile under ``base`` (the platform's default directory) is taken.
    """
    if explicit is not None:
        return lock_state_dir(explicit)
    base = default_state_dir() if base is None else base
    for profile in range(1, MAX_PROFILES + 1):
        with contextlib.suppress(StateDirTaken):
            return lock_state_dir(profile_dir(base, profile), profile)
    raise StoreError(
        f"all {MAX_PROFILES} profiles under {base} are in use by other blitz-nodes: "
        "stop one, or pick a directory with --state-dir"
    )


def shown(path: Path) -> str:
    """A path as a player reads it: under their home folder, ``~/...``."""
    home = Path.home()
    with contextlib.suppress(ValueError):
        if home != Path("/"):
            return str(Path("~") / path.relative_to(home))
    return str(path)
