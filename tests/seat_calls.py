"""Calls from node/ into protocol/ per input of a real seat: the seat is a shell.

    python -m tests.structure --calls

Two real nodes (bots, on 127.0.0.1, without zeroconf) play in this process. Once the game
is on, ``sys.setprofile`` watches the seats' three loops (node/seat/local.py): a batch of
messages received (``_receive_loop``: each message is one input), a tick (``_timer_loop``)
and the duties (``_duty_loop``: a bot's moves, the player's own part in the deal), and a
person's action (a key at the table, ``NodeSession.play``; a lobby step,
``LocalSeat.submit``). Each stretch a loop runs between two awaits is one
step; every call made from a frame in ``dutchblitz.node`` straight into a function of
``dutchblitz.protocol`` on that step is counted, with its caller and callee. The screen's
reading (what the session and its notices do when the seat's watchers and listeners tell
them of a change) is not the seat's and is left out.

The guard (``MAX_CALLS_PER_INPUT``): at most 3 such calls per input; a batch of ``n``
messages is ``n`` inputs. The seat makes one call into its ``SeatMachine`` per input and
carries out what comes back; a step over the limit fails, with the calls it made.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from tests.message_path import PROJECT, module_of

MAX_CALLS_PER_INPUT = 3
WAIT_S = 60.0
SHELL = PROJECT + "node.seat.local"
LOOPS = {"_receive_loop": "receive", "_timer_loop": "tick", "_duty_loop": "duties"}
SESSION = PROJECT + "node.session"
# A person's action: a key at the table (``NodeSession.play``), a lobby step (``submit``).
ACTIONS = {(SESSION, "play"), (SHELL, "submit")}
READERS = (SESSION, PROJECT + "node.notices", PROJECT + "node.subscribers")
# Where the seat hands over to the screen's readers: its watchers and its listeners.
HANDOFFS = {(SHELL, "_notify"), (PROJECT + "node.seat.carrier", "_report")}


@dataclass
class Step:
    """One stretch of a loop between two awaits, or one action: its calls into protocol/."""

    kind: str
    messages: int = 0  # messages received in it (a receive step)
    calls: Counter[str] = field(default_factory=Counter)

    @property
    def inputs(self) -> int:
        return max(self.messages, 1)

    @property
    def count(self) -> int:
        return sum(self.calls.values())


@dataclass
class ShellCalls:
    """A profile function that counts the calls from node/ into protocol/ per step."""

    steps: list[Step] = field(default_factory=list)
    _open: dict[int, Step] = field(default_factory=dict)  # loop or action frame -> its step

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        code = frame.f_code
        where = (module_of(frame), code.co_name)
        if (where[0] == SHELL and code.co_name in LOOPS) or where in ACTIONS:
            if event == "call":  # a loop resumed, or an action begun: a new step
                step = Step(LOOPS.get(code.co_name, "action") if where[0] == SHELL else "action")
                self._open[id(frame)] = step
                self.steps.append(step)
            elif event == "return":
                self._open.pop(id(frame), None)
            return
        if event != "call" or not module_of(frame).startswith(PROJECT + "protocol"):
            return
        caller = frame.f_back
        if caller is None or not module_of(caller).startswith(PROJECT + "node"):
            return
        step, readers = self._step_of(caller)
        if step is None or readers:
            return
        if module_of(frame) == PROJECT + "protocol.seat.machine" and code.co_name == "receive":
            step.messages += 1
        step.calls[f"{module_of(caller)}.{caller.f_code.co_name} -> {code.co_name}"] += 1

    def _step_of(self, frame: FrameType | None) -> tuple[Step | None, bool]:
        """The open step whose loop or action is on the stack, and whether a reader of the
        screen's, called by the seat's watchers or listeners, is between (its calls are
        not the seat's)."""
        readers = False
        while frame is not None:
            step = self._open.get(id(frame))
            if step is not None:
                return step, readers
            back = frame.f_back
            handed = back is not None and (module_of(back), back.f_code.co_name) in HANDOFFS
            readers = readers or (handed and module_of(frame) in READERS)
            frame = back
        return None, readers


def over(steps: list[Step]) -> list[Step]:
    """The steps over ``MAX_CALLS_PER_INPUT`` calls per input."""
    return [step for step in steps if step.count > MAX_CALLS_PER_INPUT * step.inputs]


def report(steps: list[Step]) -> str:
    counted = [step for step in steps if step.count]
    lines = [f"calls from node/ into protocol/ per input (at most {MAX_CALLS_PER_INPUT}):"]
    for kind in ("receive", "tick", "duties", "action"):
        mine = [step for step in counted if step.kind == kind]
        if not mine:
            lines.append(f"  {kind}: not seen")
            continue
        worst = max(mine, key=lambda step: step.count / step.inputs)
        lines.append(
            f"  {kind}: {len(mine)} steps, at most {worst.count} calls for {worst.inputs} "
            f"input(s): " + ", ".join(f"{n} x {call}" for call, n in worst.calls.items())
        )
    for step in over(steps):
        lines.append(f"  OVER: {step.kind} ({step.inputs} inputs): {dict(step.calls)}")
    return "\n".join(lines)


async def _count() -> list[Step]:
    from dutchblitz.node.runtime import Node, Options
    from dutchblitz.node.session import NodeSession
    from dutchblitz.protocol.games.blitz.intents import Action, Intent
    from dutchblitz.protocol.table.state import Phase
    from dutchblitz.protocol.wire.messages import Ready

    table = f"calls-{os.getpid()}"
    with tempfile.TemporaryDirectory(prefix="blitz-calls-") as root:
        common = {"table": table, "interface": "127.0.0.1", "discovery": False}
        common |= {"bot": True, "headless": True, "players": 2, "target": 8}
        first = Node(Options(name="first", state_dir=Path(root) / "a", **common))
        await first.start()
        assert first.door is not None and first.main is not None
        door = first.door.endpoint.removeprefix("tcp://")
        second = Node(Options(name="second", state_dir=Path(root) / "b", peers=(door,), **common))
        await second.start()
        calls = ShellCalls()
        try:
            await _until(lambda: _playing(first, Phase.PLAYING), "the game to start")
            sys.setprofile(calls)
            await _until(lambda: _seen(calls.steps), "a message, a tick and a move")
            session = NodeSession(first)
            for action in (Action.FLIP, Action.POST_TO_CENTRE):  # keys at the table
                session.play(Intent(action))
            first.main.submit(Ready(True))  # a lobby step (refused in play: an input still)
        finally:
            sys.setprofile(None)
            await second.stop(goodbye=False)
            await first.stop(goodbye=False)
    return calls.steps


def _seen(steps: list[Step]) -> bool:
    kinds = {step.kind for step in steps if step.count}
    received = any(step.kind == "receive" and step.messages for step in steps)
    return received and {"tick", "duties"} <= kinds


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


def count() -> list[Step]:
    return asyncio.run(_count())


def main() -> int:
    steps = count()
    print(report(steps))
    return 1 if over(steps) else 0


if __name__ == "__main__":
    sys.exit(main())
