"""The TV view in a real browser: Debian's Chromium, headless, driven by Playwright.

Two bot nodes play on 127.0.0.1; one serves the page (``--web``). The page shows both
players and the centre piles changing as the bots play, and every frame the page was sent
holds cards only in their public places. Three bot nodes play Dutch: the page shows
Dutch's own title and its public table (each row of cards, the draw and discard piles).
Three play Blitz!: the page shows its title, each top card and the face-off as the headline.
A node that restarts is found again by the page on its own. Skips only where
/usr/bin/chromium is absent.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.lan.nodes import BlitzNode, free_ports, loopback_args, stop_all

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(
        "the browser test needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")

pytestmark = [pytest.mark.lan, pytest.mark.timeout(240)]

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
WAIT_MS = 90_000
BYPASS = True  # the page forbids eval (its CSP); the test's own probes evaluate strings
URL_LINE = re.compile(r"TV view at (http://127\.0\.0\.1:\d+/)")
# Every frame the page takes in, kept for the test (the page itself keeps none).
RECORD_FRAMES = """
window.tvFrames = [];
const Plain = window.EventSource;
window.EventSource = class extends Plain {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (message) => window.tvFrames.push(message.data));
  }
};
"""


@pytest.fixture
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


def tv_url(node: BlitzNode) -> str:
    node.wait_for_line(lambda lines: any(URL_LINE.search(line) for line in lines), "TV line")
    found = next(URL_LINE.search(line) for line in node.lines if URL_LINE.search(line))
    assert found is not None
    return found.group(1)


def cards_in(value: Any) -> int:
    if isinstance(value, dict):
        return ("label" in value) + sum(cards_in(v) for v in value.values())
    if isinstance(value, list):
        return sum(cards_in(v) for v in value)
    return 0


def public_places(frame: dict[str, Any], keys: set[str]) -> int:
    """The face-up cards a frame may hold: the tops, each in its place; ``keys`` are the
    places every player's area has, the game's own."""
    places = [pile["top"] for group in frame.get("centre", []) for pile in group["piles"]]
    for player in frame.get("players", []):
        area = player["area"]
        if area is not None:
            assert set(area) == {"status", "places"}
            assert keys <= {place["key"] for place in area["places"]}
            for place in area["places"]:
                places += [item["top"] for item in place.get("row", [place])]
                assert isinstance(place["count"] if "count" in place else place["row"], int | list)
    return sum(top is not None for top in places)


def centre_cards(page: Any) -> list[str]:
    return page.eval_on_selector_all(  # type: ignore[no-any-return]
        "#centre .card[data-card]", "cards => cards.map(card => card.dataset.card)"
    )


def bot_table(
    root: Path,
    prefix: str,
    extra: tuple[str, ...],
    level: str,
    entry: str | None = None,
    players: int = 3,
) -> list[BlitzNode]:
    """``players`` bot nodes of one game on 127.0.0.1, the first serving the TV page; each
    runs ``entry`` (a module run with ``-m``, as a game from outside the package registers
    itself and runs the node's main: ``tests.games.wordtoy.node``), else blitz-node."""
    ports = free_ports(players)
    return [
        BlitzNode(
            f"{prefix}{i}",
            root / f"{prefix}{i}",
            loopback_args(i, ports, players, *extra, *(("--web", "0") if i == 0 else ())),
            role=("--join", "--bot", "--bot-level", level),
            entry=entry,
        )
        for i in range(players)
    ]


def open_page(browser: Any, url: str, errors: list[str]) -> Any:
    """The TV page in a new tab, keeping every frame it takes in and every script error."""
    page = browser.new_page(viewport={"width": 1600, "height": 900}, bypass_csp=BYPASS)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(RECORD_FRAMES)
    page.goto(url)
    return page


def test_the_page_shows_the_players_and_the_centre_as_bots_play(
    tmp_path: Path, browser: Any
) -> None:
    ports = free_ports(2)
    slow = ("--bot-level", "normal", "--target", "500")  # a long game: the test ends it
    nodes = [
        BlitzNode("ada", tmp_path / "ada", loopback_args(0, ports, 2, *slow, "--web", "0")),
        BlitzNode("bob", tmp_path / "bob", loopback_args(1, ports, 2, *slow)),
    ]
    try:
        url = tv_url(nodes[0])
        page = browser.new_page(viewport={"width": 1600, "height": 900}, bypass_csp=BYPASS)
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url))
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.add_init_script(RECORD_FRAMES)
        page.goto(url)
        page.wait_for_function("document.querySelectorAll('.player').length === 2", timeout=WAIT_MS)
        names = page.eval_on_selector_all(".player .name", "els => els.map(e => e.textContent)")
        assert sorted(names) == ["ada", "bob"]
        page.wait_for_selector("#centre .card[data-card]", timeout=WAIT_MS)
        first = centre_cards(page)
        page.wait_for_function(
            "(first) => JSON.stringify([...document.querySelectorAll('#centre .card[data-card]')]"
            ".map(card => card.dataset.card)) !== JSON.stringify(first)",
            arg=first,
            timeout=WAIT_MS,
        )
        assert centre_cards(page) != first
        assert page.text_content("#link") == "live"
        shot = tmp_path / "tv.png"
        page.screenshot(path=str(shot))
        assert shot.stat().st_size > 10_000
        print(f"the TV view: {shot}")
        frames = [json.loads(data) for data in page.evaluate("window.tvFrames")]
    finally:
        stop_all(nodes)
    assert len(frames) > 2
    for frame in frames:
        assert frame.get("title") in (None, "Dutch Blitz")
        places = public_places(frame, {"blitz", "posts", "wood", "hand"})
        assert cards_in(frame) == places, "a card outside its public place"
    assert all(request.startswith(url) for request in asked), "the page asked elsewhere"
    assert errors == [], "the page's script failed"
    for node in nodes:
        assert "Traceback" not in node.output()


