"""The structure figures (``python -m tests.structure``) may only get better.

Each figure over its limit today is listed here; anything else over a limit fails,
and so does an entry here that is no longer over (strike it off).
"""

from __future__ import annotations

import pytest

from tests import seat_calls, structure
from tests.seat_calls import Step
from tests.structure import (
    ALLOWED_CIRCLES,
    ALLOWED_COMPLEXITY,
    ALLOWED_GAME_IMPORTS,
    MAX_COMPLEXITY,
    MAX_METHODS,
    Import,
    complexity_per_function,
    game_imports,
    game_imports_in,
    game_of,
    import_circles,
    imports,
    imports_in,
    main,
    methods_per_class,
    over_limits,
)

# (figure, where) for every figure still over its limit; limits by concept.
STILL_OVER: set[tuple[str, str]] = set()


def _key(figure: str, where: str) -> tuple[str, str]:
    return (figure, where.split(":")[0]) if figure == "limit" else (figure, where)


def test_no_figure_gets_worse() -> None:
    over = {_key(o.figure, o.where) for o in over_limits()}
    assert over <= STILL_OVER, f"over a limit: {sorted(over - STILL_OVER)}"


def test_what_is_fixed_is_struck_off() -> None:
    over = {_key(o.figure, o.where) for o in over_limits()}
    assert over >= STILL_OVER, f"no longer over, strike off: {sorted(STILL_OVER - over)}"


def test_the_replica_is_split_by_concern() -> None:
    parts = ("core.py:Replica", "order.py:Order", "liveness.py:Liveness")
    parts += ("membership.py:Membership", "repair.py:Repairs", "senders.py:Senders")
    counts = dict(methods_per_class())
    for part in parts:
        assert counts[f"protocol/replica/{part}"] <= MAX_METHODS, part


def test_the_command_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    main([])
    out = capsys.readouterr().out
    assert "classes over 25 methods" in out and "limits defined more than once" in out
    assert "import circles" in out and "most complex" in out


def test_what_is_allowed_is_still_over() -> None:
    """An allowed function or circle that is no longer over is struck off the allow-list."""
    scores = dict(complexity_per_function())
    assert all(scores[where] > MAX_COMPLEXITY for where in ALLOWED_COMPLEXITY)
    circles = {tuple(circle) for circle in import_circles()}
    assert set(ALLOWED_CIRCLES) <= circles
    naming = {found.partition(":")[0] for found in game_imports()}
    assert set(ALLOWED_GAME_IMPORTS) <= naming, "names no game now: strike it off"


# -- games named outside their folders --------------------------------------------------

GAME_OF = [  # (module, the game whose folders hold it)
    ("dutchblitz.protocol.games.dutch.cards", "dutch"),
    ("dutchblitz.protocol.games.blitz", "blitz"),
    ("dutchblitz.client.games.faceoff.screens", "faceoff"),
    ("dutchblitz.protocol.games.registry", None),
    ("dutchblitz.client.games", None),
    ("dutchblitz.protocol.views", None),
    ("dutchblitz.node.tv.public", None),
]


@pytest.mark.parametrize(("module", "game"), GAME_OF)
def test_a_module_is_in_the_folders_of_at_most_one_game(module: str, game: str | None) -> None:
    assert game_of(module) == game


G = "dutchblitz.protocol.games"
KNOWN_GAMES = {f"{G}.blitz.cards", f"{G}.dutch.views", f"{G}.registry", "dutchblitz.protocol.views"}
REGISTRIES = {f"{G}.registry": {"BLITZ", "DUTCH"}}
NAMING = [  # (module, its text, the game imports the guard finds: (line, what))
    ("dutchblitz.node.tv.public", f"from {G}.blitz.cards import Card", [(1, f"{G}.blitz.cards")]),
    ("dutchblitz.protocol.views", "from .games.blitz import cards", [(1, f"{G}.blitz.cards")]),
    (
        "dutchblitz.client.state",
        f"from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from {G}.dutch.views import X",
        [(3, f"{G}.dutch.views")],
    ),  # naming a game's type is knowing it
    ("dutchblitz.node.api", f"from {G}.registry import BLITZ", [(1, f"{G}.registry.BLITZ")]),
    ("dutchblitz.node.api", f"from {G}.registry import game_for", []),
    ("dutchblitz.client.games.dutch.face", f"from {G}.dutch.views import X", []),  # its own
    (
        "dutchblitz.protocol.games.dutch.game",
        f"from {G}.blitz.cards import X",
        [(1, f"{G}.blitz.cards")],
    ),
    ("dutchblitz.node.tv.public", "from dutchblitz.protocol.views import GameView", []),
]


@pytest.mark.parametrize(("module", "text", "found"), NAMING)
def test_the_guard_finds_a_game_named_outside_its_folders(
    module: str, text: str, found: list[tuple[int, str]]
) -> None:
    assert game_imports_in(module, text, KNOWN_GAMES, REGISTRIES) == found


