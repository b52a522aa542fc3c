"""Bad bytes thrown at a node's port mid-game: the node drops them and the game completes.

A raw ZeroMQ DEALER, not a node, connects to one player's ROUTER while a round
is being played and sends garbage, msgpack that is not a message, an oversize
message, a wrong version, several frames at once, and well-formed messages
from a node that is not at the table (or is at another table). The player
counts what it refused, and the four nodes still finish the game and agree.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest
import zmq
from dutchblitz.protocol.codec import encode
from dutchblitz.protocol.messages import (
    Envelope,
    Event,
    Heartbeat,
    Hello,
    MoveKind,
    Play,
    RepairRequest,
)

from tests.lan.nodes import (
    BlitzNode,
    check_agreement,
    free_ports,
    loopback_args,
    stop_all,
)

pytestmark = [pytest.mark.lan, pytest.mark.timeout(180)]

PLAYERS = 4


def hostile_messages(nowhere: int) -> list[list[bytes]]:
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
        [encode(Envelope("garden", other, 8, 0, Heartbeat(0, (), 0, b"")))],
    ]


def throw_at(port: int, messages: list[list[bytes]]) -> None:
    context = zmq.Context()
    dealer = context.socket(zmq.DEALER)
    dealer.setsockopt(zmq.LINGER, 2000)  # hand everything over before closing
    dealer.setsockopt(zmq.ROUTING_ID, os.urandom(16))
    dealer.connect(f"tcp://127.0.0.1:{port}")
    try:
        for frames in messages:
            dealer.send_multipart(frames)
    finally:
        dealer.close()
        context.term()


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
        throw_at(ports[0], hostile_messages(nowhere))
        target.wait_for_text("round 2: playing")
        throw_at(ports[0], hostile_messages(nowhere))
        throw_at(ports[0], [[bytes(1 << 20)]])  # so big that ZeroMQ hangs up on the sender
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
    refused = counters["dropped"]
    for reason in ("malformed", "bad_version", "other_table"):
        assert refused.get(reason, 0) >= 2, refused
    assert counters["alarms"].get("dropped", 0) >= 3
