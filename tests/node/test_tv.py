"""The TV view: its address, its data (no hidden card, ever), its routes and its stream.

The server runs on 127.0.0.1 over a fake session (tests/client/fakes.py) whose game is
real: the serving seat knows its own cards, and the fake keeps every card of the table on
the side (``truth``), so a test can say exactly which cards are public.
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import pytest
from dutchblitz.node.tv.address import WebAddress, parse_web, tv_link
from dutchblitz.node.tv.public import public_view
from dutchblitz.node.tv.server import TvServer, bind_error
from dutchblitz.protocol.games.blitz.cards import Card
from dutchblitz.protocol.games.blitz.intents import Action, Intent
from dutchblitz.protocol.games.blitz.state import Table
from dutchblitz.protocol.limits import MAX_TV_VIEWERS
from dutchblitz.protocol.table.state import Phase, RoundResult
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.client.fakes import FakeSession, lobby_game, playing_session
from tests.netns_helpers import child_env

pytestmark = pytest.mark.timeout(60)

# -- the address -----------------------------------------------------------------------

GOOD = [
    ("8080", WebAddress("127.0.0.1", 8080), False),
    ("0", WebAddress("127.0.0.1", 0), False),
    ("localhost:8080", WebAddress("localhost", 8080), False),
    ("127.0.0.2:80", WebAddress("127.0.0.2", 80), False),
    ("0.0.0.0:8080", WebAddress("0.0.0.0", 8080), True),
    ("192.0.2.7:8080", WebAddress("192.0.2.7", 8080), True),
    ("tv.lan:8080", WebAddress("tv.lan", 8080), True),
]


@pytest.mark.parametrize(("value", "address", "shared"), GOOD)
def test_web_takes_port_or_host_and_port(value: str, address: WebAddress, shared: bool) -> None:
    assert parse_web(value) == address
    assert address.shared is shared


@pytest.mark.parametrize("value", ["", "x", ":8080", "8080:", "70000", "h:-1", "h:8o"])
def test_a_bad_web_address_is_refused_with_words(value: str) -> None:
    with pytest.raises(ValueError, match="expected PORT or HOST:PORT"):
        parse_web(value)


def test_the_link_shows_the_node_address_when_served_on_every_interface() -> None:
    link = tv_link(WebAddress("0.0.0.0", 8080), "192.0.2.2")
    assert link is not None and link.url == "http://192.0.2.2:8080/" and link.shared
    link = tv_link(WebAddress("127.0.0.1", 8080), "192.0.2.2")
    assert link is not None and link.url == "http://127.0.0.1:8080/" and not link.shared
    assert tv_link(None) is None


# -- the data: only what every player sees ---------------------------------------------


def _label(card: Card | None) -> str | None:
    return None if card is None else card.label()


def _labels(value: Any) -> int:
    """How many cards a piece of the page's data holds, wherever they are."""
    if isinstance(value, dict):
        return ("label" in value) + sum(_labels(v) for v in value.values())
    if isinstance(value, list):
        return sum(_labels(v) for v in value)
    return 0


def places_of(area: dict[str, Any]) -> dict[str, Any]:
    """A player's places on the page, by their keys (a Dutch Blitz area: blitz, posts, wood,
    hand)."""
    return {place["key"]: place for place in area["places"]}


def check_public(data: dict[str, Any], truth: Table) -> None:
    """Every card in ``data`` is a public one in its public place: the tops of each
    player's Blitz, Posts and Wood and of the centre piles; the rest only as counts."""
    places = 0
    for player in data["players"]:
        area, real = places_of(player["area"]), truth.areas[player["seat"]]
        assert area["hand"]["count"] == len(real.hand) and area["hand"]["top"] is None
        for shown, pile in (
            (area["blitz"], real.blitz),
            (area["wood"], real.wood),
            *zip(area["posts"]["row"], real.post, strict=True),
        ):
            assert shown["count"] == len(pile)
            top = shown["top"]
            assert top is None or top["label"] == _label(pile[-1] if pile else None)
            places += top is not None
    tops = sorted(_label(pile.cards[-1]) or "" for pile in truth.piles if len(pile.cards) < 10)
    shown_tops = sorted(p["top"]["label"] for g in data["centre"] for p in g["piles"])
    assert shown_tops == tops
    places += len(shown_tops)
    assert _labels(data) == places, "a card outside its public place"


def test_the_lobby_shows_who_sits_and_who_is_ready() -> None:
    session = FakeSession(lobby_game(3))
    session.set_ready(True)
    data = public_view(session.snapshot())
    assert data["phase"] == "lobby" and data["centre"] == []
    assert [(p["name"], p["ready"], p["area"]) for p in data["players"]] == [
        ("Ada", True, None),
        ("Bob", False, None),
        ("Cy", False, None),
    ]


