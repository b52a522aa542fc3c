"""The real LAN test: nodes in their own network namespaces find each other by zeroconf.

Each test builds a private LAN: a hub namespace holding a Linux bridge (with
multicast snooping off, as on a plain switch) and one namespace per node, joined
to the bridge by a veth pair and addressed in 198.18.0.0/24 (the benchmarking
range, never anyone's real network). Nothing is added to the host's own
namespace, so no packet leaves the machine. Each node runs
``python -m dutchblitz.node.net.probe``, which announces itself, greets
every peer it finds over ZeroMQ and prints what happens as JSON lines.
"""

from __future__ import annotations

import json
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from dutchblitz.protocol.version import PROTOCOL_VERSION
from dutchblitz.protocol.wire.auth import Signer

from tests.netns_helpers import WAIT_S, Host, Lan, Process, child_env, private_lan

pytestmark = [pytest.mark.netns, pytest.mark.timeout(120)]

Event = dict[str, Any]


@pytest.fixture
def lan() -> Iterator[Lan]:
    with private_lan() as network:
        yield network


class Probe(Process):
    """One ``discovery_probe`` on one host."""

    def __init__(self, host: Host, table: str, name: str, choose: bool = True) -> None:
        command = [
            "ip", "netns", "exec", host.namespace,
            sys.executable, "-m", "dutchblitz.node.net.probe",
            "--table", table, "--name", name, "--seconds", "110",
        ]  # fmt: skip
        if choose:
            command += ["--interface", host.interface]
        super().__init__(name, command)
        self.wait_for(lambda events: any(e["event"] == "ready" for e in events), "ready line")
        self.ready = self.first("ready")
        self.node_id: str = self.ready["id"]

    def events(self) -> list[Event]:
        parsed = []
        for line in self.lines:
            try:
                parsed.append(json.loads(line))
            except json.JSONDecodeError:
                parsed.append({"event": "text", "line": line})
        return parsed

    def wait_for(self, accept: Callable[[list[Event]], bool], what: str) -> None:
        self.wait_for_line(lambda _: accept(self.events()), what)

    def wait_to_see(self, kind: str, ids: set[str], key: str = "id") -> None:
        """Wait until events of ``kind`` have named every id in ``ids``."""
        self.wait_for(lambda _: self.ids(kind, key) >= ids, f"{kind} {sorted(ids)}")

    def first(self, kind: str) -> Event:
        return next(e for e in self.events() if e["event"] == kind)

    def ids(self, kind: str, key: str = "id") -> set[str]:
        return {e[key] for e in self.events() if e["event"] == kind}

    def close(self) -> Event:
        self.process.send_signal(signal.SIGTERM)
        self.wait_for(lambda events: events[-1]["event"] == "closed", "closed line")
        self.process.wait(10)
        return self.first("closed")


def test_nodes_at_one_table_find_and_greet_each_other_by_zeroconf_alone(lan: Lan) -> None:
    hosts = [lan.add_host(number) for number in (1, 2, 3, 4)]
    table = f"kitchen-{lan.prefix}"
    probes = [Probe(host, table, f"player{n}") for n, host in enumerate(hosts[:3], 1)]
    stranger = Probe(hosts[3], "garden", "stranger")
    try:
        for probe in probes:
            others = {p.node_id for p in probes if p is not probe}
            probe.wait_to_see("found", others)
            probe.wait_to_see("received", others, key="sender")
            by_id = {e["id"]: e for e in probe.events() if e["event"] == "found"}
            for other, host in zip(probes, hosts, strict=False):
                if other is not probe:
                    assert by_id[other.node_id]["name"] == other.label
                    assert by_id[other.node_id]["endpoint"] == other.ready["endpoint"]
                    assert other.ready["endpoint"].startswith(f"tcp://{host.address}:")

        leaver, stayers = probes[2], probes[:2]
        assert leaver.close()["transport"]["received"] >= 2  # greetings are repeated
        assert leaver.ids("received", key="sender") == {p.node_id for p in stayers}
        for probe in stayers:
            probe.wait_to_see("lost", {leaver.node_id})

        for probe in stayers:
            closed = probe.close()
            assert stranger.node_id not in probe.ids("found")
            assert closed["discovery"]["other_table"] >= 1
            assert closed["discovery"]["ignored_self"] >= 1
        assert stranger.ids("found") == set()
    finally:
        for probe in [*probes, stranger]:
            probe.stop()


def test_nodes_on_a_machine_with_no_network_meet_on_loopback(lan: Lan) -> None:
    host = lan.add_lonely_host(1)
    probes = [Probe(host, "solo", name, choose=False) for name in ("left", "right")]
    try:
        for probe, other in zip(probes, reversed(probes), strict=True):
            assert probe.ready["interface"] == "lo 127.0.0.1 (no network found: this machine only)"
            probe.wait_to_see("found", {other.node_id})
            probe.wait_to_see("received", {other.node_id}, key="sender")
    finally:
        for probe in probes:
            probe.stop()


