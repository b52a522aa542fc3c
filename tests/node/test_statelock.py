"""P-145: one node per state directory: the lock, the refusal, the automatic second profile."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from dutchblitz.node.store.lock import (
    LOCK_FILE,
    MAX_PROFILES,
    StateDirTaken,
    claim_state_dir,
    lock_state_dir,
    profile_dir,
    shown,
)
from dutchblitz.node.store.state import StoreError

pytestmark = pytest.mark.timeout(30)

# Another process holds the lock until its stdin closes (flock is per open file, so a
# second lock in this process would not be refused).
HOLDER = """
import sys
from pathlib import Path
from dutchblitz.node.store.lock import claim_state_dir
explicit = Path(sys.argv[1]) if sys.argv[1] != "-" else None
held = claim_state_dir(explicit, Path(sys.argv[2]))
print(held.root, held.profile, flush=True)
sys.stdin.read()
"""


class Holder:
    def __init__(self, explicit: Path | None, base: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(explicit or "-"), str(base)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        root, profile = self.process.stdout.readline().split()
        self.root, self.profile = Path(root), int(profile)

    def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(10)


def test_a_held_directory_is_refused_with_the_holders_pid_and_nothing_touched(
    tmp_path: Path,
) -> None:
    state = tmp_path / "state"
    holder = Holder(state, tmp_path)
    try:
        (state / "table.json").write_text("the first node's")
        before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in state.iterdir()}
        with pytest.raises(StateDirTaken) as taken:
            lock_state_dir(state)
        after = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in state.iterdir()}
    finally:
        holder.stop()
    assert taken.value.pid == holder.process.pid
    text = str(taken.value)
    assert str(state) in text and f"pid {holder.process.pid}" in text and "\n" not in text
    assert isinstance(taken.value, StoreError)
    assert after == before


def test_the_lock_goes_with_its_holder_and_the_next_node_writes_its_own_pid(
    tmp_path: Path,
) -> None:
    holder = Holder(tmp_path / "state", tmp_path)
    holder.stop()  # the file and its old pid stay behind, the lock does not
    held = lock_state_dir(tmp_path / "state")
    try:
        assert (tmp_path / "state" / LOCK_FILE).read_text() == f"{os.getpid()}\n"
    finally:
        held.release()
    assert not held.held
    lock_state_dir(tmp_path / "state").release()  # free again once released


def test_without_state_dir_the_second_node_takes_the_next_free_profile(tmp_path: Path) -> None:
    first = Holder(None, tmp_path / "base")
    try:
        assert (first.root, first.profile) == (tmp_path / "base", 1)
        second = Holder(None, tmp_path / "base")
        try:
            assert (second.root, second.profile) == (tmp_path / "base" / "profile-2", 2)
            third = claim_state_dir(None, tmp_path / "base")
            assert (third.root, third.profile) == (tmp_path / "base" / "profile-3", 3)
            third.release()
        finally:
            second.stop()
        again = claim_state_dir(None, tmp_path / "base")  # the first free one, profile-2
        assert again.profile == 2
        again.release()
    finally:
        first.stop()


def test_an_explicit_state_dir_is_never_swapped_for_a_profile(tmp_path: Path) -> None:
    holder = Holder(None, tmp_path)
    try:
        with pytest.raises(StateDirTaken):
            claim_state_dir(tmp_path, tmp_path)
    finally:
        holder.stop()


def test_when_every_profile_is_taken_the_node_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def taken(root: Path, profile: int = 1) -> None:
        raise StateDirTaken(root, 4242)

    monkeypatch.setattr("dutchblitz.node.store.lock.lock_state_dir", taken)
    with pytest.raises(StoreError, match=f"all {MAX_PROFILES} profiles under .* are in use"):
        claim_state_dir(None, tmp_path)


def test_profiles_live_in_the_default_directory() -> None:
    base = Path("/x/dutchblitz")
    assert profile_dir(base, 1) == base and profile_dir(base, 3) == base / "profile-3"


def test_a_path_under_home_is_shown_with_a_tilde() -> None:
    assert shown(Path.home() / ".local" / "state") == str(Path("~/.local/state"))
    assert shown(Path("/srv/blitz")) == "/srv/blitz"
