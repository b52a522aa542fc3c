"""The archive of finished games: an SQLite database in the state directory.

Every game that ends at this node is kept: one row in ``games`` (when, which table and
game, how many rounds, the winner, the log digest, and the game's sealed file, spec/replay.md)
and one row per player in ``players`` (key fingerprint, name then, final score, Blitzes
called, won or not). Listing and the leaderboard are queries over these.

The running game's log stays the append-only file of store.py; the archive is written
once a game ends, in two steps: the game's file goes to ``archive-pending/`` (atomic,
durable), then into the database, then the pending file goes. A crash, a full disk or a
locked database in between leaves the pending file, and the next opening of the archive
(the node's next start, or ``blitz-node games``) takes it in: nothing is lost, nothing is
kept twice. The schema's version is ``PRAGMA user_version``.

Every failure is an ``ArchiveError`` whose text is one line for the player.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from dutchblitz.protocol.games.registry import DEFAULT_GAME
from dutchblitz.protocol.replays.gamefile import (
    CheckedGame,
    GameFileError,
    check_game_file,
    sealed_game,
)

from .state import StoreError, write_file

if TYPE_CHECKING:
    from ..runtime import Node

log = logging.getLogger("dutchblitz.node")

DATABASE = "games.sqlite"
PENDING = "archive-pending"
PENDING_SUFFIX = ".blitzgame"
SCHEMA_VERSION = 2  # 2: each game's game tag (rules)
BUSY_TIMEOUT_S = 2.0  # how long to wait for another blitz-node writing the archive

SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    epoch TEXT NOT NULL,
    game INTEGER NOT NULL,
    finished_at TEXT NOT NULL,
    table_name TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    target INTEGER NOT NULL,
    post_stacking INTEGER NOT NULL,
    winner_seat INTEGER,
    digest TEXT NOT NULL,
    file BLOB NOT NULL,
    rules TEXT NOT NULL DEFAULT 'blitz',
    UNIQUE (epoch, game)
);
CREATE TABLE players (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    name TEXT NOT NULL,
    score INTEGER NOT NULL,
    blitzes INTEGER NOT NULL,
    won INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX players_by_key ON players (fingerprint);
"""
# From schema 1: every game kept before was Dutch Blitz, the only game then.
UPGRADE_1 = "ALTER TABLE games ADD COLUMN rules TEXT NOT NULL DEFAULT 'blitz';"

GAMES_QUERY = """
SELECT g.id, g.finished_at, g.table_name, g.rounds,
       (SELECT group_concat(name, ', ')
          FROM (SELECT name FROM players WHERE game_id = g.id ORDER BY seat)) AS names,
       (SELECT name FROM players WHERE game_id = g.id AND seat = g.winner_seat) AS winner,
       g.rules
  FROM games AS g
 ORDER BY g.finished_at DESC, g.id DESC
"""

STATS_QUERY = """
SELECT p.fingerprint,
       (SELECT p2.name FROM players AS p2 JOIN games AS g2 ON g2.id = p2.game_id
         WHERE p2.fingerprint = p.fingerprint
         ORDER BY g2.finished_at DESC, g2.id DESC LIMIT 1) AS name,
       count(*) AS played, sum(p.won) AS won, avg(p.score) AS average,
       sum(p.blitzes) AS blitzes
  FROM players AS p
 GROUP BY p.fingerprint
 ORDER BY won DESC, average DESC, name
"""


# SQLite's result codes (sqlite.org/rescode.html), in the player's words.
SQLITE_REASONS = {
    3: "permission denied",  # SQLITE_PERM
    5: "another blitz-node is writing it; try again in a moment",  # SQLITE_BUSY
    6: "another blitz-node is writing it; try again in a moment",  # SQLITE_LOCKED
    8: "it cannot be written here (read-only)",  # SQLITE_READONLY
    10: "the disk could not be read or written",  # SQLITE_IOERR
    11: "it is damaged: move it away, and a new archive starts",  # SQLITE_CORRUPT
    13: "the disk is full",  # SQLITE_FULL
    14: "it cannot be opened (permission denied or no such folder)",  # SQLITE_CANTOPEN
    26: "it is damaged: move it away, and a new archive starts",  # SQLITE_NOTADB
}


class ArchiveError(StoreError):
    """The archive cannot be read or written; the text is for the player."""


