"""The path of a received PLAY through the shipping modules, from the socket to the screen.

    python -m tests.structure --path

Two real nodes (bots, on 127.0.0.1, without zeroconf) play in this process, and the table
of the first is drawn by the real client on a dummy terminal. Once the game is on,
``sys.setprofile`` watches the first node: the path starts when its transport's ``recv``
hands over a message whose EVENT is the other node's PLAY, follows that batch through the
seat's receive loop (all of it synchronous, up to the loop's ``asyncio.sleep``), and then
the client's next redraw (prompt_toolkit's ``Application._redraw``), which shows it.

Every Python call made in a shipping module (``dutchblitz.*``) on that path is recorded
with its *call chain*: the shipping modules on the stack, outermost first, a module that
calls itself counted once. The figures:

- *modules crossed*: every shipping module the path enters, in the order it first does;
- *returns*: the loops of the call chains in which a module appears twice, with another
  between: a call back into a module the call had left (the client's redraw hook asking
  the session for a snapshot, the replica's parts calling the replica);
- *deepest chain*: the longest call chain of the receive and of the redraw, and its length
  in modules.

The guard is "no return to a module the path has left": the command exits 1 on one. The
modules crossed and the depth are printed to watch, not held to a number.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

PROJECT = "dutchblitz."
WAIT_S = 60.0


def module_of(frame: FrameType) -> str:
    return str(frame.f_globals.get("__name__", "?"))


def short(module: str) -> str:
    """``dutchblitz.node.seat.local`` -> ``node/seat/local.py``."""
    return module.removeprefix(PROJECT).replace(".", "/") + ".py"


def chain_of(frame: FrameType | None) -> tuple[str, ...]:
    """The shipping modules on the stack, outermost first, each run of one module once."""
    found: list[str] = []
    while frame is not None:
        module = module_of(frame)
        if module.startswith(PROJECT) and (not found or found[-1] != module):
            found.append(module)
        frame = frame.f_back
    return tuple(reversed(found))


@dataclass
class PathTrace:
    """A profile function that records one received PLAY's path, then stops recording."""

    sender: bytes  # the node whose PLAY is followed
    phase: str = "waiting"  # waiting, receiving, drawing, done
    receive: list[tuple[str, ...]] = field(default_factory=list)
    redraw: list[tuple[str, ...]] = field(default_factory=list)
    redraw_frame: FrameType | None = None

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if self.phase == "waiting":
            if event == "return" and self._is_the_play(frame, arg):
                self.phase = "receiving"
            return
        if self.phase == "receiving":
            if event == "call" and frame.f_code.co_name == "sleep":
                caller = frame.f_back
                if caller is not None and caller.f_code.co_name == "_receive_loop":
                    self.phase = "drawing"
                    return
            if event == "call" and module_of(frame).startswith(PROJECT):
                self.receive.append(chain_of(frame))
            return
        if self.phase == "drawing":
            self._drawing(frame, event)

    def _drawing(self, frame: FrameType, event: str) -> None:
        if self.redraw_frame is None:
            redraws = event == "call" and frame.f_code.co_name == "_redraw"
            if redraws and module_of(frame).startswith("prompt_toolkit.application"):
                self.redraw_frame = frame
            return
        if event == "return" and frame is self.redraw_frame:
            self.phase = "done"
            return
        if event == "call" and module_of(frame).startswith(PROJECT):
            self.redraw.append(chain_of(frame))

    def _is_the_play(self, frame: FrameType, arg: Any) -> bool:
        if frame.f_code.co_name != "recv" or module_of(frame) != PROJECT + "node.net.transport":
            return False
        if not (isinstance(arg, tuple) and len(arg) == 2 and isinstance(arg[1], bytes)):
            return False
        from dutchblitz.protocol.wire.codec import ProtocolError, decode
        from dutchblitz.protocol.wire.messages import Event, Play

        try:
            envelope = decode(arg[1])
        except ProtocolError:
            return False
        payload = envelope.payload
        return (
            envelope.sender == self.sender
            and isinstance(payload, Event)
            and isinstance(payload.body, Play)
        )


