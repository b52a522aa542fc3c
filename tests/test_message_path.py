"""The path a received PLAY takes to the screen (tests/message_path.py) is measured."""

from __future__ import annotations

import asyncio

import pytest

from tests import message_path
from tests.message_path import PROJECT, PathTrace, figures

SEAT, CORE = PROJECT + "node.seat.local", PROJECT + "protocol.replica.core"
ORDER, LIVENESS = PROJECT + "protocol.replica.order", PROJECT + "protocol.replica.liveness"
LAYOUT, SCREENS = PROJECT + "client.layout", PROJECT + "client.games.blitz.screens"


def test_a_module_entered_twice_on_one_chain_is_a_return() -> None:
    trace = PathTrace(b"")
    trace.receive = [(SEAT,), (SEAT, CORE), (SEAT, CORE, ORDER, LIVENESS, CORE)]
    trace.redraw = [(LAYOUT, SCREENS)]
    found = figures(trace)
    assert found.crossed == (PROJECT + "node.net.transport", SEAT, CORE, ORDER, LIVENESS, LAYOUT,
                             SCREENS)  # fmt: skip
    assert found.returns == ((CORE, ORDER, LIVENESS, CORE),)
    assert found.deepest_receive == (SEAT, CORE, ORDER, LIVENESS, CORE)
    assert found.deepest_redraw == (LAYOUT, SCREENS)
    assert message_path.deepest(found) == 5
    assert "deepest call chain 5 modules (5 receiving, 2 drawing), 1 returns" in (
        message_path.report(found)
    )


@pytest.mark.timeout(120)
def test_a_real_play_is_followed_from_the_socket_to_the_screen() -> None:
    """Two bots on 127.0.0.1 in this process: the path starts at the transport, goes
    through the seat and the replica, and ends in the client's screens, never coming back
    into a module its call had left."""
    found = figures(asyncio.run(message_path._trace()))
    assert found.crossed[:2] == (PROJECT + "node.net.transport", SEAT)
    assert {CORE, PROJECT + "node.session", PROJECT + "client.state", LAYOUT} <= set(found.crossed)
    assert found.deepest_receive[0] == SEAT
    assert found.deepest_redraw[0] in {LAYOUT, PROJECT + "client.app"}  # a frame's first step
    assert found.returns == (), message_path.report(found)
    assert message_path.deepest(found) >= 2
    assert "deepest call chain" in message_path.report(found)
