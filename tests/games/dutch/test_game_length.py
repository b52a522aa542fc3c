"""A game of Dutch played for a number of rounds chosen at its START (spec/dutch.md D-37,
D-38; spec/protocol.md P-237, P-238), and a table whose game offers none refusing it."""

from __future__ import annotations

from dutchblitz.protocol.games.registry import DEFAULT_GAME, game_for
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.wire.messages import Admit, Ready, Start

from tests.games.dutch.tablerig import Rig


def test_p238_d37_a_game_for_two_rounds_ends_after_two_whatever_the_target() -> None:
    """P-238, D-37, D-38, D-39: a target of 1 ends nothing; the lowest total wins."""
    rig = Rig(seed=31, target=1, rounds=2)
    game = rig.play()
    assert game.phase == Phase.OVER and game.rounds == 2
    assert [r.round for r in game.results] == [1, 2]
    lowest = min(game.totals.values())
    assert game.winner == min(s for s, total in game.totals.items() if total == lowest)
    assert ["rounds", 2] in game.public_form()


def test_p237_a_table_whose_game_offers_no_rounds_refuses_them() -> None:
    """P-237: Dutch Blitz's table refuses a START with rounds `bad_rounds`; without, it starts."""
    game = Game(rules=game_for(DEFAULT_GAME))
    nodes = [bytes([n]) * 16 for n in (1, 2)]
    game.apply(nodes[0], Admit(nodes[0], 1))
    game.apply(nodes[0], Admit(nodes[1], 1))
    for node in nodes:
        game.apply(node, Ready(True))
    assert game.apply(nodes[0], Start(75, True, 3)).refusal == "bad_rounds"
    assert game.apply(nodes[0], Start(75, True)).accepted and game.rounds is None


def test_p237_a_rematch_repeats_the_rounds() -> None:
    """P-237: a rematch's START with other rounds is not the same table's."""
    rig = Rig(seed=32, target=1, rounds=1)
    game = rig.play()
    assert game.phase == Phase.OVER and len(game.results) == 1
    while not game.audit_complete():
        assert rig.step() or game.audit_complete()
    for node in rig.nodes:
        game.apply(node, Ready(True))
    assert game.apply(rig.nodes[0], Start(1, True, 2)).refusal == "not_same_table"
    assert game.apply(rig.nodes[0], Start(1, True, 1)).accepted
