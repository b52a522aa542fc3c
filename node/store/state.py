"""The node's state directory: who it is, and what it must not forget across a crash.

Layout, under ``platformdirs.user_state_dir("dutchblitz")`` or ``--state-dir``::

    lock                  held (flock) by the node that uses this directory; its pid
    profile-<n>/          another node's own directory, when this one was held (statelock.py)
    node-id               16 bytes: this node's id, made once, atomically
    name                  the player's name as last set at the table (n in the lobby)
    table.json            which table log is current: table name, epoch, seq floor
    tables/<epoch>/       one table's log, named by the epoch's hex
        events.log        every event record held, in the order received
        deals.log         this node's secret, share and private seed of each round (secret)
        clock             the Lamport clock mark
    results/<epoch>.json  the summary of each finished game (<epoch>-2.json: its rematch)
    games.sqlite          the archive of finished games (archive.py)
    archive-pending/      a finished game's file until the archive has taken it

``events.log`` and ``deals.log`` are append-only. Each starts with an 8-byte
magic, and each record is framed as a 4-byte big-endian length, a 4-byte CRC32
of the length and the payload, then the payload. A reader stops at the first
record that is short (torn by a crash mid-write) or fails its CRC, and the log
is cut back to that point before anything more is appended. A record is written
with one ``write`` straight to the operating system, so once ``append``
returns it survives the process being killed (but not a power cut: there is no
fsync per event, by design).

Every failure to read or write is a ``StoreError`` whose text says which file
and why, for the player to read; nothing here prints a traceback.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack
import platformdirs
from dutchblitz.protocol.limits import MAX_NAME, NODE_ID_SIZE
from dutchblitz.protocol.table.fairdeal import RoundSecret
from dutchblitz.protocol.wire.auth import SEED_SIZE, Signer

MAGIC = b"DBLOG\x00\x01\n"
HEADER = struct.Struct(">II")  # length, crc32
MAX_RECORD = 1 << 20  # far above any message (64 KiB): a bigger length is damage
CLOCK = struct.Struct(">QI")  # mark, crc32


class StoreError(Exception):
    """The state directory cannot be read or written; the text is for the player."""


def default_state_dir() -> Path:
    return Path(platformdirs.user_state_dir("dutchblitz"))


def _explain(action: str, path: Path, error: OSError) -> StoreError:
    if error.errno == errno.ENOSPC:
        why = "the disk is full"
    elif error.errno == errno.EDQUOT:
        why = "the disk quota is used up"
    elif error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        why = "permission denied" if error.errno != errno.EROFS else "read-only file system"
    else:
        why = error.strerror or str(error)
    return StoreError(f"cannot {action} {path}: {why}")


def frame(payload: bytes) -> bytes:
    """One record as it lies on disk."""
    length = len(payload).to_bytes(4, "big")
    return HEADER.pack(len(payload), zlib.crc32(length + payload)) + payload


@dataclass(frozen=True, slots=True)
class Scan:
    """What a log file holds: its good records, where they end, and what was wrong after."""

    records: list[bytes]
    end: int  # the offset just past the last good record
    size: int  # the file's size
    problem: str = ""  # why reading stopped before ``size``; empty when it did not


def scan(data: bytes) -> Scan:
    """Read a log's bytes: every whole, intact record up to the first damaged one."""
    if len(data) < len(MAGIC):
        if MAGIC.startswith(data):
            return Scan([], 0, len(data), "torn header" if data else "")
        raise StoreError("not a blitz log (bad magic)")
    if not data.startswith(MAGIC):
        raise StoreError("not a blitz log (bad magic)")
    records: list[bytes] = []
    offset = len(MAGIC)
    while offset < len(data):
        if len(data) - offset < HEADER.size:
            return Scan(records, offset, len(data), "torn record header")
        length, crc = HEADER.unpack_from(data, offset)
        if length > MAX_RECORD:
            return Scan(records, offset, len(data), "damaged record length")
        start = offset + HEADER.size
        if len(data) - start < length:
            return Scan(records, offset, len(data), "torn record")
        payload = data[start : start + length]
        if zlib.crc32(length.to_bytes(4, "big") + payload) != crc:
            return Scan(records, offset, len(data), "record fails its CRC")
        records.append(payload)
        offset = start + length
    return Scan(records, offset, len(data))