def test_a_card_reads_as_the_terminal_writes_it() -> None:
    session = playing_session(2)
    data = public_view(session.snapshot())
    top = places_of(data["players"][0]["area"])["blitz"]["top"]
    assert session.truth is not None
    card = session.truth.areas[0].blitz[-1]
    assert card is not None
    assert top == {
        "label": card.label(),
        "value": str(card.value),
        "mark": card.label()[len(str(card.value)) :],
        "colour": card.colour.name.lower(),
    }
    assert data["title"] == "Dutch Blitz"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    turns=st.lists(st.integers(0, 3), max_size=60),
)
def test_no_hidden_card_ever_reaches_the_page(players: int, seed: int, turns: list[int]) -> None:
    """Whatever is played, the serving seat's own hand and covered cards stay off the page."""
    session = playing_session(players, seed=seed)
    assert session.truth is not None
    check_public(public_view(session.snapshot()), session.truth)
    for turn in turns:
        session.opponent_plays(turn % players)
        check_public(public_view(session.snapshot()), session.truth)


def test_our_own_move_in_flight_is_not_on_the_tv_until_final() -> None:
    session = playing_session(2)
    before = public_view(session.snapshot())
    assert (
        session.play(Intent(Action.FLIP)) is None
    )  # the hand's three go to the Wood, optimistically
    assert public_view(session.snapshot()) == before
    session.confirm()
    after = public_view(session.snapshot())
    assert places_of(after["players"][0]["area"])["wood"]["count"] > 0
    assert session.truth is not None
    check_public(after, session.truth)


# -- the server ------------------------------------------------------------------------


async def _serving(session: FakeSession) -> TvServer:
    tv = await TvServer.open(WebAddress("127.0.0.1", 0))
    tv.watch(session)
    return tv


def run(test: Callable[[TvServer, FakeSession], Awaitable[None]], session: FakeSession) -> None:
    async def go() -> None:
        tv = await _serving(session)
        try:
            await test(tv, session)
        finally:
            await tv.close()

    asyncio.run(go())


async def frames(response: aiohttp.ClientResponse) -> AsyncIterator[dict[str, Any]]:
    """The JSON of each server-sent event, as it comes."""
    data: list[str] = []
    async for raw in response.content:
        line = raw.decode().rstrip("\r\n")
        if line.startswith("data: "):
            data.append(line[len("data: ") :])
        elif not line and data:
            yield json.loads("\n".join(data))
            data = []


def test_the_routes_serve_the_page_and_the_state_and_refuse_every_change() -> None:
    async def test(tv: TvServer, session: FakeSession) -> None:
        url = tv.url()
        async with aiohttp.ClientSession() as client:
            async with client.get(url) as page:
                assert page.status == 200 and page.content_type == "text/html"
                html = await page.text()
                assert "/static/tv.js" in html and "/static/tv.css" in html
                assert "default-src 'self'" in page.headers["Content-Security-Policy"]
            for asset, kind in (("tv.js", "javascript"), ("tv.css", "text/css")):
                async with client.get(f"{url}static/{asset}") as got:
                    assert got.status == 200 and kind in got.content_type
            async with client.get(f"{url}state") as state:
                assert state.status == 200
                assert await state.json() == public_view(session.snapshot())
            for method in ("POST", "PUT", "DELETE", "PATCH"):
                for path in ("", "state", "events", "static/tv.js"):
                    async with client.request(method, url + path) as refused:
                        assert refused.status == 405, (method, path)
            async with client.get(f"{url}static/../server.py") as outside:
                assert outside.status in (403, 404)
            async with client.get(f"{url}nothing") as missing:
                assert missing.status == 404
        assert session.calls == []  # nothing a page did reached the node

    run(test, playing_session(2))


def test_the_stream_pushes_every_change_and_only_public_cards() -> None:
    async def test(tv: TvServer, session: FakeSession) -> None:
        assert session.truth is not None
        async with aiohttp.ClientSession() as client, client.get(f"{tv.url()}events") as stream:
            assert stream.content_type == "text/event-stream"
            seen = frames(stream)
            first = await anext(seen)
            assert first == public_view(session.snapshot())
            check_public(first, session.truth)
            changed = 0
            for turn in range(12):
                if session.opponent_plays(turn % 2) is None:
                    continue
                latest = public_view(session.snapshot())
                frame = await asyncio.wait_for(anext(seen), 10)
                while frame != latest:  # a frame may fall between two plays: the next comes
                    frame = await asyncio.wait_for(anext(seen), 10)
                check_public(frame, session.truth)
                changed += 1
            assert changed > 3

    run(test, playing_session(2))


def test_a_slow_viewer_gets_the_latest_table_not_every_step() -> None:
    """Each viewer's queue is one flag: fifty changes while it waits make a frame or two."""

    async def test(tv: TvServer, session: FakeSession) -> None:
        async with aiohttp.ClientSession() as client, client.get(f"{tv.url()}events") as stream:
            seen = frames(stream)
            await anext(seen)
            played = 0
            for turn in range(50):
                played += session.opponent_plays(turn % 2) is not None
            latest = public_view(session.snapshot())
            count = 0
            frame: dict[str, Any] = {}
            while frame != latest:
                frame = await asyncio.wait_for(anext(seen), 10)
                count += 1
            assert played > 10 and count <= 2

    run(test, playing_session(2))


