"""P-146: a link a peer refused at first is reported once it comes up, so the seat greets again.

What a DEALER queued while its peer refused our key is gone with that connection: a HELLO
among it would leave the peer without our epoch, and two lobbies that found each other at
the same moment would never merge.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from dutchblitz.node.net.roster import Source

from tests.node.test_transport import key, node_id, opened, run

pytestmark = pytest.mark.timeout(30)


async def until(condition: Callable[[], object], what: str) -> None:
    deadline = asyncio.get_running_loop().time() + 10.0
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


def test_a_refused_link_that_comes_up_is_reported_once() -> None:
    async def scenario() -> None:
        async with await opened(1) as a, await opened(7) as stranger:
            relinked: list[bytes] = []
            stranger.relinked.append(relinked.append)
            stranger.add_peer(a.node_id, a.endpoint, key(1))
            stranger.send(a.node_id, b"hello, lost with the refused connection")
            await until(lambda: a.roster.stats.refused >= 1, "a refusal")
            assert relinked == []
            a.roster.learn(node_id(7), key(7), Source.DOOR)
            await until(lambda: relinked, "the link to come up")
            assert relinked == [a.node_id]
            assert stranger.send(a.node_id, b"hello again")
            sender, data = await asyncio.wait_for(a.recv(), 10.0)
            assert (sender, data) == (node_id(7), b"hello again")
            # One more round trip on the same link: any second report would have come by now.
            assert stranger.send(a.node_id, b"still here")
            assert await asyncio.wait_for(a.recv(), 10.0) == (node_id(7), b"still here")
            assert relinked == [a.node_id], "reported once"

    run(scenario())


def test_a_link_let_in_at_once_is_not_reported() -> None:
    async def scenario() -> None:
        async with await opened(1) as a, await opened(2) as b:
            relinked: list[bytes] = []
            b.relinked.append(relinked.append)
            b.add_peer(a.node_id, a.endpoint, key(1))
            assert b.send(a.node_id, b"hello")
            assert (await asyncio.wait_for(a.recv(), 10.0))[1] == b"hello"
            assert relinked == []

    run(scenario())