class UnfitGame(ArchiveError):
    """A game's file fails its checks (spec/replay.md): it is not kept."""


@dataclass(frozen=True, slots=True)
class KeptGame:
    """One line of ``blitz-node games``."""

    id: int
    finished_at: str  # ISO 8601, UTC
    table: str
    players: str  # names, in seat order
    winner: str  # "" when there was none
    rounds: int
    rules: str = DEFAULT_GAME  # the game's tag (protocol/games/registry.py)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One line of ``blitz-node stats``: a player known by key, named as last seen."""

    fingerprint: str
    name: str
    played: int
    won: int
    average: float
    blitzes: int


def now_utc() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Archive:
    """The archive of one state directory; the database opens on first use."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.path = self.root / DATABASE
        self._db: sqlite3.Connection | None = None

    # -- the database -----------------------------------------------------------------------

    def exists(self) -> bool:
        return self.path.exists() or bool(self._pending_files())

    def _connect(self) -> sqlite3.Connection:
        if self._db is not None:
            return self._db
        try:
            self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
            db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S)
        except OSError as error:
            raise ArchiveError(f"cannot create {self.root}: {error.strerror or error}") from None
        except sqlite3.Error as error:
            raise self._explain(error) from None
        try:
            with contextlib.suppress(OSError):
                os.chmod(self.path, 0o600)
            db.execute("PRAGMA foreign_keys = ON")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                db.executescript(f"BEGIN; {SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
            elif version == 1:
                db.executescript(f"BEGIN; {UPGRADE_1} PRAGMA user_version = 2; COMMIT;")
            elif version > SCHEMA_VERSION:
                raise ArchiveError(
                    f"the game archive {self.path} was made by a newer blitz-node "
                    f"(schema {version}): update blitz-node to read it"
                )
        except sqlite3.Error as error:
            db.close()
            raise self._explain(error) from None
        except ArchiveError:
            db.close()
            raise
        self._db = db
        return db

    def _explain(self, error: sqlite3.Error) -> ArchiveError:
        # SQLite's primary result code (the low byte of the extended one) says what it was.
        code = getattr(error, "sqlite_errorcode", -1) & 0xFF
        why = SQLITE_REASONS.get(code, str(error))
        return ArchiveError(f"cannot use the game archive {self.path}: {why}")

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    # -- keeping games ---------------------------------------------------------------------

    def keep(self, data: bytes, finished_at: str | None = None) -> int:
        """Check a game's file and keep it (once); its id in the archive."""
        try:
            checked = check_game_file(data)
        except GameFileError as error:
            raise UnfitGame(f"a finished game could not be kept: {error}") from None
        db = self._connect()
        found = checked.file
        try:
            with db:
                row = db.execute(
                    "SELECT id FROM games WHERE epoch = ? AND game = ?",
                    (found.epoch.hex(), found.game),
                ).fetchone()
                if row is not None:
                    return int(row[0])
                return self._insert(db, checked, data, finished_at or now_utc())
        except sqlite3.Error as error:
            raise self._explain(error) from None

    @staticmethod
    def _insert(db: sqlite3.Connection, checked: CheckedGame, data: bytes, when: str) -> int:
        game, found = checked.final, checked.file
        cursor = db.execute(
            "INSERT INTO games (epoch, game, finished_at, table_name, rounds, target,"
            " post_stacking, winner_seat, digest, file, rules)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                found.epoch.hex(),
                found.game,
                when,
                found.table,
                len(game.results),
                game.target,
                int(game.post_stacking),
                game.winner,
                found.digest.hex(),
                data,
                game.rules.tag,
            ),
        )
        game_id = int(cursor.lastrowid or 0)
        by_seat = game.by_seat()
        for seat in game.players:
            member = by_seat[seat]
            blitzes = sum(1 for result in game.results if result.blitz_by == seat)
            db.execute(
                "INSERT INTO players (game_id, seat, fingerprint, name, score, blitzes, won)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    seat,
                    checked.fingerprint(member.node),
                    member.name,
                    game.totals.get(seat, 0),
                    blitzes,
                    int(seat == game.winner),
                ),
            )
        return game_id

    def keep_finished(self, data: bytes, name: str) -> int:
        """Keep a game that has just ended: durable in ``archive-pending/`` first."""
        folder = self.root / PENDING
        try:
            folder.mkdir(exist_ok=True, mode=0o700)
        except OSError as error:
            raise ArchiveError(f"cannot create {folder}: {error.strerror or error}") from None
        pending = write_file(folder / f"{name}{PENDING_SUFFIX}", data)
        game_id = self.keep(data, now_utc())
        with contextlib.suppress(OSError):
            pending.unlink()
        return game_id

    def _pending_files(self) -> list[Path]:
        folder = self.root / PENDING
        try:
            return sorted(folder.glob(f"*{PENDING_SUFFIX}"))
        except OSError:
            return []

    def take_pending(self) -> list[str]:
        """Keep the games a crash or a full disk left pending; one line per problem."""
        found = self._pending_files()
        if not found:
            return []
        try:
            self._connect()
        except ArchiveError as error:
            return [f"{error} ({len(found)} finished game(s) wait in {self.root / PENDING})"]
        problems: list[str] = []
        for path in found:
            try:
                data = path.read_bytes()
                when = datetime.fromtimestamp(path.stat().st_mtime, UTC)
            except OSError as error:
                problems.append(f"cannot read {path}: {error.strerror or error}")
                continue
            try:
                self.keep(data, when.isoformat(timespec="seconds"))
            except UnfitGame as error:
                problems.append(f"{error} (set aside as {path.with_suffix('.damaged').name})")
                with contextlib.suppress(OSError):
                    path.rename(path.with_suffix(".damaged"))
                continue
            except ArchiveError as error:
                problems.append(str(error))
                continue
            with contextlib.suppress(OSError):
                path.unlink()
        return problems

    # -- reading ----------------------------------------------------------------------------

    def games(self) -> list[KeptGame]:
        """Every kept game, newest first."""
        if not self.path.exists():
            return []
        try:
            rows = self._connect().execute(GAMES_QUERY).fetchall()
        except sqlite3.Error as error:
            raise self._explain(error) from None
        return [KeptGame(r[0], r[1], r[2], r[4] or "", r[5] or "", r[3], r[6]) for r in rows]

    def stats(self) -> list[PlayerStats]:
        """Every player of the kept games, by key: most wins first."""
        if not self.path.exists():
            return []
        try:
            rows = self._connect().execute(STATS_QUERY).fetchall()
        except sqlite3.Error as error:
            raise self._explain(error) from None
        return [PlayerStats(r[0], r[1], r[2], r[3], float(r[4]), r[5]) for r in rows]

    def file_of(self, game_id: int | None = None) -> tuple[int, bytes] | None:
        """The file of game ``game_id`` (None: the latest), with its id; None if not kept."""
        if not self.path.exists():
            return None
        if game_id is None:
            query = "SELECT id, file FROM games ORDER BY finished_at DESC, id DESC LIMIT 1"
            arguments: tuple[int, ...] = ()
        else:
            query, arguments = "SELECT id, file FROM games WHERE id = ?", (game_id,)
        try:
            row = self._connect().execute(query, arguments).fetchone()
        except sqlite3.Error as error:
            raise self._explain(error) from None
        return None if row is None else (int(row[0]), bytes(row[1]))


def keep_games(node: Node) -> Archive | None:
    """Take in the games a crash left pending, and keep each game the node's seat sees end.

    A failure is one line in the node's log: the game's own log is never touched, and
    its file waits in ``archive-pending/`` for the next start.
    """
    seat, signer, root = node.main, node.signer, node.state_root
    if seat is None or signer is None or root is None:
        return None
    archive = Archive(root)
    for problem in archive.take_pending():
        log.warning("%s: %s", seat.label, problem)

    def keep() -> None:
        replica = seat.replica
        if replica is None or replica.ended is None:
            return
        try:
            name = f"{replica.me.epoch.hex()}-{replica.ended[2].game_number}"
            data = sealed_game(replica, signer)
            assert data is not None
            game_id = archive.keep_finished(data, name)
        except StoreError as error:
            log.error("%s: %s", seat.label, error)
            return
        except Exception as error:  # keeping a game must never stop the table that played it
            log.error(
                "%s: the game could not be kept: %s: %s", seat.label, type(error).__name__, error
            )
            return
        log.info("%s: game kept in the archive (blitz-node replay %d)", seat.label, game_id)

    seat.game_over_hooks.append(keep)
    return archive