def test_viewers_are_bounded_and_a_closed_page_frees_its_place() -> None:
    async def test(tv: TvServer, session: FakeSession) -> None:
        url = f"{tv.url()}events"
        async with aiohttp.ClientSession() as client:
            streams = [await client.get(url) for _ in range(MAX_TV_VIEWERS)]
            for stream in streams:
                assert stream.status == 200
            async with client.get(url) as one_more:
                assert one_more.status == 503
                assert f"{MAX_TV_VIEWERS} viewers" in await one_more.text()
            assert tv.turned_away == 1
            streams.pop().close()
            for turn in range(200):  # a change makes the server write, and find it gone
                if len(tv.viewers) < MAX_TV_VIEWERS:
                    break
                session.opponent_plays(turn % 2)
                await asyncio.sleep(0.05)
            async with client.get(url) as again:
                assert again.status == 200
            for stream in streams:
                stream.close()

    run(test, playing_session(2))


def test_closing_with_pages_open_is_prompt() -> None:
    async def go() -> None:
        session = playing_session(2)
        tv = await _serving(session)
        async with aiohttp.ClientSession() as client, client.get(f"{tv.url()}events") as stream:
            await anext(frames(stream))
            loop = asyncio.get_running_loop()
            began = loop.time()
            await tv.close()
            assert loop.time() - began < 5
            assert tv.viewers == set()

    asyncio.run(go())


def test_a_taken_port_is_one_line() -> None:
    async def go() -> None:
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            port = taken.getsockname()[1]
            address = WebAddress("127.0.0.1", port)
            with pytest.raises(OSError) as caught:
                await TvServer.open(address)
            assert bind_error(address, caught.value) == (
                f"--web 127.0.0.1:{port}: port {port} is taken: pick another, or 0 for any"
            )

    asyncio.run(go())


def test_a_node_whose_web_port_is_taken_stops_with_one_line_and_exit_2(tmp_path: Any) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = [
            sys.executable, "-m", "dutchblitz.client.main", "--join", "--bot", "--headless",
            "--no-discovery", "--interface", "127.0.0.1", "--state-dir", str(tmp_path / "node"),
            "--web", str(port),
        ]  # fmt: skip
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=30,
            env=child_env(),
        )
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"blitz-node: --web 127.0.0.1:{port}: port {port} is taken: " + (
        "pick another, or 0 for any\n"
    )


def test_a_host_not_of_this_machine_is_one_line() -> None:
    async def go() -> None:
        address = WebAddress("192.0.2.77", 0)  # TEST-NET-1: never an address here
        with pytest.raises(OSError) as caught:
            await TvServer.open(address)
        assert bind_error(address, caught.value) == (
            "--web 192.0.2.77:0: 192.0.2.77 is not an address of this machine"
        )

    asyncio.run(go())


def test_the_end_shows_the_winner_and_every_round() -> None:
    session = playing_session(3)
    game = session.stable
    for number in (1, 2):
        game.results.append(RoundResult(number, {0: 40, 1: 3, 2: -5}, 0))
    game.totals = {0: 80, 1: 6, 2: -10}
    game.phase, game.winner = Phase.OVER, 0
    data = public_view(session.snapshot())
    assert data["phase"] == "over" and data["winner"] == "Ada"
    assert [p["total"] for p in data["players"]] == [80, 6, -10]
    assert data["results"] == [
        {"round": 1, "scores": {"0": 40, "1": 3, "2": -5}, "ended_by": "Ada"},
        {"round": 2, "scores": {"0": 40, "1": 3, "2": -5}, "ended_by": "Ada"},
    ]


def test_garbage_on_the_port_gets_an_error_and_the_page_goes_on() -> None:
    async def test(tv: TvServer, session: FakeSession) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", tv.address.port)
        writer.write(b"\x16\x03\x01 not http at all\r\n\r\n")
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(200), 10)
        assert b" 400 " in answer.split(b"\r\n")[0]
        writer.close()
        async with aiohttp.ClientSession() as client, client.get(f"{tv.url()}state") as got:
            assert got.status == 200

    run(test, playing_session(2))


def test_before_the_node_has_started_the_page_says_so() -> None:
    async def go() -> None:
        tv = await TvServer.open(WebAddress("127.0.0.1", 0))  # bound, not watching yet
        try:
            async with aiohttp.ClientSession() as client:
                async with client.get(f"{tv.url()}state") as got:
                    assert await got.json() == {"phase": "starting"}
                async with client.get(f"{tv.url()}events") as stream:
                    assert await anext(frames(stream)) == {"phase": "starting"}
        finally:
            await tv.close()

    asyncio.run(go())
