"""The client's door (issue 18, item 8): the client imports the node's API and the
protocol's public types only, and what a screen is handed cannot change the game."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest
from dutchblitz.protocol.games.blitz.rules import visible_centre_plays
from dutchblitz.protocol.table.state import Game
from dutchblitz.protocol.views import game_view

from tests.client.fakes import playing_game

CLIENT = Path(__file__).resolve().parents[2] / "client"
FRAME = "dutchblitz.client"
GAMES = f"{FRAME}.games"
DOOR = {"dutchblitz.node.api", "dutchblitz.protocol.views"}
# Dutch's face reads a seat's view of a round, its cards, and the moves its keys make.
DUTCH = "dutchblitz.protocol.games.dutch"
DUTCH_DOOR = {f"{DUTCH}.views", f"{DUTCH}.cards", f"{DUTCH}.moves"}
# Blitz!'s face reads its views, the phases and modes of its state, and its moves.
FACEOFF = "dutchblitz.protocol.games.faceoff"
# What each folder of client/ may import from the node and the protocol. The frame (the
# top of client/: app, layout, keys, lobby, replay's frame...) sees the API and the
# public views; a game's face also sees its own game's public types, and no other game's.
FOLDERS = {
    ".": DOOR,
    "games": DOOR,
    # Dutch Blitz's face also names the intents its keys make (and the codes refusing them).
    "games/blitz": DOOR
    | {f"dutchblitz.protocol.games.blitz.{m}" for m in ("cards", "views", "intents")},
    "games/dutch": DOOR | DUTCH_DOOR,
    "games/faceoff": DOOR | {f"{FACEOFF}{m}" for m in ("", ".moves", ".state", ".views")},
}
# The files allowed more. The entry point starts a node (which owns the sockets): it alone
# reaches the command line. No other module of the frame reaches a game: the lobby's deck
# backs and each game's words come through its face (``GameFace.backs``, ``.words``). The
# demo's local table
# (games/dutch/local.py, and the demo that starts it) plays Dutch with no network: it alone
# runs the rules, the deal and the bots. Dutch's face at a real table (games/dutch/face.py)
# reads the node's snapshot and sends its moves through the session, like any face.
ENTRY = {
    "main.py": {"dutchblitz.node.cli.main"},
    "games/dutch/local.py": {f"{DUTCH}.{m}" for m in ("bots", "rules", "scoring", "state")},
    "games/dutch/demo.py": {f"{DUTCH}.bots", f"{DUTCH}.scoring"},
    # The faces' registry is the rules' own kind of registry by tag, one class for both.
    "games/registry.py": {"dutchblitz.protocol.games.tagged"},
}


def module_of(path: Path) -> str:
    parts = path.relative_to(CLIENT).with_suffix("").parts
    return ".".join((FRAME, *(p for p in parts if p != "__init__")))


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, relative imports made absolute ("from . import x"
    names the module x, "from .x import y" names x)."""
    package = module_of(path) if path.name == "__init__.py" else module_of(path).rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(filter(None, (base, node.module or "")))
            if node.module is None or module in ("dutchblitz.node", GAMES):  # packages
                names.update(f"{module}.{alias.name}" for alias in node.names)
            else:
                names.add(module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {name for name in names if name.startswith("dutchblitz.")}


def folder_of(name: str) -> str:
    """The folder of client/ that holds ``name``: ".", "games" or "games/<game>"."""
    parts = name.removeprefix(FRAME).strip(".").split(".")
    if parts[0] != "games" or len(parts) == 1 or not (CLIENT / "games" / parts[1]).is_dir():
        return "games" if parts[0] == "games" else "."
    return f"games/{parts[1]}"


CLIENT_FILES = sorted(CLIENT.rglob("*.py"))


@pytest.mark.parametrize("path", CLIENT_FILES, ids=lambda p: p.relative_to(CLIENT).as_posix())
def test_the_client_imports_the_node_api_and_public_types_only(path: Path) -> None:
    name = path.relative_to(CLIENT).as_posix()
    outside = {n for n in imported(path) if not n.startswith(FRAME)}
    assert outside <= FOLDERS[folder_of(module_of(path))] | ENTRY.get(name, set()), name


@pytest.mark.parametrize("path", CLIENT_FILES, ids=lambda p: p.relative_to(CLIENT).as_posix())
def test_a_face_is_reached_through_the_registry_only(path: Path) -> None:
    """The frame reaches a game's face only through games/registry.py; the registry
    imports each face's ``face`` module; a game's folder imports the frame and its own
    folder, never another game's."""
    here = folder_of(module_of(path))
    for name in (n for n in imported(path) if n.startswith(FRAME)):
        there = folder_of(name)
        if there in (".", here):
            continue
        if module_of(path) == f"{GAMES}.registry":
            assert name.endswith(".face"), name
        else:
            assert there == "games" and here == ".", (path.name, name)
            assert name in (GAMES, f"{GAMES}.registry", f"{GAMES}.DEFAULT_GAME"), name


def test_the_door_rules_see_every_folder() -> None:
    folders = {folder_of(module_of(path)) for path in CLIENT_FILES}
    assert folders == set(FOLDERS)
    assert imported(CLIENT / "layout.py") >= {f"{GAMES}.registry", f"{FRAME}.lobby"}
    assert f"{GAMES}.blitz.face" in imported(CLIENT / "games" / "registry.py")


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
