"""Bad bytes thrown at a node mid-game: the node drops them and the game completes.

A stranger's raw ZeroMQ DEALER (a key nobody let in) cannot even connect to a
player's table ROUTER: the CURVE handshake is refused. So the bad bytes come
from an insider: a raw DEALER holding another player's key (read from its state
directory, as a player who turned against the table could) connects to one
player's ROUTER while a round is being played and sends garbage, msgpack that
is not a message, an oversize message, a wrong version, several frames at once,
well-formed messages that name another sender than the key (a node that is not
at the table), and a message for another table. The player counts what it
refused, and the four nodes still finish the game and agree.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest
import zmq
from dutchblitz.protocol.wire.auth import Signer
from dutchblitz.protocol.wire.codec import encode
from dutchblitz.protocol.wire.messages import (
    Envelope,
    Event,
    Heartbeat,
    Hello,
    MoveKind,
    Play,
    RepairRequest,
)
from zmq.utils import z85

from tests.lan.nodes import (
    BlitzNode,
    check_agreement,
    free_ports,
    loopback_args,
    stop_all,
)

pytestmark = [pytest.mark.lan, pytest.mark.timeout(180)]

PLAYERS = 4


def hostile_messages(nowhere: int, insider: bytes) -> list[list[bytes]]:
    """Each item is one ZeroMQ message, as a list of frames."""
    stranger, other = os.urandom(16), os.urandom(16)
    heartbeat = encode(Envelope("blitz", stranger, 3, 0, Heartbeat(0, (), 0, b"")))
    hello = Hello("mallory", "pump", f"tcp://127.0.0.1:{nowhere}", (), os.urandom(16), 0)
    play = Play(1, MoveKind.CENTRE, 0, 0, 44, -1, -1)
    return [
        [os.urandom(200)],
        [b""],
        [b"\xc1"],  # a byte msgpack never uses
        [b"\x98\x01\x03"],  # an envelope cut short
        [bytes(65_600)],  # beyond the 64 KiB limit (the transport drops it)
        [bytes([0x98, 0x02]) + heartbeat[2:]],  # version 2
        [heartbeat, heartbeat],  # two frames in one message
        [encode(Envelope("blitz", stranger, 4, 0, hello))],
        [heartbeat],
        [encode(Envelope("blitz", stranger, 5, 1, Event(play)))],
        [encode(Envelope("blitz", other, 6, 3, Event(play)))],  # no hello, a gap before it
        [encode(Envelope("blitz", other, 7, 0, RepairRequest(other, 1, 5)))],
        [encode(Envelope("garden", insider, 8, 0, Heartbeat(0, (), 0, b"")))],
    ]


def throw_at(endpoint: str, server: bytes, key: Signer, messages: list[list[bytes]]) -> None:
    """Send ``messages`` to a table ROUTER (whose CURVE key is ``server``) holding ``key``."""
    context = zmq.Context()
    dealer = context.socket(zmq.DEALER)
    dealer.setsockopt(zmq.LINGER, 2000)  # hand everything over before closing
    dealer.setsockopt(zmq.CURVE_SERVERKEY, z85.encode(server))
    dealer.setsockopt(zmq.CURVE_PUBLICKEY, z85.encode(key.curve_public))
    dealer.setsockopt(zmq.CURVE_SECRETKEY, z85.encode(key.curve_secret()))
    dealer.connect(endpoint)
    try:
        for frames in messages:
            dealer.send_multipart(frames)
    finally:
        dealer.close()
        context.term()


def table_endpoint(node: BlitzNode) -> str:
    """Where the node's table ROUTER listens, from its first log line."""
    for line in node.lines:
        found = re.search(r"listening on (tcp://\S+), door ", line)
        if found:
            return found.group(1)
    raise AssertionError(f"{node.label}: no table endpoint logged:\n{node.output()}")


def key_of(state_dir: Path) -> Signer:
    return Signer((state_dir / "identity.key").read_bytes())


def test_hostile_bytes_mid_game_are_dropped_and_the_game_completes(tmp_path: Path) -> None:
    ports = free_ports(PLAYERS + 1)
    nowhere = ports.pop()
    nodes = [
        BlitzNode(f"bot{i}", tmp_path / f"node{i}", loopback_args(i, ports, PLAYERS))
        for i in range(PLAYERS)
    ]
    target = nodes[0]
    try:
        target.wait_for_text("round 1: playing")
        endpoint, server = table_endpoint(target), key_of(tmp_path / "node0").curve_public
        insider, stranger = key_of(tmp_path / "node1"), Signer(os.urandom(32))
        messages = hostile_messages(nowhere, insider.node_id)
        throw_at(endpoint, server, stranger, messages)  # refused at the handshake
        throw_at(endpoint, server, insider, messages)
        target.wait_for_text("round 2: playing")
        throw_at(endpoint, server, insider, messages)
        throw_at(endpoint, server, insider, [[bytes(1 << 20)]])  # ZeroMQ hangs up on it
        codes = [node.finish() for node in nodes]
        assert codes == [0] * PLAYERS, "\n\n".join(node.output() for node in nodes)
        check_agreement(nodes)
    finally:
        stop_all(nodes)
    output = target.output()
    assert "Traceback" not in output
    line = next(x for x in output.splitlines() if "counters:" in x)
    counters = ast.literal_eval(line.split("counters: ", 1)[1])
    assert counters["loop_errors"] == 0
    assert counters["transport_refused"] == 4, counters  # oversize and two-frame, twice
    assert counters["roster"]["refused"] >= 1, counters  # the stranger
    assert counters["forged_sender"] >= 10, counters  # P-139: five naming others, twice
    refused = counters["dropped"]
    for reason in ("malformed", "bad_version", "other_table"):
        assert refused.get(reason, 0) >= 2, refused
    assert counters["alarms"].get("dropped", 0) >= 3
