"""The archive of finished games (node/store/archive.py) in a temporary state directory."""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest
from dutchblitz.node.store.archive import (
    DATABASE,
    PENDING,
    SCHEMA_VERSION,
    Archive,
    ArchiveError,
    keep_games,
)
from dutchblitz.node.store.state import StoreError
from dutchblitz.protocol.replays.gamefile import check_game_file

from tests.netns_helpers import tiny_tmpfs
from tests.protocol.finished_games import SEED, finished
from tests.rigs.sim import Simulation


def test_a_game_is_kept_once_with_a_row_per_player(tmp_path: Path) -> None:
    archive = Archive(tmp_path)
    data = finished().data
    first = archive.keep(data, "2026-01-02T20:00:00+00:00")
    assert archive.keep(data) == first  # the same game again: kept once
    checked = check_game_file(data)
    final = checked.final
    [row] = archive.games()
    assert row.id == first and row.table == checked.file.table
    assert row.rounds == len(final.results)
    names = [final.by_seat()[seat].name for seat in final.players]
    assert row.players == ", ".join(names)
    assert row.winner == final.by_seat()[final.winner].name  # type: ignore[index]
    assert archive.file_of(first) == (first, data)
    assert archive.file_of() == (first, data)
    assert archive.file_of(first + 1) is None
    with sqlite3.connect(tmp_path / DATABASE) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("SELECT count(*) FROM players").fetchone()[0] == len(final.players)


def test_stats_count_games_wins_scores_and_blitzes_by_key(tmp_path: Path) -> None:
    archive = Archive(tmp_path)
    one, two = finished().data, finished(rematches=1).data
    archive.keep(one, "2026-01-02T20:00:00+00:00")
    archive.keep(two, "2026-01-02T21:00:00+00:00")
    games = [check_game_file(one).final, check_game_file(two).final]
    stats = {row.fingerprint: row for row in archive.stats()}
    assert len(stats) == 3
    checked = check_game_file(two)
    for member in checked.final.members.values():
        row = stats[checked.fingerprint(member.node)]
        seat = member.seat
        assert row.played == 2
        assert row.name == member.name  # the latest name
        assert row.won == sum(game.winner == seat for game in games)
        assert row.average == pytest.approx(sum(g.totals[seat] for g in games) / 2)
        assert row.blitzes == sum(r.blitz_by == seat for g in games for r in g.results)
    assert [g.id for g in archive.games()] == [2, 1]  # newest first


def test_an_empty_or_missing_archive_lists_nothing_and_creates_nothing(tmp_path: Path) -> None:
    archive = Archive(tmp_path / "none")
    assert archive.games() == [] and archive.stats() == [] and archive.file_of() is None
    assert not (tmp_path / "none").exists()


def test_a_game_left_pending_by_a_crash_is_kept_at_the_next_opening(tmp_path: Path) -> None:
    pending = tmp_path / PENDING
    pending.mkdir()
    (pending / "abc-1.blitzgame").write_bytes(finished().data)
    (pending / "bad-1.blitzgame").write_bytes(b"not a game")
    problems = Archive(tmp_path).take_pending()
    assert len(problems) == 1 and "set aside" in problems[0]
    assert [p.name for p in pending.iterdir()] == ["bad-1.damaged"]
    assert len(Archive(tmp_path).games()) == 1


def test_keeping_a_finished_game_leaves_no_pending_file(tmp_path: Path) -> None:
    archive = Archive(tmp_path)
    archive.keep_finished(finished().data, "abc-1")
    assert list((tmp_path / PENDING).iterdir()) == []
    assert len(archive.games()) == 1


def test_a_damaged_database_is_one_line_and_the_game_waits(tmp_path: Path) -> None:
    (tmp_path / DATABASE).write_bytes(b"this is not sqlite" * 100)
    archive = Archive(tmp_path)
    with pytest.raises(ArchiveError) as caught:
        archive.keep_finished(finished().data, "abc-1")
    said = str(caught.value)
    assert "damaged" in said and "\n" not in said
    assert [p.name for p in (tmp_path / PENDING).iterdir()] == ["abc-1.blitzgame"]
    with pytest.raises(ArchiveError):
        archive.games()
    (tmp_path / DATABASE).unlink()  # the player moves it away: the next opening keeps it
    assert Archive(tmp_path).take_pending() == []
    assert len(Archive(tmp_path).games()) == 1


