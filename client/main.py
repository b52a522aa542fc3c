"""The ``blitz-node`` command: a node, with the terminal table unless ``--headless``."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from dutchblitz.node import cli


def main(argv: Sequence[str] | None = None) -> int:
    # Until the terminal table lands, every run is the node's own command line.
    return cli.main(argv)


if __name__ == "__main__":
    sys.exit(main())
