"""What confused a player at the table: names running into the next column, the lobby's
counts, "ROUND round 1: Ada +26" for one's own score, and keys offered before they count."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from dutchblitz.client.games.blitz.words import tell
from dutchblitz.client.layout import NOTICE_MARKERS, keybar_text
from dutchblitz.client.text import fit_name
from dutchblitz.node.api import News, NoticeKind, Told
from dutchblitz.protocol.table.state import Phase, RoundResult
from prompt_toolkit.formatted_text import to_plain_text

from tests.client.driving import Clock, running
from tests.client.fakes import FakeSession, lobby_game, node_id, playing_session
from tests.client.test_count_in import between_rounds
from tests.client.test_screens import busy_table, scored

pytestmark = pytest.mark.timeout(30)
LONG = "flat-out bot 2d6"  # 16 columns: the table's name column at 80
LONGEST = "W" * 32  # as long as a name may be (MAX_NAME)
SIZES = ((24, 80), (40, 120))


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(coro, 20))


@pytest.mark.parametrize(
    ("name", "width", "tag", "shown"),
    [
        ("Ada", 6, "", "Ada   "),
        ("flat-out bot 2d6", 16, "", "flat-out bot 2… "),
        ("flat-out bot 2d6", 17, "", "flat-out bot 2d6 "),
        ("Ada", 12, " (you)", "Ada (you)   "),
        ("W" * 32, 22, " (you)", "W" * 14 + "… (you) "),
    ],
)
def test_a_name_is_cut_with_an_ellipsis_and_always_leaves_a_space(
    name: str, width: int, tag: str, shown: str
) -> None:
    assert fit_name(name, width, tag) == shown
    assert len(shown) == width and shown.endswith(" ")


def renamed(session: FakeSession, names: dict[int, str]) -> FakeSession:
    for seat, name in names.items():
        for game in (session.game, session.stable):
            game.members[node_id(seat)].name = name
    return session


MAKERS: dict[str, Callable[[], FakeSession]] = {
    "lobby": lambda: FakeSession(lobby_game(3)),
    "table": lambda: busy_table(3),
    "scores": lambda: scored(3, over=False),
    "game over": lambda: scored(3, over=True),
}


@pytest.mark.parametrize(("rows", "columns"), SIZES)
@pytest.mark.parametrize("screen", sorted(MAKERS))
def test_long_names_never_run_into_the_next_column(screen: str, rows: int, columns: int) -> None:
    session = renamed(MAKERS[screen](), {0: LONGEST, 1: LONG, 2: "x" * 20})

    async def go() -> None:
        async with running(session, rows=rows, columns=columns) as drive:
            lines = drive.screen(rows, columns)
            text = "\n".join(lines)
            for start in ("WWWW", "flat-out bot 2", "xxxx"):
                found = [line for line in lines if start in line]
                assert found, f"{start!r} is not shown:\n{text}"
                for line in found:
                    # The name (cut with "…" or whole), its tag, then a space or the line's end.
                    pattern = re.escape(start) + r"[^ ]*( \((you|bot)\))?( |$)"
                    assert re.search(pattern, line), f"no space after the name:\n{line}"
                    assert not re.search(r"2d6\d|2d6[A-Z]", line), line

    run(go())


def test_the_lobby_tells_players_apart_and_stops_counting_once_others_sit() -> None:
    clock = Clock()
    alone = FakeSession(lobby_game(1), peers_seen=2, seconds_running=12.0)

    async def go_alone() -> None:
        async with running(alone, clock) as drive:
            text = "\n".join(drive.screen())
            assert "Looking for other players: 12 s" in text
            assert "Other nodes found" not in text

    run(go_alone())
    session = FakeSession(lobby_game(4), peers_seen=3, seconds_running=30.0, bots={1, 2})

    async def go() -> None:
        async with running(session, clock) as drive:
            text = "\n".join(drive.screen())
            assert "4 players here: you, 2 bots of yours, 1 from another node" in text
            assert "Looking for" not in text and "30 s" not in text

    run(go())


def test_round_scores_say_you_for_me_and_do_not_double_round() -> None:
    told = Told(News.ROUND_SCORES, count=1, scores=(("", 26), ("fast bot 73f", -4)))
    assert tell(told) == "round 1: you +26, fast bot 73f -4"
    marker = NOTICE_MARKERS[NoticeKind.ROUND_OVER]
    assert not f"{marker} {tell(told)}".lower().startswith("round round")


def keybar(drive: Any) -> str:
    return to_plain_text(keybar_text(drive.state))


def test_the_key_bar_offers_the_scores_keys_only_once_keys_count() -> None:
    session = playing_session(3)
    clock = Clock()

    async def go() -> None:
        async with running(session, clock) as drive:
            ended = between_rounds(3)
            session.game, session.stable = ended.game, ended.stable
            session.scores_left = 15.0
            session.notify()
            await drive.press("?")  # any handled key: the client has the new snapshot
            await drive.press("?")
            assert "any key" not in keybar(drive) and "help" in keybar(drive)
            clock.advance(1.0)
            assert "any key" in keybar(drive)

    run(go())


def test_the_key_bar_offers_a_rematch_only_once_keys_count() -> None:
    session = playing_session(3)
    clock = Clock()

    async def go() -> None:
        async with running(session, clock) as drive:
            game = session.game
            game.results.append(RoundResult(1, {0: 80, 1: 3, 2: -4}, 0))
            game.totals = dict(game.results[0].scores)
            game.phase, game.winner, game.table = Phase.OVER, 0, None
            session.stable = game.copy()
            session.notify()
            await drive.press("?")
            await drive.press("?")
            assert "rematch" not in keybar(drive) and "leave" in keybar(drive)
            clock.advance(1.0)
            assert "rematch" in keybar(drive)

    run(go())
