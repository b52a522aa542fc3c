"""Where the TV view is served: ``--web PORT`` or ``--web HOST:PORT``, and its link.

No web library here: the node's options and its snapshot read this without loading one.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from ..api import TvLink

LOOPBACK = "127.0.0.1"
EVERY_INTERFACE = "0.0.0.0"


@dataclass(frozen=True, slots=True)
class WebAddress:
    """Where the page is served: ``--web PORT`` (this machine) or ``--web HOST:PORT``."""

    host: str = LOOPBACK
    port: int = 0  # 0: any free port

    @property
    def shared(self) -> bool:
        """Whether other machines can open the page (HOST is no loopback address)."""
        if self.host == "localhost":
            return False
        try:
            return not ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return True  # a host name: whoever can resolve it

    def url(self, interface_address: str = "") -> str:
        """The page's address; served on every interface, the node's own one is shown."""
        host = self.host
        if host == EVERY_INTERFACE:
            host = interface_address or LOOPBACK
        return f"http://{host}:{self.port}/"


def parse_web(value: str) -> WebAddress:
    """``PORT`` or ``HOST:PORT``; raises ValueError with words for the player."""
    host, sep, port = value.strip().rpartition(":")
    if (sep and not host) or not port.isdigit():
        raise ValueError(f"expected PORT or HOST:PORT, got {value!r}")
    if int(port) > 65535:
        raise ValueError(f"expected PORT or HOST:PORT, with a port from 0 to 65535, got {value!r}")
    return WebAddress(host or LOOPBACK, int(port))


def tv_link(address: WebAddress | None, interface_address: str = "") -> TvLink | None:
    """What the terminal shows of the page's address (None: no page is served)."""
    if address is None:
        return None
    return TvLink(address.url(interface_address), address.shared)
