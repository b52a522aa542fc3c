"""Plays pressed back to back through the session of a real node, over ZeroMQ on loopback.

The person's seat plays through ``NodeSession.act`` exactly as the terminal table does,
against one fast local bot. Two keys pressed at once both count when both are legal: the
second is never refused because the first is still on its way (spec/protocol.md P-151,
P-154).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from dutchblitz.client.games.blitz.words import notice_text
from dutchblitz.node.api import Refused, Snapshot, Why
from dutchblitz.node.runtime import Node, Options
from dutchblitz.node.session import NodeSession
from dutchblitz.protocol.games.blitz.cards import Card
from dutchblitz.protocol.games.blitz.intents import Action, Intent
from dutchblitz.protocol.games.blitz.views import AreaView
from dutchblitz.protocol.table.state import Phase

from tests.lan.test_session import until

pytestmark = [pytest.mark.lan, pytest.mark.timeout(120)]

STEP_WAIT_S = 3.0
BUDGET_S = 60.0  # of playing, to meet the cards a test needs
SOURCE_KEY = {0: Action.BLITZ_TO_CENTRE, 1: Action.WOOD_TO_CENTRE, 2: Action.POST_TO_CENTRE}


def run(scenario: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(scenario, BUDGET_S + 30))


async def _seated_game(tmp_path: Path) -> NodeSession:
    node = Node(
        Options(name="Ada", interface="127.0.0.1", discovery=False, state_dir=tmp_path, target=200)
    )
    await node.start()
    session = NodeSession(node)
    await until(session, lambda: bool(session.snapshot().players), "a seat")
    assert session.add_bot("fast") is None
    await until(session, lambda: len(session.snapshot().players) == 2, "the bot seated")
    assert session.set_ready(True) is None
    await until(session, lambda: session.snapshot().can_start, "everyone ready")
    assert session.start() is None
    await until(session, lambda: session.snapshot().game.phase == Phase.PLAYING, "the deal")
    return session


def _my_area(snap: Snapshot) -> AreaView:
    table = snap.game.table
    assert table is not None and snap.my_seat is not None
    return table.areas[snap.my_seat]


def _two_at_once(snap: Snapshot) -> list[tuple[Action, int, Card]] | None:
    """Two centre plays whose second key still means the same card after the first.

    Best a Post card or the Blitz top, then the Wood top (`a` then `w`, `e` then `w`): they
    share no pile, so both go at once. Else two Post cards (`a` then `s`), or the Blitz top
    then a Post card (`e` then `a`): the first may refill a Post stack from the Blitz pile,
    so the second waits for it. (Never a Post card then the Blitz top: the refill takes it.)
    """
    if len(_my_area(snap).blitz) < 3:
        return None  # the first play's refill could end the round: no second play
    keys = [(SOURCE_KEY[source], slot, top) for source, slot, top in _centre_tops(snap)]
    wood = [k for k in keys if k[0] == Action.WOOD_TO_CENTRE]
    blitz = [k for k in keys if k[0] == Action.BLITZ_TO_CENTRE]
    posts = [k for k in keys if k[0] == Action.POST_TO_CENTRE]
    if wood and (posts or blitz):
        return [(posts or blitz)[0], wood[0]]
    if blitz and posts:
        return [blitz[0], posts[0]]
    return posts[:2] if len(posts) >= 2 else None


def _at_once(pair: list[tuple[Action, int, Card]]) -> bool:
    """Whether the pair shares no pile of ours, so that neither waits for the other."""
    return pair[1][0] == Action.WOOD_TO_CENTRE


class Patient:
    """Plays on toward a pair: the Wood top alone goes to the centre; a Post or Blitz card
    that goes waits for a Wood top to go with it, while the hand is flipped through; after a
    whole pass of the hand with nothing to play, a stuck call waits for the others."""

    def __init__(self, session: NodeSession) -> None:
        self.session = session
        self.flips = 0
        self.steps: list[str] = []

    def __str__(self) -> str:
        return f"{len(self.steps)} steps, the last: {self.steps[-8:]}"

    async def step(self, snap: Snapshot) -> None:
        session, area, tops = self.session, _my_area(snap), _centre_tops(snap)
        self.steps.append(f"tops {[top[2].label() for top in tops]} hand {area.hand}")
        why: Refused | None = Refused(Why.OTHER, what="nothing")
        flipped = False
        if tops and [top[0] for top in tops] == [1]:
            why = session.play(Intent(Action.WOOD_TO_CENTRE))
            self.flips = 0
        elif self.flips <= (area.hand + len(area.wood)) // 3 + 1:
            why = session.play(Intent(Action.FLIP))
            flipped = why is None
            self.flips += flipped
        if why is not None and tops:
            why = session.play(Intent(SOURCE_KEY[tops[0][0]], tops[0][1]))
            self.flips = 0
        if why is not None and session.play(Intent(Action.STUCK)) is None:
            self.flips = 0
            await _changes(session, lambda: not _stuck(session.snapshot()))
        elif flipped:
            await _next_change(session)  # a flip cannot lose a race: look again at once
        elif why is None:
            await _changes(session, lambda: session.snapshot().pending_moves == 0)
        else:
            await _next_change(session)


async def _next_change(session: NodeSession) -> None:
    """Wait for the session's next change (or a few seconds)."""
    seen = False

    def once() -> bool:
        nonlocal seen
        seen, before = True, seen
        return before

    await _changes(session, once)


