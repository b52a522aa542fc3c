"""``blitz-node games``, ``stats``, ``export`` and ``replay``: output, exit codes, errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from dutchblitz.client.main import main
from dutchblitz.node.cli.commands import open_replay
from dutchblitz.node.store.archive import Archive
from dutchblitz.protocol.replays.gamefile import check_game_file

from tests.protocol.finished_games import finished


@pytest.fixture
def kept(tmp_path: Path) -> Path:
    root = tmp_path / "state"
    archive = Archive(root)
    archive.keep(finished().data, "2026-01-02T20:00:00+00:00")
    archive.keep(finished(rematches=1).data, "2026-01-03T20:00:00+00:00")
    archive.close()
    return root


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_the_kept_games_newest_first(
    kept: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(capsys, "games", "--state-dir", str(kept))
    assert code == 0 and err == ""
    header, newest, oldest = out.splitlines()
    for word in ("Date", "Table", "Game", "Rounds", "Winner", "Players"):
        assert word in header
    assert newest.split()[0] == "2" and oldest.split()[0] == "1"
    assert "Dutch Blitz" in newest and "Dutch Blitz" in oldest  # the game its log names
    final = check_game_file(finished(rematches=1).data).final
    winner = final.by_seat()[final.winner].name  # type: ignore[index]
    assert winner in newest and "2026-01-0" in newest


def test_stats_names_every_player_by_key(kept: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "stats", "--state-dir", str(kept))
    lines = out.splitlines()
    assert code == 0 and len(lines) == 4
    assert lines[0].split() == ["Player", "Key", "Games", "Won", "Average", "Blitzes"]
    checked = check_game_file(finished().data)
    for member in checked.final.members.values():
        assert any(checked.fingerprint(member.node) in line for line in lines)


@pytest.mark.parametrize("command", ["games", "stats"])
def test_an_empty_archive_says_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    code, out, err = _run(capsys, command, "--state-dir", str(tmp_path / "nothing"))
    assert code == 0 and err == ""
    assert out.count("\n") == 1 and out.startswith("No games kept yet")


def test_export_writes_a_file_that_replays_elsewhere(
    kept: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "friend" / "game.blitz"
    path.parent.mkdir()
    code, out, _ = _run(capsys, "export", "1", str(path), "--state-dir", str(kept))
    assert code == 0 and str(path) in out
    assert path.read_bytes() == finished().data
    session, code = open_replay([str(path)])
    assert code == 0 and session is not None
    assert session.stops > 1 and session.title == "game.blitz"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["export", "9", "out.blitz"], "no game 9 is kept"),
        (["export", "first", "out.blitz"], "GAME is a number"),
        (["replay", "9"], "no game 9 is kept"),
    ],
)
def test_a_game_not_kept_is_one_line_and_exit_1(
    kept: Path, capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    code, _, err = _run(capsys, *argv, "--state-dir", str(kept))
    assert code == 1 and said in err and err.count("\n") == 1


def test_replay_without_a_game_opens_the_latest(kept: Path) -> None:
    session, code = open_replay(["--state-dir", str(kept)])
    assert code == 0 and session is not None and session.title == "game 2"
    assert session.snapshot().table == check_game_file(finished(rematches=1).data).file.table


@pytest.mark.parametrize(
    ("name", "cut"),
    [("truncated", lambda d: d[: len(d) - 100]), ("tampered", lambda d: d[:900] + b"X" + d[901:])],
)
def test_a_tampered_or_truncated_file_is_refused_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, cut: object
) -> None:
    path = tmp_path / f"{name}.blitz"
    path.write_bytes(cut(finished().data))  # type: ignore[operator]
    code, out, err = _run(capsys, "replay", str(path))
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "it is not shown" in err and "Traceback" not in err


def test_the_command_line_says_the_same_in_a_real_process(tmp_path: Path) -> None:
    """The installed entry point: one line, exit 1, for a file that is not a game."""
    path = tmp_path / "junk.blitz"
    path.write_bytes(b"\x93\xa4junk\x01\x02")
    done = subprocess.run(
        [sys.executable, "-m", "dutchblitz.client.main", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "not a Dutch Blitz game file" in done.stderr


def test_a_good_file_without_a_terminal_says_so(
    kept: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(capsys, "replay", "--state-dir", str(kept))
    assert code == 2 and "needs a terminal" in err


def test_a_profile_reads_its_own_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--profile 2`` reads the second node's directory, as the node took it (statelock.py)."""
    monkeypatch.setattr("dutchblitz.node.cli.commands.default_state_dir", lambda: tmp_path)
    Archive(tmp_path / "profile-2").keep(finished().data)
    code, out, _ = _run(capsys, "games", "--profile", "2")
    assert code == 0 and len(out.splitlines()) == 2
    code, out, _ = _run(capsys, "games")
    assert code == 0 and out.startswith("No games kept yet")
    with pytest.raises(SystemExit) as exited:
        main(["games", "--profile", "99"])
    assert exited.value.code == 2 and "a profile is 1 to" in capsys.readouterr().err