# What the table's API or the client's frame may not name: a game's key intents and moves,
# and its refusal codes (``game_codes_named``); the table's own codes it may.
CODES = [
    ('class Action(StrEnum):\n    FLIP = "flip"', [(2, "FLIP (blitz Action.FLIP)")]),
    ('x = "blitz_to_centre"', [(1, "blitz_to_centre (blitz Action.BLITZ_TO_CENTRE)")]),
    ("Why.PILE_TAKEN", [(1, "PILE_TAKEN (blitz Reason.PILE_TAKEN)")]),
    ('Refused.of("pile_taken")', [(1, "pile_taken (blitz Reason.PILE_TAKEN)")]),
    ("KeyRefusal.CAN_PLAY", [(1, "CAN_PLAY (blitz KeyRefusal.CAN_PLAY)")]),
    ('x = "not_your_turn"', [(1, "not_your_turn (dutch Reason.NOT_YOUR_TURN)")]),
    ("Why.ROUND_OVER, Why.NOT_ACTIVE, NoticeKind.GAME_OVER", []),  # the table's own
    ('STYLE = {"pending": "italic"}', []),  # one word: a style's name, no code
    ('"""the key says stuck"""', []),
]


@pytest.mark.parametrize(("text", "found"), CODES)
def test_the_guard_finds_a_game_code_named(text: str, found: list[tuple[int, str]]) -> None:
    assert structure.game_codes_in(text, structure.game_codes()) == found


def test_the_table_api_and_the_frame_name_no_game_code() -> None:
    """node/api.py and client/ outside client/games/ name no game's move, key intent or
    refusal code: a game's moves are its own types, and its codes come as
    ``Why.OTHER`` with ``Refused.game_code``, worded by its face."""
    assert structure.game_codes_named() == []


def test_no_module_names_a_game_outside_its_folders() -> None:
    """The registries are the one place that lists the games: every other module of
    protocol/, node/ and client/ outside a game's folders knows a game only through the
    interfaces (``TableGame``, ``GameFace``), but those still on the allow-list."""
    every = game_imports()
    assert [f for f in every if f.partition(":")[0] not in ALLOWED_GAME_IMPORTS] == []
    assert not any(f.startswith(("node/", "protocol/wire/", "protocol/views.py")) for f in every)


KNOWN = {"p", "p.a", "p.b", "p.c", "p.t", "p.t.d"}
IMPORTS = [  # (module, is a package, its text, the imports found: (target, in a function))
    ("p.a", False, "from .b import x", {("p.b", False)}),
    ("p.a", False, "from . import b, y", {("p.b", False), ("p", False)}),
    ("p.t.d", False, "from ..c import z\nimport p.b", {("p.c", False), ("p.b", False)}),
    ("p.t", True, "from .d import z", {("p.t.d", False)}),
    ("p.a", False, "def f():\n    from .b import x", {("p.b", True)}),
    ("p.a", False, "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import p.b", set()),
    ("p.a", False, "import typing\nif typing.TYPE_CHECKING:\n    import p.b\nelse:\n    import p.c",
     {("p.c", False)}),
    ("p.a", False, "import os\nfrom collections import abc", set()),
]  # fmt: skip


@pytest.mark.parametrize(("source", "package", "text", "expected"), IMPORTS)
def test_imports_are_resolved_and_type_only_ones_left_out(
    source: str, package: bool, text: str, expected: set[tuple[str, bool]]
) -> None:
    found = {(i.target, i.in_function) for i in imports_in(source, text, KNOWN, package)}
    assert found == expected


def _edges(*pairs: str) -> list[Import]:
    return [Import(a, b, 1, False) for pair in pairs for a, b in [pair.split(">")]]


CIRCLES = [  # edges as "from>to", the circles expected
    (_edges("a>b", "b>c"), []),
    (_edges("a>b", "b>a"), [["a", "b"]]),
    (_edges("a>b", "b>c", "c>a", "c>d", "d>e", "e>d"), [["a", "b", "c"], ["d", "e"]]),
    (_edges("a>a"), []),
]


@pytest.mark.parametrize(("edges", "expected"), CIRCLES)
def test_circles_are_the_strongly_connected_components(
    edges: list[Import], expected: list[list[str]]
) -> None:
    assert import_circles(edges) == expected


def test_the_shipping_modules_import_in_no_circle() -> None:
    """Type-only imports aside, no module of protocol/, node/ or client/ imports itself
    back round a circle: the core's parts, the table and the games load in one order."""
    circles = [c for c in import_circles() if tuple(c) not in ALLOWED_CIRCLES]
    assert circles == []
    assert any(edge.source == "dutchblitz.protocol.replica.core" for edge in imports())


@pytest.mark.parametrize(
    ("kind", "messages", "calls", "over"),
    [
        ("receive", 1, 2, False),  # SeatMachine.receive, then the batch's acknowledge
        ("receive", 4, 12, False),  # a batch of four messages is four inputs
        ("receive", 1, 4, True),
        ("tick", 0, 3, False),
        ("tick", 0, 4, True),
        ("action", 0, 1, False),
    ],
)
def test_a_step_over_three_calls_per_input_is_over(
    kind: str, messages: int, calls: int, over: bool
) -> None:
    step = Step(kind, messages)
    step.calls["node.seat.local._run -> receive"] = calls
    assert bool(seat_calls.over([step])) is over


@pytest.mark.timeout(120)
def test_the_seat_makes_at_most_3_calls_into_protocol_per_input() -> None:
    """A real seat's received message, tick, duties and a person's action each make at
    most 3 calls from node/ into protocol/ (``python -m tests.structure --calls``)."""
    steps = seat_calls.count()
    assert seat_calls._seen(steps), seat_calls.report(steps)
    assert any(step.kind == "action" and step.count for step in steps), seat_calls.report(steps)
    assert not seat_calls.over(steps), seat_calls.report(steps)
