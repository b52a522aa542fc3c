"""A START that names the game the table plays from then on (spec/protocol.md P-241), and
what it leaves alone: a refused START, a rematch, the deal's grace START."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.games.blitz.state import Table as BlitzTable
from dutchblitz.protocol.games.dutch.table import DutchTable
from dutchblitz.protocol.games.registry import game_for
from dutchblitz.protocol.seat.deal_duties import deal_duties
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.wire.messages import Admit, GameBody, Ready, Start, Suspect

from tests.games.dutch.tablerig import Rig

NODES = [bytes([n]) * 16 for n in range(1, 5)]
DUTCH_GAME_ID = game_for("dutch").game_id
BLITZ_GAME_ID = game_for("blitz").game_id


def lobby(founded: str | None, players: int, ready: int | None = None) -> Game:
    """A table founded for ``founded`` (None: Dutch Blitz) with ``players`` members, the
    first ``ready`` of them ready (all, if None)."""
    game = Game()
    first = NODES[0]
    assert game.apply(first, Admit(first, 1, founded)).accepted
    for node in NODES[1:players]:
        assert game.apply(first, Admit(node, 1)).accepted
    for node in NODES[: players if ready is None else ready]:
        game.apply(node, Ready(True))
    return game


@pytest.mark.parametrize(
    ("founded", "players", "ready", "start", "refusal"),
    [
        # The game's own checks come first, ready or not (P-241).
        pytest.param(None, 3, 0, Start(75, True, None, "blitz"), "bad_game", id="own game"),
        pytest.param("dutch", 3, 0, Start(75, True, None, "dutch"), "bad_game", id="own dutch"),
        pytest.param(None, 3, 0, Start(75, True, None, "chess"), "unknown_game", id="unknown"),
        # Then P-170's, by the named game's rules.
        pytest.param(None, 3, 2, Start(75, True, None, "dutch"), "not_all_ready", id="not ready"),
        pytest.param(None, 2, None, Start(75, True, None, "dutch"), "bad_backs", id="dutch of 2"),
        pytest.param(None, 3, None, Start(0, True, None, "dutch"), "bad_target", id="target 0"),
        pytest.param("dutch", 3, None, Start(75, True, 3, "blitz"), "bad_rounds", id="rounds"),
    ],
)
def test_p241_a_start_naming_a_game_is_refused_in_order_and_changes_nothing(
    founded: str | None, players: int, ready: int | None, start: Start, refusal: str
) -> None:
    game = lobby(founded, players, ready)
    rules, before = game.rules, game.public_form()
    outcome = game.apply(NODES[0], start)
    assert outcome.refusal == refusal
    assert game.rules is rules and game.phase == Phase.LOBBY and game.players == ()
    game.refused -= 1  # counted; nothing else is changed
    assert game.public_form() == before


@pytest.mark.parametrize(
    ("founded", "players", "start", "plays"),
    [
        pytest.param(None, 3, Start(75, True, None, "dutch"), "dutch", id="blitz to dutch"),
        pytest.param(None, 3, Start(75, True, 2, "dutch"), "dutch", id="with dutch's rounds"),
        pytest.param("dutch", 2, Start(75, True, None, "blitz"), "blitz", id="dutch to blitz"),
        pytest.param(None, 2, Start(75, True), "blitz", id="none keeps blitz"),
        pytest.param("dutch", 3, Start(75, True, 2), "dutch", id="none keeps dutch"),
    ],
)
def test_p241_an_accepted_start_makes_the_named_game_the_tables(
    founded: str | None, players: int, start: Start, plays: str
) -> None:
    """Its players and rounds by the named game's rules (P-170, P-237 with P-241)."""
    game = lobby(founded, players)
    assert game.apply(NODES[0], start).accepted
    assert game.rules is game_for(plays) and game.phase == Phase.DEALING
    assert game.rounds == start.rounds and game.players == tuple(range(players))