class RecordLog:
    """An append-only file of framed records. Open with ``RecordLog.open``."""

    def __init__(self, path: Path, fd: int, size: int) -> None:
        self.path = path
        self._fd = fd
        self._size = size

    @classmethod
    def open(cls, path: Path) -> tuple[RecordLog, Scan]:
        """Open (or create) the log; return it with what it held, a damaged tail cut off."""
        try:
            data = path.read_bytes() if path.exists() else b""
        except OSError as error:
            raise _explain("read", path, error) from None
        try:
            found = scan(data)
        except StoreError as error:
            raise StoreError(f"{path}: {error}") from None
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        except OSError as error:
            raise _explain("open", path, error) from None
        log = cls(path, fd, found.end)
        try:
            if found.size != found.end:
                os.ftruncate(fd, found.end)  # cut the torn tail before appending more
            if found.end == 0:
                os.ftruncate(fd, 0)
                log._write(MAGIC)
        except OSError as error:
            log.close()
            raise _explain("repair", path, error) from None
        except StoreError:
            log.close()
            raise
        return log, found

    def append(self, payload: bytes) -> None:
        """Write one record; when this returns, a crash of this process cannot lose it."""
        self._write(frame(payload))

    def _write(self, data: bytes) -> None:
        if self._fd < 0:
            raise StoreError(f"cannot write {self.path}: it is closed")
        view = memoryview(data)
        written = 0
        try:
            while written < len(view):
                written += os.write(self._fd, view[written:])
        except OSError as error:
            # Leave no half record behind, so what was written stays readable.
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, self._size)
            raise _explain("write to", self.path, error) from None
        self._size += len(data)

    def close(self) -> None:
        if self._fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = -1


def _write_atomically(path: Path, data: bytes, sync: bool = False) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as out:
            out.write(data)
            out.flush()
            if sync:
                os.fsync(out.fileno())
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise _explain("write", path, error) from None


@dataclass(frozen=True, slots=True)
class TableRecord:
    """Which table log is current."""

    table: str
    epoch: bytes
    seq_floor: int = 0  # our stream resumes above this: numbers we may have used elsewhere


