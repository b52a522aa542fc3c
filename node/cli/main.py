"""The ``blitz-node`` command: flags, and running a node until the game ends.

``run_node`` is what the client calls to run the terminal table on the same
event loop (``attach_ui``); ``main`` runs a headless node. Every way out has
its exit code below (README.md lists them for players), and every error is one
line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import logging.handlers
import signal
import sys
import traceback
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from dutchblitz.protocol.games import registry
from dutchblitz.protocol.limits import MAX_GAME_ROUNDS, MAX_PLAYERS, MAX_TARGET
from dutchblitz.protocol.limits import MAX_NAME as MAX_TEXT_BYTES
from dutchblitz.protocol.version import GAME_VERSION

from ..api import Session
from ..runtime import Node, Options, StartError, seated, unseated
from ..session import NodeSession
from ..store.archive import keep_games
from ..store.state import StoreError
from ..tv.address import WebAddress, parse_web
from . import phrase
from .commands import COMMANDS as COMMANDS
from .commands import open_replay as open_replay
from .commands import run_command as run_command

if TYPE_CHECKING:
    from ..tv.server import TvServer
from ..seat.spectator import WatchSeat, WatchSession

log = logging.getLogger("dutchblitz.node")

# Exit codes: the one home of each (README.md, "Exit codes", lists them for players).
EXIT_OK = 0  # the game ended, or the player left it (in the lobby or mid-game), or --help
EXIT_FAILED = 1  # the node could not go on (its state directory is in use or cannot be
# written), or a game's result could not be written (--summary-json, the state directory)
EXIT_USAGE = 2  # a wrong flag or value, no terminal for the table, or nowhere to listen
EXIT_SIGNAL_BASE = 128  # stopped by a signal: 128 + its number (130 Ctrl-C, 129 hang-up, 143 TERM)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose every complaint is one line."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _text(what: str) -> Callable[[str], str]:
    def check(value: str) -> str:
        if not value.strip() or len(value.encode()) > MAX_TEXT_BYTES:
            raise argparse.ArgumentTypeError(
                f"a {what} is 1 to {MAX_TEXT_BYTES} bytes, got {value!r}"
            )
        return value.strip()

    return check


def _int_in(low: int, high: int) -> Callable[[str], int]:
    def check(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
        if not low <= number <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, got {number}")
        return number

    return check


def _seconds(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {value!r}") from None
    if not 0.2 <= number <= 600:
        raise argparse.ArgumentTypeError(f"must be from 0.2 to 600 seconds, got {value}")
    return number


def _peer(value: str) -> str:
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {value!r}")
    return value


def _web(value: str) -> WebAddress:
    try:
        return parse_web(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="blitz-node",
        description="Play Dutch Blitz with the laptops on your network: no server, no set-up.",
        epilog="The games played here are kept: blitz-node games | stats | export GAME FILE"
        " | replay [GAME|FILE] (each takes --help).",
    )
    parser.add_argument("--version", action="version", version=f"blitz-node {GAME_VERSION}")
    parser.add_argument(
        "--join", action="store_true", help="find the table on the LAN and sit down"
    )
    parser.add_argument(
        "--watch", action="store_true", help="watch the table's game as a spectator: play nothing"
    )
    parser.add_argument(
        "--table", type=_text("table name"), default="blitz", help="table name (default: blitz)"
    )
    parser.add_argument("--name", type=_text("name"), help="your name at the table")
    parser.add_argument(
        "--peer",
        type=_peer,
        action="append",
        default=[],
        metavar="HOST:PORT",
        help="the door of a node to knock at, besides those found on the LAN (repeatable)",
    )
    parser.add_argument("--interface", metavar="IF", help="network interface name or IPv4 address")
    parser.add_argument(
        "--port",
        type=_int_in(0, 65535),
        default=0,
        help="port of this node's door, for --peer (0: any free port)",
    )
    parser.add_argument("--bot", action="store_true", help="let a bot play this seat")
    parser.add_argument(
        "--bot-level",
        choices=_bot_levels(),
        default="normal",
        help="how well and fast the bot plays",
    )
    parser.add_argument(
        "--headless", action="store_true", help="no terminal table: log lines to stderr"
    )
    parser.add_argument(
        "--players",
        type=_int_in(2, MAX_PLAYERS),
        metavar="N",
        help="with --headless: start as soon as N players are seated and ready",
    )
    parser.add_argument(
        "--target",
        type=_int_in(1, MAX_TARGET),
        default=75,
        metavar="N",
        help="the score that ends the game (default: 75)",
    )
    parser.add_argument(
        "--rounds",
        type=_int_in(1, MAX_GAME_ROUNDS),
        metavar="N",
        help="a game this node starts lasts N rounds, where its game offers it (Dutch)",
    )
    parser.add_argument(
        "--game",
        choices=registry.tags(),
        default=registry.DEFAULT_GAME,
        help=argparse.SUPPRESS if len(registry.tags()) == 1 else "the game this table plays",
    )
    parser.add_argument(
        "--no-post-stacking",
        action="store_true",
        help="a game this node starts forbids Post stacking (the lobby's p key toggles it)",
    )
    parser.add_argument(
        "--seed", type=_int_in(0, 2**63 - 1), metavar="N", help="make the shuffles repeatable"
    )
    parser.add_argument(
        "--state-dir", type=Path, metavar="DIR", help="where the node keeps its state"
    )
    parser.add_argument(
        "--summary-json", type=Path, metavar="PATH", help="write the result here at the end"
    )
    parser.add_argument(
        "--suspect-after",
        type=_seconds,
        default=2.0,
        metavar="SECONDS",
        help="how long a silent player keeps their seat (default: 2.0)",
    )
    parser.add_argument(
        "--no-discovery", action="store_true", help="find no one on the LAN: use --peer only"
    )
    parser.add_argument(
        "--passphrase",
        type=phrase.checked,
        metavar="PHRASE",
        help="a private table: only players who know this phrase sit down",
    )
    parser.add_argument(
        "--private",
        action="store_true",
        help=f"a private table: ask for its passphrase (hidden), or take ${phrase.PASSPHRASE_ENV}",
    )
    parser.add_argument(
        "--web",
        type=_web,
        metavar="[HOST:]PORT",
        help="put the table on a TV: a read-only page at http://127.0.0.1:PORT/; "
        "HOST:PORT shares it on the network (0.0.0.0:PORT: on every interface)",
    )
    return parser


def options_from_args(args: argparse.Namespace) -> Options:
    return Options(
        table=args.table,
        name=args.name,
        peers=tuple(args.peer),
        interface=args.interface,
        port=args.port,
        bot=args.bot,
        bot_level=args.bot_level,
        headless=args.headless,
        players=args.players,
        target=args.target,
        rounds=args.rounds,
        post_stacking=not args.no_post_stacking,
        game=args.game,
        seed=args.seed,
        state_dir=args.state_dir,
        summary_json=args.summary_json,
        suspect_after=args.suspect_after,
        discovery=not args.no_discovery,
        passphrase=args.passphrase,
        web=args.web,
        watch=args.watch,
    )


def parse_options(argv: Sequence[str] | None = None) -> Options | None:
    """The options for ``argv``, or None when the command asks only for help; exits on error."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.join and not args.watch:
        parser.print_help()
        return None
    if args.join and args.watch:
        parser.error("--join plays and --watch only watches: give one of them")
    if args.watch and (args.bot or args.players is not None):
        parser.error("--watch plays nothing: leave out --bot and --players")
    if args.headless and not args.bot and not args.watch:
        parser.error("--headless needs --bot: nobody would play this seat")
    if args.players is not None and not args.headless:
        parser.error("--players goes with --headless: at the table, the players press s to start")
    if args.private:
        if args.passphrase is not None:
            parser.error("give --passphrase PHRASE or --private, not both")
        args.passphrase = phrase.ask(parser, args.table)
        typed = phrase.typed_at_terminal()
        return replace(options_from_args(args), typed=typed)
    return options_from_args(args)


