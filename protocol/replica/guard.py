"""Bounds on what one peer can make a replica hold, send or connect to.

A message that passes the codec can still carry wild values: a Lamport time near
2^63, a sender id never seen before, a HELLO naming endpoints anywhere on the net,
an ack for a node nobody knows. The replica stays well inside these limits whatever
it is sent (spec/protocol.md section 15, "Bounds"); what falls outside is dropped
and counted, never raised.

The limits are far above honest play (a table seats at most 8 players) and each is a
pure function of the message and of the replica's own state, so honest nodes treat
the same message alike.
"""

from __future__ import annotations

import ipaddress

# A message stamped more than this above the receiver's clock is dropped, and the clock
# moves up by this much only (a lagging honest node catches up in a few messages, and
# what it dropped is repaired). Honest clocks never drift this far apart, and a peer needs
# 2^39 messages to run anyone's clock out of the codec's range.
MAX_CLOCK_JUMP = 2**24
# Senders a replica keeps a stream for. Past it, the least recently heard stream that is
# not a member's and holds no event makes room; if there is none, the message is dropped.
MAX_STREAMS = 128
# Events buffered from a sender that is not a present member (a newcomer not yet
# admitted here, or a stranger). A member's stream may run ``streams.MAX_AHEAD`` ahead.
MAX_GUEST_AHEAD = 64
# Void events of senders nobody has seated that a replica keeps to serve in repairs.
MAX_GUEST_RAWS = 4096
# Nodes a replica knows an endpoint for, and how many new ones one HELLO may teach it.
MAX_ENDPOINTS = 64
MAX_NEW_PEERS_PER_HELLO = 8
# Nodes named as the target of SUSPECT claims, and nodes with a settled cut.
MAX_CLAIM_TARGETS = MAX_STREAMS
MAX_SETTLED = 4 * MAX_STREAMS
# HELLO admissions offered and not yet applied.
MAX_ADMITTING = 64


def endpoint_ok(endpoint: str, own: str = "") -> bool:
    """Whether a node may connect to ``endpoint``, learnt from a peer.

    Only ``tcp://A.B.C.D:PORT`` with a unicast IPv4 address and a port from 1 to 65535;
    a loopback address only when ``own`` (our endpoint) is on loopback too, so a peer on
    the LAN cannot point us at services on our own host.
    """
    if not endpoint.startswith("tcp://"):
        return False
    host, sep, port = endpoint[len("tcp://") :].rpartition(":")
    if not sep or not port.isdigit() or len(port) > 5 or not 0 < int(port) < 65536:
        return False
    try:
        address = ipaddress.IPv4Address(host)
    except ValueError:
        return False
    if address.is_unspecified or address.is_multicast or address == _BROADCAST:
        return False
    if address.is_loopback:
        return _host_is_loopback(own)
    return True


_BROADCAST = ipaddress.IPv4Address("255.255.255.255")


def _host_is_loopback(endpoint: str) -> bool:
    host = endpoint.removeprefix("tcp://").rpartition(":")[0]
    try:
        return ipaddress.IPv4Address(host).is_loopback
    except ValueError:
        return False
