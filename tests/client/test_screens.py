"""Every screen at 80x24 with 2, 4 and 8 players: drawn without error, and all of it fits."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from dutchblitz.client.banner import flag_banner
from dutchblitz.client.games.blitz.screens import card_cell
from dutchblitz.client.layout import body_text
from dutchblitz.client.state import Screen
from dutchblitz.node.api import News, Notice, NoticeKind, Told, TvLink
from dutchblitz.protocol.games.blitz.cards import Colour, card
from dutchblitz.protocol.games.blitz.intents import Action, Intent
from dutchblitz.protocol.table.state import Flag, FlagKind, Phase, RoundResult
from prompt_toolkit.formatted_text import to_plain_text

from tests.client import fakes
from tests.client.driving import Driver, running, screen_text, until, width
from tests.client.fakes import NAMES, FakeSession, lobby_game, playing_session

pytestmark = pytest.mark.timeout(30)
PLAYER_COUNTS = (2, 4, 8)
BODY_LINES = 24 - 4  # the title, two notice lines and the key bar take the rest
TV = TvLink("http://192.168.100.200:65535/", shared=True)  # the longest address --web shows


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(coro, 20))


def busy_table(players: int) -> FakeSession:
    """A round some way in: every seat has played a few times, our last move not final."""
    session = playing_session(players, seed=players)
    for _ in range(6):
        for seat in range(players):
            session.opponent_plays(seat)
    session.play(Intent(Action.FLIP))
    return session


def scored(players: int, *, over: bool) -> FakeSession:
    session = playing_session(players)
    game = session.game
    for number in range(1, 11):
        scores = {seat: (seat * 7 + number * 3) % 17 - 4 for seat in range(players)}
        game.results.append(RoundResult(number, scores, number % players))
    game.totals = {s: sum(r.scores[s] for r in game.results) for s in range(players)}
    game.round = 11
    if over:
        game.phase, game.winner = Phase.OVER, max(game.totals, key=lambda s: game.totals[s])
    else:
        game.phase, game.table = Phase.DEALING, None
    return session


MAKERS: dict[str, Callable[[int], FakeSession]] = {
    "lobby": lambda n: FakeSession(lobby_game(n), peers_seen=0, seconds_running=60.0),
    "lobby with a TV": lambda n: FakeSession(lobby_game(n), tv=TV),
    "table": busy_table,
    "scores": lambda n: scored(n, over=False),
    "game over": lambda n: scored(n, over=True),
}
EXPECTED_SCREEN = {
    "lobby": Screen.LOBBY,
    "lobby with a TV": Screen.LOBBY,
    "table": Screen.TABLE,
    "scores": Screen.SCORES,
    "game over": Screen.SCORES,
}


async def drawn(drive: Driver) -> None:
    """Wait for the real renderer to draw one more frame."""
    frames = drive.app.render_counter
    drive.app.invalidate()
    await until(lambda: drive.app.render_counter > frames, "a frame")


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("name", sorted(MAKERS))
def test_every_screen_fits_80x24(name: str, players: int) -> None:
    session = MAKERS[name](players)

    async def go() -> None:
        async with running(session, rows=24, columns=80) as drive:
            await drawn(drive)
            assert drive.state.screen == EXPECTED_SCREEN[name]
            body = to_plain_text(body_text(drive.state)).rstrip("\n").split("\n")
            assert len(body) <= BODY_LINES, "\n".join(body)
            assert max(width(line) for line in body) <= 80, "\n".join(body)
            shown = drive.screen()
            assert shown[0].startswith(" Dutch Blitz")
            assert shown[-1].strip(), "the key bar is on the last line"
            text = "\n".join(shown)
            for seat in range(players):
                assert NAMES[seat] in text, f"{NAMES[seat]} is missing:\n{text}"
            await drive.press("?")
            await drawn(drive)
            help_body = to_plain_text(body_text(drive.state)).rstrip("\n").split("\n")
            assert len(help_body) <= BODY_LINES
            assert max(width(line) for line in help_body) <= 80

    run(go())


LONG_NAMES = (
    "Alexandrina-Maria",
    "Bartholomew Smith",
    "Cyprianus Longname",
    "Desdemona Public",
    "Evangeline Thornbury",
    "Fitzgerald Kennedy",
    "Gwendolyn Brooks",
    "Hildegard Bingen",
)
LONG_TABLE = "the-kitchen-table-upstairs-2026"  # 31 of a table name's 32 bytes


@pytest.mark.parametrize("players", (4, 5, 6, 7, 8))
@pytest.mark.parametrize("profile", (1, 2))
def test_at_80_columns_the_title_keeps_its_option_and_a_round_shows_every_score(
    players: int, profile: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Long names, a long table name: the title line and a round's scores are shortened,
    never cut at the end (R-19: the table's option on every screen)."""
    monkeypatch.setattr(fakes, "NAMES", LONG_NAMES)
    session = playing_session(players, table=LONG_TABLE)
    session.profile = profile
    scores = tuple(
        ("" if seat == 0 else LONG_NAMES[seat], 3 * seat - 20) for seat in range(players)
    )
    told = Told(News.ROUND_SCORES, count=10, scores=scores)

    async def go() -> None:
        async with running(session, rows=24, columns=80) as drive:
            session.notices.append(Notice(NoticeKind.ROUND_OVER, told=told))
            session.notify()
            await until(lambda: drive.state.notices(), "the round's scores")
            await drawn(drive)
            shown = drive.screen()
            assert width(shown[0].rstrip()) <= 79 and shown[0].rstrip().endswith("stacking on")
            assert "round 1" in shown[0] and "to 75" in shown[0]
            assert (profile > 1) == ("profile 2" in shown[0])
            line = next(line for line in shown if "SCORES" in line)
            assert width(line.rstrip()) <= 80
            said = line.split("SCORES", 1)[1]
            for seat in range(players):
                assert f"{3 * seat - 20:+d}" in said, f"seat {seat}'s score is missing: {line}"
            assert said.rstrip().endswith(f"{3 * (players - 1) - 20:+d}")

    run(go())


