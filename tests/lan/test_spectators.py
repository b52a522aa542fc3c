"""Spectators on loopback (spec/protocol.md section 26): real processes over ZeroMQ.

Three bot players play a whole game. Seven spectators (``blitz-node --watch --headless``)
knock at their doors from the start; an eighth arrives mid-game and catches up from the
log. Every spectator writes the same final scores, winner and log digest as the players,
though no player ever waited for one of them. A spectator that tries to play is refused
and counted (by the channel: during a game it takes nothing but WATCH from anyone
unseated). On a private table a spectator needs the passphrase: a wrong one is kept out.
"""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import pytest
import zmq.asyncio
from dutchblitz.node.net.door import Card, knock
from dutchblitz.node.net.roster import Roster, Source
from dutchblitz.node.net.transport import Transport
from dutchblitz.protocol.wire.auth import Signer
from dutchblitz.protocol.wire.codec import decode, encode
from dutchblitz.protocol.wire.messages import Envelope, Event, MoveKind, Play, Watch, WatchOp
from dutchblitz.protocol.wire.signing import sign_encoded

from tests.lan.nodes import (
    AGREED,
    WATCH,
    BlitzNode,
    check_agreement,
    free_ports,
    loopback_args,
    stop_all,
)

pytestmark = [pytest.mark.lan, pytest.mark.timeout(240)]

PLAYERS = 3
SPECTATORS = 8


def watcher_args(ports: list[int], *extra: str) -> list[str]:
    peers = [arg for port in ports for arg in ("--peer", f"127.0.0.1:{port}")]
    return ["--interface", "127.0.0.1", "--port", "0", "--no-discovery", *peers, *extra]


def counters_of(node: BlitzNode) -> dict[str, object]:
    line = next(x for x in node.output().splitlines() if "counters:" in x)
    return ast.literal_eval(line.split("counters: ", 1)[1])  # type: ignore[no-any-return]


async def try_to_play(door_port: int, table: str) -> None:
    """A spectator of our own making: it subscribes, is fed, then sends a move."""
    signer = Signer(bytes([77]) * 32)
    roster = Roster()
    transport = await Transport.open(signer, "127.0.0.1", 0, roster=roster)
    context = zmq.asyncio.Context()
    try:
        mine = Card(signer.node_id, signer.public_key, transport.endpoint, "rogue")
        door = f"tcp://127.0.0.1:{door_port}"
        card = await knock(context, door, signer=signer, table=table, passphrase=None, mine=mine)
        roster.learn(card.node_id, card.public_key, Source.DOOR)
        transport.add_peer(card.node_id, card.table_endpoint, card.public_key)
        subscribe = Watch(WatchOp.SUBSCRIBE, b"", 0, "rogue", transport.endpoint)
        transport.send(card.node_id, encode(Envelope(table, signer.node_id, 0, 0, subscribe)))
        while True:  # the member's HELLO may come first
            _sender, data = await asyncio.wait_for(transport.recv(), 20)
            fed = decode(data).payload
            if isinstance(fed, Watch) and fed.op == WatchOp.FEED:
                break
        stuck = Play(1, MoveKind.STUCK, 0, 0, -1, -1, -1)
        move = Envelope(table, signer.node_id, 50, 1, Event(stuck))
        transport.send(card.node_id, sign_encoded(signer, encode(move)))
        # Subscribe again from index 0 behind the play: the member's answer, a FEED from 0
        # again, shows the play (sent before it on the same connection) was handed over.
        transport.send(card.node_id, encode(Envelope(table, signer.node_id, 0, 0, subscribe)))
        while True:
            _sender, data = await asyncio.wait_for(transport.recv(), 20)
            fed = decode(data).payload
            if isinstance(fed, Watch) and fed.op == WatchOp.FEED and fed.index == 0:
                break
    finally:
        transport.close()
        context.destroy(linger=0)


def test_eight_spectators_follow_a_game_to_its_end(tmp_path: Path) -> None:
    ports = free_ports(PLAYERS)
    table = ["--table", "gallery"]
    players = [
        BlitzNode(f"bot{i}", tmp_path / f"node{i}", loopback_args(i, ports, PLAYERS, *table))
        for i in range(PLAYERS)
    ]
    early = [
        BlitzNode(f"fan{i}", tmp_path / f"fan{i}", watcher_args(ports, *table), role=WATCH)
        for i in range(SPECTATORS - 1)
    ]
    late: BlitzNode | None = None
    try:
        players[0].wait_for_text("round 2: playing")
        late = BlitzNode("late", tmp_path / "late", watcher_args(ports, *table), role=WATCH)
        late.wait_for_text("round ")  # caught up: it logs the rounds it is fed
        asyncio.run(try_to_play(ports[1], "gallery"))
        codes = [node.finish() for node in [*players, *early, late]]
        assert codes == [0] * (PLAYERS + SPECTATORS), "\n\n".join(n.output() for n in players)
        played = check_agreement(players)
        for fan in [*early, late]:
            seen = fan.summary()
            for key in AGREED:
                assert seen[key] == played[key], f"{fan.label} differs in {key}"
    finally:
        stop_all([*players, *early, *([late] if late else [])])
    names = {p["name"] for p in played["players"]}
    assert names.isdisjoint({*(f"fan{i}" for i in range(SPECTATORS)), "late", "rogue"})
    # During a game the move goes no further than the channel (P-216); in a lobby the
    # replica would refuse it as ``from_spectator`` (tests/protocol/test_spectators.py).
    counters = counters_of(players[1])
    assert counters["not_on_roster"] == 1
    assert "rogue" not in players[1].output()
    for node in [*players, *early, late]:
        assert "Traceback" not in node.output()


def test_a_private_tables_spectator_needs_the_passphrase(tmp_path: Path) -> None:
    ports = free_ports(2)
    table = ["--table", "attic", "--passphrase", "correct horse"]
    players = [
        BlitzNode(f"bot{i}", tmp_path / f"node{i}", loopback_args(i, ports, 2, *table))
        for i in range(2)
    ]
    fan = BlitzNode("fan", tmp_path / "fan", watcher_args(ports, *table), role=WATCH)
    wrong = ["--table", "attic", "--passphrase", "battery staple"]
    peeper = BlitzNode("peeper", tmp_path / "peeper", watcher_args(ports, *wrong), role=WATCH)
    try:
        codes = [node.finish() for node in [*players, fan]]
        assert codes == [0, 0, 0], "\n\n".join(n.output() for n in players)
        played = check_agreement(players)
        assert fan.summary()["final_scores"] == played["final_scores"]
        peeper.wait_for_text("refused us: wrong passphrase")
    finally:
        stop_all([*players, fan, peeper])
    assert not peeper.summary_path.exists()
    assert "round" not in peeper.output().split("refused us")[-1]
