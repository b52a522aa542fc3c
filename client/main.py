"""The ``blitz-node`` command: a node, with the terminal table unless ``--headless``.

The options are the node's (``dutchblitz.node.cli.main``); this module only decides
whether a face is attached. The table runs on the node's own event loop.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import Sequence
from functools import partial

import dutchblitz.node.cli.main as cli

from .app import run_app
from .games import DEFAULT_GAME, registry
from .replay import run_replay

INTERRUPTED = cli.EXIT_SIGNAL_BASE + signal.SIGINT


def no_terminal() -> str | None:
    """Why the table cannot be shown here (stdin or stdout is no terminal), or None."""
    for name, stream in (("input", sys.stdin), ("output", sys.stdout)):
        try:
            tty = stream is not None and stream.isatty()
        except (OSError, ValueError):
            tty = False
        if not tty:
            return (
                f"the table needs a terminal, and this {name} is none: "
                "run blitz-node in one, or a bot with --headless --bot"
            )
    return None


def replay(argv: Sequence[str]) -> int:
    """``blitz-node replay [GAME|FILE]``: check the game, then play it in the terminal."""
    session, code = cli.open_replay(argv)
    if session is None:
        return code
    if no_terminal() is not None:
        print(
            "blitz-node: a replay needs a terminal: run blitz-node replay in one", file=sys.stderr
        )
        return cli.EXIT_USAGE
    try:
        asyncio.run(run_replay(session))
    except KeyboardInterrupt:
        return INTERRUPTED
    return cli.EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else list(argv)
    if given and given[0] == "replay":
        return replay(given[1:])
    if given and given[0] in cli.COMMANDS:
        return cli.run_command(given)
    options = cli.parse_options(argv)
    if options is None:
        return cli.EXIT_OK  # the node printed its help
    if options.headless:
        return cli.main(argv)
    if options.game not in registry.tags():
        print(
            f"blitz-node: the game {options.game!r} has no screens here:"
            " run its seats with --headless --bot",
            file=sys.stderr,
        )
        return cli.EXIT_USAGE
    why = no_terminal()
    if why is not None:
        print(f"blitz-node: {why}", file=sys.stderr)
        return cli.EXIT_USAGE
    # The table is drawn with the face of the game the node hosts (games/registry.py).
    ui = run_app if options.game == DEFAULT_GAME else partial(run_app, game=options.game)
    try:
        return asyncio.run(cli.run_node(options, attach_ui=ui))
    except KeyboardInterrupt:
        return INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