def test_a_dutch_table_shows_dutchs_title_and_public_table(tmp_path: Path, browser: Any) -> None:
    """D-42: the TV sees a round of Dutch as nobody at the table does, under Dutch's title."""
    extra = ("--game", "dutch", "--target", "500")  # a long game: the test ends it
    nodes = bot_table(tmp_path, "du", extra, "careful")
    errors: list[str] = []
    try:
        page = open_page(browser, tv_url(nodes[0]), errors)
        page.wait_for_function(
            "document.querySelectorAll('.player [data-place=row] .card').length >= 12",
            timeout=WAIT_MS,
        )  # three rows of four cards (D-5)
        page.wait_for_selector("#centre [data-group=discard] .card[data-card]", timeout=WAIT_MS)
        title = page.text_content("#title") or ""
        assert title.startswith("Dutch · ") and "Blitz" not in title
        assert "Blitz" not in page.title()
        groups = page.eval_on_selector_all("#centre h2", "els => els.map(e => e.textContent)")
        assert groups == ["Draw pile", "Discard pile"]
        assert page.text_content("#headline")
        frames = [json.loads(data) for data in page.evaluate("window.tvFrames")]
    finally:
        stop_all(nodes)
    playing = [frame for frame in frames if frame.get("phase") == "playing"]
    assert playing and all(frame["title"] == "Dutch" for frame in playing)
    for frame in frames:
        assert cards_in(frame) == public_places(frame, set()), "a card outside its public place"
    assert errors == [], "the page's script failed"
    for node in nodes:
        assert "Traceback" not in node.output()


def test_a_faceoff_table_shows_the_face_off_big(tmp_path: Path, browser: Any) -> None:
    """F-43: a table of Blitz! on the TV, under its own title: each player's top card by
    letter and shape with its category, the draw piles, and the face-off as the headline."""
    nodes = bot_table(tmp_path, "fo", ("--game", "faceoff"), "sharp")
    errors: list[str] = []
    try:
        page = open_page(browser, tv_url(nodes[0]), errors)
        page.wait_for_function(
            "document.querySelectorAll('.player [data-place=top] .card[data-card]').length >= 2",
            timeout=WAIT_MS,
        )  # cards turned, each in its owner's area
        page.wait_for_function(
            "(document.getElementById('headline').textContent || '').startsWith('FACE-OFF')",
            timeout=WAIT_MS,
        )
        title = page.text_content("#title") or ""
        assert title.startswith("Blitz! (word face-offs)"), title
        groups = page.eval_on_selector_all("#centre h2", "els => els.map(e => e.textContent)")
        assert groups[0] == "Draw piles" and groups[1].startswith("Duel")
        shot = tmp_path / "tv-faceoff.png"
        page.screenshot(path=str(shot))
        print(f"the TV view of Blitz!: {shot}")
        frames = [json.loads(data) for data in page.evaluate("window.tvFrames")]
    finally:
        stop_all(nodes)
    playing = [frame for frame in frames if frame.get("phase") == "playing"]
    assert playing and all(frame["title"] == "Blitz! (word face-offs)" for frame in playing)
    assert any(str(frame.get("headline", "")).startswith("FACE-OFF") for frame in playing)
    for frame in frames:
        assert cards_in(frame) == public_places(frame, set()), "a card outside its public place"
    assert errors == [], "the page's script failed"
    for node in nodes:
        assert "Traceback" not in node.output()


def test_the_page_finds_a_restarted_node_by_itself(tmp_path: Path, browser: Any) -> None:
    door, web = free_ports(2)
    args = loopback_args(0, [door], 2, "--web", str(web))  # alone: it waits in the lobby
    node = BlitzNode("ada", tmp_path / "ada", args)
    again: BlitzNode | None = None
    try:
        url = tv_url(node)
        page = browser.new_page(bypass_csp=BYPASS)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url)
        page.wait_for_selector(".lobby .row .name:text('ada')", timeout=WAIT_MS)
        page.wait_for_function(
            "document.getElementById('link').textContent === 'live'", timeout=WAIT_MS
        )
        node.stop()
        page.wait_for_function(
            "document.getElementById('link').textContent !== 'live'", timeout=WAIT_MS
        )
        again = BlitzNode("ada", tmp_path / "ada", args)
        assert tv_url(again) == url
        page.wait_for_function(
            "document.getElementById('link').textContent === 'live'", timeout=WAIT_MS
        )
        page.wait_for_selector(".lobby .row .name:text('ada')", timeout=WAIT_MS)
        assert errors == [], "the page's script failed"
    finally:
        stop_all([node] + ([again] if again is not None else []))
