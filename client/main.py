"""The ``blitz-node`` command: a node, with the terminal table unless ``--headless``.

The options are the node's (``dutchblitz.node.cli``); this module only decides
whether a face is attached. The table runs on the node's own event loop.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence

from dutchblitz.node import cli

from .app import run_app

INTERRUPTED = 130


def main(argv: Sequence[str] | None = None) -> int:
    options = cli.parse_options(argv)
    if options is None:
        return 0  # the node printed its help
    if options.headless:
        return cli.main(argv)
    try:
        return asyncio.run(cli.run_node(options, attach_ui=run_app))
    except KeyboardInterrupt:
        return INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
