"""The ``blitz-node`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from dutchblitz.protocol.version import GAME_VERSION


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="blitz-node",
        description="Play Dutch Blitz with the laptops on your network: no server, no set-up.",
    )
    parser.add_argument("--version", action="version", version=f"blitz-node {GAME_VERSION}")
    parser.add_argument(
        "--join", action="store_true", help="find the table on the LAN and sit down"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.join:
        parser.print_help()
        return 0
    print("blitz-node: the networked table is not built yet", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
