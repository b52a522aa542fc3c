"""The archive's commands: ``blitz-node games``, ``stats``, ``export`` and ``replay``.

Each reads the state directory a node would use (``--state-dir``, or the default one,
or ``--profile N`` of it), without taking its lock: a node may be playing meanwhile.
Every failure is one line on stderr and exit code 1; a wrong flag is exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import NoReturn

from dutchblitz.protocol.games.registry import UnknownGame, game_for
from dutchblitz.protocol.limits import MAX_GAME_FILE
from dutchblitz.protocol.replays.gamefile import GameFileError, Refusal

from ..replaying import ReplaySession
from ..store.archive import Archive, KeptGame, PlayerStats
from ..store.lock import MAX_PROFILES, profile_dir
from ..store.state import StoreError, default_state_dir, write_file

COMMANDS = ("games", "stats", "export", "replay")
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2

HELP = {
    "games": "list the games kept on this machine, newest first",
    "stats": "every player this machine has played with: games, wins, average score, Blitzes",
    "export": "write a kept game to one file that a friend can replay",
    "replay": "play a kept game (the latest, GAME, or a FILE) again in the terminal",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _profile(value: str) -> int:
    if not value.isdigit() or not 1 <= int(value) <= MAX_PROFILES:
        raise argparse.ArgumentTypeError(f"a profile is 1 to {MAX_PROFILES}, got {value!r}")
    return int(value)


def build_parser(command: str) -> argparse.ArgumentParser:
    parser = _Parser(prog=f"blitz-node {command}", description=HELP[command])
    if command == "export":
        parser.add_argument("game", metavar="GAME", help="the game's number in blitz-node games")
        parser.add_argument("file", metavar="FILE", type=Path, help="the file to write")
    elif command == "replay":
        parser.add_argument(
            "target",
            metavar="GAME|FILE",
            nargs="?",
            help="a game's number in blitz-node games, or a file (default: the latest game)",
        )
    parser.add_argument(
        "--state-dir", type=Path, metavar="DIR", help="the node's state directory to read"
    )
    parser.add_argument(
        "--profile",
        type=_profile,
        default=1,
        metavar="N",
        help="the default state directory's profile N (a second node on this machine: 2)",
    )
    return parser


def state_root(args: argparse.Namespace) -> Path:
    if args.state_dir is not None:
        return Path(args.state_dir)
    return profile_dir(default_state_dir(), args.profile)


def fail(text: str) -> int:
    print(f"blitz-node: {text}", file=sys.stderr)
    return EXIT_FAILED


def run_command(argv: Sequence[str]) -> int:
    """Run ``games``, ``stats`` or ``export`` (``argv[0]``); its exit code."""
    command, rest = argv[0], list(argv[1:])
    args = build_parser(command).parse_args(rest)
    archive = Archive(state_root(args))
    try:
        for problem in archive.take_pending():
            print(f"blitz-node: {problem}", file=sys.stderr)
        if command == "games":
            return show_games(archive, archive.games())
        if command == "stats":
            return show_stats(archive, archive.stats())
        return export(archive, args.game, args.file)
    except StoreError as error:
        return fail(str(error))
    finally:
        archive.close()


def _none_kept(archive: Archive) -> int:
    print(f"No games kept yet in {archive.root}: every game played to its end is kept there.")
    return EXIT_OK


def local_date(finished_at: str) -> str:
    try:
        return datetime.fromisoformat(finished_at).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return finished_at[:16]


def show_games(archive: Archive, games: list[KeptGame]) -> int:
    if not games:
        return _none_kept(archive)
    table = max(5, *(len(g.table) for g in games))
    names = {game.rules: game_name(game.rules) for game in games}
    width = max(4, *(len(name) for name in names.values()))
    print(
        f"{'#':>4}  {'Date':<16}  {'Table':<{table}}  {'Game':<{width}}  {'Rounds':>6}"
        f"  {'Winner':<16}  Players"
    )
    for game in games:
        print(
            f"{game.id:>4}  {local_date(game.finished_at):<16}  {game.table:<{table}}"
            f"  {names[game.rules]:<{width}}  {game.rounds:>6}  {game.winner or '-':<16}"
            f"  {game.players}"
        )
    return EXIT_OK


def game_name(tag: str) -> str:
    """A game's name as players read it; its tag when this node does not know it."""
    try:
        return game_for(tag).name
    except UnknownGame:
        return tag


def show_stats(archive: Archive, players: list[PlayerStats]) -> int:
    if not players:
        return _none_kept(archive)
    name = max(6, *(len(p.name) for p in players))
    print(
        f"{'Player':<{name}}  {'Key':<19}  {'Games':>5}  {'Won':>4}  {'Average':>7}  {'Blitzes':>7}"
    )
    for player in players:
        print(
            f"{player.name:<{name}}  {player.fingerprint:<19}  {player.played:>5}"
            f"  {player.won:>4}  {player.average:>7.1f}  {player.blitzes:>7}"
        )
    return EXIT_OK


def _game_number(text: str) -> int | None:
    return int(text) if text.isdigit() else None


def export(archive: Archive, game: str, path: Path) -> int:
    number = _game_number(game)
    if number is None:
        return fail(f"export: GAME is a number from blitz-node games, got {game!r}")
    found = archive.file_of(number)
    if found is None:
        return fail(f"export: no game {number} is kept in {archive.root} (see blitz-node games)")
    write_file(path, found[1])
    print(f"Game {number} written to {path}: replay it with  blitz-node replay {path}")
    return EXIT_OK


def open_replay(argv: Sequence[str]) -> tuple[ReplaySession | None, int]:
    """The replay ``blitz-node replay ARGS`` asks for, checked; else None and an exit code."""
    args = build_parser("replay").parse_args(list(argv))
    target: str | None = args.target
    try:
        if target is not None and _game_number(target) is None:
            data, title = _read(Path(target)), Path(target).name
        else:
            archive = Archive(state_root(args))
            try:
                archive.take_pending()
                found = archive.file_of(None if target is None else int(target))
            finally:
                archive.close()
            if found is None:
                what = "no game is" if target is None else f"no game {target} is"
                return None, fail(f"replay: {what} kept in {archive.root} (see blitz-node games)")
            data, title = found[1], f"game {found[0]}"
        return ReplaySession.of(data, title), EXIT_OK
    except StoreError as error:
        return None, fail(f"replay: {error}")
    except GameFileError as error:
        return None, fail(f"replay: {target or 'the latest game'}: {error}; it is not shown")


def _read(path: Path) -> bytes:
    try:
        if path.stat().st_size > MAX_GAME_FILE:
            raise GameFileError("the file is larger than a game file can be", Refusal.TOO_LARGE)
        return path.read_bytes()
    except OSError as error:
        raise StoreError(f"cannot read {path}: {error.strerror or error}") from None
