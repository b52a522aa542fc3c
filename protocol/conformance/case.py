"""One conformance case: a named check of one requirement of the spec."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Case:
    """``run`` returns None when the case passes, or a message saying what went wrong.

    ``spec_id`` names the requirement it checks: ``P-12`` in spec/protocol.md,
    ``R-7`` in spec/rules.md.
    """

    spec_id: str
    name: str
    run: Callable[[], str | None]