async def _changes(session: NodeSession, check: Callable[[], bool]) -> None:
    """Wait until ``check`` holds, or a few seconds have passed with none."""
    changed = asyncio.Event()
    unsubscribe = session.subscribe(changed.set)
    try:
        async with asyncio.timeout(STEP_WAIT_S):
            while not check():
                changed.clear()
                await changed.wait()
    except TimeoutError:
        pass
    finally:
        unsubscribe()


async def _until_playing(session: NodeSession) -> Snapshot:
    """The next snapshot in which we may play: the round dealt, our count-in over.

    Between rounds the person has seen the scores at once (spec/rules.md R-54)."""
    snap = session.snapshot()
    while snap.game.phase != Phase.PLAYING or snap.my_seat not in _areas(snap) or snap.count_in:
        session.seen_scores()
        await _next_change(session)
        snap = session.snapshot()
    return snap


def test_two_plays_pressed_back_to_back_both_go(tmp_path: Path) -> None:
    async def scenario() -> None:
        session = await _seated_game(tmp_path)
        player = Patient(session)
        try:
            async with asyncio.timeout(BUDGET_S):
                while True:
                    snap = await _until_playing(session)
                    pair = _two_at_once(snap)
                    if pair is None:
                        await player.step(snap)
                        continue
                    if snap.pending_moves:  # flips still on their way: once they land
                        await _changes(session, lambda: session.snapshot().pending_moves == 0)
                        continue
                    session.take_notices()
                    # Pressed within the same turn of the event loop: well inside 50 ms.
                    answers = [session.play(Intent(action, slot)) for action, slot, _ in pair]
                    assert answers == [None, None], answers
                    assert session.snapshot().pending_moves == 2
                    # Different piles: both went at once; else the second waits its turn.
                    assert len(session.side.queue.held) == (0 if _at_once(pair) else 1)
                    await until(
                        session, lambda: session.snapshot().pending_moves == 0, "both final"
                    )
                    centre = _centre_cards(session.snapshot())
                    if all(top in centre for _, _, top in pair):
                        return
                    notices = session.take_notices()
                    # The bot got to one first: try again.
                    assert "lost_race" in {n.kind for n in notices}, (pair, centre, notices)
        except TimeoutError:
            raise AssertionError(f"no two plays at once in {BUDGET_S}s: {player}") from None
        finally:
            await session.leave()

    run(scenario())


def test_a_flip_pressed_while_the_wood_top_flies_is_held_and_goes(tmp_path: Path) -> None:
    async def scenario() -> None:
        session = await _seated_game(tmp_path)
        player = Patient(session)
        try:
            async with asyncio.timeout(BUDGET_S):
                while True:
                    snap = await _until_playing(session)
                    area = _my_area(snap)
                    wood_goes = any(source == 1 for source, _, _ in _centre_tops(snap))
                    if not wood_goes or not area.hand:
                        await player.step(snap)
                        continue
                    if snap.pending_moves:  # flips still on their way: once they land
                        await _changes(session, lambda: session.snapshot().pending_moves == 0)
                        continue
                    wood_after = len(area.wood) - 1 + min(3, area.hand)
                    assert session.play(Intent(Action.WOOD_TO_CENTRE)) is None
                    assert session.play(Intent(Action.FLIP)) is None  # held: it lands on the Wood
                    assert len(session.side.queue.held) == 1
                    shown = session.snapshot()
                    assert shown.pending_moves == 2
                    assert len(_my_area(shown).wood) == wood_after  # both shown at once
                    await until(
                        session, lambda: session.snapshot().pending_moves == 0, "both final"
                    )
                    notices = session.take_notices()
                    assert not [n for n in notices if "came back" in notice_text(n)], notices
                    return
        except TimeoutError:
            raise AssertionError(f"the Wood top never went in {BUDGET_S}s: {player}") from None
        finally:
            await session.leave()

    run(scenario())


def _centre_tops(snap: Snapshot) -> list[tuple[int, int, Card]]:
    return [(int(play.source), play.slot, play.card) for play in _my_area(snap).centre_plays]


def _stuck(snap: Snapshot) -> bool:
    table = snap.game.table
    return table is not None and snap.my_seat in table.areas and _my_area(snap).stuck


def _areas(snap: Snapshot) -> set[int]:
    table = snap.game.table
    return set() if table is None else set(table.areas)


def _centre_cards(snap: Snapshot) -> set[Card]:
    table = snap.stable.table
    return set() if table is None else {c for pile in table.piles for c in pile.cards}