def _bot_levels() -> tuple[str, ...]:
    """Every registered game's bot levels, the default game's first."""
    levels = (level for tag in registry.tags() for level in registry.game_for(tag).levels)
    return tuple(dict.fromkeys(levels))


def _log_to(handler: logging.Handler) -> None:
    logger = logging.getLogger("dutchblitz")
    handler.setFormatter(
        logging.Formatter("%(asctime)s.%(msecs)03d %(message)s", datefmt="%H:%M:%S")
    )
    logger.handlers[:] = [handler]
    logger.setLevel(logging.INFO)
    logger.propagate = False


def _log_to_file(root: Path, early: logging.handlers.MemoryHandler) -> None:
    """The table owns the terminal: the log goes to ``node.log``, with what came before."""
    handler: logging.Handler
    try:
        handler = logging.FileHandler(root / "node.log", encoding="utf-8")
    except OSError:
        handler = logging.NullHandler()  # nowhere to keep it: the screen is the player's
    _log_to(handler)
    early.setTarget(handler)
    early.close()  # hands what it held to the file


UI = Callable[[Session], Awaitable[object]]


async def run_node(options: Options | argparse.Namespace, attach_ui: UI | None = None) -> int:
    """Run a node until its game ends (headless), its UI returns, or a signal stops it."""
    if isinstance(options, argparse.Namespace):
        options = options_from_args(options)
    # Headless, the log is the output; under the table, held until node.log can take it.
    early = logging.handlers.MemoryHandler(10_000, flushLevel=logging.CRITICAL + 1)
    _log_to(logging.StreamHandler(sys.stderr) if attach_ui is None else early)
    node = Node(options)
    stopping: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    _catch_signals(stopping)
    tv: TvServer | None = None
    try:
        if options.web is not None:
            # Bound before the node joins: a port that is taken stops it before anyone saw it.
            tv = await _open_tv(options.web)
            if tv is None:
                return EXIT_USAGE
            node.options = replace(options, web=tv.address)  # the port bound, if 0 was asked
        # A player's screen shows the lobby while the seat finds its table (choices made
        # meanwhile wait for it); a founder of a private table is asked the phrase again first.
        early_lobby = attach_ui is not None and not options.typed
        failed = await _start(node, node.start(seat_behind=early_lobby))
        if failed is None and options.typed and _founded(node):
            failed = await _confirm_phrase(node, stopping)
        if failed is not None:
            return failed
        return await _run_started(node, attach_ui, stopping, tv, early)
    finally:
        if tv is not None:
            await tv.close()
        _release_signals()


