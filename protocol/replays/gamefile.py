"""A finished game as one file: its table's signed events in their final order, sealed.

The file (spec/replay.md, G-1 to G-12) carries a table's log from its first event up to a
game's end, with the digest every node agreed on there (spec/protocol.md P-96) and the
players' keys, and the node that kept it seals the whole with its own signature. Reading
one (``check_game_file``) checks the seal, every event's signature and the digest, by
applying the events to the very ``Game`` a node runs. Nothing here reads a file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

import msgpack

from ..limits import DIGEST_SIZE, MAX_GAME_FILE, MAX_NAME, NODE_ID_SIZE
from ..replica.digest import chain_step, log_digest
from ..table.state import Game, Outcome, Phase
from ..wire.auth import AUTH_SIZE, PUBLIC_KEY_SIZE, Signer, check_auth, fingerprint, node_id_of
from ..wire.codec import ProtocolError, decode
from ..wire.messages import Body, Envelope, Event
from ..wire.signing import authentic

if TYPE_CHECKING:
    from ..replica.core import Replica

FORMAT = "dutchblitz-game"
VERSION = 1
SEAL_CONTEXT = b"DBGAME\x00\x01"  # what the seal signs comes after this: never an envelope


class Refusal(StrEnum):
    """Why a file is refused, as spec/vectors/gamefile.json names it (spec/replay.md section 4)."""

    TOO_LARGE = "too_large"  # G-6
    NOT_A_GAME_FILE = "not_a_game_file"  # G-1
    DAMAGED = "damaged"  # G-1, G-3
    NEWER = "newer"  # G-2
    SEAL = "seal"  # G-4
    KEY = "key"  # G-9
    EVENT_DAMAGED = "event_damaged"  # G-7
    OTHER_TABLE = "other_table"  # G-7
    SIGNATURE = "signature"  # G-8
    TWICE = "twice"  # G-13
    UNFINISHED = "unfinished"  # G-10, G-11
    DIGEST = "digest"  # G-12
    UNKNOWN_GAME = "unknown_game"  # G-14, G-15


class GameFileError(Exception):
    """The file cannot be replayed; the text is one line for the player, ``reason`` its kind."""

    def __init__(self, text: str, reason: Refusal) -> None:
        super().__init__(text)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class GameFile:
    """What a game file holds, read but not yet checked."""

    table: str
    epoch: bytes
    game: int  # the game's number at its table: 2 and on for a rematch
    digest: bytes  # the log digest after the last event (P-96)
    keys: tuple[tuple[bytes, bytes], ...]  # (node id, Ed25519 public key) of each sender
    events: tuple[bytes, ...]  # the EVENT messages of the log, in order, as received
    kept_by: bytes  # the node whose seal this is: a player, or one that watched (G-5)


@dataclass(frozen=True, slots=True)
class Entry:
    """One event of the log: who sent it, what it says, and what the game made of it."""

    sender: bytes
    body: Body
    outcome: Outcome
    lamport: int = 0  # its stamp in the order (P-296)


@dataclass(frozen=True, slots=True)
class CheckedGame:
    """A game file whose seal, signatures and digest all hold."""

    file: GameFile
    entries: tuple[Entry, ...]
    start: int  # the index of the START that began this game
    final: Game  # the game after the last event

    def fingerprint(self, node: bytes) -> str:
        key = dict(self.file.keys).get(node)
        return fingerprint(key) if key is not None else node.hex()[:16]


# -- writing -------------------------------------------------------------------------------


def make_game_file(
    table: str, epoch: bytes, game: int, digest: bytes, events: Sequence[bytes], signer: Signer
) -> bytes:
    """The sealed file of a game that ended after ``events`` with ``digest`` (G-1 to G-5)."""
    keys: dict[bytes, bytes] = {}
    for raw in events:
        envelope = decode(raw)
        keys.setdefault(envelope.sender, envelope.auth[:PUBLIC_KEY_SIZE])
    body = msgpack.packb(
        {
            "table": table,
            "epoch": epoch,
            "game": game,
            "digest": digest,
            "keys": [[node, key] for node, key in sorted(keys.items())],
            "events": list(events),
        },
        use_bin_type=True,
    )
    return msgpack.packb([FORMAT, VERSION, body, signer.auth(SEAL_CONTEXT + body)])  # type: ignore[no-any-return]


def sealed_game(replica: Replica, signer: Signer) -> bytes | None:
    """The file of the game that ended last at ``replica``'s table; None before an end."""
    ended = replica.ended
    if ended is None:
        return None
    length, digest, game = ended
    raws = replica.order.stable_raws
    events = [raws[(entry.sender, entry.seq)] for entry in replica.log[:length]]
    me = replica.me
    return make_game_file(me.table, me.epoch, game.game_number, digest, events, signer)


# -- reading -------------------------------------------------------------------------------

DAMAGED = "the file is truncated or damaged"


def read_game_file(data: bytes) -> GameFile:
    """The file's contents, its seal checked; ``GameFileError`` if anything is wrong."""
    if len(data) > MAX_GAME_FILE:
        raise GameFileError(
            f"the file is larger than a game file can be ({MAX_GAME_FILE} bytes)", Refusal.TOO_LARGE
        )
    body, seal = _sealed(_unpack(data))
    kept_by = node_id_of(seal[:PUBLIC_KEY_SIZE])
    if not check_auth(kept_by, SEAL_CONTEXT + body, seal):
        raise GameFileError(
            "the file's seal does not match its contents: it was changed", Refusal.SEAL
        )
    return _contents(_unpack(body), kept_by)