AVAHI_TOOLS = ("avahi-daemon", "avahi-browse", "avahi-publish", "dbus-daemon")

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""

AVAHI_CONFIG = """[server]
host-name=avahi-peer
use-ipv4=yes
use-ipv6=no
allow-interfaces={interface}
enable-dbus=yes
[publish]
publish-workstation=no
publish-hinfo=no
[reflector]
enable-reflector=no
"""


@pytest.mark.skipif(
    any(shutil.which(tool) is None for tool in AVAHI_TOOLS),
    reason="needs avahi-daemon, avahi-utils and dbus (apt-get install avahi-daemon avahi-utils)",
)
def test_avahi_sees_our_node_and_we_see_avahis(lan: Lan, tmp_path: Path) -> None:
    ours, theirs = lan.add_host(1), lan.add_host(2)
    (tmp_path / "bus.conf").write_text(BUS_CONFIG.format(socket=tmp_path / "bus"))
    (tmp_path / "avahi.conf").write_text(AVAHI_CONFIG.format(interface=theirs.interface))
    # A private system bus, so avahi runs beside (never instead of) the machine's own.
    bus_command = ["dbus-daemon", "--config-file", str(tmp_path / "bus.conf"), "--nofork"]
    bus = Process("dbus", [*bus_command, "--print-address"])
    avahi_env = child_env(DBUS_SYSTEM_BUS_ADDRESS=f"unix:path={tmp_path / 'bus'}")
    # ip netns exec gives the daemon its own mount namespace: its pid file
    # directory is a private tmpfs there.
    start_avahi = (
        "mkdir -p /run/avahi-daemon && mount -t tmpfs tmpfs /run/avahi-daemon && exec "
        f"avahi-daemon -f {tmp_path / 'avahi.conf'} --no-drop-root --no-chroot --no-rlimits"
    )
    daemons = [bus]
    probe: Probe | None = None
    try:
        bus.wait_for_line(lambda lines: bool(lines), "bus address")
        avahi = Process(
            "avahi-daemon",
            ["ip", "netns", "exec", theirs.namespace, "sh", "-c", start_avahi],
            env=avahi_env,
        )
        daemons.append(avahi)
        avahi.wait_for_line(
            lambda lines: any("Server startup complete" in x for x in lines), "start-up"
        )

        probe = Probe(ours, "kitchen", "Ada")
        resolved = f"=;{theirs.interface};IPv4;Ada-{probe.node_id[:8]};_blitz._tcp;local;"
        browse = ["ip", "netns", "exec", theirs.namespace, "avahi-browse", "-rtpk", "_blitz._tcp"]
        deadline = time.monotonic() + WAIT_S
        line = ""
        while not line and time.monotonic() < deadline:
            listing = subprocess.run(
                browse, capture_output=True, text=True, env=avahi_env, timeout=20
            )
            line = next((x for x in listing.stdout.splitlines() if x.startswith(resolved)), "")
        assert line, f"avahi-browse never resolved {resolved!r}"
        port = probe.ready["endpoint"].rpartition(":")[2]
        assert f";blitz-{probe.node_id[:12]}.local;{ours.address};{port};" in line
        for entry in (f"id={probe.node_id}", f"v={PROTOCOL_VERSION}", "table=kitchen", "name=Ada"):
            assert f'"{entry}"' in line

        grace = Signer(secrets.token_bytes(32))
        grace_id = grace.node_id.hex()

        def publish(name: str, node_id: str) -> Process:
            return Process(
                f"avahi-publish {name}",
                [
                    "ip", "netns", "exec", theirs.namespace, "avahi-publish", "-s", name,
                    "_blitz._tcp", "4242", f"id={node_id}", f"key={grace.public_key.hex()}",
                    f"v={PROTOCOL_VERSION}", "table=kitchen", f"name={name}", "port=4243",
                    "door=4242",
                ],
                env=avahi_env,
            )  # fmt: skip

        # Mallory shows Grace's key under an id of her own choosing: refused, whatever it says.
        mallory_id = secrets.token_hex(16)
        daemons.append(publish("Mallory", mallory_id))
        daemons.append(publish("Grace", grace_id))
        probe.wait_to_see("found", {grace_id})
        probe.wait_to_see("skipped", {"wrong_id"}, key="reason")
        found = next(e for e in probe.events() if e.get("id") == grace_id)
        assert found == {
            "event": "found",
            "id": grace_id,
            "name": "Grace",
            "endpoint": f"tcp://{theirs.address}:4243",
        }
        daemons.pop().stop()
        probe.wait_to_see("lost", {grace_id})
        assert mallory_id not in probe.ids("found")
        closed = probe.close()
        assert closed["discovery"]["wrong_id"] >= 1
    finally:
        if probe is not None:
            probe.stop()
        for daemon in reversed(daemons):
            daemon.stop()
