"""The game on the wire: the founding ADMIT names the table's game (P-233 to P-235), and
every node applying the log, a replica, a game file's check or a replay, plays that game."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.games import registry
from dutchblitz.protocol.replica.core import Identity, Replica, Settings
from dutchblitz.protocol.replica.effects import Persist
from dutchblitz.protocol.table.state import Game
from dutchblitz.protocol.wire.codec import decode
from dutchblitz.protocol.wire.messages import Admit, Event

from tests.games.highcard.rules import KNOCKING, RULES

A, B = bytes([1]) * 16, bytes([2]) * 16
registry.register(RULES)
registry.register(KNOCKING)


@pytest.mark.parametrize(
    ("game", "refusal", "plays"),
    [
        (None, None, "blitz"),  # Dutch Blitz's founding ADMIT names no game
        (RULES.tag, None, RULES.tag),
        (KNOCKING.tag, None, KNOCKING.tag),
        ("blitz", "bad_game", None),  # one encoding: Dutch Blitz is named by no tag
        ("chess", "unknown_game", None),
    ],
)
def test_the_founding_admit_names_the_tables_game(
    game: str | None, refusal: str | None, plays: str | None
) -> None:
    """P-234: the log's game, not the node's own, is the game of every round."""
    table = Game(rules=KNOCKING)  # the node's own game, as Settings.game would give it
    outcome = table.apply(A, Admit(A, 1, game))
    assert outcome.refusal == refusal
    if refusal is None:
        assert table.rules.tag == plays and A in table.members
    else:
        assert table.rules is KNOCKING and not table.members and table.refused == 1


def test_a_founding_admit_of_another_node_is_still_not_member_first() -> None:
    assert Game().apply(A, Admit(B, 1, "chess")).refusal == "not_member"


@pytest.mark.parametrize("game", ["blitz", RULES.tag])
def test_only_the_founding_admit_names_a_game(game: str) -> None:
    """P-235: any later ADMIT that names a game is refused, a returning member's too."""
    table = Game()
    table.apply(A, Admit(A, 1))
    assert table.apply(A, Admit(B, 1, game)).refusal == "bad_game"
    assert B not in table.members and table.rules.tag == "blitz"


@pytest.mark.parametrize(("tag", "named"), [("blitz", None), (RULES.tag, RULES.tag)])
def test_a_replica_founds_its_table_with_its_game_named(tag: str, named: str | None) -> None:
    """P-233, P-234: a founder's ADMIT names its game unless it is Dutch Blitz, so a Dutch
    Blitz log is what it always was."""
    replica = Replica(Identity(A, "kitchen", bytes(16)), 0.0, Settings(game=tag))
    effects = replica.found(0.0)
    admits = [decode(e.data).payload for e in effects if isinstance(e, Persist)]
    assert admits == [Event(Admit(A, 1, named))]
    assert replica.stable.rules.tag == tag