@pytest.mark.parametrize(("shared", "said"), [(True, "anyone on this network can open it"),
                                              (False, "(this machine only)")])  # fmt: skip
def test_the_lobby_says_where_the_tv_view_is_and_who_can_open_it(shared: bool, said: str) -> None:
    session = FakeSession(lobby_game(2), tv=TvLink("http://192.0.2.2:8080/", shared))

    async def go() -> None:
        async with running(session, rows=24, columns=80) as drive:
            await drawn(drive)
            lines = [line for line in drive.screen() if line.startswith(" TV ")]
            assert lines == [f" TV       http://192.0.2.2:8080/  {said}".ljust(len(lines[0]))]

    run(go())


def test_the_table_shows_each_area_and_the_centre_by_colour() -> None:
    session = busy_table(4)

    async def go() -> None:
        async with running(session) as drive:
            text = "\n".join(drive.screen())
            for heading in ("Blitz", "Post", "Wood", "Total", "Centre", "Red", "Blue", "Green",
                            "Yellow", "You", "Hand"):  # fmt: skip
                assert heading in text
            table = session.game.table
            assert table is not None
            for pile in table.piles:
                assert pile.cards[-1].label() in text
            for area in table.areas.values():
                for stack in area.post:
                    assert stack[-1].label() in text

    run(go())


def test_a_resize_redraws_without_error() -> None:
    session = busy_table(8)

    async def go() -> None:
        async with running(session) as drive:
            for rows, columns in ((24, 80), (20, 60), (40, 120), (10, 30), (24, 80)):
                drive.app.output.size = type(drive.app.output.size)(rows=rows, columns=columns)  # type: ignore[attr-defined]
                await drawn(drive)
                assert len(screen_text(drive.app, rows, columns)) == rows

    run(go())


def test_a_card_shows_its_colour_and_its_text_marker() -> None:
    shown = card_cell(card(0, Colour.GREEN, 7), pending=True)
    assert "".join(text for _, text, *_ in shown).strip() == "7G♀~"
    style = shown[0][0]
    assert "card.green" in style and "pending" in style
    for colour, letter, gender in ((Colour.RED, "R", "♂"), (Colour.BLUE, "B", "♂"),
                                   (Colour.YELLOW, "Y", "♀")):  # fmt: skip
        (style, text), *_ = card_cell(card(1, colour, 10))
        assert text == f"10{letter}{gender}"
        assert colour.name.lower() in style


def flagged(players: int) -> FakeSession:
    """A finished game whose audit flagged several players (spec/rules.md R-44 to R-48)."""
    session = scored(players, over=True)
    kinds = (FlagKind.MISMATCH, FlagKind.WITHHELD, FlagKind.BACKDATED, FlagKind.UNAUDITED)
    flags = [Flag(2, seat, bytes(16), kinds[seat % 4], "detail") for seat in range(players)]
    for game in (session.game, session.stable):
        game.flags = list(flags)
    return session


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_flags_show_in_the_title_and_on_the_scores_screen_within_80_columns(
    players: int,
) -> None:
    """R-48: every screen names what the audit flagged, in one line that fits."""
    session = flagged(players)

    async def go() -> None:
        async with running(session, rows=24, columns=80) as drive:
            await drawn(drive)
            shown = drive.screen()
            assert "FLAGGED: " in shown[0] and f"{NAMES[0]} mismatch r2" in shown[0]
            assert all(width(line) <= 80 for line in shown)
            body = to_plain_text(body_text(drive.state)).rstrip("\n").split("\n")
            assert len(body) <= BODY_LINES
            assert any(line.startswith(" FLAGGED: ") for line in body), body

    run(go())


def test_the_banner_names_cheats_before_unaudited_players_and_counts_the_rest() -> None:
    flags = [Flag(1, seat, b"", FlagKind.MISMATCH, "") for seat in range(8)]
    line = flag_banner(flags, lambda seat: f"player-{seat}", 60)
    assert line.startswith("FLAGGED: player-0 mismatch r1") and line.endswith("more")
    assert len(line) <= 60
    only = [Flag(3, 2, b"", FlagKind.UNAUDITED, "")]
    assert flag_banner(only, str) == "unaudited: 2 unaudited r3"
    assert flag_banner([], str) == ""
