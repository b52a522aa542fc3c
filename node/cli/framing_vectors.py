"""Conformance cases for the framing, from spec/vectors/framing.json (spec/protocol.md P-192).

The file has two lists; every entry names the requirement it checks in ``spec``, and
bytes are hex.

* ``frames``: a DBP ``message`` and the bytes that carry it: ``zmtp``, the one ZMTP 3
  frame (a flags byte, 0x00 for a last frame up to 255 bytes with a 1-byte size, 0x02
  for a longer one with an 8-byte big-endian size, then the message), and
  ``curve_plaintext``, the plaintext of the ZMTP-CURVE MESSAGE box that carries it (the
  flags byte 0x00, then the message).
* ``receive``: the ``frames`` a DEALER sends to a table ROUTER (after CURVE), and what
  the node takes from them: the ``accepted`` message, or null when it drops them.

The ``frames`` cases check the layout as written; the ``receive`` cases hand the frames
to a real table socket of this implementation on 127.0.0.1 and watch what comes out.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import zmq
import zmq.asyncio
from dutchblitz.protocol.conformance.case import Case
from dutchblitz.protocol.wire.auth import Signer
from zmq.utils import z85

from ..net.roster import Roster, Source
from ..net.transport import Transport

LAST_SHORT = 0x00  # ZMTP 3 flags: no MORE, not a command, 1-byte size
LAST_LONG = 0x02  # ZMTP 3 flags: no MORE, not a command, 8-byte size
SENTINEL = b"framing sentinel: one frame"
WAIT_S = 10.0


def zmtp_frame(message: bytes) -> bytes:
    """The one ZMTP 3 frame (RFC 23) that carries ``message``."""
    if len(message) <= 255:
        return bytes([LAST_SHORT, len(message)]) + message
    return bytes([LAST_LONG]) + len(message).to_bytes(8, "big") + message


def curve_plaintext(message: bytes) -> bytes:
    """The plaintext of the ZMTP-CURVE MESSAGE box (RFC 26) that carries ``message``."""
    return bytes([LAST_SHORT]) + message


def cases(data: Mapping[str, Any]) -> list[Case]:
    found: list[Case] = []
    for vector in data.get("frames", []):
        name = f"frames: {vector.get('name', '?')}"
        found.append(Case(str(vector.get("spec", "?")), name, partial(_guarded, _frames, vector)))
    for vector in data.get("receive", []):
        name = f"receive: {vector.get('name', '?')}"
        found.append(Case(str(vector.get("spec", "?")), name, partial(_guarded, _receive, vector)))
    return found


def _guarded(check: Callable[[Mapping[str, Any]], str | None], vector: Any) -> str | None:
    try:
        return check(vector)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return f"unreadable vector: {type(exc).__name__}: {exc}"


def _frames(vector: Mapping[str, Any]) -> str | None:
    message = bytes.fromhex(vector["message"])
    if zmtp_frame(message).hex() != vector["zmtp"]:
        return f"ZMTP frame {zmtp_frame(message).hex()[:40]}..., expected {vector['zmtp'][:40]}..."
    if curve_plaintext(message).hex() != vector["curve_plaintext"]:
        return "the CURVE MESSAGE plaintext differs"
    return None


def _receive(vector: Mapping[str, Any]) -> str | None:
    frames = [bytes.fromhex(frame) for frame in vector["frames"]]
    wanted = vector["accepted"]
    got = asyncio.run(asyncio.wait_for(deliver(frames), WAIT_S * 2))
    if wanted is None:
        return None if got is None else f"took {got.hex()[:40]} from {len(frames)} frames"
    if got is None:
        return "dropped a message of one frame"
    return None if got.hex() == wanted else f"took {got.hex()[:40]}, expected {wanted[:40]}"


async def deliver(frames: Sequence[bytes]) -> bytes | None:
    """Send ``frames`` as one ZeroMQ message to a real table socket; what does it take?

    A one-frame sentinel follows on the same connection: if it comes out first, the
    frames were dropped.
    """
    server, client = Signer(bytes([0x51]) * 32), Signer(bytes([0x52]) * 32)
    roster = Roster()
    roster.learn(client.node_id, client.public_key, Source.DOOR)
    transport = await Transport.open(server, "127.0.0.1", roster=roster)
    context = zmq.asyncio.Context()
    dealer = context.socket(zmq.DEALER)
    try:
        dealer.setsockopt(zmq.LINGER, 0)
        dealer.setsockopt(zmq.CURVE_SERVERKEY, z85.encode(server.curve_public))
        dealer.setsockopt(zmq.CURVE_PUBLICKEY, z85.encode(client.curve_public))
        dealer.setsockopt(zmq.CURVE_SECRETKEY, z85.encode(client.curve_secret()))
        dealer.connect(transport.endpoint)
        await dealer.send_multipart(list(frames))
        await dealer.send(SENTINEL)
        _sender, data = await asyncio.wait_for(transport.recv(), WAIT_S)
        return None if data == SENTINEL else data
    finally:
        dealer.close(linger=0)
        context.term()
        transport.close()
