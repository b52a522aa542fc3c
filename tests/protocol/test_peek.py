"""What a seat reads of a message before decoding it (protocol/wire/peek.py)."""

from __future__ import annotations

import pytest
from dutchblitz.protocol.wire.codec import encode
from dutchblitz.protocol.wire.messages import Bye, Envelope, Heartbeat, Kind
from dutchblitz.protocol.wire.peek import (
    holds_a_start,
    message_kind,
    message_sender,
    own_last_seq,
    said_goodbye,
)

from tests.protocol.replicas import NODE_IDS, Net

SENDER = bytes(range(16))


def _heartbeat(table: str = "blitz", sender: bytes = SENDER) -> bytes:
    return encode(Envelope(table, sender, 7, 0, Heartbeat(3, (), 0, b"")))


@pytest.mark.parametrize("table", ["t", "blitz", "x" * 31, "y" * 32])
def test_the_kind_and_the_sender_are_read_from_the_header(table: str) -> None:
    data = _heartbeat(table)
    assert message_kind(data) == Kind.HEARTBEAT
    assert message_sender(data) == SENDER


@pytest.mark.parametrize("data", [b"", b"\x98", b"\x98\x01", b"\x97\x01\x02", b"\x98\x01\x02\xc0"])
def test_what_is_no_envelope_names_nobody(data: bytes) -> None:
    assert message_sender(data) is None
    if not data.startswith(b"\x98\x01") or len(data) < 3:
        assert message_kind(data) is None


def test_a_cut_header_names_nobody() -> None:
    data = _heartbeat()
    assert message_sender(data[: data.index(SENDER) + 8]) is None


def test_a_log_with_a_start_is_told_from_one_without() -> None:
    net = Net(2)
    net.open_table()
    before = list(net.nodes[0].persisted)
    net.lobby()  # ends with a START
    after = list(net.nodes[0].persisted)
    assert not holds_a_start(before)
    assert holds_a_start(after)
    assert not holds_a_start([b"garbage", _heartbeat()])
    assert own_last_seq(after, NODE_IDS[0]) == net.replica(0).my_seq
    assert own_last_seq([b"garbage"], NODE_IDS[0]) == 0


def test_a_log_in_which_we_left_is_told_from_one_in_which_another_did() -> None:
    net = Net(3)
    net.open_table()
    net.lobby()
    net.submit(1, Bye())
    net.settle()
    kept = list(net.nodes[0].persisted)
    assert said_goodbye(kept, NODE_IDS[1])
    assert not said_goodbye(kept, NODE_IDS[0])
    assert not said_goodbye([b"garbage", _heartbeat()], NODE_IDS[1])