async def _run_started(
    node: Node,
    attach_ui: UI | None,
    stopping: asyncio.Future[int],
    tv: TvServer | None,
    early: logging.handlers.MemoryHandler,
) -> int:
    """Once the node is up: keep its games, show it (the player's UI, the TV view), and
    run until the UI returns or, headless, the game ends."""
    if attach_ui is not None and node.state_root is not None:
        _log_to_file(node.state_root, early)
    keep_games(node)  # the games a crash left pending, then each that ends here
    session = _session(node) if attach_ui is not None or tv is not None else None
    if tv is not None and session is not None:
        tv.watch(session)
        _say_tv(node, tv)
    if attach_ui is not None and session is not None:
        return await _with_ui(node, attach_ui, stopping, session)
    return await _headless(node, stopping)


def _session(node: Node) -> Session:
    """The client's session: a player's, or a spectator's (--watch)."""
    main = node.main
    return WatchSession(node, main) if isinstance(main, WatchSeat) else NodeSession(node)


async def _open_tv(address: WebAddress) -> TvServer | None:
    """The TV view's server, listening; None when it cannot (one line said)."""
    # Imported here: a node without --web never loads the web library.
    from ..tv.server import TvServer, bind_error

    try:
        return await TvServer.open(address)
    except OSError as error:
        print(f"blitz-node: {bind_error(address, error)}", file=sys.stderr)
        return None


def _say_tv(node: Node, tv: TvServer) -> None:
    """The page's address in the log (headless, that is the screen; the table shows it too)."""
    url = tv.url(node.interface.address if node.interface is not None else "")
    if tv.address.shared:
        log.info("TV view at %s: anyone on this network can open it", url)
    else:
        log.info("TV view at %s (this machine only: --web HOST:PORT shares it)", url)


async def _start(node: Node, start: Awaitable[None]) -> int | None:
    """Start the node; None when it runs, else its exit code (with one line said)."""
    try:
        await start
        return None
    except StartError as error:
        said, code = str(error), EXIT_USAGE
    except StoreError as error:
        said, code = str(error), EXIT_FAILED
    except Exception as error:
        said, code = f"the node could not start: {describe(error)}", EXIT_FAILED
        _keep_details(node, "the node could not start", error)
    print(f"blitz-node: {said}", file=sys.stderr)
    logging.getLogger("dutchblitz").setLevel(logging.ERROR)  # the one line says it all
    await node.stop(goodbye=False)
    return code


def _founded(node: Node) -> bool:
    """The node's seat founded the table it sits at: it found none to join."""
    return node.main is not None and node.main.seating.founded


async def _confirm_phrase(node: Node, stopping: asyncio.Future[int]) -> int | None:
    """A node that founds a private table asks for the phrase a second time (phrase.py);
    None when agreed, else the exit code."""
    _release_signals()  # the prompt blocks the loop: Ctrl-C stops it at once
    try:
        again = phrase.ask_again(node.options.table, node.options.passphrase)
    except (EOFError, KeyboardInterrupt):
        print("\nblitz-node: --private: no passphrase given", file=sys.stderr)
        await node.stop(goodbye=False)
        return EXIT_USAGE
    finally:
        _catch_signals(stopping)
    if again != node.options.passphrase:
        node.set_passphrase(again)
    return None


