"""Which network interface the node plays on.

The node binds ZeroMQ and zeroconf to one IPv4 address, so that a laptop with
Wi-Fi, a VPN and Docker bridges announces itself where the other players are.
``choose_interface`` picks it: the one the player named, else the interface of
the default route, else the first interface that is up and not loopback, else
loopback (a table of one machine).

On Linux the list comes from ``socket.if_nameindex`` and two ioctls, with no
extra dependency; elsewhere from ``ifaddr``, which zeroconf already brings.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

_SIOCGIFFLAGS = 0x8913
_SIOCGIFADDR = 0x8915
_IFF_UP = 0x1
_IFF_LOOPBACK = 0x8
_IFF_RUNNING = 0x40  # has carrier: a Docker bridge with no container is up, not running
_PROC_ROUTE = "/proc/net/route"


class InterfaceError(LookupError):
    """No interface matches what the player asked for."""


@dataclass(frozen=True, slots=True)
class Interface:
    """An interface and its (first) IPv4 address."""

    name: str
    address: str
    up: bool = True
    """administratively up and with a carrier"""
    loopback: bool = False
    reason: str = field(default="", compare=False)
    """why ``choose_interface`` picked it"""

    def describe(self) -> str:
        """One line for the player: ``"eth0 192.0.2.7 (interface of the default route)"``."""
        text = f"{self.name} {self.address}"
        return f"{text} ({self.reason})" if self.reason else text


def list_interfaces() -> list[Interface]:
    """Every interface with an IPv4 address, in the system's order."""
    if sys.platform.startswith("linux"):
        return _linux_interfaces()
    return _ifaddr_interfaces()


def _linux_interfaces() -> list[Interface]:
    import fcntl

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                address = fcntl.ioctl(probe.fileno(), _SIOCGIFADDR, request)[20:24]
                flags_reply = fcntl.ioctl(probe.fileno(), _SIOCGIFFLAGS, request)
            except OSError:
                continue  # no IPv4 address, or gone since the listing
            (flags,) = struct.unpack_from("H", flags_reply, 16)
            found.append(
                Interface(
                    name=name,
                    address=socket.inet_ntoa(address),
                    up=flags & (_IFF_UP | _IFF_RUNNING) == _IFF_UP | _IFF_RUNNING,
                    loopback=bool(flags & _IFF_LOOPBACK),
                )
            )
    return found


def _ifaddr_interfaces() -> list[Interface]:
    import ifaddr

    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                found.append(
                    Interface(
                        name=adapter.name,
                        address=ip.ip,
                        loopback=ipaddress.IPv4Address(ip.ip).is_loopback,
                    )
                )
                break
    return found


def default_route_interface(route_table: str) -> str | None:
    """The interface of the IPv4 default route in ``/proc/net/route`` text, if any."""
    best: tuple[int, str] | None = None
    for line in route_table.splitlines()[1:]:
        fields = line.split()
        if len(fields) < 8:
            continue
        name, destination, flags, metric, mask = (
            fields[0],
            fields[1],
            fields[3],
            fields[6],
            fields[7],
        )
        try:
            is_up = int(flags, 16) & 0x1
            is_default = int(destination, 16) == 0 and int(mask, 16) == 0
            rank = int(metric)
        except ValueError:
            continue
        if is_up and is_default and (best is None or rank < best[0]):
            best = (rank, name)
    return best[1] if best else None


def read_default_route_interface() -> str | None:
    """The default route's interface on this machine, or ``None`` (or not Linux)."""
    try:
        with open(_PROC_ROUTE, encoding="ascii") as table:
            return default_route_interface(table.read())
    except OSError:
        return None


def choose_interface(
    spec: str | None,
    interfaces: Sequence[Interface] | None = None,
    default_route: str | None = None,
) -> Interface:
    """Pick the interface to play on, by name or IPv4 address, or by default.

    ``interfaces`` and ``default_route`` default to this machine's; tests pass
    their own. Raises ``InterfaceError`` listing the choices when ``spec``
    matches nothing.
    """
    if interfaces is None:
        interfaces = list_interfaces()
        if default_route is None:
            default_route = read_default_route_interface()
    if spec is not None:
        return _named(spec, interfaces)
    return _by_default(interfaces, default_route)


def _named(spec: str, interfaces: Sequence[Interface]) -> Interface:
    for interface in interfaces:
        if spec in (interface.name, interface.address):
            how = "by name" if spec == interface.name else "by address"
            return replace(interface, reason=f"chosen {how} with --interface")
    choices = ", ".join(f"{i.name} ({i.address})" for i in interfaces) or "none"
    raise InterfaceError(f"no interface named or addressed {spec!r}; available: {choices}")


def _by_default(interfaces: Sequence[Interface], default_route: str | None) -> Interface:
    for interface in interfaces:
        if interface.name == default_route and interface.up:
            return replace(interface, reason="interface of the default route")
    for interface in interfaces:
        if interface.up and not interface.loopback:
            return replace(interface, reason="first interface that is up")
    for interface in interfaces:
        if interface.loopback:
            return replace(interface, reason="no network found: this machine only")
    return Interface("lo", "127.0.0.1", loopback=True, reason="no interface listed: loopback")
