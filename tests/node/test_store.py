"""The state directory: framed records that survive crashes, and clear errors when disks fail."""

from __future__ import annotations

import errno
import os
import random
import signal
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from dutchblitz.node.store import state as store
from dutchblitz.node.store.state import (
    MAGIC,
    RecordLog,
    StateDir,
    StoreError,
    TableRecord,
    frame,
    scan,
)
from dutchblitz.protocol.table.fairdeal import RoundSecret

from tests.netns_helpers import child_env, tiny_tmpfs

pytestmark = pytest.mark.timeout(60)


def record(number: int) -> bytes:
    """A record whose content and size (up to 60 KiB) follow from its number alone."""
    size = random.Random(number).randrange(1, 60_000)
    seed = number.to_bytes(4, "big")
    return (seed * (size // 4 + 1))[:size]


def write_log(path: Path, count: int) -> list[bytes]:
    log, _ = RecordLog.open(path)
    records = [record(n) for n in range(count)]
    for payload in records:
        log.append(payload)
    log.close()
    return records


def test_records_come_back_in_order_after_reopening(tmp_path: Path) -> None:
    path = tmp_path / "events.log"
    records = write_log(path, 20)
    log, found = RecordLog.open(path)
    log.append(b"one more")
    log.close()
    assert found.records == records and found.problem == ""
    assert scan(path.read_bytes()).records == [*records, b"one more"]


def test_a_record_is_framed_by_length_and_crc() -> None:
    framed = frame(b"abc")
    assert framed[:4] == (3).to_bytes(4, "big")
    assert framed[4:8] == zlib.crc32((3).to_bytes(4, "big") + b"abc").to_bytes(4, "big")
    assert framed[8:] == b"abc"


def test_a_torn_last_record_is_ignored_and_cut_before_appending(tmp_path: Path) -> None:
    path = tmp_path / "events.log"
    records = write_log(path, 5)
    whole = path.read_bytes()
    last_start = len(whole) - len(frame(records[-1]))
    rng = random.Random(7)
    cuts = {last_start + 1, last_start + 7, last_start + 8, len(whole) - 1}
    cuts |= {rng.randrange(last_start + 1, len(whole)) for _ in range(20)}
    for cut in sorted(cuts):
        path.write_bytes(whole[:cut])
        log, found = RecordLog.open(path)
        assert found.records == records[:-1], cut
        assert found.problem.startswith("torn") and found.end == last_start
        assert path.stat().st_size == last_start  # cut off before anything is appended
        log.append(b"after the tear")
        log.close()
        assert scan(path.read_bytes()).records == [*records[:-1], b"after the tear"]


@pytest.mark.parametrize("damage", ["payload", "crc", "length"])
def test_a_corrupt_record_ends_the_log_there_and_is_reported(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "events.log"
    records = write_log(path, 4)
    data = bytearray(path.read_bytes())
    third = len(MAGIC) + sum(len(frame(r)) for r in records[:2])
    offset = {"payload": third + 8 + 3, "crc": third + 5, "length": third + 1}[damage]
    data[offset] ^= 0x5A
    path.write_bytes(bytes(data))
    log, found = RecordLog.open(path)
    log.close()
    assert found.records == records[:2]
    assert found.problem in ("record fails its CRC", "damaged record length", "torn record")
    assert path.stat().st_size == third


def test_a_file_that_is_not_a_log_is_refused_not_clobbered(tmp_path: Path) -> None:
    path = tmp_path / "events.log"
    path.write_bytes(b"hello world, not a log")
    with pytest.raises(StoreError, match="not a blitz log"):
        RecordLog.open(path)
    assert path.read_bytes() == b"hello world, not a log"


def test_a_torn_magic_is_an_empty_log(tmp_path: Path) -> None:
    path = tmp_path / "events.log"
    path.write_bytes(MAGIC[:3])
    log, found = RecordLog.open(path)
    log.append(b"x")
    log.close()
    assert found.records == [] and scan(path.read_bytes()).records == [b"x"]


def test_a_full_disk_is_a_clear_error_and_keeps_every_earlier_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "events.log"
    log, _ = RecordLog.open(path)
    for n in range(3):
        log.append(record(n))
    real_write = os.write

    def half_then_full(fd: int, data: bytes | memoryview) -> int:
        if len(data) > 10:
            real_write(fd, bytes(data[: len(data) // 2]))  # the disk fills up mid-record
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store.os, "write", half_then_full)
    with pytest.raises(StoreError) as caught:
        log.append(record(3))
    monkeypatch.undo()
    assert str(caught.value) == f"cannot write to {path}: the disk is full"
    log.close()
    again, found = RecordLog.open(path)
    again.close()
    assert found.records == [record(n) for n in range(3)] and found.problem == ""


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    with tiny_tmpfs(tmp_path, "256k") as mount_point:
        yield mount_point


def test_a_really_full_disk_stops_writing_cleanly(tiny_disk: Path) -> None:
    state = StateDir(tiny_disk / "state")
    state.node_id()
    state.begin_table(TableRecord("blitz", bytes(16)))
    state.open_events()
    written = []
    with pytest.raises(StoreError, match="the disk is full"):
        for n in range(1000):
            state.append_event(record(n))
            written.append(record(n))
    state.close()
    assert 0 < len(written) < 1000
    again = StateDir(tiny_disk / "state")
    assert again.table() == TableRecord("blitz", bytes(16))
    found = again.open_events()
    again.close()
    assert found.records == written and found.problem == ""


def test_an_unusable_state_directory_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("I am a file")
    with pytest.raises(StoreError, match="cannot create the state directory") as caught:
        StateDir(blocker / "state")
    assert "Not a directory" in str(caught.value) or "not a directory" in str(caught.value)


def test_a_read_only_state_directory_is_a_clear_error(tiny_disk: Path) -> None:
    (tiny_disk / "state").mkdir()
    subprocess.run(["mount", "-o", "remount,ro", str(tiny_disk)], check=True)
    with pytest.raises(StoreError, match="read-only file system"):
        StateDir(tiny_disk / "state").node_id()


def test_the_node_id_is_made_once_and_kept(tmp_path: Path) -> None:
    first = StateDir(tmp_path).node_id()
    assert len(first) == 16
    assert StateDir(tmp_path).node_id() == first
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_racing_starts_agree_on_one_node_id(tmp_path: Path) -> None:
    script = (
        "import sys; from pathlib import Path; from dutchblitz.node.store.state import StateDir; "
        "print(StateDir(Path(sys.argv[1])).node_id().hex())"
    )
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(tmp_path)],
            stdout=subprocess.PIPE,
            text=True,
            env=child_env(),
        )
        for _ in range(6)
    ]
    ids = {racer.communicate(timeout=30)[0].strip() for racer in racers}
    assert ids == {StateDir(tmp_path).node_id().hex()}


def test_clock_mark_deal_secrets_and_a_new_table(tmp_path: Path) -> None:
    state = StateDir(tmp_path)
    first, second = TableRecord("blitz", b"\x01" * 16), TableRecord("blitz", b"\x02" * 16, 9)
    state.begin_table(first)
    assert state.clock_mark() == 0
    state.save_clock_mark(2048)
    one, two = RoundSecret(b"s" * 32, b"r" * 32), RoundSecret(b"t" * 32, b"u" * 32)
    state.save_deal_secret(1, one)
    state.save_deal_secret(2, two)
    state.append_event(b"event")
    state.close()
    again = StateDir(tmp_path)
    assert again.table() == first
    assert again.clock_mark() == 2048
    assert again.deal_secrets() == {1: one, 2: two}
    assert again.open_events().records == [b"event"]
    again.begin_table(second)
    assert again.table() == second and again.open_events().records == []
    assert again.clock_mark() == 0 and again.deal_secrets() == {}
    again.close()
    assert not (tmp_path / "tables" / first.epoch.hex()).exists()


def test_a_log_given_up_is_kept_aside_and_taken_up_again(tmp_path: Path) -> None:
    """spec/protocol.md P-286: the log left for a fresh one is kept while the seat may go
    back to it, with its events, clock mark and secrets; every other log is forgotten."""
    state = StateDir(tmp_path)
    kept, fresh, other = (TableRecord("blitz", bytes([n]) * 16) for n in (1, 2, 3))
    secret = RoundSecret(b"s" * 32, b"r" * 32)
    state.begin_table(kept)
    state.append_event(b"ours")
    state.save_clock_mark(4096)
    state.save_deal_secret(7, secret)
    state.begin_table(fresh, keep=kept.epoch)
    state.append_event(b"fresh")
    state.begin_table(other, keep=kept.epoch)
    assert not (tmp_path / "tables" / fresh.epoch.hex()).exists()
    back = TableRecord("blitz", kept.epoch, 12)
    assert state.resume_table(back)
    assert state.table() == back and state.open_events().records == [b"ours"]
    assert state.clock_mark() == 4096 and state.deal_secrets() == {7: secret}
    assert sorted(path.name for path in (tmp_path / "tables").iterdir()) == [kept.epoch.hex()]
    assert not state.resume_table(fresh)  # forgotten
    state.begin_table(fresh)
    assert sorted(path.name for path in (tmp_path / "tables").iterdir()) == [fresh.epoch.hex()]
    state.close()


def test_a_damaged_table_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "table.json").write_text("{not json")
    with pytest.raises(StoreError, match="damaged"):
        StateDir(tmp_path).table()


WRITER = """
import sys
from pathlib import Path
from dutchblitz.node.store.state import StateDir, TableRecord
sys.path.insert(0, sys.argv[2])
from test_store import record
state = StateDir(Path(sys.argv[1]))
state.begin_table(TableRecord("blitz", bytes(16)))
state.open_events()
number = 0
while True:
    state.append_event(record(number))
    print(number, flush=True)  # acknowledged: the record is written
    number += 1
"""


@pytest.mark.parametrize("attempt", range(12))
def test_kill_9_never_loses_an_acknowledged_record_nor_reads_garbage(attempt: int) -> None:
    rng = random.Random(attempt)
    with tempfile.TemporaryDirectory() as folder:
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, folder, str(Path(__file__).parent)],
            stdout=subprocess.PIPE,
            text=True,
            env=child_env(),
        )
        assert writer.stdout is not None
        stop_after = rng.randrange(1, 400)
        acknowledged = -1
        for line in writer.stdout:
            acknowledged = int(line)
            if acknowledged >= stop_after:
                break
        writer.send_signal(signal.SIGKILL)
        writer.wait(10)
        writer.stdout.close()
        state = StateDir(Path(folder))
        found = state.open_events()
        state.close()
    assert acknowledged == stop_after
    assert len(found.records) >= acknowledged + 1
    assert found.records == [record(n) for n in range(len(found.records))]


@pytest.mark.parametrize(
    ("kept", "read"),
    [(None, None), (b"Grace", "Grace"), (b"  Grace\n", "Grace"), (b"", None), (b"x" * 33, None),
     (b"\xff\xfe", None)],
)  # fmt: skip
def test_the_players_name_is_kept_and_a_damaged_one_is_none(
    tmp_path: Path, kept: bytes | None, read: str | None
) -> None:
    if kept is not None:
        (tmp_path / "name").write_bytes(kept)
    state = StateDir(tmp_path)
    assert state.name() == read
    state.save_name("Ada")
    assert StateDir(tmp_path).name() == "Ada"