def _sealed(outer: Any) -> tuple[bytes, bytes]:
    """The body and the seal of a file's outer array: its format, a version this reads,
    then the two as bytes."""
    if not isinstance(outer, list) or not outer or outer[0] != FORMAT:
        raise GameFileError("not a Dutch Blitz game file", Refusal.NOT_A_GAME_FILE)
    if len(outer) < 2 or not isinstance(outer[1], int) or isinstance(outer[1], bool):
        raise GameFileError(DAMAGED, Refusal.DAMAGED)
    if outer[1] > VERSION:
        raise GameFileError(
            f"the file is of a newer format ({outer[1]}; this blitz-node reads {VERSION}): "
            "update blitz-node to replay it",
            Refusal.NEWER,
        )
    if outer[1] != VERSION or len(outer) != 4:
        raise GameFileError(DAMAGED, Refusal.DAMAGED)
    _, _, body, seal = outer
    if not isinstance(body, bytes) or not isinstance(seal, bytes) or len(seal) != AUTH_SIZE:
        raise GameFileError(DAMAGED, Refusal.DAMAGED)
    return body, seal


def _unpack(data: bytes) -> Any:
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=True)
    except (ValueError, TypeError, msgpack.UnpackException, RecursionError):
        raise GameFileError(DAMAGED, Refusal.DAMAGED) from None


def _contents(body: Any, kept_by: bytes) -> GameFile:
    try:
        table, epoch, game = body["table"], body["epoch"], body["game"]
        digest, keys, events = body["digest"], body["keys"], body["events"]
        pairs = tuple((bytes(node), bytes(key)) for node, key in keys)
        sound = _sound_game(table, epoch, game, digest) and _sound_log(events, pairs)
    except (KeyError, TypeError, ValueError):
        sound = False
    if not sound:
        raise GameFileError(DAMAGED, Refusal.DAMAGED)
    return GameFile(table, epoch, game, digest, pairs, tuple(events), kept_by)


def _sound_game(table: Any, epoch: Any, game: Any, digest: Any) -> bool:
    """The game the file names: its table's name, epoch, number and digest, each of its
    type and size."""
    return (
        isinstance(table, str)
        and 0 < len(table.encode()) <= MAX_NAME
        and isinstance(epoch, bytes)
        and len(epoch) == NODE_ID_SIZE
        and isinstance(game, int)
        and game >= 1
        and isinstance(digest, bytes)
        and len(digest) == DIGEST_SIZE
    )


def _sound_log(events: Any, pairs: tuple[tuple[bytes, bytes], ...]) -> bool:
    """The file's log: a list of events as bytes, and each player's node id and key."""
    return (
        isinstance(events, list)
        and all(isinstance(raw, bytes) for raw in events)
        and all(len(n) == NODE_ID_SIZE and len(k) == PUBLIC_KEY_SIZE for n, k in pairs)
    )


def check_game_file(data: bytes) -> CheckedGame:
    """Read a game file and check it whole (G-6 to G-12); ``GameFileError`` if it fails."""
    found = read_game_file(data)
    if any(node_id_of(key) != node for node, key in found.keys):
        raise GameFileError("a player's key in the file does not match the player", Refusal.KEY)
    game = Game()
    chain = b""
    held: set[tuple[bytes, int]] = set()
    entries: list[Entry] = []
    start: int | None = None
    for index, raw in enumerate(found.events):
        envelope = _signed_event(found, index, raw)
        if (envelope.sender, envelope.seq) in held:
            raise GameFileError(f"event {index + 1} of the file is there twice", Refusal.TWICE)
        held.add((envelope.sender, envelope.seq))
        assert isinstance(envelope.payload, Event)
        phase = game.phase
        outcome = game.apply(envelope.sender, envelope.payload.body, envelope.lamport)
        _check_known(outcome, envelope.payload.body)
        chain = chain_step(chain, envelope.sender, envelope.seq, raw)
        entries.append(Entry(envelope.sender, envelope.payload.body, outcome, envelope.lamport))
        began = phase in (Phase.LOBBY, Phase.OVER) and game.phase == Phase.DEALING
        if began and game.game_number == found.game:
            start = index
    ended = game.phase == Phase.OVER and game.audit_complete() and game.game_number == found.game
    if start is None or not ended:
        raise GameFileError(
            "the file does not hold a finished game: it is incomplete", Refusal.UNFINISHED
        )
    if log_digest(chain, game.public_form()) != found.digest:
        raise GameFileError(
            "the events do not give the game's digest: the file was changed", Refusal.DIGEST
        )
    return CheckedGame(found, tuple(entries), start, game)


def _check_known(outcome: Outcome, body: object) -> None:
    """G-14, G-15: a founding ADMIT (P-234), or a START in the lobby (P-241), that names
    a game unknown here refuses the file."""
    if outcome.refusal == "unknown_game":
        tag = getattr(body, "game", "")
        raise GameFileError(
            f"the file holds a game of {tag}, which this blitz-node does not know",
            Refusal.UNKNOWN_GAME,
        )


def _signed_event(found: GameFile, index: int, raw: bytes) -> Envelope:
    """Event ``index`` of the file, decoded, of its table, signed by its sender's key."""
    try:
        envelope = decode(raw)
    except ProtocolError:
        raise GameFileError(
            f"event {index + 1} of the file is damaged", Refusal.EVENT_DAMAGED
        ) from None
    if not isinstance(envelope.payload, Event) or envelope.table != found.table:
        raise GameFileError(
            f"event {index + 1} of the file is not an event of its table", Refusal.OTHER_TABLE
        )
    key = dict(found.keys).get(envelope.sender)
    if key != envelope.auth[:PUBLIC_KEY_SIZE] or not authentic(envelope.sender, raw, envelope.auth):
        raise GameFileError(
            f"event {index + 1} of the file fails its signature check", Refusal.SIGNATURE
        )
    return envelope
