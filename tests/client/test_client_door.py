"""The client's door (issue 18, item 8): the client imports the node's API and the
protocol's public types only, and what a screen is handed cannot change the game."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest
from dutchblitz.protocol.games.blitz.rules import visible_centre_plays
from dutchblitz.protocol.table.game import Game
from dutchblitz.protocol.views import game_view

from tests.client.fakes import playing_game

CLIENT = Path(__file__).resolve().parents[2] / "client"
DOOR = {"dutchblitz.node.api", "dutchblitz.protocol.views", "dutchblitz.protocol.games.blitz.cards"}
# Dutch's face reads a seat's view of a round, its cards, and the moves its keys make.
DUTCH = "dutchblitz.protocol.games.dutch"
DUTCH_DOOR = {f"{DUTCH}.views", f"{DUTCH}.cards", f"{DUTCH}.moves"}
# The entry point starts a node (which owns the sockets): it alone reaches the command line.
# Until the node carries Dutch, the local table (games/dutch/local.py, and the demo that
# starts it) stands in for the node: it alone runs the rules, the deal and the bots.
ENTRY = {
    "main.py": {"dutchblitz.node.cli"},
    "games/dutch/local.py": {f"{DUTCH}.{m}" for m in ("bots", "rules", "scoring", "state")},
    "games/dutch/demo.py": {f"{DUTCH}.bots", f"{DUTCH}.scoring"},
}


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "dutchblitz.node":  # "from dutchblitz.node import cli"
                names.update(f"dutchblitz.node.{alias.name}" for alias in node.names)
            else:
                names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {name for name in names if name.startswith("dutchblitz.")}


@pytest.mark.parametrize(
    "path", sorted(CLIENT.rglob("*.py")), ids=lambda p: p.relative_to(CLIENT).as_posix()
)
def test_the_client_imports_the_node_api_and_public_types_only(path: Path) -> None:
    name = path.relative_to(CLIENT).as_posix()
    allowed = DOOR | DUTCH_DOOR | ENTRY.get(name, set())
    assert imported(path) <= allowed, name


def test_the_dutch_screens_see_one_seat_s_view_only() -> None:
    """The screens and keys never reach the round itself; only the local table does."""
    for path in (CLIENT / "games" / "dutch").glob("*.py"):
        if path.name not in ("local.py", "demo.py"):
            assert imported(path) & {f"{DUTCH}.state", f"{DUTCH}.rules"} == set(), path.name


def test_a_view_cannot_change_the_game() -> None:
    game = playing_game(2).game
    view = game_view(game)
    table = view.table
    assert table is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.phase = view.phase  # type: ignore[misc]
    with pytest.raises(TypeError):
        table.areas[0] = table.areas[1]  # type: ignore[index]
    with pytest.raises(TypeError):
        view.totals[0] = 5  # type: ignore[index]
    area = table.areas[0]
    assert isinstance(area.blitz, tuple) and isinstance(area.post[0], tuple)
    assert area.hand == len(game.table.areas[0].hand)  # type: ignore[union-attr]


def test_a_view_counts_rounds_as_players_do_and_sees_the_centre_plays() -> None:
    game = playing_game(3).game
    game.rounds_before = game.round - 1  # as in a rematch: this game's first round
    view = game_view(game)
    assert view.round == 1 and view.game_number == game.game_number
    table, raw = view.table, game.table
    assert table is not None and raw is not None
    for seat, area in table.areas.items():
        tops = [(p.source, p.slot, p.card) for p in area.centre_plays]
        assert tops == visible_centre_plays(raw, seat)
    assert set(table.live) == set(raw.seats)
    assert game_view(Game()).table is None
