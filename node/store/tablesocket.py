"""The table socket a node had last time: its port and the keys its roster let in, kept in
the state directory so that a restarted node listens where its table knows it."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from .state import StoreError, write_json

if TYPE_CHECKING:
    from ..net.transport import Transport

TABLE_SOCKET_FILE = "table-socket.json"  # the table port and let-in keys, for a restart

log = logging.getLogger("dutchblitz.node")


def remembered(root: Path) -> tuple[int, dict[bytes, bytes]]:
    """The table port and the let-in keys a node at ``root`` had last time (0, {} if none)."""
    try:
        found = json.loads((root / TABLE_SOCKET_FILE).read_text(encoding="utf-8"))
        port = found["port"]
        keys = {bytes.fromhex(n): bytes.fromhex(k) for n, k in found["keys"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return 0, {}
    return (port if isinstance(port, int) and 0 < port < 65536 else 0), keys


def remember(root: Path, transport: Transport) -> None:
    """Note the table port and the keys the roster lets in, for the next start."""
    roster = transport.roster
    keys = {n.hex(): k.hex() for n, k in roster.keys.items() if roster.allows(n)}
    port = int(transport.endpoint.rpartition(":")[2])
    try:
        write_json(root / TABLE_SOCKET_FILE, {"port": port, "keys": keys})
    except StoreError as error:
        log.warning("cannot remember the table's keys: %s", error)