def test_a_locked_database_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("dutchblitz.node.store.archive.BUSY_TIMEOUT_S", 0.05)
    Archive(tmp_path).keep(finished().data)
    holder = sqlite3.connect(tmp_path / DATABASE)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(ArchiveError) as caught:
            Archive(tmp_path).keep_finished(finished(rematches=1).data, "abc-2")
        assert "another blitz-node is writing it" in str(caught.value)
    finally:
        holder.rollback()
        holder.close()
    assert Archive(tmp_path).take_pending() == []
    assert len(Archive(tmp_path).games()) == 2


def test_an_archive_of_schema_1_is_upgraded_and_its_games_are_dutch_blitz(tmp_path: Path) -> None:
    Archive(tmp_path).keep(finished().data)
    with sqlite3.connect(tmp_path / DATABASE) as db:  # as schema 1 left it: no game column
        db.execute("ALTER TABLE games DROP COLUMN rules")
        db.execute("PRAGMA user_version = 1")
    db.close()
    archive = Archive(tmp_path)
    assert [game.rules for game in archive.games()] == ["blitz"]
    archive.keep(finished(rematches=1).data)
    assert [game.rules for game in archive.games()] == ["blitz", "blitz"]
    archive.close()
    with sqlite3.connect(tmp_path / DATABASE) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    db.close()


def test_a_newer_schema_is_refused_with_one_line(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / DATABASE) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(ArchiveError) as caught:
        Archive(tmp_path).games()
    assert "newer blitz-node" in str(caught.value)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_a_state_directory_that_cannot_be_written_keeps_nothing_but_says_so(
    tmp_path: Path,
) -> None:
    tmp_path.chmod(0o500)
    try:
        with pytest.raises(StoreError) as caught:
            Archive(tmp_path).keep_finished(finished().data, "abc-1")
        assert "\n" not in str(caught.value)
    finally:
        tmp_path.chmod(0o700)


def test_a_full_disk_is_one_line(tmp_path: Path) -> None:
    """The game's file does not fit: one line says why (the node logs it and plays on)."""
    with tiny_tmpfs(tmp_path, "16k") as disk:
        with pytest.raises(StoreError) as caught:
            Archive(disk).keep_finished(finished().data, "abc-1")
        assert "the disk is full" in str(caught.value) and "\n" not in str(caught.value)


def test_a_node_keeps_what_was_pending_then_each_game_that_ends(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``keep_games`` as ``run_node`` sets it up: pending games first, then a hook that keeps
    each ended game and never raises, whatever goes wrong."""
    simulation = Simulation(SEED, "none", players=3)
    simulation.run()
    replica = simulation.nodes[0].replica
    seat = SimpleNamespace(label="ada", replica=replica, game_over_hooks=[])
    node = SimpleNamespace(
        main=seat, signer=simulation.signers[replica.me.node], state_root=tmp_path
    )
    logger = logging.getLogger("dutchblitz.node")  # a node's own handlers may not propagate
    logger.addHandler(caplog.handler)
    caplog.set_level(logging.INFO, logger="dutchblitz.node")
    try:
        _keep_on(tmp_path, seat, node, caplog)
    finally:
        logger.removeHandler(caplog.handler)


def _keep_on(
    tmp_path: Path, seat: SimpleNamespace, node: SimpleNamespace, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / PENDING).mkdir()
    (tmp_path / PENDING / "x-2.blitzgame").write_bytes(finished(rematches=1).data)
    archive = keep_games(node)  # type: ignore[arg-type]
    assert archive is not None and len(archive.games()) == 1
    [hook] = seat.game_over_hooks
    hook()
    hook()  # the same end told twice: kept once
    assert len(archive.games()) == 2
    assert "game kept in the archive (blitz-node replay 2)" in caplog.text
    seat.replica = SimpleNamespace(ended=(1, b"", None), me=None)  # broken beyond repair
    hook()
    assert "the game could not be kept" in caplog.text
