"""A node with its test rigs switched on from the environment, for the end-to-end tests.

    python -m tests.rigs.node --join --bot ...    # the arguments of blitz-node

``BLITZ_FAULTS`` (tests/rigs/faults.py) makes every transport the node opens lose and
delay what it sends; ``BLITZ_FLOOD`` (tests/rigs/flood.py) makes each seat flood its
peers. The shipped node reads neither: the rigs are wired in here, through the
transport's ``faults`` and the seat's ``spawn``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import Any

from dutchblitz.client.main import main as node_main
from dutchblitz.node.net.transport import Transport
from dutchblitz.node.seat.local import LocalSeat

from tests.rigs.faults import Faults, faults_from_env
from tests.rigs.flood import flood_from_env, run_flood


def install(environ: Mapping[str, str] | None = None) -> None:
    """Wire in the rigs that ``environ`` (default: ours) asks for."""
    env = os.environ if environ is None else environ
    faults = faults_from_env(env)
    if faults is not None and faults.is_active:
        config = faults
        open_plain = Transport.open.__func__  # type: ignore[attr-defined]

        async def open_faulty(cls: type[Transport], *args: Any, **kwargs: Any) -> Transport:
            kwargs.setdefault("faults", Faults(config))  # one seeded stream per transport
            return await open_plain(cls, *args, **kwargs)  # type: ignore[no-any-return]

        Transport.open = classmethod(open_faulty)  # type: ignore[method-assign, assignment]
    flood = flood_from_env(env)
    if flood is not None:
        start_plain = LocalSeat.start
        wanted = flood

        async def start_flooding(seat: LocalSeat) -> None:
            seat.spawn(run_flood(seat, wanted), "flood")
            await start_plain(seat)

        LocalSeat.start = start_flooding  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    install()
    return node_main(argv)


if __name__ == "__main__":
    sys.exit(main())
