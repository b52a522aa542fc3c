"""spec/vectors/framing.json (P-192): every case passes on a real table socket, the frame
bytes are the ones libzmq puts on the wire, and a wrong vector is caught."""

from __future__ import annotations

import copy
import json
import socket
from importlib import resources
from typing import Any

import pytest
import zmq
from dutchblitz.node.cli import framing_vectors
from dutchblitz.protocol.conformance.case import Case

pytestmark = pytest.mark.timeout(60)


def vectors() -> dict[str, Any]:
    source = resources.files("dutchblitz.vectors").joinpath("framing.json")
    data: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return data


CASES = framing_vectors.cases(vectors())


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.spec_id} {c.name}")
def test_vector(case: Case) -> None:
    assert case.run() is None


def test_a_wrong_vector_fails() -> None:
    data = copy.deepcopy(vectors())
    data["frames"] = [dict(data["frames"][0], zmtp="01" + data["frames"][0]["zmtp"][2:])]
    data["receive"] = [dict(data["receive"][1], accepted=data["receive"][0]["accepted"])]
    assert all(case.run() is not None for case in framing_vectors.cases(data))


def _exactly(conn: socket.socket, count: int) -> bytes:
    got = b""
    while len(got) < count:
        more = conn.recv(count - len(got))
        assert more, "the peer closed the connection"
        got += more
    return got


def _greeting() -> bytes:
    """A ZMTP 3.0 greeting of the NULL mechanism, as a server that accepts anything."""
    mechanism = b"NULL".ljust(20, b"\x00")
    return b"\xff" + bytes(8) + b"\x7f" + b"\x03\x00" + mechanism + b"\x00" + bytes(31)


def _ready(socket_type: bytes) -> bytes:
    name = b"Socket-Type"
    body = b"\x05READY" + bytes([len(name)]) + name + len(socket_type).to_bytes(4, "big")
    body += socket_type
    return bytes([0x04, len(body)]) + body


@pytest.mark.parametrize("index", range(len(vectors()["frames"])))
def test_libzmq_puts_the_vectors_frame_on_the_wire(index: int) -> None:
    """A DEALER's message, read off a plain TCP socket (NULL mechanism, so in the clear):
    the bytes after the handshake are the vector's ZMTP frame; CURVE boxes the same
    frame's flags and body (RFC 26)."""
    vector = vectors()["frames"][index]
    message = bytes.fromhex(vector["message"])
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(10)
    context = zmq.Context()
    dealer = context.socket(zmq.DEALER)
    try:
        dealer.setsockopt(zmq.LINGER, 0)
        dealer.connect(f"tcp://127.0.0.1:{listener.getsockname()[1]}")
        dealer.send(message)
        conn, _address = listener.accept()
        with conn:
            conn.settimeout(10)
            conn.sendall(_greeting() + _ready(b"ROUTER"))
            assert _exactly(conn, 10)[:1] == b"\xff"
            _exactly(conn, 54)  # the rest of the DEALER's greeting
            flags, size = _exactly(conn, 2)
            assert flags == 0x04  # its READY command
            _exactly(conn, size)
            frame = _exactly(conn, len(vector["zmtp"]) // 2)
        assert frame.hex() == vector["zmtp"]
        assert framing_vectors.curve_plaintext(message).hex() == vector["curve_plaintext"]
    finally:
        dealer.close(linger=0)
        context.term()
        listener.close()
