"""Word toy on the TV page in a real browser (Debian's Chromium, headless, Playwright):
three bot nodes of ``tests.games.wordtoy.node`` play two rounds on 127.0.0.1, the first
serving the page (``--web``). The page, which knows no game, shows word toy's title, the
card's category in the centre with the cards decided beside it, the card as its headline,
and the game to its end; every card it was sent is in a public place."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.lan.nodes import stop_all

if not Path("/usr/bin/chromium").exists():
    pytest.skip("the browser test needs /usr/bin/chromium", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="pip install playwright")

from tests.lan.test_tv_browser import (  # after the skips, as that module
    WAIT_MS,
    bot_table,
    browser,
    cards_in,
    open_page,
    public_places,
    tv_url,
)

pytestmark = [pytest.mark.lan, pytest.mark.timeout(240)]
__all__ = ["browser"]  # the fixture
PLAYERS = 3
OVER = "window.tvFrames.some((data) => JSON.parse(data).phase === 'over')"


def test_the_tv_page_shows_a_game_of_word_toy(tmp_path: Path, browser: Any) -> None:
    # Two rounds: the game's default. The node module registers the game, then runs main.
    extra = ("--game", "wordtoy")
    nodes = bot_table(tmp_path, "wt", extra, "sharp", "tests.games.wordtoy.node", PLAYERS)
    errors: list[str] = []
    try:
        page = open_page(browser, tv_url(nodes[0]), errors)
        page.wait_for_selector("#centre [data-group=category] .card[data-card]", timeout=WAIT_MS)
        page.wait_for_function(
            "(document.getElementById('headline').textContent || '').startsWith('Card ')",
            timeout=WAIT_MS,
        )
        title = page.text_content("#title") or ""
        assert title.startswith("Word toy"), title
        groups = page.eval_on_selector_all("#centre h2", "els => els.map(e => e.textContent)")
        assert groups == ["Category", "Cards decided"]
        page.wait_for_selector("#centre [data-group=decided] .card[data-card]", timeout=WAIT_MS)
        names = page.eval_on_selector_all(".player .name", "els => els.map(e => e.textContent)")
        assert sorted(names) == ["wt0", "wt1", "wt2"]
        shot = tmp_path / "tv-wordtoy.png"
        page.screenshot(path=str(shot))
        print(f"the TV view of word toy: {shot}")
        page.wait_for_function(OVER, timeout=WAIT_MS)
        frames = [json.loads(data) for data in page.evaluate("window.tvFrames")]
    finally:
        stop_all(nodes)
    playing = [frame for frame in frames if frame.get("phase") == "playing"]
    assert playing and all(frame["title"] == "Word toy" for frame in playing)
    rounds = {frame.get("round") for frame in playing}
    assert {1, 2} <= rounds, rounds  # both rounds were on the page
    over = next(frame for frame in frames if frame.get("phase") == "over")
    assert over["rounds"] == 2 and len(over["results"]) == 2  # its default, not one more
    for frame in frames:
        assert cards_in(frame) == public_places(frame, set()), "a card outside its public place"
    assert errors == [], "the page's script failed"
    for node in nodes:
        assert "Traceback" not in node.output()
