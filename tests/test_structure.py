"""The structure figures (``python -m tests.structure``) may only get better.

Each figure over its limit today is listed here; anything else over a limit fails,
and so does an entry here that is no longer over (strike it off).
"""

from __future__ import annotations

import pytest

from tests.structure import MAX_METHODS, main, methods_per_class, over_limits

# (figure, where) for every figure still over its limit; limits by concept.
STILL_OVER: set[tuple[str, str]] = set()


def _key(figure: str, where: str) -> tuple[str, str]:
    return (figure, where.split(":")[0]) if figure == "limit" else (figure, where)


def test_no_figure_gets_worse() -> None:
    over = {_key(o.figure, o.where) for o in over_limits()}
    assert over <= STILL_OVER, f"over a limit: {sorted(over - STILL_OVER)}"


def test_what_is_fixed_is_struck_off() -> None:
    over = {_key(o.figure, o.where) for o in over_limits()}
    assert over >= STILL_OVER, f"no longer over, strike off: {sorted(STILL_OVER - over)}"


def test_the_replica_is_split_by_concern() -> None:
    parts = ("core.py:Replica", "order.py:Order", "liveness.py:Liveness")
    parts += ("membership.py:Membership", "repair.py:Repairs", "senders.py:Senders")
    counts = dict(methods_per_class())
    for part in parts:
        assert counts[f"protocol/{part}"] <= MAX_METHODS, part


def test_the_command_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    main([])
    out = capsys.readouterr().out
    assert "classes over 25 methods" in out and "limits defined more than once" in out
