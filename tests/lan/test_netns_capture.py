"""What an eavesdropper on the LAN sees of a game: CURVE ciphertext, no msgpack plaintext.

Three nodes in their own network namespaces, on one bridge, meet through each
other's doors (``--peer``, no zeroconf: mDNS adverts are public by design) and
play a short game while tcpdump records every frame on the bridge. The capture
must hold plenty of ZeroMQ traffic, every ZeroMQ greeting must name CURVE, and
none of the table name, the player names or a DBP envelope's first bytes may
appear in it. A control sends one plaintext HELLO between two of the hosts
during the same capture, and the same search must find that one.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from dutchblitz.protocol.wire.codec import encode
from dutchblitz.protocol.wire.messages import Envelope, Hello, Kind

from tests.lan.nodes import BlitzNode, check_agreement, stop_all
from tests.netns_helpers import Process, private_lan

pytestmark = [
    pytest.mark.lan,
    pytest.mark.netns,
    pytest.mark.timeout(240),
    pytest.mark.skipif(shutil.which("tcpdump") is None, reason="needs tcpdump"),
]

PLAYERS = 3
DOOR_PORT = 7300
CONTROL_PORT = 7399

LISTEN = f"""
import socket, sys
server = socket.socket()
server.bind((sys.argv[1], {CONTROL_PORT}))
server.listen(1)
print("listening", flush=True)
connection, _ = server.accept()
while connection.recv(65536):
    pass
"""

SEND = f"""
import socket, sys
with socket.create_connection((sys.argv[1], {CONTROL_PORT})) as connection:
    connection.sendall(bytes.fromhex(sys.argv[2]))
"""


def envelope_heads(table: str) -> list[bytes]:
    """The first bytes of every DBP envelope of ``table``: array, version, kind, table."""
    name = table.encode()
    return [bytes([0x98, 0x01, kind, 0xA0 | len(name)]) + name for kind in Kind]


def plaintext_found(capture: bytes, table: str, names: list[str]) -> list[str]:
    """Which of the table name, the names and the envelope heads appear in ``capture``."""
    found = [text for text in [table, *names] if text.encode() in capture]
    found += [head.hex() for head in envelope_heads(table) if head in capture]
    return found


def test_a_game_on_the_wire_shows_no_plaintext_but_a_plain_control_does(tmp_path: Path) -> None:
    with private_lan() as lan:
        hosts = [lan.add_host(number) for number in range(1, PLAYERS + 1)]
        table = f"secret-{lan.prefix}"
        names = [f"{who}{lan.prefix}" for who in ("ann", "bob", "cyd")]
        capture_path = tmp_path / "bridge.pcap"
        dump = Process(
            "tcpdump",
            [
                "ip", "netns", "exec", lan.hub,
                "tcpdump", "-i", "br0", "-n", "--immediate-mode", "-U", "-s", "0",
                "-w", str(capture_path), "--print", "-l",
            ],
        )  # fmt: skip
        nodes: list[BlitzNode] = []
        try:
            dump.wait_for_line(lambda lines: any("listening on" in x for x in lines), "start")
            doors = [f"{host.address}:{DOOR_PORT}" for host in hosts]
            for name, host in zip(names, hosts, strict=True):
                peers = [arg for door in doors for arg in ("--peer", door)]
                args = ["--interface", host.interface, "--port", str(DOOR_PORT), "--no-discovery"]
                args += ["--table", table, "--players", str(PLAYERS), *peers]
                prefix = ["ip", "netns", "exec", host.namespace]
                nodes.append(BlitzNode(name, tmp_path / name, args, prefix=prefix))
            codes = [node.finish() for node in nodes]
            assert codes == [0] * PLAYERS, "\n\n".join(node.output() for node in nodes)
            check_agreement(nodes)

            control_table = f"plain-{lan.prefix}"
            control = encode(
                Envelope(
                    control_table,
                    bytes(16),
                    1,
                    0,
                    Hello("mallory", "pump", "tcp://198.18.0.1:1", (), b"", 0),
                )
            )
            listener = Process(
                "listener",
                [
                    "ip", "netns", "exec", hosts[1].namespace,
                    sys.executable, "-c", LISTEN, hosts[1].address,
                ],
            )  # fmt: skip
            listener.wait_for_line(lambda lines: "listening" in lines, "listening")
            send = ["ip", "netns", "exec", hosts[0].namespace, sys.executable, "-c", SEND]
            subprocess.run([*send, hosts[1].address, control.hex()], check=True, timeout=20)
            listener.process.wait(20)
            # Stop tcpdump only once it has written the control out: it prints each packet
            # (--print) after writing it (-U), so the control's line means it is on file.
            segment = f"> {hosts[1].address}.{CONTROL_PORT}: "
            dump.wait_for_line(
                lambda lines: segment in lines[-1] and lines[-1].endswith(f"length {len(control)}"),
                "the control's segment",
            )
        finally:
            stop_all(nodes)
            dump.process.send_signal(2)  # SIGINT: tcpdump writes out what it holds
            dump.process.wait(20)
        capture = capture_path.read_bytes()

    assert len(capture) > 50_000, f"only {len(capture)} bytes captured"
    assert b"CURVE" in capture  # the ZeroMQ greetings, in the clear by design
    assert b"NULL" + bytes(16) not in capture  # and none offers no security
    assert plaintext_found(capture, table, names) == []
    assert plaintext_found(capture, control_table, ["mallory"]) == [
        control_table,
        "mallory",
        *(head.hex() for head in envelope_heads(control_table) if head == control[: len(head)]),
    ]
