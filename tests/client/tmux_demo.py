"""The real client on a fake session, for checking the tmux harness in a real terminal.

``python -m tests.client.tmux_demo`` runs ``run_app`` on a two-player round with
a fake node that makes every move final a moment after it is sent.
"""

from __future__ import annotations

import asyncio

from dutchblitz.client.app import run_app

from tests.client.fakes import playing_session

CONFIRM_S = 0.2


async def main() -> None:
    session = playing_session(2, seed=3)

    async def network() -> None:
        while True:
            await asyncio.sleep(CONFIRM_S)
            if session.pending:
                session.confirm()

    confirming = asyncio.ensure_future(network())
    try:
        await run_app(session)
    finally:
        confirming.cancel()


if __name__ == "__main__":
    asyncio.run(main())