def _keep_details(node: Node, what: str, error: BaseException) -> None:
    """Write an unexpected error's traceback to node.log, where a bug report can find it."""
    if node.state_root is None:
        return
    with contextlib.suppress(OSError), open(node.state_root / "node.log", "a") as out:
        out.write(f"{what}:\n{''.join(traceback.format_exception(error))}")


def describe(error: BaseException) -> str:
    """An unexpected error in one line: its kind, and its text if it has one."""
    text = str(error).strip().splitlines()
    kind = type(error).__name__
    return f"{kind}: {text[0]}" if text else kind


async def _first(*waits: Awaitable[object]) -> int:
    """Wait for the first of ``waits``; return its position."""
    tasks = [asyncio.ensure_future(wait) for wait in waits]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        return next(i for i, task in enumerate(tasks) if task in done)
    finally:
        for task, wait in zip(tasks, waits, strict=True):
            if task is not wait:  # a future we were handed is not ours to cancel
                task.cancel()


async def _headless(node: Node, stopping: asyncio.Future[int]) -> int:
    main = node.main
    assert main is not None
    which = await _first(main.game_over.wait(), main.failed.wait(), stopping)
    if which == 0:
        summary = node.write_summary()
        if summary is not None:
            scores = ", ".join(
                f"{name} {points}" for name, points in summary["final_scores"].items()
            )
            log.info("%s: game over: %s wins (%s)", main.label, summary["winner"], scores)
        which = await _first(main.finished.wait(), main.failed.wait(), stopping)
        if which == 0:
            await node.stop(goodbye=False)
            return EXIT_OK if summary is not None else EXIT_FAILED
    if which == 1:
        await node.stop(goodbye=False)
        return EXIT_FAILED
    await node.stop()
    return stopping.result()


async def _with_ui(
    node: Node, attach_ui: UI, stopping: asyncio.Future[int], session: Session
) -> int:
    main = node.main
    assert main is not None
    ui = asyncio.ensure_future(attach_ui(session))
    main.game_over_hooks.append(_write_summary_at_end(node))  # each game's, rematches too
    which = await _first(ui, main.failed.wait(), stopping, unseated(node))
    if which == 3:  # the seat found no table: said as any failed start
        ui.cancel()
        return await _start(node, seated(node)) or EXIT_FAILED
    if which == 1:
        ui.cancel()
        await node.stop(goodbye=False)
        print(f"blitz-node: {main.failure}", file=sys.stderr)
        return EXIT_FAILED
    if which == 2:
        ui.cancel()
    broken = ui.exception() if ui.done() and not ui.cancelled() else None
    await node.stop()
    if broken is not None:
        _keep_details(node, "the table stopped", broken)
        where = f" (details in {node.state_root / 'node.log'})" if node.state_root else ""
        print(f"blitz-node: the table stopped: {describe(broken)}{where}", file=sys.stderr)
        return EXIT_FAILED
    if node.unwritten:  # the result of a game that ended (node.log has them all)
        print(f"blitz-node: {node.unwritten}", file=sys.stderr)
    if stopping.done():
        return stopping.result()
    return EXIT_FAILED if node.unwritten else EXIT_OK


def _write_summary_at_end(node: Node) -> Callable[[], None]:
    def write() -> None:
        node.write_summary()

    return write


_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)  # HUP: the terminal was closed


def _catch_signals(stopping: asyncio.Future[int]) -> None:
    loop = asyncio.get_running_loop()
    for signum in _SIGNALS:

        def stop(signum: int = signum) -> None:
            if not stopping.done():
                stopping.set_result(EXIT_SIGNAL_BASE + signum)

        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop)


def _release_signals() -> None:
    loop = asyncio.get_running_loop()
    for signum in _SIGNALS:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.remove_signal_handler(signum)


def main(argv: Sequence[str] | None = None) -> int:
    """A headless node; ``blitz-node`` (dutchblitz.client.main) runs the table too."""
    options = parse_options(argv)
    if options is None:
        return EXIT_OK
    if not options.headless:
        print("blitz-node: this entry runs --headless nodes only: run blitz-node", file=sys.stderr)
        return EXIT_USAGE
    try:
        return asyncio.run(run_node(options))
    except KeyboardInterrupt:
        return EXIT_SIGNAL_BASE + signal.SIGINT


if __name__ == "__main__":
    sys.exit(main())
