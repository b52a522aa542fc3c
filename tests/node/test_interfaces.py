"""Choosing the interface to play on: by name, by address, or by default."""

from __future__ import annotations

import sys

import pytest
from dutchblitz.node.net.interfaces import (
    Interface,
    InterfaceError,
    choose_interface,
    default_route_interface,
    list_interfaces,
)

pytestmark = pytest.mark.timeout(10)

LO = Interface("lo", "127.0.0.1", loopback=True)
ETH = Interface("eth0", "198.18.0.5")
WLAN = Interface("wlan0", "198.18.1.7")
DOCKER = Interface("docker0", "198.18.9.1", up=False)

ROUTES = """\
Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
eth0\t00000000\t010012C6\t0003\t0\t0\t600\t00000000\t0\t0\t0
wlan0\t00000000\t010112C6\t0003\t0\t0\t100\t00000000\t0\t0\t0
eth0\t000012C6\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
"""


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        (ROUTES, "wlan0"),
        (ROUTES.replace("\t0003\t0\t0\t100", "\t0002\t0\t0\t100"), "eth0"),
        ("\n".join(ROUTES.splitlines()[::3]), None),
        ("", None),
        ("Iface\tDestination\nbroken line\n", None),
    ],
    ids=["lowest-metric", "skips-routes-not-up", "no-default", "empty", "garbage"],
)
def test_default_route_interface(table: str, expected: str | None) -> None:
    assert default_route_interface(table) == expected


@pytest.mark.parametrize(
    ("spec", "interfaces", "default_route", "expected", "reason"),
    [
        ("wlan0", [LO, ETH, WLAN], "eth0", WLAN, "by name"),
        ("198.18.0.5", [LO, ETH, WLAN], None, ETH, "by address"),
        ("lo", [LO, ETH], "eth0", LO, "by name"),
        (None, [LO, ETH, WLAN], "wlan0", WLAN, "default route"),
        (None, [LO, DOCKER, ETH], None, ETH, "first interface that is up"),
        (None, [LO, DOCKER, ETH], "docker0", ETH, "first interface that is up"),
        (None, [LO, ETH], "tun0", ETH, "first interface that is up"),
        (None, [LO, DOCKER], None, LO, "this machine only"),
        (None, [], None, LO, "loopback"),
    ],
)
def test_choose_interface(
    spec: str | None,
    interfaces: list[Interface],
    default_route: str | None,
    expected: Interface,
    reason: str,
) -> None:
    chosen = choose_interface(spec, interfaces, default_route)
    assert chosen == expected
    assert reason in chosen.reason
    assert chosen.describe().startswith(f"{expected.name} {expected.address} (")


def test_an_unknown_interface_lists_the_choices() -> None:
    with pytest.raises(InterfaceError) as error:
        choose_interface("wlan9", [LO, ETH], None)
    assert str(error.value) == (
        "no interface named or addressed 'wlan9'; available: lo (127.0.0.1), eth0 (198.18.0.5)"
    )
    with pytest.raises(InterfaceError, match="available: none"):
        choose_interface("eth0", [], None)


def test_describe_without_a_reason() -> None:
    assert ETH.describe() == "eth0 198.18.0.5"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux ioctls")
def test_this_machine_lists_its_loopback() -> None:
    found = list_interfaces()
    assert any(i.loopback and i.address.startswith("127.") for i in found)
    assert choose_interface("lo").address.startswith("127.")