class StateDir:
    """The files of one node (or one local bot seat, in a subdirectory)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        try:
            self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as error:
            raise _explain("create the state directory", self.root, error) from None
        if not os.access(self.root, os.W_OK | os.X_OK):
            read_only = os.statvfs(self.root).f_flag & os.ST_RDONLY
            why = "read-only file system" if read_only else "permission denied"
            raise StoreError(f"cannot use the state directory {self.root}: {why}")
        self._events: RecordLog | None = None
        self._deals: RecordLog | None = None
        self._table: TableRecord | None = None
        self._identity: Signer | None = None

    # -- identity -----------------------------------------------------------------------

    def identity(self) -> Signer:
        """This node's key pair: read its seed, or make it once (racing starts agree on one).

        The seed is the node's only secret and lives in ``identity.key`` (mode 0600).
        The node id is derived from the public key (``protocol.auth.node_id_of``).
        """
        if self._identity is not None:
            return self._identity
        path = self.root / "identity.key"
        if not path.exists():
            temporary = path.with_name(f".identity.{os.getpid()}.tmp")
            try:
                descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with open(descriptor, "wb") as out:
                    out.write(os.urandom(SEED_SIZE))
                    out.flush()
                    os.fsync(out.fileno())
                with contextlib.suppress(FileExistsError):
                    os.link(temporary, path)  # fails if another start made it first
            except OSError as error:
                raise _explain("create the node's key", path, error) from None
            finally:
                with contextlib.suppress(OSError):
                    temporary.unlink()
        try:
            found = path.read_bytes()
        except OSError as error:
            raise _explain("read the node's key", path, error) from None
        if len(found) != SEED_SIZE:
            raise StoreError(f"{path} is damaged ({len(found)} bytes, not {SEED_SIZE})")
        self._identity = Signer(found)
        return self._identity

    def node_id(self) -> bytes:
        """This node's id, derived from its key (see ``identity``)."""
        return self.identity().node_id

    # -- the player's name --------------------------------------------------------------

    def name(self) -> str | None:
        """The name the player last set at the table, if any (and it is still a name)."""
        try:
            name = (self.root / "name").read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            return None
        return name if name and len(name.encode()) <= MAX_NAME else None

    def save_name(self, name: str) -> None:
        """Keep the name for the next start without ``--name``."""
        _write_atomically(self.root / "name", name.encode())

    # -- the current table --------------------------------------------------------------

    def table(self) -> TableRecord | None:
        """The table log this directory holds, or None."""
        path = self.root / "table.json"
        if not path.exists():
            return None
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            found = TableRecord(
                str(raw["table"]), bytes.fromhex(raw["epoch"]), int(raw.get("seq_floor", 0))
            )
        except OSError as error:
            raise _explain("read", path, error) from None
        except (ValueError, KeyError, TypeError):
            raise StoreError(f"{path} is damaged: remove it to start afresh") from None
        if len(found.epoch) != NODE_ID_SIZE:
            raise StoreError(f"{path} is damaged: remove it to start afresh")
        self._table = found
        return found

    def begin_table(self, record: TableRecord, keep: bytes | None = None) -> None:
        """Make ``record`` the current table, with an empty log; forget every other log
        but the one at ``keep``, kept aside (spec/protocol.md P-286)."""
        self.close()
        folder = self._folder(record.epoch)
        if folder.exists():
            shutil.rmtree(folder, ignore_errors=True)
        try:
            folder.mkdir(parents=True, mode=0o700)
        except OSError as error:
            raise _explain("create", folder, error) from None
        self._make_current(record, keep)

    def resume_table(self, record: TableRecord) -> bool:
        """Make the log kept aside at ``record.epoch`` the current table again, as it is,
        and forget every other log; False if no such log is here."""
        if not (self._folder(record.epoch) / "events.log").exists():
            return False
        self.close()
        self._make_current(record, None)
        return True

    def _make_current(self, record: TableRecord, keep: bytes | None) -> None:
        body = {"table": record.table, "epoch": record.epoch.hex(), "seq_floor": record.seq_floor}
        _write_atomically(self.root / "table.json", json.dumps(body).encode(), sync=True)
        self._table = record
        with contextlib.suppress(OSError):
            for folder in (self.root / "tables").iterdir():
                if folder.name not in (record.epoch.hex(), keep.hex() if keep else ""):
                    shutil.rmtree(folder, ignore_errors=True)

    def _folder(self, epoch: bytes) -> Path:
        return self.root / "tables" / epoch.hex()

    def _current(self) -> Path:
        if self._table is None and self.table() is None:
            raise StoreError(f"{self.root}: no current table")
        assert self._table is not None
        return self._folder(self._table.epoch)

    # -- the event log ------------------------------------------------------------------

    def open_events(self) -> Scan:
        """Open the current table's event log for appending; return what it held."""
        folder = self._current()
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as error:
            raise _explain("create", folder, error) from None
        if self._events is not None:
            self._events.close()
        self._events, found = RecordLog.open(folder / "events.log")
        return found

    def append_event(self, raw: bytes) -> None:
        if self._events is None:
            self.open_events()
        assert self._events is not None
        self._events.append(raw)

    # -- the clock mark ---------------------------------------------------------------

    def clock_mark(self) -> int:
        path = self._current() / "clock"
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return 0
        except OSError as error:
            raise _explain("read", path, error) from None
        if len(data) != CLOCK.size:
            return 0  # never torn (written by rename); the log's own times still count
        mark, crc = CLOCK.unpack(data)
        return mark if zlib.crc32(data[:8]) == crc else 0

    def save_clock_mark(self, mark: int) -> None:
        value = mark.to_bytes(8, "big")
        _write_atomically(self._current() / "clock", CLOCK.pack(mark, zlib.crc32(value)))

    # -- our round secrets (secret) --------------------------------------------------------

    def deal_secrets(self) -> dict[int, RoundSecret]:
        """Each round's secret and share of ours (the fair deal), kept until revealed."""
        if self._deals is not None:
            self._deals.close()
        self._deals, found = RecordLog.open(self._current() / "deals.log")
        secrets: dict[int, RoundSecret] = {}
        for payload in found.records:
            try:
                round_number, secret, share, *private = msgpack.unpackb(payload)
            except (ValueError, TypeError, msgpack.UnpackException):
                continue
            kept = [secret, share, *private[:1]]
            if all(isinstance(part, bytes) for part in kept):
                secrets.setdefault(int(round_number), RoundSecret(*kept))
        return secrets

    def save_deal_secret(self, round_number: int, kept: RoundSecret) -> None:
        """Append a round's secret; durable before the commitment to it is sent."""
        if self._deals is None:
            self.deal_secrets()
        assert self._deals is not None
        private = [kept.private] if kept.private else []  # a game's seed, when it has one
        self._deals.append(msgpack.packb([round_number, kept.secret, kept.share, *private]))

    # -- results ------------------------------------------------------------------------

    def has_results(self, epoch: bytes) -> bool:
        """Whether a game of this table log has ended here (the first one's results are
        written; a rematch's follow it)."""
        return (self.root / "results" / f"{epoch.hex()}.json").exists()

    def save_results(self, epoch: bytes, summary: dict[str, Any], game: int = 1) -> Path:
        """Write one game's summary: ``<epoch>.json``, and ``<epoch>-<n>.json`` for rematch n."""
        folder = self.root / "results"
        try:
            folder.mkdir(exist_ok=True, mode=0o700)
        except OSError as error:
            raise _explain("create", folder, error) from None
        path = folder / (f"{epoch.hex()}.json" if game == 1 else f"{epoch.hex()}-{game}.json")
        _write_atomically(path, json.dumps(summary, indent=2, ensure_ascii=False).encode())
        return path

    def close(self) -> None:
        for log in (self._events, self._deals):
            if log is not None:
                log.close()
        self._events = self._deals = None


def write_json(path: Path, value: dict[str, Any]) -> Path:
    """Write a JSON file atomically (a summary): a reader never sees half of it."""
    _write_atomically(path, json.dumps(value, indent=2, ensure_ascii=False).encode())
    return path


def write_file(path: Path, data: bytes) -> Path:
    """Write a file atomically and durably: after a crash it is whole or absent."""
    _write_atomically(path, data, sync=True)
    return path
