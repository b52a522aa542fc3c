"""A peer that announces itself again on the LAN is greeted again (it may have restarted)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from dutchblitz.node.net.contacts import GREET_GAP_S
from dutchblitz.node.net.roster import Roster, Source
from dutchblitz.node.net.transport import Transport
from dutchblitz.node.seat.config import SeatConfig
from dutchblitz.node.seat.local import LocalSeat
from dutchblitz.node.store.state import StateDir
from dutchblitz.protocol.seat.duties import Wishes
from dutchblitz.protocol.wire.auth import Signer
from dutchblitz.protocol.wire.messages import Kind
from dutchblitz.protocol.wire.peek import message_kind


async def hellos_within(transport: Transport, seconds: float) -> int:
    count = 0
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    while (left := until - loop.time()) > 0:
        try:
            _sender, data = await asyncio.wait_for(transport.recv(), left)
        except TimeoutError:
            break
        count += message_kind(data) == Kind.HELLO
    return count


@pytest.mark.timeout(30)
def test_an_announced_peer_is_greeted_again(tmp_path: Path) -> None:
    async def main() -> None:
        store = StateDir(tmp_path / "a")
        signer, other_signer = store.identity(), Signer(bytes(range(32)))
        node, other_id = signer.node_id, other_signer.node_id
        mine_roster, other_roster = Roster(), Roster()
        mine_roster.learn(other_id, other_signer.public_key, Source.DOOR)
        other_roster.learn(node, signer.public_key, Source.DOOR)
        mine = await Transport.open(signer, "127.0.0.1", roster=mine_roster)
        other = await Transport.open(other_signer, "127.0.0.1", roster=other_roster)
        seat = LocalSeat(SeatConfig("t", Wishes(name="a")), store, mine, node)
        try:
            seat.meet(other_id, other.endpoint)
            assert await hellos_within(other, 1.0) == 1
            await asyncio.sleep(GREET_GAP_S)
            seat.meet(other_id, other.endpoint)  # learnt again from a HELLO list: no news
            assert await hellos_within(other, 0.5) == 0
            await asyncio.sleep(GREET_GAP_S)
            seat.meet(other_id, other.endpoint, announced=True)  # it announced itself anew
            assert await hellos_within(other, 1.0) == 1
        finally:
            mine.close()
            other.close()
            store.close()

    asyncio.run(main())
