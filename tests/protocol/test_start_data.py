"""A START carries the digest of its game's data (spec/protocol.md P-291 to P-294): present
only for a game with data (Blitz!'s pack, spec/faceoff.md F-33), so Dutch Blitz's and Dutch's
STARTs are byte for byte as before; the table decides nothing on it; each node compares it
with its own."""

from __future__ import annotations

import hashlib
import json
from importlib import resources

import pytest
from dutchblitz.protocol.games.registry import game_for
from dutchblitz.protocol.seat.deal_duties import Grace, grace_duty, repeated_start
from dutchblitz.protocol.seat.duties import Wishes, our_start
from dutchblitz.protocol.table.lobby import other_data
from dutchblitz.protocol.table.rules import AnyGame
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.wire.codec import decode, encode
from dutchblitz.protocol.wire.messages import Admit, Envelope, Event, Ready, Start

from tests.games.highcard.rules import RULES as HIGH_CARD

ANN, BOB, CY = bytes(range(16)), bytes(range(16, 32)), bytes(range(32, 48))
OTHER = b"\xee" * 32  # data no node of this version holds


def _faceoff_data() -> bytes:
    """F-33 worked from the pack file alone: SHA-256 of its canonical JSON."""
    raw = resources.files("dutchblitz.protocol.games.faceoff").joinpath("packs/en.json")
    value = json.loads(raw.read_text("utf-8"))
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).digest()


# (game, the data its START carries: P-292)
GAMES: list[tuple[AnyGame, bytes | None]] = [
    (game_for("blitz"), None),
    (game_for("dutch"), None),
    (HIGH_CARD, None),
    (game_for("faceoff"), _faceoff_data()),
]


def _lobby(rules: AnyGame, players: int = 3) -> Game:
    """A table of ``rules`` in its lobby, every member ready."""
    game = Game(rules=rules)
    nodes = (ANN, BOB, CY)[:players]
    game.apply(ANN, Admit(ANN, 1, None if rules.tag == "blitz" else rules.tag))
    for node in nodes[1:]:
        game.apply(ANN, Admit(node, 1))
    for node in nodes:
        game.apply(node, Ready(True))
    return game


@pytest.mark.parametrize(("rules", "data"), GAMES, ids=[g.tag for g, _ in GAMES])
def test_p292_a_game_names_its_data_and_every_start_of_it_carries_it(
    rules: AnyGame, data: bytes | None
) -> None:
    """P-292: the lobby's START, a rematch's and one that deals on without those away carry
    the game's data digest, and only a game with data has one."""
    assert rules.data_digest() == data
    lobby = _lobby(rules)
    start = our_start(Wishes("Ann", target=75), lobby)
    assert start.data == data and start.game is None
    assert repeated_start(lobby).data == data


def test_p292_a_start_naming_a_game_carries_that_game_s_data() -> None:
    """P-292: a START that names another game (P-241) carries the named game's data."""
    lobby = _lobby(game_for("blitz"))
    start = our_start(Wishes("Ann", game="faceoff"), lobby)
    assert (start.game, start.data) == ("faceoff", _faceoff_data())
    start = our_start(Wishes("Ann", game="dutch"), _lobby(game_for("faceoff")))
    assert (start.game, start.data) == ("dutch", None)


# P-292: a START of a game with no data is byte for byte as before the field: these are the
# codec vectors' bytes of P-46, P-237 and P-240, written before it.
BEFORE = [
    (Start(75, True), "93044bc3"),
    (Start(75, True, 5), "94044bc305"),
    (Start(75, True, None, "dutch"), "95044bc3c0a56475746368"),
    (Start(75, True, 5, "dutch"), "95044bc305a56475746368"),
]


@pytest.mark.parametrize(("start", "body"), BEFORE, ids=[b for _, b in BEFORE])
def test_p292_a_start_without_data_is_encoded_as_before(start: Start, body: str) -> None:
    wire = encode(Envelope("kitchen", ANN, 12, 4, Event(start)))
    assert bytes.fromhex(body) in wire
    assert decode(wire).payload == Event(start)


def test_p291_a_start_with_data_has_one_encoding() -> None:
    """P-291: nil for an absent game and rounds before the data, and the data last."""
    data = _faceoff_data()
    for start in (
        Start(1, True, 1, None, data),
        Start(75, False, None, None, data),
        Start(75, True, None, "faceoff", data),
    ):
        wire = encode(Envelope("kitchen", ANN, 12, 4, Event(start)))
        assert decode(wire).payload == Event(start)
        assert encode(decode(wire)) == wire


@pytest.mark.parametrize("data", [None, OTHER, _faceoff_data()], ids=["none", "other", "ours"])
@pytest.mark.parametrize("tag", ["blitz", "faceoff"])
def test_p293_the_table_decides_nothing_on_a_start_s_data(tag: str, data: bytes | None) -> None:
    """P-293: whatever data a START names, every node accepts it alike and its game and
    public state are the same as with the START of its own data."""
    rules = game_for(tag)
    played = _lobby(rules)
    played.apply(ANN, Start(1, True, 1 if rules.rounds_option else None, None, data))
    mine = _lobby(rules)
    mine.apply(ANN, Start(1, True, 1 if rules.rounds_option else None, None, rules.data_digest()))
    assert played.phase == mine.phase == Phase.DEALING
    assert played.public_form() == mine.public_form()


# (game, the START's data, what this node is told: the START's data and its own, or None)
COMPARED = [
    ("faceoff", _faceoff_data(), None),
    ("faceoff", OTHER, (OTHER, _faceoff_data())),
    ("faceoff", None, (None, _faceoff_data())),
    ("blitz", None, None),
    ("dutch", OTHER, (OTHER, None)),
]


@pytest.mark.parametrize(("tag", "data", "told"), COMPARED)
def test_p294_a_node_compares_a_start_s_data_with_its_own(
    tag: str, data: bytes | None, told: tuple[bytes | None, bytes | None] | None
) -> None:
    """P-294: the START's data and this node's own for its game differ, an absent one from a
    present one too; the same data, or none at all, does not."""
    assert other_data(game_for(tag), Start(75, True, None, None, data)) == told


def test_p292_a_grace_start_carries_the_data_too() -> None:
    """P-292: the START that deals on without a player away (R-57) is a START of the game."""
    game = _lobby(game_for("faceoff"))
    game.apply(ANN, Start(1, True, 1, None, _faceoff_data()))
    game.away = {2}
    start = grace_duty(game, ANN, [], lambda node: 1e9, Grace(0.0))
    assert start is not None and start.data == _faceoff_data()
