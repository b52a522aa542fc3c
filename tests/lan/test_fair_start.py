"""A fair start to every round over real sockets: a person's seat and two bot seats.

spec/rules.md R-54 and R-55, spec/protocol.md P-147 to P-150. One node runs in this
process on 127.0.0.1; the bots are local seats, full peers on their own ZeroMQ
sockets. Round 1 counts in before anyone moves; after it, round 2 is dealt but not
played until the person says, through the session, that they saw the scores.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from dutchblitz.client.games.blitz.words import said
from dutchblitz.node.runtime import Node, Options
from dutchblitz.node.session import NodeSession
from dutchblitz.protocol.games.blitz.intents import Action, Intent
from dutchblitz.protocol.replica.effects import Delivered, Effect
from dutchblitz.protocol.seat.pace import COUNT_IN_S
from dutchblitz.protocol.table.state import Game, Phase
from dutchblitz.protocol.wire.messages import Play

from tests.lan.test_session import play_a_while, run, until

pytestmark = [pytest.mark.lan, pytest.mark.timeout(120)]

SLACK_S = 0.5  # the bots' own stable games may begin play a moment before ours


def replica_stable(session: NodeSession) -> Game:
    replica = session.seat.replica
    assert replica is not None
    return replica.stable


def dealt_in_full(game: Game) -> bool:
    present = {m.seat for m in game.members.values() if m.present}
    return game.joint is not None and all(
        seat in game.deals for seat in game.dealers if seat in present
    )


def test_rounds_wait_for_the_scores_to_be_seen_and_count_in_first(tmp_path: Path) -> None:
    async def scenario() -> None:
        node = Node(Options(name="Ada", interface="127.0.0.1", discovery=False, state_dir=tmp_path))
        await node.start()
        session = NodeSession(node)
        seat = session.seat
        loop = asyncio.get_running_loop()
        first_moves: dict[bytes, float] = {}

        def note(effect: Effect, live: bool) -> None:
            entry = effect.entry if isinstance(effect, Delivered) else None
            if entry is not None and isinstance(entry.body, Play) and entry.outcome.accepted:
                first_moves.setdefault(entry.sender, loop.time())

        seat.listeners.append(note)
        # The replica's own game: the deal's books (joint, deals, dealers) are no screen's.
        stable: Callable[[], Game] = lambda: replica_stable(session)  # noqa: E731
        try:
            await until(session, lambda: session.snapshot().players[0].name == "Ada", "profile")
            assert session.add_bot("flat-out") is None
            assert session.add_bot("flat-out") is None
            await until(session, lambda: len(session.snapshot().players) == 3, "two bots")
            assert session.set_ready(True) is None
            await until(session, lambda: session.snapshot().can_start, "everyone ready")
            assert session.start() is None
            await until(session, lambda: stable().phase == Phase.PLAYING, "round 1")
            began = seat.pace.playing_from
            if session.snapshot().count_in > 0:
                why = said(session.play(Intent(Action.FLIP)))
                assert why.startswith("wait for the count-in"), why
            await play_a_while(session)
            bots = {bot.seat.node_id for bot in node.bots.seats}
            assert bots <= set(first_moves), "both bots played round 1"
            for bot in bots:
                assert first_moves[bot] >= began + COUNT_IN_S - SLACK_S, "a bot jumped the gun"

            # Round 2: the bots have seen the scores at once; the person has not.
            me = session.snapshot().my_seat
            waiting = lambda: stable().round == 2 and dealt_in_full(stable())  # noqa: E731
            await until(session, waiting, "round 2 dealt")
            assert stable().phase == Phase.DEALING, "play waits for the person's READY"
            assert stable().still_looking() == [me]
            assert session.snapshot().scores_left > 0
            assert session.seen_scores() is None
            await until(session, lambda: stable().phase == Phase.PLAYING, "round 2 played")
            assert stable().round == 2
            assert session.snapshot().count_in > 0
            assert said(session.seen_scores()) == "no scores are waiting to be seen"
        finally:
            await session.leave()

    run(scenario())
