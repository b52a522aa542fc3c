"""Keys at the table: each asks the session for one play, and the screen follows at once."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

import pytest
from dutchblitz.client.games.blitz import keymap
from dutchblitz.client.games.blitz.play import stack_action
from dutchblitz.client.state import Screen
from dutchblitz.node.api import NoticeKind, Refused
from dutchblitz.protocol.games.blitz.intents import Action, Intent
from dutchblitz.protocol.games.blitz.moves import Source
from dutchblitz.protocol.games.blitz.plays import centre_play
from dutchblitz.protocol.table.state import RoundResult

from tests.client.driving import ESCAPE, TAB, Clock, running
from tests.client.fakes import FakeSession, playing_session

pytestmark = pytest.mark.timeout(30)


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(coro, 20))


def acts(session: FakeSession) -> list[tuple[Any, ...]]:
    return [call for call in session.calls if call[0] == "play"]


ONE_KEY_PLAYS = [
    ("e", Action.BLITZ_TO_CENTRE, 0),
    ("w", Action.WOOD_TO_CENTRE, 0),
    (" ", Action.FLIP, 0),
    ("r", Action.FLIP, 0),
    ("x", Action.STUCK, 0),
    ("a", Action.POST_TO_CENTRE, 0),
    ("s", Action.POST_TO_CENTRE, 1),
    ("d", Action.POST_TO_CENTRE, 2),
    ("f", Action.POST_TO_CENTRE, 3),
    ("g", Action.POST_TO_CENTRE, 4),
]


@pytest.mark.parametrize(("key", "action", "slot"), ONE_KEY_PLAYS)
def test_each_play_key_is_one_action(key: str, action: Action, slot: int) -> None:
    session = playing_session(2)

    async def go() -> None:
        async with running(session) as drive:
            await drive.press(key)
            assert acts(session) == [("play", Intent(action, slot))]

    run(go())


def test_the_key_map_covers_every_action() -> None:
    keys = {k for k, _, _ in ONE_KEY_PLAYS} | {keymap.BLITZ_ONTO_POST, keymap.WOOD_ONTO_POST}
    assert {"e", "w", "r", "x", *keymap.POST_KEYS, "b", "v"} <= keys
    assert {a for _, a, _ in ONE_KEY_PLAYS} | {Action.BLITZ_TO_POST, Action.WOOD_TO_POST} == set(
        Action
    )


@pytest.mark.parametrize(
    ("keys", "action", "slot"),
    [
        ("ba", Action.BLITZ_TO_POST, 0),
        ("bs", Action.BLITZ_TO_POST, 1),
        ("bg", Action.BLITZ_TO_POST, 4),
        ("va", Action.WOOD_TO_POST, 0),
        ("vd", Action.WOOD_TO_POST, 2),
        ("vf", Action.WOOD_TO_POST, 3),
    ],
)
def test_two_keystrokes_put_a_card_on_a_post_stack(keys: str, action: Action, slot: int) -> None:
    session = playing_session(2)

    async def go() -> None:
        async with running(session) as drive:
            await drive.press(keys[0])
            assert stack_action(drive.state) == action
            assert acts(session) == []
            assert "onto which Post stack" in "\n".join(drive.screen())
            await drive.press(keys[1])
            assert acts(session) == [("play", Intent(action, slot))]
            assert stack_action(drive.state) is None

    run(go())


def test_escape_or_another_key_ends_a_started_stacking_move() -> None:
    session = playing_session(2)

    async def go() -> None:
        async with running(session) as drive:
            await drive.press("b" + ESCAPE)
            assert stack_action(drive.state) is None
            await drive.press("a")
            assert acts(session) == [("play", Intent(Action.POST_TO_CENTRE, 0))]
            await drive.press("vz")  # an unbound key only cancels
            assert stack_action(drive.state) is None
            await drive.press("be")  # a play key cancels and plays
            assert acts(session)[-1] == ("play", Intent(Action.BLITZ_TO_CENTRE, 0))
            assert len(acts(session)) == 2

    run(go())


def seed_with_blitz_play() -> int:
    """A deal where our Blitz top can go to the centre at once (it is a 1)."""
    for seed in range(1, 500):
        session = playing_session(2, seed=seed)
        table = session.game.table
        assert table is not None
        if centre_play(table, 0, Source.BLITZ) is not None:
            return seed
    raise AssertionError("no such deal")


def test_a_play_shows_at_once_marked_not_final_until_confirmed() -> None:
    session = playing_session(2, seed=seed_with_blitz_play())
    table = session.game.table
    assert table is not None
    played = table.areas[0].blitz[-1]
    assert played is not None

    async def go() -> None:
        async with running(session) as drive:
            await drive.press("e")
            shown = "\n".join(drive.screen())
            assert f"{played.label()}~" in shown  # in the centre, not final yet
            assert "1 move not final yet" in shown
            session.confirm()
            shown = "\n".join(drive.screen())
            assert played.label() in shown
            assert f"{played.label()}~" not in shown
            assert "not final" not in shown

    run(go())


def test_keys_faster_than_the_network_never_corrupt_the_game() -> None:
    session = playing_session(2, seed=seed_with_blitz_play())

    async def go() -> None:
        async with running(session) as drive:
            keys = "eeeaassddfgw  rr  ba va x e"
            await drive.press(keys)
            assert len(acts(session)) == len(keys) - 2  # "b" and "v" each start a stacking move
            table = session.game.table
            assert table is not None
            for area in table.areas.values():
                assert (
                    area.card_count()
                    + sum(1 for pile in table.piles for c in pile.cards if c.deck == area.seat)
                    == 40
                )

    run(go())


def test_a_refused_play_says_why_in_words() -> None:
    session = playing_session(2, refusal=Refused.of("needs_a_one"))

    async def go() -> None:
        async with running(session) as drive:
            await drive.press("e")
            assert [n.text for n in drive.state.notices()] == ["only a 1 starts a new centre pile"]
            assert "only a 1 starts a new centre pile" in "\n".join(drive.screen())

    run(go())


def test_tab_shows_the_scores_and_a_play_key_only_hides_them() -> None:
    session = playing_session(2)

    async def go() -> None:
        async with running(session) as drive:
            await drive.press(TAB)
            assert drive.state.screen == Screen.SCORES
            await drive.press("e")
            assert drive.state.screen == Screen.TABLE
            assert acts(session) == []

    run(go())


def test_the_scores_show_by_themselves_when_a_round_ends_then_go() -> None:
    session = playing_session(2)
    clock = Clock()

    async def go() -> None:
        async with running(session, clock) as drive:
            session.game.results.append(RoundResult(1, {0: 5, 1: -3}, 0))
            session.push(NoticeKind.BLITZ, "You called Blitz!")
            drive.screen()  # the next frame takes what the node told
            assert drive.state.screen == Screen.SCORES
            assert "Round 1: You called Blitz!" in "\n".join(drive.screen())  # Ada is us
            clock.advance(10)
            assert drive.state.screen == Screen.TABLE

    run(go())