def _loop(chain: tuple[str, ...]) -> tuple[str, ...]:
    """The first part of ``chain`` that leaves a module and comes back to it (or none)."""
    for end, module in enumerate(chain):
        if module in chain[:end]:
            return chain[chain.index(module) : end + 1]
    return ()


@dataclass(frozen=True, slots=True)
class Figures:
    crossed: tuple[str, ...]
    returns: tuple[tuple[str, ...], ...]
    deepest_receive: tuple[str, ...]
    deepest_redraw: tuple[str, ...]


def figures(trace: PathTrace) -> Figures:
    crossed: list[str] = [PROJECT + "node.net.transport"]
    for chain in [*trace.receive, *trace.redraw]:
        for module in chain:
            if module not in crossed:
                crossed.append(module)
    returns = sorted({loop for c in [*trace.receive, *trace.redraw] if (loop := _loop(c))})
    return Figures(
        tuple(crossed),
        tuple(returns),
        max(trace.receive, key=len, default=()),
        max(trace.redraw, key=len, default=()),
    )


async def _trace() -> PathTrace:
    from dutchblitz.client.app import build_app
    from dutchblitz.node.runtime import Node, Options
    from dutchblitz.node.session import NodeSession
    from dutchblitz.protocol.table.state import Phase
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    class Terminal(DummyOutput):
        def get_size(self) -> Size:
            return Size(rows=30, columns=100)

    table = f"path-{os.getpid()}"
    with tempfile.TemporaryDirectory(prefix="blitz-path-") as root:
        common = {"table": table, "interface": "127.0.0.1", "discovery": False}
        common |= {"bot": True, "headless": True, "players": 2, "target": 8}
        watcher = Node(Options(name="watcher", state_dir=Path(root) / "a", **common))
        await watcher.start()
        assert watcher.door is not None and watcher.main is not None
        door = watcher.door.endpoint.removeprefix("tcp://")
        player = Node(Options(name="player", state_dir=Path(root) / "b", peers=(door,), **common))
        await player.start()
        assert player.signer is not None
        trace = PathTrace(player.signer.node_id)
        with create_pipe_input() as keys:
            app = build_app(NodeSession(watcher), keys, Terminal())
            shown = asyncio.ensure_future(app.run_async())
            try:
                await _until(lambda: _playing(watcher, Phase.PLAYING), "the game to start")
                sys.setprofile(trace)
                await _until(lambda: trace.phase == "done", "a PLAY to reach the screen")
            finally:
                sys.setprofile(None)
                app.exit()
                with contextlib.suppress(Exception):
                    await shown
                app.unsubscribe()
                await player.stop(goodbye=False)
                await watcher.stop(goodbye=False)
    return trace


def _playing(node: Any, phase: Any) -> bool:
    replica = node.main.replica if node.main is not None else None
    return replica is not None and replica.stable.phase == phase


async def _until(condition: Any, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while not condition():
        if loop.time() > deadline:
            raise TimeoutError(f"waited {WAIT_S:.0f} s for {what}")
        await asyncio.sleep(0.05)


def deepest(found: Figures) -> int:
    """The length, in modules, of the deepest call chain of the receive or the redraw."""
    return max(len(found.deepest_receive), len(found.deepest_redraw))


def report(found: Figures) -> str:
    receive, redraw = found.deepest_receive, found.deepest_redraw
    lines = [
        f"a received PLAY, socket to screen: deepest call chain {deepest(found)} modules "
        f"({len(receive)} receiving, {len(redraw)} drawing), {len(found.returns)} returns to "
        f"a module the call had left (none allowed), {len(found.crossed)} modules crossed",
        "  modules, in the order the path first enters them:",
        *(f"    {short(m)}" for m in found.crossed),
        f"  deepest call chain, receiving ({len(receive)}): " + " > ".join(map(short, receive)),
        f"  deepest call chain, drawing ({len(redraw)}):   " + " > ".join(map(short, redraw)),
    ]
    if found.returns:
        lines.append("  returns to a module the call had left:")
        lines += [f"    {' > '.join(map(short, chain))}" for chain in found.returns]
    return "\n".join(lines)


def main() -> int:
    found = figures(asyncio.run(_trace()))
    print(report(found))
    return 1 if found.returns else 0


if __name__ == "__main__":
    sys.exit(main())