def _deal(rig: Rig) -> None:
    """Every seat's deal duties until the round is dealt, whatever the game."""
    for _ in range(20):
        if rig.game.phase == Phase.PLAYING:
            return
        for seat, node in enumerate(rig.nodes):
            for body in deal_duties(rig.game, node, [], rig.kept[seat], rig._fresh(seat)):
                rig.apply(node, body)
    raise AssertionError("the round was never dealt")


def test_p241_a_dutch_table_started_as_dutch_blitz_deals_dutch_blitz() -> None:
    """The round after the START is the named game's: its deal, and GAME bodies of the game
    the table was founded for are now another game's (P-230's `wrong_game`)."""
    rig = Rig(players=3, seed=41, founded="dutch", named="blitz")
    assert rig.game.rules is game_for("blitz")
    _deal(rig)
    assert isinstance(rig.game.table, BlitzTable)
    outcome = rig.game.apply(rig.nodes[1], GameBody(DUTCH_GAME_ID, b"\x93\x0b\x01\x00"))
    assert outcome.refusal == "wrong_game"


def test_p241_a_dutch_blitz_table_started_as_dutch_deals_dutch() -> None:
    rig = Rig(players=3, seed=42, founded=None, named="dutch")
    assert rig.game.rules is game_for("dutch")
    _deal(rig)
    assert isinstance(rig.game.table, DutchTable)
    outcome = rig.game.apply(rig.nodes[1], GameBody(BLITZ_GAME_ID, b"\x93\x0b\x01\x00"))
    assert outcome.refusal == "wrong_game"


def test_p241_a_whole_game_of_dutch_at_a_table_founded_for_dutch_blitz() -> None:
    """Played by bots to its end; every node that applies the log, whatever its own game,
    comes to the same game (P-234, P-241)."""
    rig = Rig(players=4, seed=43, founded=None, named="dutch", target=10)
    game = rig.play()
    assert game.phase == Phase.OVER and game.rules is game_for("dutch") and game.results
    assert {body.game for _seat, body in rig.bodies} == {DUTCH_GAME_ID}
    for own in ("blitz", "dutch"):
        other = Game(rules=game_for(own))
        for node, body in rig.log:
            other.apply(node, body)
        assert other.rules is game.rules and other.public_form() == game.public_form()
    copied = game.copy()
    assert copied.rules is game.rules and copied.public_form() == game.public_form()


@pytest.mark.parametrize("named", ["dutch", "blitz", "chess"])
def test_p241_a_rematch_naming_a_game_is_not_the_same_table(named: str) -> None:
    """A rematch plays the same game again, the one its START named (P-237's rule for rounds
    is its counterpart); naming any game is `not_same_table`."""
    rig = Rig(players=3, seed=44, founded=None, named="dutch", target=1, rounds=1)
    game = rig.play()
    assert game.phase == Phase.OVER
    while not game.audit_complete():
        assert rig.step() or game.audit_complete()
    for node in rig.nodes:
        game.apply(node, Ready(True))
    assert game.apply(rig.nodes[0], Start(1, True, 1, named)).refusal == "not_same_table"
    assert game.apply(rig.nodes[0], Start(1, True, 1)).accepted
    assert game.rules is game_for("dutch") and game.game_number == 2


def test_p241_the_deals_grace_start_names_no_game() -> None:
    """A START while dealing repeats the game's options and names no game (R-57)."""
    game = lobby(None, 4)
    assert game.apply(NODES[0], Start(75, True, None, "dutch")).accepted
    assert game.apply(NODES[0], Suspect(NODES[3], 0)).accepted  # seat 3 is away
    assert game.away == {3}
    for named in ("dutch", "blitz"):
        refused = game.apply(NODES[0], Start(75, True, None, named))
        assert refused.refusal == "not_this_game"
    assert game.away == {3}
    assert game.apply(NODES[0], Start(75, True)).accepted and not game.away
